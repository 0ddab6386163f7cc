import Foundation
import GRDB

/// One recorded observation, as the `observation` table holds it: canonical SI units
/// (°C, %, hPa, m/s, degrees, m, mm) and the condition as OpenWeather's code.
public struct HistoryObservation: Sendable, Equatable {
    public var time: Date
    public var source: String
    public var timeZone: String
    public var temperature: Double
    public var feelsLike: Double?
    public var humidity: Double?
    public var dewPoint: Double?
    public var pressure: Double?
    public var windSpeed: Double?
    public var windGust: Double?
    public var windDirection: Double?
    public var cloudCover: Double?
    public var visibility: Double?
    public var uvIndex: Double?
    public var rainLastHour: Double?
    public var snowLastHour: Double?
    public var condition: Int?
}

/// Reads of the `observation` table (schema v1's columns) for import and export.
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
                try Row.fetchAll(db, sql: """
                    SELECT time, source, time_zone, temperature, feels_like, humidity, dew_point, pressure, wind_speed, wind_gust,
                           wind_direction, cloud_cover, visibility, uv_index, rain_1h, snow_1h, condition
                    FROM observation WHERE city = ? ORDER BY time
                    """, arguments: [city]).map { row in
                    HistoryObservation(
                        time: Date(timeIntervalSince1970: TimeInterval(row["time"] as Int)), source: row["source"], timeZone: row["time_zone"],
                        temperature: row["temperature"], feelsLike: row["feels_like"], humidity: row["humidity"], dewPoint: row["dew_point"],
                        pressure: row["pressure"], windSpeed: row["wind_speed"], windGust: row["wind_gust"], windDirection: row["wind_direction"],
                        cloudCover: row["cloud_cover"], visibility: row["visibility"], uvIndex: row["uv_index"],
                        rainLastHour: row["rain_1h"], snowLastHour: row["snow_1h"], condition: row["condition"])
                }
            }
        }
    }
}
