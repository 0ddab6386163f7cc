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
            // entry is handed over after its page read its past; what the page's own data
            // time may change (a build that runs again on the same data) is left out by `now`.
            return try readers.read { connection in
                var past = CityPast()
                var firstDay: String?
                try connection.rows(.firstDay, [.text(city), .text(today)]) { firstDay = $0.optionalText(0) }
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
                past.checks = try Self.checks(of: city, before: now, connection)
                return past
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    /// A day of `observed_day`, as `PastStatement.dayRange` reads it or as `readToday`
    /// adds up the observations the same way, one at a time in time order (so both give
    /// the same bits, whatever SQLite's own `sum()` does).
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

        /// The first observation of `day`; `adding` the next ones as `DerivedRows.addToDay`
        /// does (`mean` holds the running sum until `finished`).
        init(day: String, time: Int, temperature: Double, precipitation: Double) {
            observed = ObservedDay(day: day, low: temperature, high: temperature, mean: temperature, precipitation: 0, samples: 1)
            hour = time / 3600
            hourPrecipitation = precipitation
            lastTime = time
        }

        mutating func add(time: Int, temperature: Double, precipitation: Double) {
            observed.low = min(observed.low, temperature)
            observed.high = max(observed.high, temperature)
            observed.mean = observed.mean + temperature
            observed.samples += 1
            if time / 3600 == hour {
                hourPrecipitation = max(hourPrecipitation, precipitation)
            } else {
                observed.precipitation = observed.precipitation + hourPrecipitation
                hourPrecipitation = precipitation
                hour = time / 3600
            }
            lastTime = time
        }

        /// The running sum made a mean.
        var finished: DayRow {
            var day = self
            day.observed.mean = observed.mean / Double(observed.samples)
            return day
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

    /// Today before the data time `now`: today's summary when it holds nothing from `now`
    /// on (observations are recorded in time order), else the observations before `now`
    /// added up as the summary adds them. Each clock hour's precipitation counts once: the
    /// hours before `now`'s in `today`, `now`'s own so far in `currentHourPrecipitation`
    /// (the page adds the current reading).
    private static func readToday(_ summary: DayRow, of city: String, before now: Int, into past: inout CityPast, _ connection: PastConnection) throws {
        var row: DayRow? = summary
        if (summary.lastTime ?? .max) >= now {
            var sum: DayRow?
            try connection.rows(.todayBefore, [.text(city), .text(summary.observed.day), .int(now)]) { observation in
                let time = observation.int(0), temperature = observation.double(1)
                let precipitation = observation.double(2) + observation.double(3)  // NULL reads as 0
                if sum == nil {
                    sum = DayRow(day: summary.observed.day, time: time, temperature: temperature, precipitation: precipitation)
                } else {
                    sum!.add(time: time, temperature: temperature, precipitation: precipitation)
                }
            }
            row = sum?.finished
        }
        guard let row else { past.today = nil; past.currentHourPrecipitation = 0; return }
        let inThisHour = row.hour == now / 3600
        past.today = inThisHour ? row.observed : row.completed
        past.currentHourPrecipitation = inThisHour ? row.hourPrecipitation : 0
    }

    /// The forecast checks of the last `checkDays` UTC days that are settled: a pair whose
    /// target hour is less than half an hour before the data time (or after it) may still
    /// be replaced by a nearer observation, this run's among them, so it is left out, and a
    /// build run again on the same data reads the same checks. Whole days come summed from
    /// `check_day`; the few unsettled pairs are taken off again (and a day they leave with
    /// no pair is not counted).
    private static func checks(of city: String, before now: Int, _ connection: PastConnection) throws -> [ForecastCheck] {
        struct Totals { var pairs = 0, days = 0, errorSum = 0, likely = 0, happened = 0 }
        var totals: [Int: Totals] = [:]
        try connection.rows(.checks, [.text(city), .int(now / 86_400 - (checkDays - 1))]) { row in
            totals[row.int(0)] = Totals(pairs: row.int(1), days: row.int(2), errorSum: row.int(3), likely: row.int(4), happened: row.int(5))
        }
        struct LeadDay: Hashable { var lead: Int, day: Int }
        var unsettled: [LeadDay: Int] = [:]
        try connection.rows(.unsettled, [.text(city), .int(now - 1800)]) { row in
            let lead = row.int(0)
            guard var total = totals[lead] else { return }
            total.pairs -= 1
            total.errorSum -= row.int(2)
            total.likely -= row.int(3)
            total.happened -= row.int(4)
            totals[lead] = total
            unsettled[LeadDay(lead: lead, day: row.int(1)), default: 0] += 1
        }
        for (key, count) in unsettled {
            var pairs = 0
            try connection.rows(.checkDayPairs, [.text(city), .int(key.lead), .int(key.day)]) { pairs = $0.int(0) }
            if pairs <= count { totals[key.lead]?.days -= 1 }
        }
        return totals.keys.sorted().compactMap { lead in
            guard let total = totals[lead], total.pairs > 0 else { return nil }
            return ForecastCheck(leadHours: lead, pairs: total.pairs, days: total.days,
                                 meanAbsoluteError: Double(total.errorSum) / CheckDay.errorUnit / Double(total.pairs),
                                 likelyRain: total.likely, likelyRainHappened: total.happened)
        }
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
    /// The first day before today (?2).
    case firstDay
    /// The last reading at or before ?2 and the first after it, within 90 minutes: two
    /// key lookups (sorting the range by distance took a temporary table).
    case yesterday
    /// A city's days in a range (?2 to ?3): `day, temperature_min, temperature_max,
    /// temperature_sum, samples, precipitation, hour, hour_precipitation, last_time`.
    case dayRange
    /// Today's (?2) observations before the data time ?3, in time order. A local day began
    /// at most 26 hours before (a 25-hour day): the time bound keeps the lookup to a key
    /// range, not the city's whole month.
    case todayBefore
    /// The checks from UTC day ?2 on, per lead, from `check_day`: pairs, days, errors,
    /// likely rain, rain that came. A day's row exists only while it holds a pair.
    case checks
    /// The pairs whose target is at or after ?2: a key range.
    case unsettled
    /// A day's pairs for a lead (?2) and UTC day (?3).
    case checkDayPairs

    var sql: String {
        switch self {
        case .firstDay: "SELECT min(day) FROM observed_day WHERE city = ?1 AND day < ?2"
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
            SELECT time, temperature, rain_1h, snow_1h FROM observation
            WHERE city = ?1 AND time > ?3 - 93600 AND time < ?3 AND day = ?2 ORDER BY time
            """
        case .checks: """
            SELECT lead_hours, sum(pairs), count(*), sum(error_sum), sum(likely), sum(happened)
            FROM check_day WHERE city = ?1 AND day >= ?2 GROUP BY lead_hours ORDER BY lead_hours
            """
        case .unsettled: """
            SELECT lead_hours, target / 86400, \(CheckDay.error("")), \(CheckDay.likely("")), \(CheckDay.happened(""))
            FROM verification WHERE city = ?1 AND target >= ?2
            """
        case .checkDayPairs: "SELECT pairs FROM check_day WHERE city = ?1 AND lead_hours = ?2 AND day = ?3"
        }
    }
}
