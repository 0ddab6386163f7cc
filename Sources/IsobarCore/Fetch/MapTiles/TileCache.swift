import Foundation

/// Map tiles kept in the cache folder, one server's apart from another's:
/// `<cache>/_tiles/<server>/<z>/<x>/<y>.<ext>`, each beside `<y>.json`, what its server
/// said of it: until when it is fresh, and the validators a conditional request repeats.
struct TileCache: Sendable {
    /// What the cache keeps of a tile besides its bytes.
    struct Entry: Codable, Equatable {
        /// Fresh until then: the later of the server's `Cache-Control: max-age`/`Expires`
        /// and `MapSettings.minimumCacheAge` after it was fetched or last confirmed.
        var freshUntil: Date
        var etag: String?
        var lastModified: String?

        enum CodingKeys: String, CodingKey {
            case freshUntil = "fresh_until"
            case etag = "ETag"
            case lastModified = "Last-Modified"
        }
    }

    let root: URL
    let fileExtension: String

    /// The server's folder: its host, and a digest of the whole template (two templates
    /// on one host are two sets of tiles).
    init(cacheDirectory: URL, template: TileURLTemplate) {
        var digest = Fingerprint()
        digest.add(template.text)
        let host = template.host.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        root = cacheDirectory.appendingPathComponent("_tiles").appendingPathComponent("\(host)-\(digest.value.prefix(12))")
        fileExtension = template.fileExtension
    }

    func file(_ tile: MapFrame.Tile) -> URL { root.appendingPathComponent(tile.path + "." + fileExtension) }

    func entry(_ tile: MapFrame.Tile) -> Entry? {
        guard FileManager.default.fileExists(atPath: file(tile).path),
            let data = FileManager.default.contents(atPath: root.appendingPathComponent(tile.path + ".json").path)
        else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(Entry.self, from: data)
    }

    /// The image, then what its server said of it: a run stopped between the two leaves an
    /// entry of the older image, whose validators then get a full answer, never a 304.
    func save(_ tile: MapFrame.Tile, image: Data?, entry: Entry) throws {
        let folder = try OwnedFolder(root, step: .fetch, create: true)
        if let image { _ = try folder.write(image, to: tile.path + "." + fileExtension) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        _ = try folder.write(try encoder.encode(entry), to: tile.path + ".json")
    }

    /// How long an answer is fresh: the server's `Cache-Control: max-age` (else its
    /// `Expires`), never less than the minimum the tile usage policy asks.
    static func entry(for response: HTTPResponse, now: Date, previous: Entry?) -> Entry {
        var lifetime: TimeInterval = 0
        if let control = response.headers["Cache-Control"], let maxAge = maxAge(control) {
            lifetime = maxAge
        } else if let expires = response.headers["Expires"].flatMap(CacheHeaders.httpDate) {
            lifetime = expires.timeIntervalSince(now)
        }
        return Entry(freshUntil: now.addingTimeInterval(max(lifetime, MapSettings.minimumCacheAge)),
                     etag: response.headers["ETag"] ?? previous?.etag,
                     lastModified: response.headers["Last-Modified"] ?? previous?.lastModified)
    }

    static let keptHeaders = ["Cache-Control", "Expires", "ETag", "Last-Modified"]

    /// `max-age=N` of a `Cache-Control` header, in seconds.
    static func maxAge(_ control: String) -> TimeInterval? {
        for directive in control.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = TimeInterval(parts[1]) { return seconds }
        }
        return nil
    }
}
