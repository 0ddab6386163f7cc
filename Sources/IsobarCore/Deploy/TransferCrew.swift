import Foundation

/// Runs a deploy's transfers `count` at a time, each worker on a thread of its own with a
/// destination (a connection) it keeps from batch to batch. A transfer that fails for a
/// reason that may pass (a lost connection, a timeout, an HTTP 5xx) is tried again after a
/// backoff, on a fresh connection, as the forecast fetcher does (`RetryPolicy`).
///
/// Threads, not tasks: libcurl's calls block, and a blocked task would hold one of the
/// few threads Swift's concurrency runs every task on.
final class TransferCrew: @unchecked Sendable {
    // @unchecked: each slot is used by one worker thread at a time; `run` waits for them all.
    private final class Slot: @unchecked Sendable { var destination: DeployDestination? }

    private let slots: [Slot]
    private let make: () throws -> DeployDestination
    private let retry: RetryPolicy
    private let pause: @Sendable (TimeInterval) -> Void
    private let log: @Sendable (String) -> Void

    /// `first` is the destination made (and checked) before the deploy started; the other
    /// workers' are made by `make` when they are first needed.
    init(count: Int, first: DeployDestination, make: @escaping () throws -> DeployDestination, retry: RetryPolicy,
         pause: @escaping @Sendable (TimeInterval) -> Void, log: @escaping @Sendable (String) -> Void) {
        slots = (0..<max(1, count)).map { _ in Slot() }
        slots[0].destination = first
        self.make = make
        self.retry = retry
        self.pause = pause
        self.log = log
    }

    /// What a batch left undone: each path whose transfer failed, with its error.
    typealias Failures = [(path: String, error: Error)]

    /// Runs `transfer` for every path and returns when all are done. With `stopOnFailure`,
    /// no path is started after one has failed (those in flight finish).
    func run(_ paths: [String], stopOnFailure: Bool, _ transfer: @escaping @Sendable (DeployDestination, String) throws -> Void) -> Failures {
        final class Queue: @unchecked Sendable {
            let lock = NSLock()
            var next = 0
            var failures: Failures = []
        }
        let queue = Queue()
        let group = DispatchGroup()
        for slot in slots.prefix(paths.count) {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while true {
                    queue.lock.lock()
                    guard queue.next < paths.count, !(stopOnFailure && !queue.failures.isEmpty) else { queue.lock.unlock(); return }
                    let path = paths[queue.next]
                    queue.next += 1
                    queue.lock.unlock()
                    do {
                        // The one gate every target's commands pass: whatever file or
                        // listing a path came from, it names a file of the site's.
                        if let problem = SitePath.problem(path) {
                            throw DeployFailure(message: "refusing \(Deployer.quoted(path)): it is not a path of the site's (\(problem))",
                                                hint: "run `isobar deploy --repair`", transient: false)
                        }
                        try attempt(path, on: slot, transfer)
                    } catch {
                        queue.lock.lock()
                        queue.failures.append((path, error))
                        queue.lock.unlock()
                    }
                }
            }
            thread.start()
        }
        group.wait()
        // In the order the paths were given, so a message names the first in the plan.
        let order = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return queue.failures.sorted { order[$0.path, default: 0] < order[$1.path, default: 0] }
    }

    /// Every file on the target (`DeployDestination.list`), over the first connection,
    /// tried again as a transfer is.
    func list() throws -> [String] {
        var files: [String] = []
        try attempt("the listing of the target", on: slots[0]) { destination, _ in files = try destination.list() }
        return files
    }

    /// Ends every worker's connection, on the calling thread. A worker thread lets go of
    /// the crew (and so of its slot's connection) only after `run` has returned; the last
    /// reference dropped there would close an SFTP or FTPS connection (libssh2, OpenSSL at
    /// work) while the deploy's caller goes on and the process exits, and OpenSSL's exit
    /// handler, freeing its locks under that close, crashes the process (signal 11 after
    /// a deploy that succeeded). Call it once the last `run` has returned.
    func close() {
        for slot in slots { slot.destination = nil }
    }

    private func attempt(_ path: String, on slot: Slot, _ transfer: (DeployDestination, String) throws -> Void) throws {
        var attempt = 1
        while true {
            do {
                let destination = try slot.destination ?? make()
                slot.destination = destination
                try transfer(destination, path)
                return
            } catch let failure as DeployFailure where failure.transient && attempt < retry.maxAttempts {
                // The connection may be dead: the next try opens a new one.
                slot.destination = nil
                let delay = retry.delay(afterAttempt: attempt, retryAfter: nil) ?? retry.baseDelay
                log("retrying \(path) in \(String(format: "%.1f", delay)) s (\(failure.message))")
                pause(delay)
                attempt += 1
            }
        }
    }
}
