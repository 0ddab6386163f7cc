import Foundation
@testable import IsobarCore

/// A program a test runs (the `isobar` binary, curl, python3, sshd), started with
/// `posix_spawn`. Not Foundation's `Process`: on Linux its `run()` lists /proc/self/fd to
/// close every other descriptor in the child, and it crashed there in CI (SIGSEGV in a
/// memmove, with some 1,350 descriptors open in the test process), even with launches made
/// one at a time. Here the child closes everything from descriptor 3 up itself
/// (`closefrom`), so nothing is listed, and a test's pipe or socket never leaks into
/// another test's child (which would keep a reader waiting for an end that never comes).
final class Child: @unchecked Sendable {
    // @unchecked: `pid` and the handles are set once in `init`; the exit is behind `ended`.
    enum Output {
        /// /dev/null.
        case discard
        /// A pipe, read through `stdout` or `stderr`.
        case pipe
        /// The test process's own.
        case inherit
        /// (stderr only) Wherever stdout goes.
        case toStdout
    }

    let processIdentifier: pid_t
    /// The read ends of the pipes asked for.
    let stdout: FileHandle?
    let stderr: FileHandle?
    /// The raw `waitpid` status, once the child has ended and been reaped.
    private let ended = Locked<Int32?>(nil)

    /// `environment`: the test process's, with `changes` merged in (`nil` removes a key).
    init(_ executable: String, _ arguments: [String], in folder: URL? = nil, changes: [String: String?] = [:],
         stdout: Output = .discard, stderr: Output = .discard) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var readEnds: [Int32: Int32] = [:], writeEnds: [Int32] = []
        for (target, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .discard: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            case .toStdout: posix_spawn_file_actions_adddup2(&actions, 1, 2)
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
                readEnds[target] = ends[0]
                writeEnds.append(ends[1])
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)  // both ends then go in `closefrom`
            }
        }
        defer { writeEnds.forEach { close($0) } }
        if let folder { _ = Self.addChdir(&actions, folder.path) }
        _ = Self.addCloseFrom(&actions, 3)

        // A clean start: no signal blocked, none ignored, whatever the test process does.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var environment = ProcessInfo.processInfo.environment
        for (key, value) in changes { environment[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let failed = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard failed == 0 else {
            readEnds.values.forEach { close($0) }
            throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .ENOENT)
        }
        processIdentifier = pid
        self.stdout = readEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.stderr = readEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Whether it still runs; reaps it (without waiting) once it has ended.
    var isRunning: Bool {
        ended.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return true }
            status = raw
            return false
        }
    }

    /// Waits for it to end, polling: a blocking `waitpid` would race `isRunning` on another
    /// thread for the one exit status there is.
    func waitForExit() {
        while isRunning { usleep(10_000) }
    }

    func signal(_ number: Int32) { kill(processIdentifier, number) }

    /// As Foundation's `Process` says it (once ended): the exit code, or the signal's number.
    var terminationStatus: Int32 {
        let raw = ended.value ?? 0
        return terminationReason == .exit ? (raw >> 8) & 0xff : raw & 0x7f
    }

    var terminationReason: Process.TerminationReason {
        (ended.value ?? 0) & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// The output to its end, then the exit status: for a short run with `stdout: .pipe`.
    func output() -> (status: Int32, stdout: Data) {
        let data = stdout?.readDataToEndOfFile() ?? Data()
        waitForExit()
        return (terminationStatus, data)
    }

    // glibc has both (2.29 and 2.34) but its headers declare them only for _GNU_SOURCE,
    // which the Glibc module does not define; they are looked up by name instead.
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addChdir = unsafeBitCast(dlsym(nil, "posix_spawn_file_actions_addchdir_np"), to: AddChdir.self)
    private static let addCloseFrom = unsafeBitCast(dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"), to: AddCloseFrom.self)
}
