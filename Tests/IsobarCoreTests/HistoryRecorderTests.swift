import Foundation
import Testing
@testable import IsobarCore

/// The recorder hands full batches to a writing thread of its own and, at the end of a
/// run, waits for them: every entry is recorded, in batches of `batchSize`, and the CPU
/// time the writing threads spent is the run's to report.
@Suite struct HistoryRecorderTests {
    /// A store that takes `cpuPerBatch` seconds of CPU (a busy loop, not a sleep) for each
    /// batch, as a transaction's writes would.
    final class BusyStore: HistoryStore, @unchecked Sendable {
        let cpuPerBatch: Double
        /// CPU its close takes, as the writer's final checkpoint would.
        var cpuToClose = 0.0
        private let lock = NSLock()
        private(set) var batchSizes: [Int] = []
        private(set) var closed = false

        init(cpuPerBatch: Double) { self.cpuPerBatch = cpuPerBatch }

        func record(_ entries: [HistoryEntry]) throws -> Int {
            Self.spin(cpuPerBatch)
            lock.withLock { batchSizes.append(entries.count) }
            return entries.count
        }
        func stats() throws -> [HistoryCityStats] { [] }
        func past(of city: String, before time: Date, today: String) throws -> CityPast { CityPast() }
        func revisions() throws -> [String: Int] { [:] }
        func pruneIfDue(now: Date) throws -> PruneOutcome? { nil }
        func close() {
            Self.spin(cpuToClose)
            lock.withLock { closed = true }
        }

        static func spin(_ seconds: Double) {
            let until = HistoryRecorder.threadCPUTime() + seconds
            while HistoryRecorder.threadCPUTime() < until {}
        }
    }

    @Test func everyEntryIsRecordedInBatchesAndTheWritingThreadsCPUTimeIsCounted() throws {
        let store = BusyStore(cpuPerBatch: 0.03)
        let recorder = try HistoryRecorder(store: store)
        let entry = try HistorySimulation.entry(hour: 0, temperature: { _ in 10 })
        let count = HistoryRecorder.batchSize + 44
        for _ in 0..<count { recorder.add(entry) }
        let outcome = recorder.finish()
        recorder.close()
        #expect(outcome.recorded == count && outcome.error == nil)
        #expect(store.batchSizes == [HistoryRecorder.batchSize, 44])
        // Two batches of 30 ms of CPU each, on the writing thread, not the caller's.
        #expect(outcome.recordingCPUSeconds >= 0.06 && outcome.recordingCPUSeconds < 1, "\(outcome.recordingCPUSeconds)")
        #expect(store.closed)
    }

    /// The store's close (SQLite's final checkpoint) is recording's work too: its CPU time
    /// is what `close` returns, and a build adds it to the outcome.
    @Test func closeReturnsTheCPUTimeTheStoresCloseTook() throws {
        let store = BusyStore(cpuPerBatch: 0)
        store.cpuToClose = 0.05
        let recorder = try HistoryRecorder(store: store)
        _ = recorder.finish()
        let seconds = recorder.close()
        #expect(seconds >= 0.05 && seconds < 1, "\(seconds)")
        #expect(store.closed)
    }
}
