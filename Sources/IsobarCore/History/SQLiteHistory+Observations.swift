import Foundation
import GRDB

/// One recorded observation, as the `observation` table holds it: every current value in
/// the canonical SI units the forecast model holds (°C, %, hPa, m/s, degrees, m, mm) and
/// the condition as OpenWeather's code.
public struct HistoryObservation: Sendable, Equatable {
    public var source: String
    public var condition: Int?
    /// The data time and the values recorded (`CurrentConditions.fields`); no conditions,
    /// sunrise or sunset.
    public var values: CurrentConditions

    public var time: Date { values.time }
}

/// Reads of the `observation` table for import and export.
extension SQLiteHistory {
    /// Whether any observation is recorded yet (`history.start_from` imports into a
    /// history that has none).
    public func hasObservations() throws -> Bool {
        try sqlite {
            return try database.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM observation)") ?? false }
        }
    }

    /// The city's observations in time order; empty when it has none.
    public func observations(city: String) throws -> [HistoryObservation] {
        try sqlite {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM observation WHERE city = ? ORDER BY time", arguments: [city]).map { row in
                    var values = CurrentConditions(time: Date(timeIntervalSince1970: TimeInterval(row["time"] as Int)),
                                                   temperature: row["temperature"], conditions: [])
                    ForecastField.read(row, into: &values, CurrentConditions.fields)
                    return HistoryObservation(source: row["source"], condition: row["condition"], values: values)
                }
            }
        }
    }
}
