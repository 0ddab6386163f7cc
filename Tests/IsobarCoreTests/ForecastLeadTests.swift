import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// The forecast hours kept for the checks (`forecast_lead`) and their pairing
/// (`DayFacts`): whatever order runs are recorded in, a check is the forecast made about
/// 24 (or 72) hours ahead paired with the observation nearest its target hour.
@Suite struct ForecastLeadTests {
    /// Two runs 24 hours apart, each forecast stretched to 48 hours.
    static func twoRuns() throws -> [HistoryEntry] {
        try [0.0, 24].map { hours in
            var forecast = try Fixtures.forecast(hoursAfter: hours)
            let first = try #require(forecast.hourly.first)
            forecast.hourly = (0..<48).map { index in
                var step = first
                step.time += Double(index) * 3600
                step.temperature += Double(index) / 10
                return step
            }
            return HistoryEntry(city: "london-gb", forecast: forecast)
        }
    }

    /// The second run's hour, forecast 24 hours ahead by the first, is the one check: in
    /// the `day` row of its target's UTC day.
    static func expectOneCheck(_ store: SQLiteHistory, _ entries: [HistoryEntry]) throws {
        let hour = (Int(entries[1].time.timeIntervalSince1970) + 1800) / 3600 * 3600
        let forecastThen = try #require(entries[0].hourly.first { Int($0.time.timeIntervalSince1970) == hour })
        let rows = try store.database.read { try Row.fetchAll($0, sql: "SELECT * FROM day WHERE pairs_24 + pairs_72 > 0") }
        #expect(rows.count == 1)
        let error = Int((abs(forecastThen.temperature - entries[1].current.temperature) * 1_000_000).rounded())
        #expect(rows.first?["day"] == DayFacts.utcDay(hour) && rows.first?["pairs_24"] == 1 && rows.first?["pairs_72"] == 0
                && rows.first?["error_sum_24"] == error)
    }

    @Test func runsInTimeOrderMakeOneCheck() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
        let entries = try Self.twoRuns()
        #expect(try store.record(entries) == 2)
        try Self.expectOneCheck(store, entries)
        // The same runs again (a build the API's data time has not moved on from) add
        // nothing, and change nothing.
        let rows = { try store.database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM observation ORDER BY time") + (try Row.fetchAll(db, sql: "SELECT * FROM forecast_lead ORDER BY made, lead_hours")) } }
        let before = try rows()
        #expect(try store.record(entries) == 0)
        #expect(try rows() == before)
        try Self.expectOneCheck(store, entries)
    }

    /// An import of an older run after a newer one (out of order) still pairs its forecast
    /// with the observation already recorded.
    @Test func aRunRecordedLateIsPairedWithWhatWasObserved() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
        let entries = try Self.twoRuns()
        #expect(try store.record([entries[1]]) == 1)
        #expect(try store.record([entries[0]]) == 1)
        try Self.expectOneCheck(store, entries)
    }

    /// Of two runs equally near the hour a forecast was made for, the earlier is kept,
    /// whichever was recorded first; a nearer one replaces either.
    @Test func theNearestRunIsKeptTheEarlierOnATie() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let store = try SQLiteHistory(file: folder.url.appendingPathComponent("history.sqlite"))
        let made = 1_800_000_000 / 3600 * 3600
        func lead(_ issued: Int, _ temperature: Double) -> DayFacts.Lead {
            DayFacts.Lead(made: made, lead: 24, issued: issued, temperature: temperature, chance: nil)
        }
        func kept() throws -> Double? {
            try store.database.read { try Double.fetchOne($0, sql: "SELECT temperature FROM forecast_lead") }
        }
        try store.database.write { db in
            try RawRows.keepLead(lead(made + 600, 1), of: "x", db)
            try RawRows.keepLead(lead(made - 600, 2), of: "x", db)
        }
        #expect(try kept() == 2)
        try store.database.write { try RawRows.keepLead(lead(made + 600, 3), of: "x", $0) }
        #expect(try kept() == 2)
        try store.database.write { try RawRows.keepLead(lead(made + 60, 4), of: "x", $0) }
        #expect(try kept() == 4)
    }

    /// The observation nearest the target in [target − 30 min, target + 30 min), the earlier
    /// on a tie; the error in millionths; rain forecast at 50 % or more is "likely".
    @Test func aCheckPairsTheNearestObservation() {
        let target = 1_800_000_000 / 3600 * 3600
        let lead = DayFacts.Lead(made: target - 24 * 3600, lead: 24, issued: target - 24 * 3600, temperature: 10, chance: 0.5)
        func observation(_ offset: Int, _ temperature: Double, rain: Double? = nil) -> DayFacts.Observation {
            DayFacts.Observation(time: target + offset, day: "", temperature: temperature, rain: rain)
        }
        let tie = [observation(-600, 11), observation(600, 12, rain: 0.2)]
        #expect(DayFacts.check(lead, against: tie) == DayFacts.Totals(pairs: 1, errorSum: 1_000_000, likely: 1, happened: 0))
        #expect(DayFacts.check(lead, against: [observation(-1800, 9.5, rain: 1), observation(1800, 10)])
                == DayFacts.Totals(pairs: 1, errorSum: 500_000, likely: 1, happened: 1), "−30 min is in, +30 min is out")
        #expect(DayFacts.check(lead, against: [observation(1800, 10)]) == nil)
    }
}
