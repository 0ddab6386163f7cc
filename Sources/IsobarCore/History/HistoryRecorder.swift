import Foundation

/// The history as a build uses it. Pages read each city's past (before its data time, so
/// a page never depends on whether this run's own observation is written yet); built
/// cities are recorded off the render path: they hand their entry over as they are
/// built, and batches of them are written in one transaction each on a queue of the
/// recorder's own, while rendering goes on. The first failure (a locked or corrupt file,
/// a full disk) ends the recording for the run; the site is built anyway.
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

    /// Each city's revision when the run began, for its pages' fingerprint.
    private let revisions: [String: Int]

    init(store: any HistoryStore) throws {
        self.store = store
        revisions = try store.revisions()
    }

    /// What a city's pages are made from besides its data: the history's say so far.
    func fingerprint(of city: String) -> String {
        "history r\(revisions[city] ?? 0)"
    }

    /// The city's past as its page shows it; nil (the page without its history sections)
    /// once the history has failed, which the run reports.
    func summary(of city: String, _ forecast: Forecast) -> HistorySummary? {
        guard lock.withLock({ failure == nil }) else { return nil }
        let today = LocalDay.key(for: forecast.current.time, in: forecast.location.timeZone)
        do {
            let past = try store.past(of: city, before: forecast.current.time, today: today)
            return HistorySummary(past: past, current: forecast.current, today: today)
        } catch {
            fail(error)
            return nil
        }
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
            fail(error)
        }
    }

    private func fail(_ error: any Error) {
        let problem = (error as? SQLiteHistory.Unavailable)?.error
            ?? IsobarError(step: .history, message: "the history failed: \(error)")
        lock.withLock { failure = failure ?? problem }
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
