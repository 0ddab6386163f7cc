import Foundation

/// Where a deploy writes: each file is put under a temporary name and renamed into place,
/// folders are made as needed, and a removed file's folders go when they are left empty.
protocol DeployDestination: AnyObject {
    func upload(_ data: Data, to path: String) throws
    func remove(_ path: String) throws
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

/// A folder on this machine (`file://`), written like the output folder itself.
final class FolderDestination: DeployDestination {
    let folder: OwnedFolder

    init(_ url: URL) throws {
        folder = try OwnedFolder(url, step: .deploy, create: true)
    }

    func upload(_ data: Data, to path: String) throws {
        _ = try folder.write(data, to: path)
    }

    func remove(_ path: String) throws {
        _ = try folder.remove(path)
    }
}
