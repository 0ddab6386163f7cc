import Foundation

/// What Isobar wrote into the output folder, kept in `.isobar-manifest.json` there:
/// each path with the slug of the city it belongs to (none for site-wide files). Pruning
/// removes only files listed here, so files Isobar did not write are never touched.
public struct Manifest: Codable, Sendable, Equatable {
    public static let fileName = ".isobar-manifest.json"

    public var version = 1
    /// Relative path → owning city slug, or "" for the index, feeds and assets.
    public var files: [String: String] = [:]

    public init(files: [String: String] = [:]) {
        self.files = files
    }

    /// The previous run's manifest, or an empty one (first run, or an unreadable file:
    /// then nothing is pruned, which is the safe side).
    public static func load(from output: URL) -> Manifest {
        let url = output.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return Manifest() }
        return manifest
    }

    public func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
