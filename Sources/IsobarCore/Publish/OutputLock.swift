import Foundation

/// One build at a time per output folder: an exclusive `flock` on `.isobar.lock` inside
/// it. The kernel drops the lock when the process ends however it ends, so a lock left by
/// a killed run never blocks the next one.
public final class OutputLock: @unchecked Sendable {
    // @unchecked: the descriptor is set once in init and only closed in deinit.
    public static let fileName = ".isobar.lock"
    private let descriptor: Int32
    private let output: URL
    /// Whether this run created the output folder, or the lock file in it (then a failed
    /// run removes them again).
    private let createdFolder: Bool
    private let createdLockFile: Bool

    public init(output: URL) throws {
        self.output = output
        createdFolder = !FileManager.default.fileExists(atPath: output.path)
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw IsobarError(step: .publish, path: output.path, message: "cannot create the output folder: \(error.localizedDescription)")
        }
        let path = output.appendingPathComponent(Self.fileName).path
        createdLockFile = !FileManager.default.fileExists(atPath: path)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw IsobarError(step: .publish, path: path, message: "cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            throw IsobarError(
                step: .publish, path: output.path,
                message: busy ? "another isobar build is writing to this folder" : "cannot lock the output folder: \(String(cString: strerror(errno)))",
                hint: busy ? "wait for it to finish; cron runs that overlap are skipped this way" : nil)
        }
        descriptor = fd
    }

    /// After a fatal error: what this run created for its lock goes again, leaving the
    /// output exactly as it was.
    public func abandon() {
        let manager = FileManager.default
        if createdLockFile { try? manager.removeItem(at: output.appendingPathComponent(Self.fileName)) }
        if createdFolder, (try? manager.contentsOfDirectory(atPath: output.path))?.isEmpty == true {
            try? manager.removeItem(at: output)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
