import Foundation
import GRDB

/// Reading a city's past for its pages. Finished days come from `day` (a key range each,
/// whatever the history's length); what may still change, or may hold this run's own
/// data when a build runs again, is computed from the raw rows of the last 26 hours by the
/// same rules (`DayFacts`): today so far, yesterday at this time, and the checks of the
/// UTC days from the hour before the data time on.
extension SQLiteHistory {
    /// The raw rows a page reads, seconds before its data time: a local day lasts at most
    /// 25 hours, "yesterday" looks 90 minutes either side of 24 hours back, and the
    /// unsettled UTC day begins at most 25 hours back (its first pair looks half an hour before).
    static let recentReach = 26 * 3600

    public func past(of city: String, before time: Date, today: String) throws -> CityPast {
        try past(of: city, before: time, today: today, from: database)
    }

    /// The past as `reader` holds it: the pool (a read transaction of its own), or a
    /// build's snapshot (`reader()`).
    func past(of city: String, before time: Date, today: String, from reader: any DatabaseReader) throws -> CityPast {
        let now = Int(time.timeIntervalSince1970)
        do {
            // One read transaction: every statement sees the snapshot the first one saw,
            // whatever the recorder commits meanwhile (reading without one measured 0.2 %
            // of a build less; `now` alone keeps a page's own data time out of its reads).
            return try reader.read { db in
                var past = CityPast()
                let recent = try RawRows.observations(of: city, from: now - Self.recentReach + 1, to: now, db)
                past.yesterday = Self.yesterday(in: recent, now: now)
                var tally = DayFacts.tally(recent.lazy.filter { $0.day == today })
                if tally.hour == now / 3600 {
                    // The page counts the data time's clock hour, with this run's observation.
                    (past.currentHourPrecipitation, tally.hourPrecipitation) = (tally.hourPrecipitation, 0)
                }
                past.today = tally.observed(today)
                let firstDay = try String.fetchOne(db.cachedStatement(sql: """
                    SELECT min(day) FROM day WHERE city = :city AND day < :today AND samples > 0
                    """), arguments: ["city": city, "today": today])
                // Today counts once it has observations before the data time.
                past.firstDay = firstDay ?? (past.today == nil ? nil : today)
                // The 8 days before today and this month so far, and this month in each
                // earlier year since the first day; the checks' 30 UTC days.
                let tallyFrom = min(LocalDay.key(today, plus: -8), String(today.prefix(7)) + "-01")
                let firstCheckDay = DayFacts.utcDay((now / 86_400 - (DayFacts.checkDays - 1)) * 86_400)
                // Checks: whole UTC days before the hour before `now` from `day`, settled
                // pairs (target at least half an hour before `now`) of the rest from raw rows.
                let unsettledDay = DayFacts.utcDay(now - 3600), unsettledFrom = DayFacts.start(of: unsettledDay)
                let stored = try Self.days(of: city, from: min(tallyFrom, firstCheckDay), to: max(today, unsettledDay), db)
                past.days = try Self.earlierYears(of: city, today: today, since: firstDay, db)
                    + stored.filter { $0.day >= tallyFrom && $0.day < today }.compactMap(\.observed)
                // Per lead, the totals and the UTC days with a pair (a stored row holds a
                // lead's checks only when it has pairs).
                var leads: [Int: (total: DayFacts.Totals, days: Set<String>)] = [:]
                func add(_ lead: Int, _ day: String, _ totals: DayFacts.Totals) {
                    leads[lead, default: (DayFacts.Totals(), [])].total += totals
                    leads[lead]!.days.insert(day)
                }
                for row in stored where row.day >= firstCheckDay && row.day < unsettledDay {
                    for (lead, totals) in row.checks { add(lead, row.day, totals) }
                }
                for lead in try RawRows.leads(of: city, targetFrom: unsettledFrom, to: now - DayFacts.tolerance, db) {
                    if let pair = DayFacts.check(lead, against: recent) { add(lead.lead, DayFacts.utcDay(lead.target), pair) }
                }
                past.checks = leads.keys.sorted().map { lead in
                    let (total, days) = leads[lead]!
                    return ForecastCheck(leadHours: lead, pairs: total.pairs, days: days.count,
                                         meanAbsoluteError: Double(total.errorSum) / DayFacts.errorUnit / Double(total.pairs),
                                         likelyRain: total.likely, likelyRainHappened: total.happened)
                }
                return past
            }
        } catch let error as DatabaseError {
            throw readerUnavailable(error)
        }
    }

    /// The observation nearest 24 hours before `now`, within 90 minutes (the earlier on a tie).
    private static func yesterday(in recent: [DayFacts.Observation], now: Int) -> CityPast.Reading? {
        let then = now - 86_400
        return DayFacts.nearest(then, in: recent, within: then - 5400..<then + 5401).map { CityPast.Reading(time: Date(timeIntervalSince1970: TimeInterval($0.time)), temperature: $0.temperature) }
    }

    /// The city's rows of `day` in [from, to), oldest first.
    private static func days(of city: String, from: String, to: String, _ db: Database) throws -> [StoredDay] {
        try StoredDay.fetch(daysFromTo, ["city": city, "from": from, "to": to], db)
    }

    private static let daysFromTo = StoredDay.select(where: "city = :city AND day >= :from AND day < :to")

    /// The days observed in today's month of each year before today's since `firstDay`: a
    /// key range a year, so a page reads the same few rows however many years there are.
    private static func earlierYears(of city: String, today: String, since firstDay: String?, _ db: Database) throws -> [ObservedDay] {
        guard let year = Int(today.prefix(4)), let first = firstDay.flatMap({ Int($0.prefix(4)) }), first < year else { return [] }
        let month = today.dropFirst(4).prefix(3)  // "-MM"
        return try (first..<year).flatMap { earlier in
            let start = String(format: "%04d", earlier) + month
            return try days(of: city, from: start + "-01", to: start + "-32", db).compactMap(\.observed)
        }
    }

    /// What a build's pages read: the history as it is now, through one connection holding
    /// one read transaction until released (GRDB's `DatabaseSnapshot`). A read from the
    /// pool took a connection and began and ended a transaction, about 90 µs a city, most
    /// of what reading the past cost (README, Performance, "A ninth pass").
    public func reader() throws -> any HistoryReader {
        Snapshot(history: self, snapshot: try sqlite { try database.makeSnapshot() })
    }

    private struct Snapshot: HistoryReader {
        let history: SQLiteHistory
        let snapshot: DatabaseSnapshot

        func past(of city: String, before time: Date, today: String) throws -> CityPast {
            try history.past(of: city, before: time, today: today, from: snapshot)
        }
    }

    /// Each city's revision: bumped when its past changes other than by a new data time.
    public func revisions() throws -> [String: Int] {
        try sqlite {
            return try database.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT city, revision FROM city").map { ($0["city"], $0["revision"]) })
            }
        }
    }
}
