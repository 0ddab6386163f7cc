import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Linux's inotify, telling the preview when to look at its files again: looking at every
/// file five times a second (1,448 files in the demo site) cost a fifth of a core while
/// nothing changed; with notices, a look is taken only after something did.
///
/// The notices only wake the preview: what changed is still decided by comparing looks
/// (`ChangeWatcher`), so a notice for a file the site is not made of costs one look and no
/// build. Folders are watched, not files: an editor that saves by writing a new file and
/// renaming it over the old one (most do) replaces the file, and a watch on the old one
/// would see nothing more; its folder sees the rename. Each watched folder is watched with
/// every folder under it (but hidden ones); `watch` is called again after each notice, so
/// folders made since are watched too (what was written into one before its watch is seen
/// by that look, which walks the whole tree). Elsewhere (macOS), or when inotify refuses
/// (out of instances or watches), `init` fails and the preview looks at every interval.
final class ChangeNotices: @unchecked Sendable {
    // @unchecked: the descriptor is only read and added to from the preview's loop.
    private let descriptor: Int32

    init?() {
        #if canImport(Glibc)
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        #else
        return nil
        #endif
    }

    deinit {
        close(descriptor)
    }

    /// Watches the folder of each path, and each path that is a folder with the folders
    /// under it. False if a watch could not be added (the caller then looks every interval).
    func watch(_ paths: [URL]) -> Bool {
        #if canImport(Glibc)
        let events = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
            | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        var folders: Set<String> = []
        for path in paths {
            // The file's folder sees it replaced, made or removed; a missing one is looked for there too.
            folders.insert(path.deletingLastPathComponent().path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            folders.insert(path.path)
            guard let walker = FileManager.default.enumerator(at: path, includingPropertiesForKeys: [.isDirectoryKey],
                                                              options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
                folders.insert(url.path)
            }
        }
        var added = true
        for folder in folders where FileManager.default.fileExists(atPath: folder) {
            // The same folder again gives the same watch: nothing piles up.
            if inotify_add_watch(descriptor, folder, events) < 0, errno != ENOENT { added = false }
        }
        return added
        #else
        return false
        #endif
    }

    /// Whether anything was noticed since the last call; reads what is pending, never waits.
    func drain() -> Bool {
        var noticed = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {
            noticed = true
        }
        return noticed
    }
}
