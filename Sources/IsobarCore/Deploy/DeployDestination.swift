import Foundation

/// Where a deploy writes: each file is put under a temporary name and renamed into place,
/// folders are made as needed, and a removed file's folders go when they are left empty.
/// Each worker of a deploy has a destination (a connection) of its own.
protocol DeployDestination: AnyObject {
    func upload(_ data: Data, to path: String) throws
    /// Removes the file, and its folders that this leaves empty. A file that is already
    /// gone is no error; one the server refuses to remove is.
    func remove(_ path: String) throws
    /// Removes what an upload of `path` that never finished may have left on the target
    /// (its temporary name; over SFTP, the old copy set aside). Quiet: nothing may be there.
    func discardLeftovers(of path: String)
    /// Every file under the target, by path relative to it as the server names it; a
    /// symbolic link is neither listed nor followed.
    func list() throws -> [String]
}

/// Why a transfer failed, and whether another try may succeed.
struct DeployFailure: Error {
    var message: String
    var hint: String?
    /// The network or the server may recover (connection refused or lost, a timeout, an
    /// HTTP 429 or 5xx): worth retrying after a pause. Refusals (login, permission, a
    /// full disk) are not.
    var transient: Bool
}

/// The folders a removed file may leave empty, deepest first (`a/b/c.html` → `a/b`, `a`).
func enclosingFolders(of path: String) -> [String] {
    var parts = path.split(separator: "/").dropLast()
    var folders: [String] = []
    while !parts.isEmpty {
        folders.append(parts.joined(separator: "/"))
        parts = parts.dropLast()
    }
    return folders
}

/// The temporary name a deploy uploads `path` under, in the same folder: fixed, so the
/// next deploy knows what a killed one may have left.
func deployTemporaryName(of path: String) -> (folder: String, name: String, temporary: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let folder = String(path.dropLast(name.count))
    return (folder, name, AtomicFile.temporaryPrefix(for: name) + "deploy")
}

/// Whether a file on the target is what an unfinished upload leaves: a temporary name
/// (`deployTemporaryName`, SFTP's old copy set aside, or `AtomicFile`'s over `file://`).
func isDeployLeftover(_ path: String) -> Bool {
    let name = path.split(separator: "/").last ?? ""
    return name.hasPrefix(".") && name.contains(AtomicFile.temporaryMarker)
}
