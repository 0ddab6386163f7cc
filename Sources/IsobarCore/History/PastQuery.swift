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
            return try readers.read { connection in
                var past = CityPast()
                var firstDay: String?, newest = 0
                try connection.rows(.facts, [.text(city), .text(today)]) { row in
                    firstDay = row.optionalText(0)
                    newest = row.optionalInt(1) ?? 0
                }
                // The readings either side of 24 hours before; the nearer (the earlier on a tie).
                let dayBefore = now - 86_400
                try connection.rows(.yesterday, [.text(city), .int(dayBefore)]) { row in
                    let time = row.int(0)
                    if let found = past.yesterday, abs(Int(found.time.timeIntervalSince1970) - dayBefore) <= abs(time - dayBefore) { return }
                    past.yesterday = CityPast.Reading(time: Date(timeIntervalSince1970: TimeInterval(time)), temperature: row.double(1))
                }
                var todayRow: DayRow?
                for day in try Self.days(of: city, today: today, since: firstDay, connection) {
                    if day.observed.day == today { todayRow = day } else { past.days.append(day.completed) }
                }
                if let row = todayRow {
                    try Self.readToday(row, of: city, before: now, into: &past, connection)
                }
                // Today counts once it has observations before the data time.
                past.firstDay = firstDay ?? (past.today == nil ? nil : today)
                let firstCheckDay = now / 86_400 - (Self.checkDays - 1)
                let (checks, arguments): (PastStatement, [PastArgument]) = newest < now
                    ? (.checks, [.text(city), .int(firstCheckDay)]) : (.checksBefore, [.text(city), .int(firstCheckDay), .int(now)])
                try connection.rows(checks, arguments) { row in
                    let pairs = row.int(1)
                    past.checks.append(ForecastCheck(leadHours: row.int(0), pairs: pairs, days: row.int(2),
                                                     meanAbsoluteError: Double(row.int(3)) / CheckDay.errorUnit / Double(pairs),
                                                     likelyRain: row.int(4), likelyRainHappened: row.int(5)))
                }
                return past
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    /// A row of `observed_day` as `PastStatement.dayRange` reads it.
    private struct DayRow {
        /// With `precipitation` the finished clock hours' only.
        var observed: ObservedDay
        var hour: Int
        var hourPrecipitation: Double
        var lastTime: Int?

        init(_ row: ResultRow) {
            let samples = row.int(4)
            observed = ObservedDay(day: row.text(0), low: row.double(1), high: row.double(2), mean: row.double(3) / Double(samples),
                                   precipitation: row.double(5), samples: samples)
            hour = row.int(6)
            hourPrecipitation = row.double(7)
            lastTime = row.optionalInt(8)
        }

        /// The day with its last hour counted.
        var completed: ObservedDay {
            var day = observed
            day.precipitation += hourPrecipitation
            return day
        }
    }

    /// `observed_day`'s rows for the page, oldest first: the 8 days before today, this
    /// month so far and today, and this month in each earlier year since `firstDay`: a key
    /// range each, so a page reads the same few rows however many years the history holds.
    private static func days(of city: String, today: String, since firstDay: String?, _ connection: PastConnection) throws -> [DayRow] {
        var rows: [DayRow] = []
        let year = Int(today.prefix(4)) ?? 0
        let month = today.dropFirst(4).prefix(3)  // "-MM"
        if let first = firstDay.flatMap({ Int($0.prefix(4)) }), first < year {
            for earlier in first..<year {
                let start = String(format: "%04d", earlier) + month
                try connection.rows(.dayRange, [.text(city), .text(start + "-01"), .text(start + "-31")]) { rows.append(DayRow($0)) }
            }
        }
        let weekStart = LocalDay.key(today, plus: -8), monthStart = String(today.prefix(7)) + "-01"
        try connection.rows(.dayRange, [.text(city), .text(min(weekStart, monthStart)), .text(today)]) { rows.append(DayRow($0)) }
        return rows
    }

    /// Today before the data time `now`, from today's summary when it holds nothing from
    /// `now` on (observations are recorded in time order), else from the observations.
    /// Each clock hour's precipitation counts once: the hours before `now`'s in `today`,
    /// `now`'s own so far in `currentHourPrecipitation` (the page adds the current reading).
    private static func readToday(_ row: DayRow, of city: String, before now: Int, into past: inout CityPast, _ connection: PastConnection) throws {
        if let last = row.lastTime, last < now {
            let inThisHour = row.hour == now / 3600
            past.today = inThisHour ? row.observed : row.completed
            past.currentHourPrecipitation = inThisHour ? row.hourPrecipitation : 0
            return
        }
        let arguments: [PastArgument] = [.text(city), .text(row.observed.day), .int(now)]
        past.today = nil
        try connection.rows(.todayBefore, arguments) { day in
            let samples = day.int(4)
            guard samples > 0 else { return }
            past.today = ObservedDay(day: day.text(0), low: day.double(1), high: day.double(2), mean: day.double(3) / Double(samples),
                                     precipitation: day.double(5), samples: samples)
        }
        past.currentHourPrecipitation = 0
        try connection.rows(.hourBefore, arguments) { past.currentHourPrecipitation = $0.double(0) }
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

/// The statements a page's past is read with (`PastConnection` prepares each once).
enum PastStatement: Int, CaseIterable {
    /// The first day before today (?2) and the newest observation (is anything recorded
    /// from the data time on: this data recorded already?).
    case facts
    /// The last reading at or before ?2 and the first after it, within 90 minutes: two
    /// key lookups (sorting the range by distance took a temporary table).
    case yesterday
    /// A city's days in a range (?2 to ?3): `day, temperature_min, temperature_max,
    /// temperature_sum, samples, precipitation, hour, hour_precipitation, last_time`.
    case dayRange
    /// Today (?2) from the observations before the data time ?3, in `dayRange`'s first
    /// six columns, precipitation counting the clock hours before ?3's. A local day began
    /// at most 26 hours before (a 25-hour day): the time bound keeps the lookup to a key
    /// range, not the city's whole month.
    case todayBefore
    /// The largest last-hour precipitation reported earlier in ?3's clock hour.
    case hourBefore
    /// The checks of the last `checkDays` UTC days (today's included) from `check_day`:
    /// ?2 is the first of them. A day's row exists only while it holds a pair.
    case checks
    /// The same, for a page whose data is recorded already (a build run again on the same
    /// data): less the pairs observed from its data time ?3 on, which lie within half an
    /// hour of it, so that the page reads as it did the first time.
    case checksBefore

    var sql: String {
        switch self {
        case .facts: """
            SELECT (SELECT min(day) FROM observed_day WHERE city = ?1 AND day < ?2), (SELECT max(time) FROM observation WHERE city = ?1)
            """
        case .yesterday: """
            SELECT * FROM (SELECT time, temperature FROM observation WHERE city = ?1 AND time BETWEEN ?2 - 5400 AND ?2 ORDER BY time DESC LIMIT 1)
            UNION ALL
            SELECT * FROM (SELECT time, temperature FROM observation WHERE city = ?1 AND time > ?2 AND time <= ?2 + 5400 ORDER BY time LIMIT 1)
            """
        case .dayRange: """
            SELECT day, temperature_min, temperature_max, temperature_sum, samples, precipitation, hour, hour_precipitation, last_time
            FROM observed_day WHERE city = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day
            """
        case .todayBefore: """
            SELECT ?2, min(temperature), max(temperature), sum(temperature), count(*),
                   (SELECT coalesce(sum(amount), 0) FROM (SELECT max(coalesce(rain_1h, 0) + coalesce(snow_1h, 0)) AS amount
                        FROM observation WHERE city = ?1 AND time > ?3 - 93600 AND time < ?3 / 3600 * 3600 AND day = ?2 GROUP BY time / 3600))
            FROM observation WHERE city = ?1 AND time > ?3 - 93600 AND time < ?3 AND day = ?2
            """
        case .hourBefore: """
            SELECT coalesce(max(coalesce(rain_1h, 0) + coalesce(snow_1h, 0)), 0) FROM observation
            WHERE city = ?1 AND day = ?2 AND time >= ?3 / 3600 * 3600 AND time < ?3
            """
        case .checks: """
            SELECT lead_hours, sum(pairs), count(*), sum(error_sum), sum(likely), sum(happened)
            FROM check_day WHERE city = ?1 AND day >= ?2 GROUP BY lead_hours ORDER BY lead_hours
            """
        case .checksBefore: Self.checksBeforeSQL
        }
    }

    private static let checksBeforeSQL: String = {
        let leads = DerivedRows.leads.map(String.init).joined(separator: ", ")
        let unpair = "-1, -\(CheckDay.error("")), -\(CheckDay.likely("")), -\(CheckDay.happened(""))"
        return """
            SELECT lead_hours, sum(pairs), count(*), sum(error_sum), sum(likely), sum(happened)
            FROM (SELECT lead_hours, day, sum(pairs) AS pairs, sum(error_sum) AS error_sum, sum(likely) AS likely, sum(happened) AS happened
                  FROM (SELECT lead_hours, day, pairs, error_sum, likely, happened FROM check_day WHERE city = ?1 AND day >= ?2
                        UNION ALL
                        SELECT lead_hours, target / 86400, \(unpair) FROM verification
                        WHERE city = ?1 AND lead_hours IN (\(leads)) AND target >= max(?3 - 1800, ?2 * 86400) AND observed_time >= ?3)
                  GROUP BY lead_hours, day HAVING sum(pairs) > 0)
            GROUP BY lead_hours ORDER BY lead_hours
            """
    }()
}
