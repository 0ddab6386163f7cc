import Foundation

/// Writes a file so that no reader ever sees it half-written: the bytes go to a hidden
/// temporary name in the same folder, then `rename(2)` puts them in place in one step.
public enum AtomicFile {
    /// Prefix of temporary files, so a later run can recognise and remove leftovers.
    public static let temporaryMarker = ".isobar-tmp-"

    /// The longest name a file system takes (NAME_MAX on Linux and macOS), in bytes.
    static let longestName = 255

    /// What a temporary name for `name` starts with; the writer's pid (or `deploy`) ends
    /// it. `.<name>.isobar-tmp-` while that leaves room for any ending of up to 10
    /// characters; for a longer name (a 250-byte asset's would pass NAME_MAX, failing every
    /// build) the name's first 64 bytes and a digest of the whole instead, so it always
    /// fits and is the same for every run, as finding a killed run's leftovers needs.
    public static func temporaryPrefix(for name: String) -> String {
        let plain = ".\(name)\(temporaryMarker)"
        guard plain.utf8.count + 10 > longestName else { return plain }
        var digest = Fingerprint()
        digest.add(name)
        var start = ""
        for character in name {
            guard start.utf8.count + character.utf8.count <= 64 else { break }
            start.append(character)
        }
        return ".\(start)~\(digest.value)\(temporaryMarker)"
    }

    /// Writes a file outside the folders Isobar owns (the `--report` file), making its
    /// folder first. Returns the new file's status (size, mtime).
    @discardableResult
    public static func write(_ data: Data, to target: URL, step: BuildStep) throws -> stat {
        let folder = target.deletingLastPathComponent()
        try makeFolder(folder, step: step)
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw IsobarError(step: step, path: folder.path, message: "cannot open the folder: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        return try write(data, in: descriptor, name: target.lastPathComponent, path: target.path, step: step)
    }

    /// Writes `name` in the open folder `folder`, with `modified` as its mtime when given;
    /// `path` is the file's path, for messages. Returns the new file's status, which
    /// renaming does not change.
    static func write(_ data: some ContiguousBytes, in folder: Int32, name: String, path: String, modified: Date? = nil, step: BuildStep) throws -> stat {
        let temporary = temporaryPrefix(for: name) + String(getpid())
        // Only messages need it, and Foundation's path split costs more than the write.
        var temporaryPath: String { (path as NSString).deletingLastPathComponent + "/" + temporary }
        // Plain POSIX writes: Foundation's own "atomic" writes go through a second temporary
        // file of their own naming, which a killed run would leave behind unrecognised.
        // O_NOFOLLOW: a link planted under the temporary name must not be written through.
        let descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw OwnedFolder.refusal(ofLink: temporaryPath, step: step) }
            throw IsobarError(step: step, path: temporaryPath, message: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        // The error number of a failed write, nil when every byte was written.
        let failure = data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 { if errno == EINTR { continue }; return errno }
                offset += count
            }
            return nil
        }
        if let modified {
            // On the descriptor, so no path (and no link on it) is looked up again.
            let seconds = modified.timeIntervalSince1970.rounded(.down)
            let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((modified.timeIntervalSince1970 - seconds) * 1e9))
            _ = [time, time].withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) }
        }
        var status = stat()
        fstat(descriptor, &status)
        close(descriptor)
        if let failure {
            unlinkat(folder, temporary, 0)
            throw IsobarError(step: step, path: path, message: "cannot write the file: \(String(cString: strerror(failure)))")
        }
        guard renameat(folder, temporary, folder, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(folder, temporary, 0)
            throw IsobarError(step: step, path: path, message: "cannot move the new file into place: \(reason)")
        }
        return status
    }

    /// Makes a folder and any missing folders above it.
    static func makeFolder(_ folder: URL, step: BuildStep) throws {
        // mkdir(2) first: the folder usually exists or only its last level is missing, and
        // FileManager's intermediate-directory walk costs several stats.
        if mkdir(folder.path, 0o777) == 0 || errno == EEXIST { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw IsobarError(step: step, path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
    }
}
