import Foundation

/// The history as a build uses it. Pages read each city's past (before its data time, so
/// a page never depends on whether this run's own observation is written yet); built
/// cities are recorded off the render path: they hand their entry over as they are
/// built, and batches of them are written in one transaction each on a thread of the
/// recorder's own, while rendering goes on. The first failure (a locked or corrupt file,
/// a full disk) ends the recording for the run; the site is built anyway.
///
/// A thread, not a dispatch queue: on Linux, dispatch's worker threads and Swift
/// concurrency's share one pool as wide as the machine has cores, so a queue's
/// transaction (mostly waiting for SQLite's writes and fsyncs) took one of the two
/// threads the cities render on, and a 10,000-city build ran on one core while recording.
final class HistoryRecorder: @unchecked Sendable {
    /// Cities per transaction: one transaction per city would be one fsync per city.
    static let batchSize = 256

    private let store: any HistoryStore
    // Everything below is guarded by `condition`; only the writing thread writes to the
    // store (pages read it from their own tasks, which SQLite's WAL allows).
    private let condition = NSCondition()
    private var pending: [HistoryEntry] = []
    private var batches: [[HistoryEntry]] = []
    /// Whether a writing thread is running; it ends when no batch is left, so no thread
    /// outlives the run (a build that throws before `finish` leaves none behind either).
    private var writing = false
    private var recorded = 0
    private var failure: IsobarError?
    /// CPU time the writing threads spent, user and system: what recording cost the
    /// machine, which the build's wall clock hides while the pages are rendered.
    private var cpuSeconds = 0.0

    /// Each city's revision when the run began, for its pages' fingerprint.
    private let revisions: [String: Int]
    /// What the pages read the past through (the history as the run began), released in
    /// `finish`: while it is held, SQLite keeps what the run records in the WAL.
    private var reader: (any HistoryReader)?

    init(store: any HistoryStore) throws {
        self.store = store
        revisions = try store.revisions()
        reader = try store.reader()
    }

    /// Where the cities' climate normals are kept (the SQLite history).
    var normalsStore: (any NormalsStore)? { store as? any NormalsStore }

    /// What a city's pages are made from besides its data: the history's say so far.
    func fingerprint(of city: String) -> String {
        "history r\(revisions[city] ?? 0)"
    }

    /// The city's past as its page shows it; nil (the page without its history sections)
    /// once the history has failed, which the run reports.
    func summary(of city: String, _ forecast: Forecast) -> HistorySummary? {
        guard let reader = condition.withLock({ failure == nil ? reader : nil }) else { return nil }
        let today = LocalDay.key(for: forecast.current.time, in: forecast.location.timeZone)
        do {
            let past = try reader.past(of: city, before: forecast.current.time, today: today)
            return HistorySummary(past: past, current: forecast.current, today: today)
        } catch {
            fail(error)
            return nil
        }
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

    /// Writes what is left and waits for every batch, then, with a clock, prunes when a
    /// day has passed since the last prune: the run's outcome.
    func finish(pruningAt now: Date? = nil) -> HistoryOutcome {
        var outcome = condition.withLock {
            reader = nil
            if !pending.isEmpty { handOff() }
            while writing { condition.wait() }
            return HistoryOutcome(recorded: recorded, error: failure, recordingCPUSeconds: cpuSeconds)
        }
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

    /// Closes the store once the run is done with it (after `finish`); returns the CPU
    /// time the close took, which is recording's too: the writer's close folds the WAL's
    /// last frames into the file (the final checkpoint).
    @discardableResult
    func close() -> Double {
        condition.withLock { reader = nil }
        let started = Self.threadCPUTime()
        store.close()
        return Self.threadCPUTime() - started
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
        // Named from the thread itself: Foundation gives the kernel a name set before
        // `start` only on Darwin. This one shows in `top -H` and profilers.
        Thread.current.name = "isobar.history"
        let started = Self.threadCPUTime()
        condition.lock()
        defer {
            writing = false
            cpuSeconds += Self.threadCPUTime() - started
            condition.broadcast()
            condition.unlock()
        }
        while !batches.isEmpty {
            let batch = batches.removeFirst()
            guard failure == nil else { continue }
            condition.unlock()
            let result = Result { try store.record(batch) }
            condition.lock()
            switch result {
            case .success(let added): recorded += added
            case .failure(let error): failure = failure ?? Self.problem(error)
            }
        }
    }

    /// The calling thread's CPU time so far, seconds.
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func fail(_ error: any Error) {
        condition.withLock { failure = failure ?? Self.problem(error) }
    }

    private static func problem(_ error: any Error) -> IsobarError {
        (error as? SQLiteHistory.Unavailable)?.error ?? IsobarError(step: .history, message: "the history failed: \(error)")
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
    /// CPU time (user and system) the recording threads spent writing this run's batches.
    public var recordingCPUSeconds = 0.0
}
