import Foundation

/// `map:` — the places' map drawn over raster tiles from an XYZ tile server, fetched at
/// build time and published with the site (README, "Maps"). Without the block, or with
/// `map: off`, the map is Isobar's own drawing of the pins, which needs no network.
public struct MapSettings: Sendable, Equatable {
    /// The server's URL template: `{z}`, `{x}` and `{y}`, and `{r}` where the server
    /// offers high-DPI tiles (`@2x`).
    public var tiles: TileURLTemplate
    /// Shown on the map, linked to `attributionURL`: the tiles' licence asks for it.
    public var attribution: String
    public var attributionURL: URL?
    /// The closest zoom a map may use (a city whose places lie close together, or one place).
    public var maxZoom: Int
    /// At most this many tile requests a run: a new site's maps come in over a few runs,
    /// never as a bulk download.
    public var maxTilesPerRun: Int
    /// Tile requests a minute, and at once: the tile server's own politeness, apart from
    /// the forecasts' (`openweather.requests_per_minute`).
    public var requestsPerMinute: Int
    public var concurrency: Int

    /// The OpenStreetMap Foundation's server and what its tile usage policy asks.
    public static let openStreetMap = MapSettings(
        tiles: TileURLTemplate(checked: "https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
        attribution: "© OpenStreetMap contributors", attributionURL: URL(string: "https://www.openstreetmap.org/copyright"),
        maxZoom: 17, maxTilesPerRun: 60, requestsPerMinute: 60, concurrency: 2)

    /// A tile is kept at least this long, whatever its server's caching headers say
    /// (OpenStreetMap's tile usage policy: "alternatively a minimum of 7 days").
    public static let minimumCacheAge: TimeInterval = 7 * 86_400
}

extension ConfigLoader {
    static let mapKeys = ["tiles", "attribution", "attribution_url", "max_zoom", "max_tiles_per_run", "requests_per_minute", "concurrency"]

    /// `map: off`, or a block whose keys default to OpenStreetMap's server. A server other
    /// than OpenStreetMap's needs its own attribution (its licence is not known here).
    static func loadMap(_ value: YAMLValue?) throws -> MapSettings? {
        guard let value else { return nil }
        if let text = try? value.string() {
            guard text == "off" else {
                throw value.error("\"\(text)\" is not `off` or a block", hint: "write `map: off` for the drawing, or `map: { tiles: \"https://tile.openstreetmap.org/{z}/{x}/{y}.png\" }` (README, \"Maps\")")
            }
            return nil
        }
        let map = try value.mapping(allowed: mapKeys)
        var settings = MapSettings.openStreetMap
        if let tiles = map["tiles"] {
            settings.tiles = try TileURLTemplate.parse(tiles)
            if settings.tiles.host != MapSettings.openStreetMap.tiles.host {
                guard map["attribution"] != nil else {
                    throw tiles.error("a tile server other than OpenStreetMap's needs its attribution",
                                      hint: "add `attribution: \"© …\"` (and `attribution_url:`) as the server's terms ask")
                }
                settings.attributionURL = nil
            }
        }
        if let text = map["attribution"] {
            let line = try text.nonEmptyString()
            guard !line.contains("\n") else { throw text.error("the attribution is one line", hint: "e.g. © OpenStreetMap contributors") }
            settings.attribution = line
        }
        if let url = map["attribution_url"] { settings.attributionURL = try httpURL(url) }
        func number(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let value = map[key] else { return nil }
            let number = try value.int()
            guard range.contains(number) else { throw value.error("must be between \(range.lowerBound) and \(range.upperBound)") }
            return number
        }
        settings.maxZoom = try number("max_zoom", 1...22) ?? settings.maxZoom
        settings.maxTilesPerRun = try number("max_tiles_per_run", 1...10_000) ?? settings.maxTilesPerRun
        settings.requestsPerMinute = try number("requests_per_minute", 1...6_000) ?? settings.requestsPerMinute
        settings.concurrency = try number("concurrency", 1...8) ?? settings.concurrency
        return settings
    }
}
