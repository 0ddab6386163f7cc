import Foundation
import GRDB

/// Reading a city's past for its pages: a handful of key-range lookups, whatever the
/// history's length (`observed_day` and `check_day` are kept up to date by recording).
extension SQLiteHistory {
    /// How far back the forecast checks look: the UTC days of their target, today's
    /// included (a page adds up whole days of `check_day`).
    static let checkDays = 30
    /// The same in seconds, for retention: a pair is kept while any page may count it.
    static let checkPeriod = checkDays * 86_400

    public func past(of city: String, before time: Date, today: String) throws -> CityPast {
        let now = Int(time.timeIntervalSince1970)
        do {
            // Without a transaction: each statement reads a snapshot of its own, which is
            // enough here. While pages are built only the recorder writes, and a city's
            // entry is handed over after its page read its past; rows from the page's data
            // time on (a build that runs again on the same data) are left out by `now`.
            // A read transaction per page (BEGIN, COMMIT and GRDB's checks around them)
            // cost as much as the reading itself.
            return try database.unsafeRead { db in
                var past = CityPast()
                // The first day before today, the newest observation (anything recorded
                // from the data time on: this data recorded already?) and the reading
                // nearest 24 hours before, in one statement.
                let facts = try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT (SELECT min(day) FROM observed_day WHERE city = ?1 AND day < ?2),
                           (SELECT max(time) FROM observation WHERE city = ?1), y.time, y.temperature
                    FROM (SELECT 1) LEFT JOIN (SELECT time, temperature FROM observation WHERE city = ?1 AND time BETWEEN ?3 - 5400 AND ?3 + 5400
                                               ORDER BY abs(time - ?3) LIMIT 1) y
                    """), arguments: [city, today, now - 86_400])
                let firstDay: String? = facts?[0], newest: Int = facts?[1] ?? 0
                if let time: Int = facts?[2] {
                    past.yesterday = CityPast.Reading(time: Date(timeIntervalSince1970: TimeInterval(time)), temperature: facts![3])
                }
                var todayRow: Row?
                past.days = try Self.days(of: city, today: today, since: firstDay, db).compactMap { row in
                    guard row[0] as String != today else { todayRow = row; return nil }
                    return Self.day(row, precipitation: row[5] + row[7])
                }
                if let row = todayRow {
                    try Self.readToday(row, of: city, before: now, into: &past, db)
                }
                // Today counts once it has observations before the data time.
                past.firstDay = firstDay ?? (past.today == nil ? nil : today)
                let firstCheckDay = now / 86_400 - (Self.checkDays - 1)
                let checks = newest < now ? try Row.fetchAll(db.cachedStatement(sql: Self.checksQuery), arguments: [city, firstCheckDay])
                    : try Row.fetchAll(db.cachedStatement(sql: Self.checksBeforeQuery), arguments: [city, firstCheckDay, now])
                past.checks = checks.map { row in
                    let pairs: Int = row[1]
                    return ForecastCheck(leadHours: row[0], pairs: pairs, days: row[2], meanAbsoluteError: Double(row[3] as Int) / CheckDay.errorUnit / Double(pairs),
                                         likelyRain: row[4], likelyRainHappened: row[5])
                }
                return past
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    /// A city's days in a range; `day(_:precipitation:)` and `readToday` read the columns
    /// by position.
    private static let dayRange = """
        SELECT day, temperature_min, temperature_max, temperature_sum, samples, precipitation, hour, hour_precipitation, last_time
        FROM observed_day WHERE city = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day
        """

    /// `observed_day`'s rows for the page, oldest first: the 8 days before today, this
    /// month so far and today, and this month in each earlier year since `firstDay`: a key
    /// range each, so a page reads the same few rows however many years the history holds.
    private static func days(of city: String, today: String, since firstDay: String?, _ db: Database) throws -> [Row] {
        let range = try db.cachedStatement(sql: dayRange)
        var rows: [Row] = []
        let year = Int(today.prefix(4)) ?? 0, monthAndDay = today.dropFirst(4)
        let month = monthAndDay.prefix(3)  // "-MM"
        if let first = firstDay.flatMap({ Int($0.prefix(4)) }), first < year {
            for earlier in first..<year {
                let start = String(format: "%04d", earlier) + month
                rows += try Row.fetchAll(range, arguments: [city, start + "-01", start + "-31"])
            }
        }
        let weekStart = LocalDay.key(today, plus: -8), monthStart = String(today.prefix(7)) + "-01"
        rows += try Row.fetchAll(range, arguments: [city, min(weekStart, monthStart), today])
        return rows
    }

    /// Today before the data time `now`, from today's summary when it holds nothing from
    /// `now` on (observations are recorded in time order), else from the observations.
    /// Each clock hour's precipitation counts once: the hours before `now`'s in `today`,
    /// `now`'s own so far in `currentHourPrecipitation` (the page adds the current reading).
    private static func readToday(_ row: Row, of city: String, before now: Int, into past: inout CityPast, _ db: Database) throws {
        if let last: Int = row[8], last < now {
            let inThisHour = (row[6] as Int) == now / 3600
            let finished: Double = row[5], hour: Double = row[7]
            past.today = day(row, precipitation: inThisHour ? finished : finished + hour)
            past.currentHourPrecipitation = inThisHour ? hour : 0
            return
        }
        // A local day began at most 26 hours before (a 25-hour day): the time bound keeps
        // the lookup to a key range, not the city's whole month.
        let today: String = row[0]
        past.today = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT ?2, min(temperature), max(temperature), sum(temperature), count(*),
                   (SELECT coalesce(sum(amount), 0) FROM (SELECT max(coalesce(rain_1h, 0) + coalesce(snow_1h, 0)) AS amount
                        FROM observation WHERE city = ?1 AND time > ?3 - 93600 AND time < ?3 / 3600 * 3600 AND day = ?2 GROUP BY time / 3600))
            FROM observation WHERE city = ?1 AND time > ?3 - 93600 AND time < ?3 AND day = ?2
            """), arguments: [city, today, now]).flatMap { ($0[4] as Int) > 0 ? day($0, precipitation: $0[5]) : nil }
        past.currentHourPrecipitation = try Double.fetchOne(db.cachedStatement(sql: """
            SELECT coalesce(max(coalesce(rain_1h, 0) + coalesce(snow_1h, 0)), 0) FROM observation
            WHERE city = ?1 AND day = ?2 AND time >= ?3 / 3600 * 3600 AND time < ?3
            """), arguments: [city, today, now]) ?? 0
    }

