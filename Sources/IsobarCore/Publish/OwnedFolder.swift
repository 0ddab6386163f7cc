import Foundation

/// A folder Isobar writes and prunes — the output folder, the response cache — entered
/// only through real folders. Isobar never makes a symbolic link in one, so a link on a
/// path it writes or removes was put there by someone else and may lead anywhere
/// (`_site/london-gb -> /home/me`): it is refused, never followed, never removed. The
/// root itself may be a link (`output:` naming a link to `/var/www/weather` is the
/// user's own choice).
///
/// Paths are walked one name at a time from a descriptor of the root with
/// `openat(O_NOFOLLOW)`, so no link can be swapped in between a check and a write.
final class OwnedFolder: @unchecked Sendable {
    // @unchecked: `root` is opened in init and closed in deinit; the *at calls that use
    // it may run on any thread at once.
    let path: String
    let step: BuildStep
    private let root: Int32

    /// Opens the folder; when `create`, makes it first (with any missing folders above it).
    init(_ url: URL, step: BuildStep, create: Bool = false) throws {
        path = url.standardizedFileURL.path
        self.step = step
        if create { try AtomicFile.makeFolder(url, step: step) }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw IsobarError(step: step, path: path, message: "cannot open the folder: \(String(cString: strerror(errno)))")
        }
        root = descriptor
    }

    deinit { close(root) }

    /// The file's status, links not followed: nil when it is missing, is a link, or a
    /// name on the way to it is not a real folder.
    func status(_ relativePath: String) -> stat? {
        guard let names = Self.names(relativePath), case .folder(let folder)? = try? walk(names, create: false) else { return nil }
        defer { release(folder) }
        var status = stat()
        guard fstatat(folder, names[names.count - 1], &status, AT_SYMLINK_NOFOLLOW) == 0, !Self.isLink(status) else { return nil }
        return status
    }

    /// The first name on the way to the file (the file's own included) that is a
    /// symbolic link, relative to the root; nil when there is none.
    func link(on relativePath: String) throws -> String? {
        let names = try checkedNames(relativePath)
        switch try walk(names, create: false) {
        case .missing: return nil
        case .link(let relative): return relative
        case .folder(let folder):
            defer { release(folder) }
            var status = stat()
            return fstatat(folder, names[names.count - 1], &status, AT_SYMLINK_NOFOLLOW) == 0 && Self.isLink(status) ? relativePath : nil
        }
    }

    /// Writes the file atomically (see `AtomicFile`), making the folders on the way; a
    /// link on the way, or in the file's place, is refused. With `keepingEqual`, a file
    /// that already holds exactly these bytes is left alone (its mtime stays) and
    /// `changed` is false. Any contiguous bytes: a page is written from the array it was
    /// rendered into, not from a copy in a `Data`.
    @discardableResult
    func write(_ data: some ContiguousBytes, to relativePath: String, modified: Date? = nil, keepingEqual: Bool = false) throws -> (status: stat, changed: Bool) {
        try write([(relativePath, data)], modified: modified, keepingEqual: keepingEqual)[0]
    }

    /// Writes a group of files (a city's pages) as the single `write` does, but only when
    /// no link is on the way to any of them or in any one's place: all are checked before
    /// a folder is made or a file written, so a link leaves the whole group as it was.
    /// Each folder is walked once for the group; walking it for each file, and again to
    /// check each file first, was a third of a city's system calls.
    func write(_ files: [(path: String, bytes: any ContiguousBytes)], modified: Date? = nil, keepingEqual: Bool = false) throws -> [(status: stat, changed: Bool)] {
        let paths = try files.map { try checkedNames($0.path) }
        // The files' folders in the order first named, each with a file's names to walk
        // by and, once open, its descriptor (nil while it is missing); and each file's.
        var folders: [(names: [String], descriptor: Int32?)] = []
        defer { for case let descriptor? in folders.map(\.descriptor) { release(descriptor) } }
        let folderOf = try paths.map { names -> Int in
            if let known = folders.firstIndex(where: { $0.names.dropLast() == names.dropLast() }) { return known }
            switch try walk(names, create: false) {
            case .folder(let descriptor): folders.append((names, descriptor))
            case .missing: folders.append((names, nil))
            case .link(let relative): throw refusal(relative)
            }
            return folders.count - 1
        }
        // Each file's status where its folder exists. A link in a file's place is refused
        // before any file is written: renaming over it would replace a link Isobar did not
        // make. (In a folder still to be made there is nothing to compare with; not asking
        // there also spares a wait on the parent folder's lock while the other core creates
        // a city folder beside it.)
        let existing = try paths.indices.map { index -> stat? in
            var status = stat()
            guard let descriptor = folders[folderOf[index]].descriptor,
                  fstatat(descriptor, paths[index].last!, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            if Self.isLink(status) { throw refusal(files[index].path) }
            return status
        }
        for index in folders.indices where folders[index].descriptor == nil {
            switch try walk(folders[index].names, create: true) {
            case .folder(let descriptor): folders[index].descriptor = descriptor
            case .link(let relative): throw refusal(relative)
            case .missing:  // made a moment ago, gone now: someone else is at work in the folder
                throw IsobarError(step: step, path: path + "/" + folders[index].names.dropLast().joined(separator: "/"),
                                  message: "cannot create the folder: it vanished as it was made")
            }
        }
        return try files.indices.map { index in
            let descriptor = folders[folderOf[index]].descriptor!, name = paths[index].last!, bytes = files[index].bytes
            // The size first, so a changed page is usually told apart without reading it.
            if keepingEqual, let status = existing[index], Int(status.st_size) == bytes.withUnsafeBytes(\.count),
               let contents = Self.contents(name, in: descriptor), Self.same(contents, bytes) { return (status, false) }
            return (try AtomicFile.write(bytes, in: descriptor, name: name, path: path + "/" + files[index].path, modified: modified, step: step), true)
        }
    }

    enum Removal: Equatable {
        case removed
        case missing
        /// A symbolic link on the way, or the file itself being one, at this path
        /// relative to the root: nothing was removed.
        case leftAlone(link: String)
    }

    /// Removes the file, and then the folders on its way that this leaves empty. A link
    /// is never removed, nor anything reached through one.
    func remove(_ relativePath: String) throws -> Removal {
        let names = try checkedNames(relativePath)
        let folder: Int32
        switch try walk(names, create: false) {
        case .missing: return .missing
        case .link(let relative): return .leftAlone(link: relative)
        case .folder(let found): folder = found
        }
        defer { release(folder) }
        let name = names[names.count - 1]
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        if Self.isLink(status) { return .leftAlone(link: relativePath) }
        guard unlinkat(folder, name, 0) == 0 else {
            throw IsobarError(step: step, path: path + "/" + relativePath, message: "cannot remove: \(String(cString: strerror(errno)))")
        }
        // Deepest first. rmdir(2) removes only an empty folder, and a link is not one.
        for depth in stride(from: names.count - 2, through: 0, by: -1) {
            guard unlinkat(root, names[0...depth].joined(separator: "/"), AT_REMOVEDIR) == 0 else { break }
        }
        return .removed
    }

    /// The error for a link in the way of a write, naming the link and where it leads.
    func refusal(_ relativePath: String) -> IsobarError {
        Self.refusal(ofLink: path + "/" + relativePath, step: step)
    }

    static func refusal(ofLink path: String, step: BuildStep) -> IsobarError {
        IsobarError(
            step: step, path: path, message: "\(describeLink(path)), and Isobar writes nothing through a link it did not make",
            hint: "remove the link (what it leads to stays as it is); Isobar then makes a real file or folder in its place")
    }

    /// "is a symbolic link to /where/it/leads", for messages.
    static func describeLink(_ path: String) -> String {
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
        return "is a symbolic link" + (target.map { " to \($0)" } ?? "")
    }

    // MARK: Walking

    /// Where a walk towards a file ended.
    private enum Walk {
        /// In the open folder that holds the file (`release` it).
        case folder(Int32)
        /// A folder on the way is missing (and was not to be made).
        case missing
        /// A name on the way, relative to the root, is a symbolic link.
        case link(String)
    }

    /// Opens each folder on the way to the file's last name, not following links;
    /// makes missing ones when `create`.
    private func walk(_ names: [String], create: Bool) throws -> Walk {
        var folder = root
        for depth in 0..<(names.count - 1) {
            let name = names[depth]
            // mkdir(2) first: a walk that makes folders follows one that found a folder
            // missing, usually only the last level. It never follows a link in the last
            // name: a link there is EEXIST.
            if create, mkdirat(folder, name, 0o777) != 0, errno != EEXIST {
                let reason = String(cString: strerror(errno))
                release(folder)
                throw IsobarError(step: step, path: path + "/" + names[0...depth].joined(separator: "/"), message: "cannot create the folder: \(reason)")
            }
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let reason = errno
            // Linux answers ENOTDIR for a link to a folder, as for a file: ask which it is.
            var status = stat()
            let isLink = next < 0 && fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && Self.isLink(status)
            release(folder)
            guard next >= 0 else {
                let relative = names[0...depth].joined(separator: "/")
                if isLink { return .link(relative) }
                if reason == ENOENT { return .missing }
                throw IsobarError(
                    step: step, path: path + "/" + relative,
                    message: reason == ENOTDIR ? "is not a folder" : "cannot open the folder: \(String(cString: strerror(reason)))")
            }
            folder = next
        }
        return .folder(folder)
    }

    private func release(_ folder: Int32) {
        if folder != root { close(folder) }
    }

    /// The names of a relative path of plain names (`SitePath`'s rule); nil for any other path.
    static func names(_ relativePath: String) -> [String]? {
        SitePath.names(relativePath)
    }

    private func checkedNames(_ relativePath: String) throws -> [String] {
        guard let names = Self.names(relativePath) else {
            throw IsobarError(step: step, path: relativePath, message: "refusing to write outside \(path)")
        }
        return names
    }

    static func isLink(_ status: stat) -> Bool {
        (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether a file's bytes are these, compared as `Data`'s `==` compares (`memcmp`).
    private static func same(_ file: Data, _ bytes: some ContiguousBytes) -> Bool {
        file.withUnsafeBytes { file in
            bytes.withUnsafeBytes { file.count == $0.count && (file.isEmpty || memcmp(file.baseAddress!, $0.baseAddress!, file.count) == 0) }
        }
    }

    /// The file's bytes, or nil when it cannot be read; a link is not followed.
    private static func contents(_ name: String, in folder: Int32) -> Data? {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        return try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data()
    }
}
