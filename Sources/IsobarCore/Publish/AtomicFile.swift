import Foundation

/// Writes a file so that no reader ever sees it half-written: the bytes go to a hidden
/// temporary name in the same folder, then `rename(2)` puts them in place in one step.
public enum AtomicFile {
    /// Prefix of temporary files, so a later run can recognise and remove leftovers.
    public static let temporaryMarker = ".isobar-tmp-"

    public static func write(_ data: Data, to target: URL, modified: Date? = nil, step: BuildStep) throws {
        let manager = FileManager.default
        let folder = target.deletingLastPathComponent()
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw IsobarError(step: step, path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent)\(temporaryMarker)\(getpid())")
        guard manager.createFile(atPath: temporary.path, contents: data) else {
            throw IsobarError(step: step, path: temporary.path, message: "cannot create the file (is the folder writable?)")
        }
        if let modified {
            try? manager.setAttributes([.modificationDate: modified], ofItemAtPath: temporary.path)
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(at: temporary)
            throw IsobarError(step: step, path: target.path, message: "cannot move the new file into place: \(reason)")
        }
    }
}
