import Foundation

/// What Isobar wrote into the output folder, kept in `.isobar-manifest.json` there:
/// each path with the slug of the city it belongs to (none for site-wide files). Pruning
/// removes only files listed here, so files Isobar did not write are never touched.
public struct Manifest: Codable, Sendable, Equatable {
    public static let fileName = ".isobar-manifest.json"

    /// What a city's pages were built from, and what the site-wide pages need of it, so
    /// that an unchanged city is not rendered again (`SiteBuilder` compares fingerprints).
    /// Size and modification time of a file Isobar wrote, to notice a page changed by
    /// hand (or by anything else) since, as `make` and rsync do.
    public struct Stamp: Codable, Sendable, Equatable {
        public var size: Int
        public var modified: Int64

        public init(size: Int, modified: Int64) {
            self.size = size
            self.modified = modified
        }

        init(_ status: stat) {
            self.init(size: Int(status.st_size), modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        }
    }

    public struct City: Codable, Sendable, Equatable {
        public var fingerprint: String
        /// The city's files as written, by relative path.
        public var stamps: [String: Stamp]
        /// What the site-wide pages show of its forecast (`Presenter.indexExcerpt`: the
        /// place, now, today, the next hour, the alerts), so that they list a city this run
        /// did not rebuild. Data, not a page's text: the index is presented from it anew.
        public var forecast: Forecast
        public var status: CityOutcome.Status

        public var dataTime: Date { forecast.current.time }
        /// Where the data is from (`openweather/onecall3`, `open-meteo`…), for attribution.
        public var source: String { forecast.source.api }

        /// Its alerts as the feed lists them.
        func alerts(of city: CityConfig) -> [AlertsFeed.Item] {
            forecast.alerts.enumerated().map { AlertsFeed.Item(city: city.name, slug: city.slug, alert: $1, index: $0) }
        }
    }

    /// 4: a city keeps its forecast's excerpt, no longer its index cards.
    static let currentVersion = 4
    public var version = currentVersion
    /// Relative path → owning city slug, or "" for the index, feeds and assets.
    public var files: [String: String] = [:]
    public var cities: [String: City] = [:]

    public init(files: [String: String] = [:], cities: [String: City] = [:]) {
        self.files = files
        self.cities = cities
    }

    /// The previous run's manifest, or an empty one (first run, or an unreadable file:
    /// then nothing is pruned, which is the safe side).
    public static func load(from output: URL) -> Manifest {
        let url = output.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return Manifest() }
        guard let manifest = try? Manifest(json: JSONValueDecoder.tree(data)) else { return Manifest() }
        return manifest
    }

    /// Read by hand, like `data()` writes it: a rebuild of 10,000 cities spent a tenth of
    /// its time decoding the manifest through `Codable`, on one core. The same keys as the
    /// `Codable` form (ManifestTests checks the two agree).
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        files = try fields.value("files") { value throws(DecodingError) in try JSONFields.dictionary(value, JSONFields.string) }
        // An older version's cities are not read (every city is built again), but its
        // files are still Isobar's to prune.
        guard try fields.int("version") == Self.currentVersion else { return }
        cities = try fields.value("cities") { value throws(DecodingError) in try JSONFields.dictionary(value, City.init(json:)) }
    }


    /// The manifest as JSON, written by hand: `JSONEncoder` took a quarter of a second for
    /// 10,000 cities, on the part of the run that uses one core. The keys are those of the
    /// `Codable` form, so `load` reads it back (a test round-trips it).
    public func data() -> Data {
        let json = JSONText()
        json.object {
            json.field("cities") {
                json.object { for slug in cities.keys.sorted() { json.field(named: slug) { Self.write(cities[slug]!, to: json) } } }
            }
            json.field("files") {
                json.object { for path in files.keys.sorted() { json.field(named: path) { json.string(files[path]!) } } }
            }
            json.field("version") { json.integer(Int64(version)) }
        }
        json.bytes.append(0x0A)
        return Data(json.bytes)
    }

    private static func write(_ city: City, to json: JSONText) {
        json.object {
            json.field("fingerprint", city.fingerprint)
            json.field("forecast") { json.forecast(city.forecast) }
            json.field("stamps") {
                json.object {
                    for path in city.stamps.keys.sorted() {
                        let stamp = city.stamps[path]!
                        json.field(named: path) {
                            json.object {
                                json.field("modified") { json.integer(stamp.modified) }
                                json.field("size") { json.integer(Int64(stamp.size)) }
                            }
                        }
                    }
                }
            }
            json.field("status", city.status.rawValue)
        }
    }
}

extension Manifest.City {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        fingerprint = try fields.string("fingerprint")
        stamps = try fields.value("stamps") { value throws(DecodingError) in
            try JSONFields.dictionary(value) { stamp throws(DecodingError) in
                let parts = try JSONFields(stamp)
                return Manifest.Stamp(size: try parts.int("size"), modified: Int64(try parts.int("modified")))
            }
        }
        // The forecast through its `Codable` form, as forecast.json reads back.
        forecast = try fields.value("forecast") { value throws(DecodingError) in
            do {
                return try JSONValueDecoder.decode(Forecast.self, fromTree: value)
            } catch let error as DecodingError {
                throw error
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(error)"))
            }
        }
        let status = try fields.string("status")
        guard let known = CityOutcome.Status(rawValue: status) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [JSONPathKey("status")], debugDescription: "unknown status \(status)"))
        }
        self.status = known
    }
}
