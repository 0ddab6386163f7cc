import Foundation

/// Writes a file so that no reader ever sees it half-written: the bytes go to a hidden
/// temporary name in the same folder, then `rename(2)` puts them in place in one step.
public enum AtomicFile {
    /// Prefix of temporary files, so a later run can recognise and remove leftovers.
    public static let temporaryMarker = ".isobar-tmp-"

    /// Returns the new file's status (size, mtime), which renaming does not change.
    @discardableResult
    public static func write(_ data: Data, to target: URL, modified: Date? = nil, step: BuildStep, folderExists: Bool = false) throws -> stat {
        let manager = FileManager.default
        let folder = target.deletingLastPathComponent()
        if !folderExists { try makeFolder(folder, step: step) }
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent)\(temporaryMarker)\(getpid())", isDirectory: false)
        // Plain POSIX writes: Foundation's own "atomic" writes go through a second temporary
        // file of their own naming, which a killed run would leave behind unrecognised.
        // O_NOFOLLOW: a link planted under the temporary name must not be written through.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw IsobarError(step: step, path: temporary.path, message: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 { if errno == EINTR { continue }; return false }
                offset += count
            }
            return true
        }
        let reason = String(cString: strerror(errno))
        var status = stat()
        fstat(descriptor, &status)
        close(descriptor)
        guard written else {
            try? manager.removeItem(at: temporary)
            throw IsobarError(step: step, path: target.path, message: "cannot write the file: \(reason)")
        }
        if let modified {
            try? manager.setAttributes([.modificationDate: modified], ofItemAtPath: temporary.path)
            stat(temporary.path, &status)
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(at: temporary)
            throw IsobarError(step: step, path: target.path, message: "cannot move the new file into place: \(reason)")
        }
        return status
    }

    /// Makes the folder a file goes into; returns whether it was created just now (then
    /// nothing can be in it yet).
    @discardableResult
    static func makeFolder(_ folder: URL, step: BuildStep) throws -> Bool {
        // mkdir(2) first: the folder usually exists or only its last level is missing, and
        // FileManager's intermediate-directory walk costs several stats per file.
        if mkdir(folder.path, 0o777) == 0 { return true }
        if errno == EEXIST { return false }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw IsobarError(step: step, path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        return true
    }
}
