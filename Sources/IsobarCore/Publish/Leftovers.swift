import Foundation

/// Removes temporary files a killed run left behind (`.<name>.isobar-tmp-<pid>`). Only
/// names with Isobar's marker are touched.
enum Leftovers {
    @discardableResult
    static func clean(_ folder: URL) -> Int {
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: folder.path) else { return 0 }
        var removed = 0
        for case let relative as String in walker where (relative as NSString).lastPathComponent.contains(AtomicFile.temporaryMarker) {
            if (try? manager.removeItem(at: folder.appendingPathComponent(relative))) != nil { removed += 1 }
        }
        return removed
    }
}
