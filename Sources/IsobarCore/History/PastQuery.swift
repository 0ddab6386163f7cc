import Foundation
import GRDB

/// Reading a city's past for its pages: a handful of key-range lookups, whatever the
/// history's length (`observed_day` and `check_day` are kept up to date by recording,
/// with the city's latest day and its checks so far in its open day, `open_day`).
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
                var open: (tally: DayTally, pairs: [OpenDay.Pair])?
                try connection.rows(.openDay, [.text(city)]) { open = (DayTally($0), OpenDay.pairs($0.blob(9)) ?? []) }
                var firstDay: String?
                try connection.rows(.firstDay, [.text(city), .text(today)]) { firstDay = $0.optionalText(0) }
                if let day = open?.tally.day, day < today { firstDay = min(firstDay ?? day, day) }
                // The readings either side of 24 hours before; the nearer (the earlier on a tie).
                let dayBefore = now - 86_400
                try connection.rows(.yesterday, [.text(city), .int(dayBefore)]) { row in
                    let time = row.int(0)
                    if let found = past.yesterday, abs(Int(found.time.timeIntervalSince1970) - dayBefore) <= abs(time - dayBefore) { return }
                    past.yesterday = CityPast.Reading(time: Date(timeIntervalSince1970: TimeInterval(time)), temperature: row.double(1))
                }
                var todayRow: DayTally?
                for day in try Self.days(of: city, today: today, since: firstDay, open: open?.tally, connection) {
                    if day.day == today { todayRow = day } else { past.days.append(day.completed) }
                }
                if let row = todayRow {
                    try Self.readToday(row, of: city, before: now, into: &past, connection)
                }
                // Today counts once it has observations before the data time.
                past.firstDay = firstDay ?? (past.today == nil ? nil : today)
                past.checks = try Self.checks(of: city, before: now, open: open?.pairs ?? [], connection)
                return past
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    /// The days of `observed_day` and the city's open day (`open`) for the page, oldest
    /// first: the 8 days before today, this month so far and today, and this month in
    /// each earlier year since `firstDay`: a key range each, so a page reads the same few
    /// rows however many years the history holds.
    private static func days(of city: String, today: String, since firstDay: String?, open: DayTally?,
                             _ connection: PastConnection) throws -> [DayTally] {
        var rows: [DayTally] = []
        func range(_ from: String, _ to: String) throws {
            try connection.rows(.dayRange, [.text(city), .text(from), .text(to)]) { rows.append(DayTally($0)) }
            if let open, open.day >= from, open.day <= to {
                rows.insert(open, at: rows.firstIndex { $0.day > open.day } ?? rows.endIndex)
            }
        }
        let year = Int(today.prefix(4)) ?? 0
        let month = today.dropFirst(4).prefix(3)  // "-MM"
        if let first = firstDay.flatMap({ Int($0.prefix(4)) }), first < year {
            for earlier in first..<year {
                let start = String(format: "%04d", earlier) + month
                try range(start + "-01", start + "-31")
            }
        }
        let weekStart = LocalDay.key(today, plus: -8), monthStart = String(today.prefix(7)) + "-01"
        try range(min(weekStart, monthStart), today)
        return rows
    }

    /// Today before the data time `now`: today's tally when it holds nothing from `now` on
    /// (observations are recorded in time order), else the observations before `now`
    /// added up as the tally adds them. Each clock hour's precipitation counts once: the
    /// hours before `now`'s in `today`, `now`'s own so far in `currentHourPrecipitation`
    /// (the page adds the current reading).
    private static func readToday(_ summary: DayTally, of city: String, before now: Int, into past: inout CityPast, _ connection: PastConnection) throws {
        var row: DayTally? = summary
        if (summary.lastTime ?? .max) >= now {
            var sum: DayTally?
            try connection.rows(.todayBefore, [.text(city), .text(summary.day), .int(now)]) { observation in
                let time = observation.int(0), temperature = observation.double(1)
                let precipitation = observation.double(2) + observation.double(3)  // NULL reads as 0
                if sum == nil {
                    sum = DayTally(day: summary.day, time: time, temperature: temperature, precipitation: precipitation)
                } else {
                    sum!.add(time: time, temperature: temperature, precipitation: precipitation)
                }
            }
            row = sum
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
    /// `check_day`, with the few unsettled pairs of `verification` taken off again; the
    /// open day's settled pairs (`open`) are added; a day left with no pair is not counted.
    private static func checks(of city: String, before now: Int, open: [OpenDay.Pair], _ connection: PastConnection) throws -> [ForecastCheck] {
        struct LeadDay: Hashable { var lead: Int, day: Int }
        struct Totals {
            var pairs = 0, errorSum = 0, likely = 0, happened = 0

            /// A pair added (`sign` 1) or taken off (−1).
            mutating func add(_ sign: Int, error: Int, likely: Int, happened: Int) {
                pairs += sign
                errorSum += sign * error
                self.likely += sign * likely
                self.happened += sign * happened
            }

            mutating func add(_ other: Totals) {
                pairs += other.pairs
                errorSum += other.errorSum
                likely += other.likely
                happened += other.happened
            }
        }
        var days: [LeadDay: Totals] = [:]
        let firstDay = now / 86_400 - (checkDays - 1)
        try connection.rows(.checkDays, [.text(city), .int(firstDay)]) { row in
            days[LeadDay(lead: row.int(0), day: row.int(1))] = Totals(pairs: row.int(2), errorSum: row.int(3), likely: row.int(4), happened: row.int(5))
        }
        try connection.rows(.unsettled, [.text(city), .int(now - 1800)]) { row in
            let key = LeadDay(lead: row.int(0), day: row.int(1))
            days[key]?.add(-1, error: row.int(2), likely: row.int(3), happened: row.int(4))
        }
        for pair in open where pair.target < now - 1800 && pair.target / 86_400 >= firstDay {
            let likely = CheckDay.likely(chance: pair.chance)
            days[LeadDay(lead: pair.lead, day: pair.target / 86_400), default: Totals()]
                .add(1, error: CheckDay.error(pair.forecast, pair.observed), likely: likely ? 1 : 0, happened: likely && pair.precipitated ? 1 : 0)
        }
        var leads: [Int: (total: Totals, days: Int)] = [:]
        for (key, day) in days where day.pairs > 0 {
            var lead = leads[key.lead] ?? (Totals(), 0)
            lead.total.add(day)
            lead.days += 1
            leads[key.lead] = lead
        }
        return leads.keys.sorted().map { lead in
            let (total, days) = leads[lead]!
            return ForecastCheck(leadHours: lead, pairs: total.pairs, days: days,
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
    /// The city's open day: the columns of `dayRange`, then its pairs' blob.
    case openDay
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
    /// The checks from UTC day ?2 on, per lead and day, from `check_day`: pairs, errors,
    /// likely rain, rain that came. A day's row exists only while it holds a pair.
    case checkDays
    /// The pairs whose target is at or after ?2: a key range.
    case unsettled

    var sql: String {
        switch self {
        case .openDay: """
            SELECT day, temperature_min, temperature_max, temperature_sum, samples, precipitation, hour, hour_precipitation, last_time, pairs
            FROM open_day WHERE city = ?1
            """
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
        case .checkDays: "SELECT lead_hours, day, pairs, error_sum, likely, happened FROM check_day WHERE city = ?1 AND day >= ?2"
        case .unsettled: """
            SELECT lead_hours, target / 86400, \(CheckDay.error("")), \(CheckDay.likely("")), \(CheckDay.happened(""))
            FROM verification WHERE city = ?1 AND target >= ?2
            """
        }
    }
}
