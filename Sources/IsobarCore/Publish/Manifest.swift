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
        public var card: IndexPageModel.Card
        public var dataTime: Date
        public var alerts: [AlertsFeed.Item]
        public var status: CityOutcome.Status
        /// Where the data is from (`openweather/onecall3`, `open-meteo`…), for attribution.
        public var source: String
    }

    public var version = 2
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
        guard let manifest = try? JSONValueDecoder.decode(Manifest.self, from: data) else { return Manifest() }
        return manifest
    }

    public func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(self)
    }
}
