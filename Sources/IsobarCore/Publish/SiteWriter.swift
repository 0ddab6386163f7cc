import Foundation

/// Writes the site into the output folder. Each file goes to a hidden temporary name
/// beside its target and is renamed into place, so a reader (or rsync) never sees half
/// a file; a file whose bytes are unchanged is left alone, so its mtime stays.
public struct SiteWriter {
    public let output: URL
    public private(set) var written: [String] = []
    public private(set) var unchanged: [String] = []
    private let manager = FileManager.default

    public init(output: URL) {
        self.output = output.standardizedFileURL
    }

    /// `relativePath` uses `/` and must stay inside the output folder.
    public mutating func write(_ data: Data, to relativePath: String) throws {
        let target = try destination(for: relativePath)
        if let existing = manager.contents(atPath: target.path), existing == data {
            unchanged.append(relativePath)
            return
        }
        try AtomicFile.write(data, to: target, step: .publish)
        written.append(relativePath)
    }

    public mutating func write(_ text: String, to relativePath: String) throws {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Copies every regular file below `source` verbatim under `relativeFolder`
    /// (static assets: the theme's CSS, icons, images). Hidden files are skipped.
    public mutating func copyFolder(_ source: URL, to relativeFolder: String) throws {
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: source.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw IsobarError(step: .publish, path: source.path, message: "the public folder does not exist",
                              hint: "set `public:` in the config to the theme's static files")
        }
        let files = (manager.enumerator(atPath: source.path)?.compactMap { $0 as? String } ?? []).sorted()
        for relative in files where !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let url = source.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard let data = manager.contents(atPath: url.path) else {
                throw IsobarError(step: .publish, path: url.path, message: "cannot read the static file")
            }
            try write(data, to: "\(relativeFolder)/\(relative)")
        }
    }

    private func destination(for relativePath: String) throws -> URL {
        let parts = relativePath.split(separator: "/")
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            throw IsobarError(step: .publish, path: relativePath, message: "refusing to write outside the output folder")
        }
        return output.appendingPathComponent(relativePath)
    }
}
