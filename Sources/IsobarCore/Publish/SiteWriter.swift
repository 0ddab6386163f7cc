import Foundation

/// Writes the site into the output folder. Each file goes to a hidden temporary name
/// beside its target and is renamed into place, so a reader (or rsync) never sees half
/// a file; a file whose bytes are unchanged is left alone, so its mtime stays. Nothing
/// is written, renamed or removed through a symbolic link (see `OwnedFolder`).
public final class SiteWriter: @unchecked Sendable {
    // @unchecked: the lists are only touched under `lock`; each file is written by one
    // task only (cities own distinct paths), so the writes themselves need no lock.
    public let output: URL
    private let folder: OwnedFolder
    private let lock = NSLock()
    private var writtenPaths: [String] = []
    private var unchangedPaths: [String] = []
    private var removedPaths: [String] = []
    /// Files pruning did not remove because of a link on their way: path → the link.
    private var linkedPaths: [(path: String, link: String)] = []

    public var written: [String] { lock.withLock { writtenPaths } }
    public var unchanged: [String] { lock.withLock { unchangedPaths } }
    public var removed: [String] { lock.withLock { removedPaths } }

    /// `output` must exist (`OutputLock` makes it).
    public init(output: URL) throws {
        self.output = output.standardizedFileURL
        folder = try OwnedFolder(self.output, step: .publish)
    }

    /// The file's size and modification time (nanoseconds), or nil when it is missing
    /// (or reached through a link, so that a city behind one is built again and refused).
    public func stamp(_ relativePath: String) -> Manifest.Stamp? {
        folder.status(relativePath).map(Manifest.Stamp.init)
    }

    /// `relativePath` uses `/` and must stay inside the output folder. Returns the file's
    /// stamp afterwards (saving the manifest a stat per file).
    @discardableResult
    public func write(_ data: some ContiguousBytes, to relativePath: String) throws -> Manifest.Stamp {
        try write([(relativePath, data)])[relativePath]!
    }

    /// Writes a group of files (a city's) only when none is behind a symbolic link or is
    /// one: all are checked before any is written, so a link leaves the group as it was.
    /// Returns each file's stamp by its path.
    public func write(_ files: [(path: String, bytes: any ContiguousBytes)]) throws -> [String: Manifest.Stamp] {
        let results = try folder.write(files, keepingEqual: true)
        var stamps: [String: Manifest.Stamp] = [:]
        lock.withLock {
            for (file, result) in zip(files, results) {
                result.changed ? writtenPaths.append(file.path) : unchangedPaths.append(file.path)
                stamps[file.path] = Manifest.Stamp(result.status)
            }
        }
        return stamps
    }

    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> Manifest.Stamp {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Throws the error naming the first symbolic link on the way to any of these files
    /// (the site-wide ones, checked before a run writes anything).
    public func refuseLinks(on relativePaths: [String]) throws {
        for relativePath in relativePaths {
            if let link = try folder.link(on: relativePath) { throw folder.refusal(link) }
        }
    }

    /// Removes a file Isobar wrote earlier, and its folder when that is left empty. A file
    /// behind a link (or that is one) is left alone; `pruningWarnings` names it.
    public func remove(_ relativePath: String) throws {
        switch try folder.remove(relativePath) {
        case .removed: lock.withLock { removedPaths.append(relativePath) }
        case .missing: break
        case .leftAlone(let link): lock.withLock { linkedPaths.append((relativePath, link)) }
        }
    }

    /// One warning per link that kept pruning from removing files, naming them.
    public var pruningWarnings: [String] {
        let linked = lock.withLock { linkedPaths }
        return Dictionary(grouping: linked, by: \.link).keys.sorted().map { link in
            let path = folder.path + "/" + link
            let files = linked.filter { $0.link == link }.map(\.path).sorted().joined(separator: ", ")
            return "\(path) \(OwnedFolder.describeLink(path)); not pruned: \(files)\n"
                + "  hint: Isobar deletes nothing through a link it did not make; remove the link yourself when it is no longer needed"
        }
    }
}
