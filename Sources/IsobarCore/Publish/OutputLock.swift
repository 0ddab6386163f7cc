import Foundation

/// One build at a time per output folder: an exclusive `flock` on `.isobar.lock` inside
/// it. The kernel drops the lock when the process ends however it ends, so a lock left by
/// a killed run never blocks the next one.
///
/// The file also says whether the last run ended: a run writes `running` into it when it
/// starts and `clean` when it ends, thrown errors included. Only a run killed (or a
/// machine that went down) in between leaves `running`, and only then can temporary files
/// be lying around — so the next run looks for them only then, instead of walking the
/// whole site every time (a tenth of a no-change rebuild of 1,000 cities).
public final class OutputLock: @unchecked Sendable {
    // @unchecked: the descriptor is set once in init and only closed in deinit.
    public static let fileName = ".isobar.lock"
    private let descriptor: Int32
    private let output: URL
    /// Whether this run created the output folder, or the lock file in it (then a failed
    /// run removes them again).
    private let createdFolder: Bool
    private let createdLockFile: Bool
    /// Whether the previous run marked the folder `clean` on its way out.
    public let previousRunEndedCleanly: Bool

    public init(output: URL) throws {
        self.output = output
        createdFolder = !FileManager.default.fileExists(atPath: output.path)
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw IsobarError(step: .publish, path: output.path, message: "cannot create the output folder: \(error.localizedDescription)")
        }
        let path = output.appendingPathComponent(Self.fileName).path
        var status = stat()
        createdLockFile = lstat(path, &status) != 0
        // O_NOFOLLOW: the file is truncated and written, so a link in its place (which
        // Isobar never makes) would have its target overwritten, or made when it dangles.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            if errno == ELOOP { throw OwnedFolder.refusal(ofLink: path, step: .publish) }
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
        var marker = [UInt8](repeating: 0, count: 16)
        let count = pread(fd, &marker, marker.count, 0)
        previousRunEndedCleanly = count > 0 && Array(marker[0..<count]) == Array(Self.clean.utf8)
        // On disk before this run writes anything, so that a kill cannot leave `clean` behind.
        mark(Self.running)
        fdatasync(fd)
    }

    private static let running = "running\n"
    private static let clean = "clean\n"

    private func mark(_ state: String) {
        ftruncate(descriptor, 0)
        _ = state.utf8CString.withUnsafeBufferPointer { pwrite(descriptor, $0.baseAddress, $0.count - 1, 0) }
    }

    /// The run is over and left no temporary files (every write removes its own on failure).
    public func markClean() {
        mark(Self.clean)
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
