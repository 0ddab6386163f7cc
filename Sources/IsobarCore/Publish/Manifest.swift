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
        /// Its card on the index in each of the site's languages, by `lang` code.
        public var cards: [String: IndexPageModel.Card]
        public var dataTime: Date
        public var alerts: [AlertsFeed.Item]
        public var status: CityOutcome.Status
        /// Where the data is from (`openweather/onecall3`, `open-meteo`…), for attribution.
        public var source: String
    }

    public var version = 3
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
        version = try fields.int("version")
        files = try fields.value("files") { value throws(DecodingError) in try JSONFields.dictionary(value, JSONFields.string) }
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
            json.field("alerts") {
                json.array(city.alerts) { item in
                    json.object {
                        json.field("alert") {
                            json.object {
                                json.field("description", item.alert.description)
                                json.field("end") { json.number(item.alert.end.timeIntervalSince1970) }
                                json.field("event", item.alert.event)
                                json.field("sender", item.alert.sender)
                                json.field("start") { json.number(item.alert.start.timeIntervalSince1970) }
                                json.field("tags") { json.array(item.alert.tags) { json.string($0) } }
                            }
                        }
                        json.field("city", item.city)
                        json.field("index") { json.integer(Int64(item.index)) }
                        json.field("slug", item.slug)
                    }
                }
            }
            json.field("cards") {
                json.object { for language in city.cards.keys.sorted() { json.field(named: language) { write(city.cards[language]!, to: json) } } }
            }
            json.field("dataTime") { json.number(city.dataTime.timeIntervalSince1970) }
            json.field("fingerprint", city.fingerprint)
            json.field("source", city.source)
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

    private static func write(_ card: IndexPageModel.Card, to json: JSONText) {
        json.object {
            json.field("alertCount") { json.integer(Int64(card.alertCount)) }
            json.field("alertLabel", card.alertLabel)
            json.field("country", card.country)
            json.field("description", card.description)
            json.field("hasAlerts") { json.bool(card.hasAlerts) }
            json.field("high", card.high)
            json.field("href", card.href)
            if let icon = card.icon {
                json.field("icon") {
                    json.object {
                        json.field("alt", icon.alt)
                        json.field("src", icon.src)
                    }
                }
            }
            json.field("low", card.low)
            json.field("name", card.name)
            json.field("nowcast", card.nowcast)
            json.field("staleNote", card.staleNote)
            json.field("temperature", card.temperature)
            json.field("updated", card.updated)
        }
    }
}

extension IndexPageModel.Card {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        // A manifest written before links named the page's file holds the folder
        // (`london-gb/`), which a browser reading the site from disk shows as a listing.
        let href = try fields.string("href")
        self.init(
            name: try fields.string("name"), country: try fields.string("country"),
            href: href.hasSuffix("/") ? href + SiteLayout.index : href,
            icon: try fields.optionalValue("icon") { value throws(DecodingError) in
                let icon = try JSONFields(value)
                return CityPageModel.Icon(src: try icon.string("src"), alt: try icon.string("alt"))
            },
            temperature: try fields.string("temperature"), description: try fields.string("description"),
            high: try fields.optionalString("high"), low: try fields.optionalString("low"),
            alertCount: try fields.int("alertCount"), hasAlerts: try fields.bool("hasAlerts"),
            alertLabel: try fields.string("alertLabel"), staleNote: try fields.optionalString("staleNote"),
            nowcast: try fields.optionalString("nowcast"), updated: try fields.string("updated"))
    }
}

extension AlertsFeed.Item {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        self.init(
            city: try fields.string("city"), slug: try fields.string("slug"),
            alert: try fields.value("alert") { value throws(DecodingError) in
                let alert = try JSONFields(value)
                return WeatherAlert(
                    sender: try alert.string("sender"), event: try alert.string("event"),
                    start: Date(timeIntervalSince1970: try alert.double("start")), end: Date(timeIntervalSince1970: try alert.double("end")),
                    description: try alert.string("description"),
                    tags: try alert.value("tags") { tags throws(DecodingError) in try JSONFields.array(tags, JSONFields.string) })
            },
            index: try fields.int("index"))
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
        cards = try fields.value("cards") { value throws(DecodingError) in try JSONFields.dictionary(value, IndexPageModel.Card.init(json:)) }
        dataTime = Date(timeIntervalSince1970: try fields.double("dataTime"))
        alerts = try fields.value("alerts") { value throws(DecodingError) in try JSONFields.array(value, AlertsFeed.Item.init(json:)) }
        let status = try fields.string("status")
        guard let known = CityOutcome.Status(rawValue: status) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [JSONPathKey("status")], debugDescription: "unknown status \(status)"))
        }
        self.status = known
        source = try fields.string("source")
    }
}
