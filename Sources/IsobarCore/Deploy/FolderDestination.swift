import Foundation

/// A folder on this machine (`file://`), written like the output folder itself: each file
/// atomically (`AtomicFile`), never through a symbolic link.
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

    func discardLeftovers(of path: String) {
        // A killed write leaves `.<name>.isobar-tmp-<pid>` beside the file.
        let (folderPath, name, _) = deployTemporaryName(of: path)
        let url = URL(fileURLWithPath: folder.path).appendingPathComponent(folderPath)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
        for leftover in names where leftover.hasPrefix(AtomicFile.temporaryPrefix(for: name)) {
            _ = try? folder.remove(folderPath + leftover)
        }
    }

    func list() throws -> [String] {
        // FileManager's enumerator does not descend into a linked folder; it lists the link.
        let root = folder.path
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw DeployFailure(message: "cannot list \(root)", hint: "is the folder there, and readable?", transient: false)
        }
        var files: [String] = []
        for case let relative as String in walker {
            var status = stat()
            if lstat(root + "/" + relative, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { files.append(relative) }
        }
        return files
    }
}
