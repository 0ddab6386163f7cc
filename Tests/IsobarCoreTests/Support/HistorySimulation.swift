import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// Runs of a city made up for the history's tests: an entry per run, with an observation
/// and an hourly forecast whose error is known, from a fixed start.
enum HistorySimulation {
    /// 2026-03-01T00:00Z.
    static let start = Date(timeIntervalSince1970: 1_772_323_200)

    /// A run's entry at `hour` hours after `start` (or at `time`): the observed
    /// temperature, its last-hour rain, and an hourly forecast of `forecastHours` whose
    /// error grows by 1 °C per 24 h of lead.
    static func entry(hour: Int, at time: Date? = nil, zone: String = "UTC", temperature: (Int) -> Double, rain: (Int) -> Double? = { _ in nil },
                      chance: (Int) -> Double = { _ in 0 }, forecastHours: Int = 0, stepsOnTheHour: Bool = false) throws -> HistoryEntry {
        var forecast = try Fixtures.forecast()
        forecast.location.timeZoneIdentifier = zone
        forecast.current.time = time ?? start + TimeInterval(hour * 3600)
        forecast.current.temperature = temperature(hour)
        forecast.current.rainLastHour = rain(hour)
        forecast.current.snowLastHour = nil
        forecast.current.conditions = [Condition(code: 800, main: "Clear", description: "clear sky", icon: "01d")]
        let template = forecast.hourly[0]
        forecast.hourly = (0..<forecastHours).map { index in
            let lead = index + 1
            var step = template
            // Whole hours from the current hour, as the APIs send them, or the data time's.
            let from = stepsOnTheHour ? (forecast.current.time.timeIntervalSince1970 / 3600).rounded(.down) * 3600 : forecast.current.time.timeIntervalSince1970
            step.time = Date(timeIntervalSince1970: from + TimeInterval(lead * 3600))
            step.stepHours = 1
            step.temperature = temperature(hour + lead) + Double(lead) / 24
            step.precipitationChance = chance(hour + lead)
            return step
        }
        return HistoryEntry(city: "x", forecast: forecast)
    }
}

/// What the history's tests read back from a store, in SQL.
extension SQLiteHistory {
    func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try database.read { try Row.fetchAll($0, sql: sql, arguments: arguments) }
    }

    func int(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try database.read { try Int.fetchOne($0, sql: sql, arguments: arguments) } ?? 0
    }

    /// Every `day` row holds what its raw rows give now, recomputed (`StoredDay.recompute`
    /// changes nothing): in an unpruned history, where every raw row is still there.
    func expectDaysRecomputed(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let sql = "SELECT * FROM day ORDER BY city, day"
        let before = try rows(sql)
        try database.write { db in
            for row in before { try StoredDay.recompute(row["day"], of: row["city"], db) }
            try db.execute(sql: "DELETE FROM day")
            for row in before { try StoredDay.recompute(row["day"], of: row["city"], db) }
        }
        #expect(try rows(sql) == before, sourceLocation: sourceLocation)
    }
}
