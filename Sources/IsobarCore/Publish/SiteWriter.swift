import Foundation

/// Writes the site into the output folder. Each file goes to a hidden temporary name
/// beside its target and is renamed into place, so a reader (or rsync) never sees half
/// a file; a file whose bytes are unchanged is left alone, so its mtime stays.
public final class SiteWriter: @unchecked Sendable {
    // @unchecked: the lists are only touched under `lock`; each file is written by one
    // task only (cities own distinct paths), so the writes themselves need no lock.
    public let output: URL
    private let lock = NSLock()
    private var writtenPaths: [String] = []
    private var unchangedPaths: [String] = []
    private var removedPaths: [String] = []
    private let manager = FileManager.default

    public var written: [String] { lock.withLock { writtenPaths } }
    public var unchanged: [String] { lock.withLock { unchangedPaths } }
    public var removed: [String] { lock.withLock { removedPaths } }

    /// `output` as a path, made once: a no-change rebuild stats every page, and going
    /// through `URL` for each cost more than the stat.
    private let outputPath: String

    public init(output: URL) {
        self.output = output.standardizedFileURL
        self.outputPath = self.output.path
    }

    /// The file's size and modification time (nanoseconds), or nil when it is missing.
    public func stamp(_ relativePath: String) -> Manifest.Stamp? {
        guard Self.isInside(relativePath) else { return nil }
        var status = stat()
        guard stat(outputPath + "/" + relativePath, &status) == 0 else { return nil }
        return Manifest.Stamp(status)
    }

    /// `relativePath` uses `/` and must stay inside the output folder. Returns the file's
    /// stamp afterwards (saving the manifest a stat per file).
    @discardableResult
    public func write(_ data: Data, to relativePath: String) throws -> Manifest.Stamp {
        let target = try destination(for: relativePath)
        // In a folder made just now there is nothing to compare with; skipping the stat of
        // a name that is not there also spares a wait on the parent folder's lock while the
        // other core creates a city folder beside it.
        let folderIsNew = try AtomicFile.makeFolder(target.deletingLastPathComponent(), step: .publish)
        if !folderIsNew, let existing = Self.sameBytes(data, at: target) {
            lock.withLock { unchangedPaths.append(relativePath) }
            return Manifest.Stamp(existing)
        }
        let status = try AtomicFile.write(data, to: target, step: .publish, folderExists: true)
        lock.withLock { writtenPaths.append(relativePath) }
        return Manifest.Stamp(status)
    }

    /// The file's status when it already holds exactly these bytes; the size is checked
    /// first, so a changed page is usually told apart without reading it.
    static func sameBytes(_ data: Data, at target: URL) -> stat? {
        var status = stat()
        guard stat(target.path, &status) == 0, Int(status.st_size) == data.count,
            FileManager.default.contents(atPath: target.path) == data
        else { return nil }
        return status
    }

    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> Manifest.Stamp {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Every regular file below `source`, read into memory, to be written verbatim under
    /// `relativeFolder` (static assets: the theme's CSS, icons, images). Hidden files are
    /// skipped. Read before anything is written, so an unreadable asset stops the run
    /// while the site is still untouched. A symbolic link is published only when it leads
    /// to a regular file inside `source`; one that leads outside (`x.png -> /etc/shadow`)
    /// would publish that file to the world, so it is skipped and `warn` says so.
    public static func folderContents(
        _ source: URL, under relativeFolder: String, warn: (String) -> Void = { _ in }
    ) throws -> [(path: String, content: Data)] {
        let manager = FileManager.default
        var files: [(path: String, content: Data)] = []
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: source.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw IsobarError(step: .publish, path: source.path, message: "the public folder does not exist",
                              hint: "set `public:` in the config to the theme's static files")
        }
        let names = (manager.enumerator(atPath: source.path)?.compactMap { $0 as? String } ?? []).sorted()
        let inside = source.resolvingSymlinksInPath().path + "/"
        for relative in names where !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let url = source.appendingPathComponent(relative)
            var status = stat()
            if lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
               !url.resolvingSymlinksInPath().path.hasPrefix(inside) {
                warn("\(url.path): a symbolic link that leads outside the public folder was not published (it would make that file public)")
                continue
            }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard let data = manager.contents(atPath: url.path) else {
                throw IsobarError(step: .publish, path: url.path, message: "cannot read the static file")
            }
            files.append(("\(relativeFolder)/\(relative)", data))
        }
        return files
    }

    /// Removes a file Isobar wrote earlier, and its folder when that is left empty.
    public func remove(_ relativePath: String) throws {
        let target = try destination(for: relativePath)
        guard manager.fileExists(atPath: target.path) else { return }
        do {
            try manager.removeItem(at: target)
        } catch {
            throw IsobarError(step: .publish, path: target.path, message: "cannot remove: \(error.localizedDescription)")
        }
        lock.withLock { removedPaths.append(relativePath) }
        var folder = target.deletingLastPathComponent().standardizedFileURL
        while folder.path != output.path, folder.path.hasPrefix(output.path),
            (try? manager.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
        {
            try? manager.removeItem(at: folder)
            folder = folder.deletingLastPathComponent().standardizedFileURL
        }
    }

    private func destination(for relativePath: String) throws -> URL {
        guard Self.isInside(relativePath) else {
            throw IsobarError(step: .publish, path: relativePath, message: "refusing to write outside the output folder")
        }
        try LinkGuard.check(relativePath, under: outputPath, step: .publish)
        return output.appendingPathComponent(relativePath, isDirectory: false)  // no stat to find out
    }

    /// A relative path of plain names: no `..`, `.` or empty part (so no leading `/`).
    private static func isInside(_ relativePath: String) -> Bool {
        !relativePath.isEmpty
            && !relativePath.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }
}
