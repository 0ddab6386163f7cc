import Foundation

/// Records a run's cities into the history off the render path: cities hand their entry
/// over as they are built, and batches of them are written in one transaction each on a
/// queue of the recorder's own, while rendering goes on. The first failure (a locked or
/// corrupt file, a full disk) ends the recording for the run; the site is built anyway.
final class HistoryRecorder: @unchecked Sendable {
    /// Cities per transaction: one transaction per city would be one fsync per city.
    static let batchSize = 256

    private let store: any HistoryStore
    private let queue = DispatchQueue(label: "isobar.history")
    // Guarded by `lock`; the queue alone touches the store.
    private let lock = NSLock()
    private var pending: [HistoryEntry] = []
    private var recorded = 0
    private var failure: IsobarError?

    init(store: any HistoryStore) {
        self.store = store
    }

    /// Takes one city's entry; a full batch goes to the queue.
    func add(_ entry: HistoryEntry) {
        let batch: [HistoryEntry]? = lock.withLock {
            guard failure == nil else { return nil }
            pending.append(entry)
            guard pending.count >= Self.batchSize else { return nil }
            defer { pending = [] }
            return pending
        }
        if let batch { queue.async { self.write(batch) } }
    }

    /// Writes what is left and waits for every batch, then, with a clock, prunes when a
    /// day has passed since the last prune: the run's outcome.
    func finish(pruningAt now: Date? = nil) -> HistoryOutcome {
        let rest = lock.withLock { () -> [HistoryEntry] in
            defer { pending = [] }
            return pending
        }
        queue.sync { if !rest.isEmpty { write(rest) } }
        var outcome = lock.withLock { HistoryOutcome(recorded: recorded, error: failure) }
        guard outcome.error == nil, let now else { return outcome }
        do {
            outcome.pruned = try store.pruneIfDue(now: now)
        } catch {
            let unavailable = error as? SQLiteHistory.Unavailable
            outcome.error = IsobarError(step: .history, path: unavailable?.file.path,
                                        message: "old rows were not pruned: " + (unavailable.map { "the history database \($0.reason)" } ?? "\(error)")
                                            + "; the next build tries again", hint: unavailable?.hint)
            outcome.pruneFailed = true
        }
        return outcome
    }

    private func write(_ batch: [HistoryEntry]) {
        guard lock.withLock({ failure == nil }) else { return }
        do {
            let added = try store.record(batch)
            lock.withLock { recorded += added }
        } catch {
            let problem = (error as? SQLiteHistory.Unavailable)?.error
                ?? IsobarError(step: .history, message: "recording the history failed: \(error)")
            lock.withLock { failure = problem }
        }
    }
}

/// What a run did with the history, for the summary, the exit code and the report.
public struct HistoryOutcome: Sendable, Equatable {
    /// Cities whose data time was new to the history.
    public var recorded: Int
    /// Why the history could not be opened, written or pruned; the run then exits 2.
    public var error: IsobarError?
    /// What this run's prune removed; nil when none was due (or the history failed).
    public var pruned: PruneOutcome? = nil
    /// The error is the prune's: the run's cities were recorded.
    public var pruneFailed = false
}
