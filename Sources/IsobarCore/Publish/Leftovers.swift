import Foundation

/// Removes temporary files a killed run left behind (`.<name>.isobar-tmp-<pid>`, or for a
/// long name `.<its start>~<digest>.isobar-tmp-<pid>`: `AtomicFile.temporaryPrefix`). Only
/// regular files with Isobar's marker are touched: the walk does not descend into a
/// linked folder (FileManager's enumerator lists the link, never what is behind it), and
/// a link with such a name is not Isobar's either.
enum Leftovers {
    @discardableResult
    static func clean(_ folder: URL) -> Int {
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: folder.path) else { return 0 }
        var removed = 0
        for case let relative as String in walker where (relative as NSString).lastPathComponent.contains(AtomicFile.temporaryMarker) {
            let path = folder.path + "/" + relative
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
