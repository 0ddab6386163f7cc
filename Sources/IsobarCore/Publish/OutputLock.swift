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

    /// Whether a run that finds the lock taken waits for it.
    public enum Waiting: Sendable, Equatable {
        /// Give up at once (cron's next run will come).
        case no
        /// Wait up to this many seconds.
        case upTo(TimeInterval)
        case forever

        /// The value of `--wait=DURATION` (`90s`, `10m`, `1h`); `--wait` alone waits forever.
        public init?(option: String) {
            if option == Self.foreverOption { self = .forever; return }
            guard let seconds = DurationParser.seconds(from: option) else { return nil }
            self = .upTo(seconds)
        }

        /// What a bare `--wait` is rewritten to, since the parser wants a value.
        public static let foreverOption = "forever"
    }

    /// Another run holds the output: not a failure, and told apart from one (exit 75).
    public struct Busy: Error, Sendable, CustomStringConvertible {
        public var output: String
        /// The holder's process id, as it wrote it into the lock file.
        public var holder: Int32?
        /// How long this run waited before giving up (nil without `--wait`).
        public var waited: TimeInterval?

        public var description: String {
            let who = holder.map { "another isobar run (pid \($0))" } ?? "another isobar run"
            guard let waited else { return "\(output): \(who) is writing here; this run is skipped (--wait waits for it)" }
            return "\(output): \(who) is still writing here after \(ProgressDisplay.duration(waited)) of waiting; this run is skipped"
        }
    }

    public init(output: URL, waiting: Waiting = .no, clock: MonotonicClock = .system) throws {
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
        let started = clock.now()
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw IsobarError(step: .publish, path: output.path, message: "cannot lock the output folder: \(reason)")
            }
            let waited = clock.now() - started
            let giveUp: Bool
            switch waiting {
            case .no: giveUp = true
            case .upTo(let limit): giveUp = waited >= limit
            case .forever: giveUp = false
            }
            if giveUp {
                let holder = Self.holder(fd)
                close(fd)
                throw Busy(output: output.path, holder: holder, waited: waiting == .no ? nil : waited)
            }
            // Polled rather than a blocking flock, so that the wait has a limit and a
            // signal still ends the process at once.
            usleep(100_000)
        }
        descriptor = fd
        var marker = [UInt8](repeating: 0, count: 16)
        let count = pread(fd, &marker, marker.count, 0)
        previousRunEndedCleanly = count > 0 && Array(marker[0..<count]) == Array(Self.clean.utf8)
        // On disk before this run writes anything, so that a kill cannot leave `clean` behind.
        // The process id tells a skipped run who holds the folder.
        mark("\(Self.running) \(getpid())\n")
        fdatasync(fd)
    }

    private static let running = "running"

    /// The process id in a held lock file (`running PID`).
    private static func holder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self)
        guard text.hasPrefix(running + " ") else { return nil }
        return Int32(text.dropFirst(running.count + 1).trimmingCharacters(in: .whitespacesAndNewlines))
    }
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