    /// The checks of the last `checkDays` UTC days (today's included) from `check_day`:
    /// ?2 is the first of them. A day's row exists only while it holds a pair.
    private static let checksQuery = """
        SELECT lead_hours, sum(pairs) AS pairs, count(*) AS days, sum(error_sum) AS error_sum, sum(likely) AS likely, sum(happened) AS happened
        FROM check_day WHERE city = ?1 AND day >= ?2 GROUP BY lead_hours ORDER BY lead_hours
        """

    /// The same, for a page whose data is recorded already (a build run again on the same
    /// data): less the pairs observed from its data time ?3 on, which lie within half an
    /// hour of it, so that the page reads as it did the first time.
    private static let checksBeforeQuery: String = {
        let leads = DerivedRows.leads.map(String.init).joined(separator: ", ")
        let unpair = "-1, -\(CheckDay.error("")), -\(CheckDay.likely("")), -\(CheckDay.happened(""))"
        return """
            SELECT lead_hours, sum(pairs) AS pairs, count(*) AS days, sum(error_sum) AS error_sum, sum(likely) AS likely, sum(happened) AS happened
            FROM (SELECT lead_hours, day, sum(pairs) AS pairs, sum(error_sum) AS error_sum, sum(likely) AS likely, sum(happened) AS happened
                  FROM (SELECT lead_hours, day, pairs, error_sum, likely, happened FROM check_day WHERE city = ?1 AND day >= ?2
                        UNION ALL
                        SELECT lead_hours, target / 86400, \(unpair) FROM verification
                        WHERE city = ?1 AND lead_hours IN (\(leads)) AND target >= max(?3 - 1800, ?2 * 86400) AND observed_time >= ?3)
                  GROUP BY lead_hours, day HAVING sum(pairs) > 0)
            GROUP BY lead_hours ORDER BY lead_hours
            """
    }()

    /// A day from a row that starts with `day, temperature_min, temperature_max,
    /// temperature_sum, samples` (by position: a page reads some 40 of these, and GRDB
    /// finds a column by name with a string comparison per column).
    private static func day(_ row: Row, precipitation: Double) -> ObservedDay {
        let samples: Int = row[4]
        return ObservedDay(day: row[0], low: row[1], high: row[2], mean: row[3] / Double(samples), precipitation: precipitation, samples: samples)
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
