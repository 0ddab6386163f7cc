import Foundation
import GRDB

/// Reading a city's past for its pages: a handful of key-range lookups, whatever the
/// history's length (`observed_day` and `verification` are kept up to date by recording).
extension SQLiteHistory {
    /// How far back the forecast checks look.
    static let checkPeriod = 30 * 86_400

    public func past(of city: String, before time: Date, today: String) throws -> CityPast {
        let now = Int(time.timeIntervalSince1970)
        let weekStart = LocalDay.key(today, plus: -8)
        let month = String(today.dropFirst(5).prefix(2))
        do {
            return try database.read { db in
                var past = CityPast()
                past.days = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT day, temperature_min, temperature_max, temperature_sum / samples AS mean,
                           precipitation + hour_precipitation AS precipitation, samples
                    FROM observed_day WHERE city = ?1 AND day < ?2 AND (day >= ?3 OR substr(day, 6, 2) = ?4) ORDER BY day
                    """), arguments: [city, today, weekStart, month]).map(Self.day)
                // Today from the observations before the data time, each clock hour's
                // precipitation counted once (as in `observed_day`). A local day began at
                // most 26 hours before (a 25-hour day): the time bound keeps the lookup to
                // a key range, not the city's whole month.
                past.today = try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT ?2 AS day, min(temperature) AS temperature_min, max(temperature) AS temperature_max, avg(temperature) AS mean,
                           (SELECT coalesce(sum(amount), 0) FROM (SELECT max(coalesce(rain_1h, 0) + coalesce(snow_1h, 0)) AS amount
                                FROM observation WHERE city = ?1 AND time > ?3 - 93600 AND time < ?3 / 3600 * 3600 AND day = ?2 GROUP BY time / 3600)) AS precipitation,
                           count(*) AS samples
                    FROM observation WHERE city = ?1 AND time > ?3 - 93600 AND time < ?3 AND day = ?2
                    """), arguments: [city, today, now]).flatMap { ($0["samples"] as Int) > 0 ? Self.day($0) : nil }
                past.currentHourPrecipitation = try Double.fetchOne(db.cachedStatement(sql: """
                    SELECT coalesce(max(coalesce(rain_1h, 0) + coalesce(snow_1h, 0)), 0) FROM observation
                    WHERE city = ?1 AND day = ?2 AND time >= ?3 / 3600 * 3600 AND time < ?3
                    """), arguments: [city, today, now]) ?? 0
                past.firstDay = try String.fetchOne(db.cachedStatement(sql: "SELECT min(day) FROM observed_day WHERE city = ?"), arguments: [city])
                past.yesterday = try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT time, temperature FROM observation WHERE city = ?1 AND time BETWEEN ?2 - 5400 AND ?2 + 5400
                    ORDER BY abs(time - ?2) LIMIT 1
                    """), arguments: [city, now - 86_400]).map { CityPast.Reading(time: Date(timeIntervalSince1970: TimeInterval($0["time"] as Int)), temperature: $0["temperature"]) }
                past.checks = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT lead_hours, count(*) AS pairs, count(DISTINCT target / 86400) AS days, avg(abs(forecast - observed)) AS error,
                           sum(chance >= 0.5) AS likely, sum(chance >= 0.5 AND precipitated) AS happened
                    FROM verification WHERE city = ?1 AND target >= ?2 AND observed_time < ?3
                    GROUP BY lead_hours ORDER BY lead_hours
                    """), arguments: [city, now - Self.checkPeriod, now]).map { row in
                    ForecastCheck(leadHours: row["lead_hours"], pairs: row["pairs"], days: row["days"], meanAbsoluteError: row["error"],
                                  likelyRain: row["likely"] ?? 0, likelyRainHappened: row["happened"] ?? 0)
                }
                return past
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    private static func day(_ row: Row) -> ObservedDay {
        ObservedDay(day: row["day"], low: row["temperature_min"], high: row["temperature_max"], mean: row["mean"],
                    precipitation: row["precipitation"], samples: row["samples"])
    }

    /// Each city's revision: bumped when its past changes other than by a new data time.
    public func revisions() throws -> [String: Int] {
        do {
            return try database.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT city, revision FROM city").map { ($0["city"], $0["revision"]) })
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }
}
