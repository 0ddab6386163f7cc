import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// What the pages read from the history: local-day summaries (DST days included), the
/// forecast checks against a hand-computed example, records and "sets a record".
@Suite struct HistoryPastTests {
    static func store(_ folder: TemporaryFolder) throws -> SQLiteHistory {
        try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
    }

    @Test func forecastChecksMatchAHandComputedExample() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        // Hourly runs for six days; each forecasts 72 hours, 1 °C off per 24 h of lead.
        // Likely rain (60 %) every 4th hour, rain observed every 8th.
        let truth: (Int) -> Double = { 10 + Double($0 % 5) + Double($0 / 24) }
        let entries = try (0..<144).map { hour in
            try HistorySimulation.entry(hour: hour, temperature: truth, rain: { $0 % 8 == 0 ? 0.5 : nil }, chance: { $0 % 4 == 0 ? 0.6 : 0.1 },
                           forecastHours: 72)
        }
        #expect(try store.record(entries) == 144)
        let now = HistorySimulation.start + 144 * 3600
        let past = try store.past(of: "x", before: now, today: "2026-03-07")
        // 24 h ahead: targets at hours 24…143 (120 pairs on 5 days), each 1 °C off.
        // Likely rain at hours 24, 28, … 140 (30), rain observed at 24, 32, … 136 (15).
        #expect(past.checks == [
            ForecastCheck(leadHours: 24, pairs: 120, days: 5, meanAbsoluteError: 1, likelyRain: 30, likelyRainHappened: 15),
            ForecastCheck(leadHours: 72, pairs: 72, days: 3, meanAbsoluteError: 3, likelyRain: 18, likelyRainHappened: 9),
        ])
        // Before day 3 there are only two days of 72 h pairs: too few to show.
        let early = try store.past(of: "x", before: HistorySimulation.start + 100 * 3600, today: "2026-03-05")
        let summary = HistorySummary(past: early, current: entries[100].current, today: "2026-03-05")
        #expect(summary.forecastChecks.map(\.leadHours) == [24])
    }

    /// A build closes its history while the recording thread may still hold the store:
    /// closing folds the WAL into the file and removes it, whoever holds a reference,
    /// after reads through the pages' connections and GRDB's own.
    @Test func closingRemovesTheWALWhileTheStoreIsStillHeld() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        let entries = try (0..<30).map { hour in
            try HistorySimulation.entry(hour: hour, temperature: { 10 + Double($0 % 5) }, rain: { _ in nil }, chance: { _ in 0.1 }, forecastHours: 24)
        }
        #expect(try store.record(entries) == 30)
        _ = try store.past(of: "x", before: HistorySimulation.start + 30 * 3600, today: "2026-03-02")
        #expect(try store.stats().count == 1)
        let wal = folder.url.appendingPathComponent("history.sqlite-wal").path
        #expect(FileManager.default.fileExists(atPath: wal))
        store.close()
        #expect(!FileManager.default.fileExists(atPath: wal), "closed with a reference still held, the WAL is gone")
        withExtendedLifetime(store) {}
    }

    /// A build's pages read the past through one snapshot (`SQLiteHistory.reader`), taken
    /// when the run opened its history: what is committed later (the run's own batches,
    /// another site's build sharing the file) is not in it, while the pool's reads see it.
    /// Released, it leaves the close to fold the WAL into the file as before.
    @Test func aReaderHoldsTheHistoryAsItWasWhenItWasMade() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        let entry = { (hour: Int) in try HistorySimulation.entry(hour: hour, temperature: { 10 + Double($0 % 5) }) }
        #expect(try store.record((0..<24).map(entry)) == 24)
        var reader: (any HistoryReader)? = try store.reader()
        #expect(try store.record((24..<30).map(entry)) == 6)
        let now = HistorySimulation.start + 30 * 3600, today = "2026-03-02"
        #expect(try store.past(of: "x", before: now, today: today).today?.samples == 6)
        let held = try #require(reader).past(of: "x", before: now, today: today)
        #expect(held.today == nil && held.days.map(\.samples) == [24], "the snapshot's past: the first day only")
        reader = nil
        store.close()
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("history.sqlite-wal").path))
    }

    @Test func localDaysFollowTheCitysClockAcrossDaylightSavingTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        // London: 29 March 2026 has 23 hours, 25 October 2026 has 25.
        let spring = Date(timeIntervalSince1970: 1_774_656_000)  // 2026-03-28T00:00Z
        let autumn = Date(timeIntervalSince1970: 1_792_800_000)  // 2026-10-24T00:00Z, 01:00 BST
        var entries: [HistoryEntry] = []
        for base in [spring, autumn] {
            for hour in 0..<72 {
                entries.append(try HistorySimulation.entry(hour: hour, at: base + TimeInterval(hour * 3600), zone: "Europe/London", temperature: { Double($0 % 24) }))
            }
        }
        _ = try store.record(entries)
        let samples = try store.database.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT day, samples FROM day WHERE samples > 0").map { ($0["day"] as String, $0["samples"] as Int) })
        }
        #expect(samples["2026-03-28"] == 24)
        #expect(samples["2026-03-29"] == 23)
        #expect(samples["2026-03-30"] == 24)
        #expect(samples["2026-10-24"] == 23, "from 01:00 BST")
        #expect(samples["2026-10-25"] == 25)
        #expect(samples["2026-10-26"] == 24)
    }

    @Test func theWeekRecordsAndYesterday() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        // Ten days of 3-hourly observations with day 4 (2026-03-05) missing: a gap.
        // Highs climb a degree a day from 14 °C; rain of 0.4 mm twice in each clock hour
        // reported, once per 3-hour step at 06:00.
        let truth: (Int) -> Double = { 10 + Double($0 % 24) / 6 + Double($0 / 24) }
        var entries = try stride(from: 0, to: 240, by: 3).filter { $0 / 24 != 4 }.map { hour in
            try HistorySimulation.entry(hour: hour, temperature: truth, rain: { $0 % 24 == 6 ? 0.4 : nil })
        }
        // A second report in the 06:00 hour, smaller: the hour still counts 0.4 mm.
        entries.insert(try HistorySimulation.entry(hour: 6, at: HistorySimulation.start + 6 * 3600 + 1200, temperature: { _ in 11 }, rain: { _ in 0.2 }), at: 3)
        _ = try store.record(entries)
        let now = HistorySimulation.start + 240 * 3600 + 1800  // 2026-03-11 00:30
        let past = try store.past(of: "x", before: now, today: "2026-03-11")
        var current = entries[0].current
        current.time = now
        current.temperature = 25
        let summary = HistorySummary(past: past, current: current, today: "2026-03-11")
        #expect(summary.pastWeek.map(\.day) == ["2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"])
        #expect(summary.pastWeek[1].observed == nil, "the missing day is a gap")
        let tenth = try #require(summary.pastWeek[6].observed)
        #expect(tenth.low == 19 && tenth.high == 19 + 21.0 / 6 && tenth.samples == 8 && tenth.precipitation == 0.4)
        #expect(try #require(summary.pastWeek[0].observed).precipitation == 0.4)
        let first = try store.past(of: "x", before: now, today: "2026-03-11").days.first { $0.day == "2026-03-01" }
        #expect(first?.precipitation == 0.4 && first?.samples == 9, "two reports in one hour count once, at the larger")
        #expect(summary.since == "2026-03-01")
        // The month: 9 earlier days; today's 25 °C beats the warmest (10 March's 22.5 °C),
        // a new March record; there is no earlier year, so no record for the date.
        #expect(summary.inThisMonth.warmest == .init(value: 25, day: "2026-03-11"))
        #expect(summary.inThisMonth.coldest == .init(value: 10, day: "2026-03-01"))
        #expect(summary.inThisMonth.days == 10)
        #expect(summary.onThisDate.days == 1)
        #expect(summary.newRecords == [.warmestInMonth])
        // Yesterday at this time: the 00:00 observation of 10 March (within 90 minutes).
        #expect(summary.yesterday == .init(time: HistorySimulation.start + 216 * 3600, temperature: 19, difference: 6))
    }
    /// Records read each earlier year's month by its own key range: the same date and month
    /// in 2024 and 2025 count, that year's April and the days around do not.
    @Test func recordsReachBackOverYears() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        let noon: (String) -> Date = { LocalDay.noon($0)! }
        let earlier: [(String, Double)] = [("2024-02-29", 50), ("2024-03-11", 30), ("2024-04-01", 45), ("2025-03-05", -5), ("2025-04-11", 40), ("2025-12-31", -20)]
        var entries = try earlier.map { day, value in try HistorySimulation.entry(hour: 0, at: noon(day), temperature: { _ in value }) }
        entries += try (0..<10).map { day in try HistorySimulation.entry(hour: day * 24, at: noon("2026-03-01") + TimeInterval(day * 86_400), temperature: { _ in 10 }) }
        _ = try store.record(entries)
        let now = noon("2026-03-11")
        let past = try store.past(of: "x", before: now, today: "2026-03-11")
        #expect(past.days.map(\.day) == ["2024-03-11", "2025-03-05"] + (1...10).map { String(format: "2026-03-%02d", $0) })
        #expect(past.firstDay == "2024-02-29")
        var current = entries[0].current
        current.time = now
        current.temperature = 12
        let summary = HistorySummary(past: past, current: current, today: "2026-03-11")
        #expect(summary.onThisDate == .init(warmest: .init(value: 30, day: "2024-03-11"), coldest: .init(value: 12, day: "2026-03-11"), days: 2))
        #expect(summary.inThisMonth.warmest == .init(value: 30, day: "2024-03-11") && summary.inThisMonth.coldest == .init(value: -5, day: "2025-03-05"))
        #expect(summary.since == "2024-02-29")
    }
    /// "Yesterday at this time" is the reading nearest 24 hours before, within 90 minutes,
    /// the earlier of two as near.
    @Test func yesterdayIsTheNearestReading() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        let now = HistorySimulation.start + 3 * 86_400, target = now - 86_400
        let readings: [(TimeInterval, Double)] = [(-100 * 60, 1), (-40 * 60, 2), (30 * 60, 3), (60 * 60, 4), (120 * 60, 5)]
        _ = try store.record(try readings.map { offset, value in try HistorySimulation.entry(hour: 0, at: target + offset, temperature: { _ in value }) })
        #expect(try store.past(of: "x", before: now, today: "2026-03-04").yesterday?.temperature == 3)
        #expect(try store.past(of: "x", before: now + 5 * 60, today: "2026-03-04").yesterday?.temperature == 3, "25 minutes after against 45 before")
        #expect(try store.past(of: "x", before: now - 5 * 60, today: "2026-03-04").yesterday?.temperature == 2, "35 minutes before and after: the earlier")
        #expect(try store.past(of: "x", before: now + 300 * 60, today: "2026-03-04").yesterday == nil, "none within 90 minutes")
    }
    /// Runs every 15 minutes, off the hour, for four days, so that a later observation
    /// nearer a target hour replaces the pair an earlier one made: every page read again
    /// once its own data is recorded reads as it did before (today from the observations
    /// then; the unsettled pairs left out), and each `day` row is what its raw rows give.
    @Test func aPageReadsTheSameOnceItsOwnDataIsRecorded() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try Self.store(folder)
        var withChecks = 0
        for run in 0..<(4 * 96) {
            let time = HistorySimulation.start + TimeInterval(run * 900 + 7 * 60)  // :07, :22, :37, :52
            let entry = try HistorySimulation.entry(hour: run / 4, at: time, temperature: { 10 + Double($0 % 7) + Double($0 % 3) / 10 },
                                       rain: { $0 % 5 == 0 ? 0.3 : nil }, chance: { $0 % 3 == 0 ? 0.7 : 0.2 },
                                       forecastHours: 76, stepsOnTheHour: true)
            let today = LocalDay.key(for: time, in: TimeZone(identifier: "UTC")!)
            let before = try store.past(of: "x", before: time, today: today)
            #expect(try store.record([entry]) == 1)
            #expect(try store.past(of: "x", before: time, today: today) == before, "run \(run)")
            if before.checks.count == 2 { withChecks += 1 }
        }
        #expect(withChecks > 50, "\(withChecks) pages had both checks")
        try store.expectDaysRecomputed()
    }
}




