import Foundation

/// Records a run's cities into the history off the render path: cities hand their entry
/// over as they are built, and batches of them are written in one transaction each on a
/// thread of the recorder's own, while rendering goes on. The first failure (a locked or
/// corrupt file, a full disk) ends the recording for the run; the site is built anyway.
///
/// A thread, not a dispatch queue: on Linux, dispatch's worker threads and Swift
/// concurrency's share one pool as wide as the machine has cores, so a queue's
/// transaction (mostly waiting for SQLite's writes and fsyncs) took one of the two
/// threads the cities render on, and a 10,000-city build ran on one core while recording.
final class HistoryRecorder: @unchecked Sendable {
    /// Cities per transaction: one transaction per city would be one fsync per city.
    static let batchSize = 256

    private let store: any HistoryStore
    // Everything below is guarded by `condition`; only the writing thread touches the store.
    private let condition = NSCondition()
    private var pending: [HistoryEntry] = []
    private var batches: [[HistoryEntry]] = []
    /// Whether a writing thread is running; it ends when no batch is left, so no thread
    /// outlives the run (a build that throws before `finish` leaves none behind either).
    private var writing = false
    private var recorded = 0
    private var failure: IsobarError?

    init(store: any HistoryStore) {
        self.store = store
    }

    /// Takes one city's entry; a full batch goes to the writing thread.
    func add(_ entry: HistoryEntry) {
        condition.withLock {
            guard failure == nil else { return }
            pending.append(entry)
            guard pending.count >= Self.batchSize else { return }
            handOff()
        }
    }

    /// Writes what is left and waits for every batch: the run's outcome.
    func finish() -> HistoryOutcome {
        condition.withLock {
            if !pending.isEmpty { handOff() }
            while writing { condition.wait() }
            return HistoryOutcome(recorded: recorded, error: failure)
        }
    }

    /// Queues the pending entries as a batch, starting a writing thread if none runs.
    /// Called with `condition` locked.
    private func handOff() {
        batches.append(pending)
        pending = []
        guard !writing else { return }
        writing = true
        let thread = Thread { self.drain() }
        thread.name = "isobar.history"
        thread.start()
    }

    /// Writes the queued batches in order until none is left.
    private func drain() {
        condition.lock()
        while !batches.isEmpty {
            let batch = batches.removeFirst()
            guard failure == nil else { continue }
            condition.unlock()
            let result = Result { try store.record(batch) }
            condition.lock()
            switch result {
            case .success(let added):
                recorded += added
            case .failure(let error):
                failure = (error as? SQLiteHistory.Unavailable)?.error
                    ?? IsobarError(step: .history, message: "recording the history failed: \(error)")
            }
        }
        writing = false
        condition.broadcast()
        condition.unlock()
    }
}

/// What a run did with the history, for the summary, the exit code and the report.
public struct HistoryOutcome: Sendable, Equatable {
    /// Cities whose data time was new to the history.
    public var recorded: Int
    /// Why the history could not be opened or written; the run then exits 2.
    public var error: IsobarError?
}
