import Dispatch
import Foundation

/// SIGINT and SIGTERM during a build: the first asks the build to stop starting cities and
/// write what it has (`onFirst`); a second ends the process at once. Files are written
/// under temporary names and renamed, so even then no half-written file is published, and
/// the next run clears the temporary ones.
final class Interruption: @unchecked Sendable {
    // @unchecked: `received` is only touched on `queue`.
    private let queue = DispatchQueue(label: "isobar.signals")
    private var sources: [DispatchSourceSignal] = []
    private var received: Int32?
    private let signals: [Int32]

    /// The signal that interrupted the run, if one did.
    var signal: Int32? { queue.sync { received } }

    /// The exit code shells give a process ended by `signal`: 130 for SIGINT, 143 for SIGTERM.
    static func exitCode(_ signal: Int32) -> Int32 { 128 + signal }

    /// `notice`: what the first signal does, said on stderr after its name. `signals`:
    /// the ones handled (`serve` adds SIGHUP, a closed terminal, to clean up the same way).
    init(notice: String = "finishing the cities in flight and writing what was built",
         signals: [Int32] = [SIGINT, SIGTERM],
         onFirst: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        for number in signals {
            // Dispatch sees the signal only once its default action (ending the process) is off.
            setAction(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in
                if self.received != nil {
                    printError("isobar: \(Self.name(number)) again: stopping now")
                    _exit(Self.exitCode(number))
                }
                self.received = number
                printError("isobar: \(Self.name(number)): \(notice) (send it again to stop at once)")
                onFirst(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Signals end the process again, as they do by default (a deploy is resumable, so it
    /// needs no tidy stop).
    func restoreDefaults() {
        for source in sources { source.cancel() }
        for number in signals { setAction(number, SIG_DFL) }
    }

    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}

/// A cancellation asked for before the work it cancels has started: `attach` runs it at
/// once if `cancel` came first, so a signal's handler can be set before the work begins.
final class PendingCancel: @unchecked Sendable {
    // @unchecked: both fields are only touched under `lock`.
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?
    private var cancelled = false

    func cancel() {
        let action = lock.withLock {
            cancelled = true
            return self.action
        }
        action?()
    }

    func attach(_ action: @escaping @Sendable () -> Void) {
        let now = lock.withLock {
            self.action = action
            return cancelled
        }
        if now { action() }
    }
}

/// `signal(2)`, outside `Interruption`, whose `signal` property would hide it.
private func setAction(_ number: Int32, _ action: sighandler_t?) {
    _ = signal(number, action)
}
