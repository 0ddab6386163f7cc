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
        guard let names = Self.names(relativePath), case .folder(let folder, _)? = try? walk(names, create: false) else { return nil }
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
        case .folder(let folder, _):
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
        let names = try checkedNames(relativePath)
        let folder: Int32, isNew: Bool
        switch try walk(names, create: true) {
        case .folder(let found, let made): (folder, isNew) = (found, made)
        case .link(let relative): throw refusal(relative)
        case .missing:  // made a moment ago, gone now: someone else is at work in the folder
            throw IsobarError(step: step, path: path + "/" + relativePath, message: "cannot create the folder: it vanished as it was made")
        }
        defer { release(folder) }
        let name = names[names.count - 1]
        // In a folder made just now there is nothing to compare with; skipping the stat of
        // a name that is not there also spares a wait on the parent folder's lock while the
        // other core creates a city folder beside it.
        var status = stat()
        if !isNew, fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            // Renaming over a link would replace it: a link Isobar did not make is left as it is.
            if Self.isLink(status) { throw refusal(relativePath) }
            // The size first, so a changed page is usually told apart without reading it.
            if keepingEqual, Int(status.st_size) == data.withUnsafeBytes(\.count),
               let contents = Self.contents(name, in: folder), Self.same(contents, data) { return (status, false) }
        }
        return (try AtomicFile.write(data, in: folder, name: name, path: path + "/" + relativePath, modified: modified, step: step), true)
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
        case .folder(let found, _): folder = found
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
        /// In the open folder that holds the file (`release` it); `isNew` when that
        /// folder was made by this walk.
        case folder(Int32, isNew: Bool)
        /// A folder on the way is missing (and was not to be made).
        case missing
        /// A name on the way, relative to the root, is a symbolic link.
        case link(String)
    }

    /// Opens each folder on the way to the file's last name, not following links;
    /// makes missing ones when `create`.
    private func walk(_ names: [String], create: Bool) throws -> Walk {
        var folder = root, isNew = false
        for depth in 0..<(names.count - 1) {
            let name = names[depth]
            // mkdir(2) first: the folder usually exists or only its last level is missing.
            // It never follows a link in the last name: a link there is EEXIST.
            var made = false
            if create {
                if mkdirat(folder, name, 0o777) == 0 { made = true } else if errno != EEXIST {
                    let reason = String(cString: strerror(errno))
                    release(folder)
                    throw IsobarError(step: step, path: path + "/" + names[0...depth].joined(separator: "/"), message: "cannot create the folder: \(reason)")
                }
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
            (folder, isNew) = (next, made)
        }
        return .folder(folder, isNew: isNew)
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

    /// The file's bytes, or nil when it cannot be read; a link is not followed.
    /// Whether a file's bytes are these, compared as `Data`'s `==` compares (`memcmp`).
    private static func same(_ file: Data, _ bytes: some ContiguousBytes) -> Bool {
        file.withUnsafeBytes { file in
            bytes.withUnsafeBytes { file.count == $0.count && (file.isEmpty || memcmp(file.baseAddress!, $0.baseAddress!, file.count) == 0) }
        }
    }

    private static func contents(_ name: String, in folder: Int32) -> Data? {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        return try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data()
    }
}
