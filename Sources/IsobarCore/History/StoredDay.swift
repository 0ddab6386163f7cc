import GRDB

/// A row of `day` (`HistorySchema.dayTable`): the city's local day `day` as tallied, and
/// the checks whose target falls on the UTC day `day`, per lead.
struct StoredDay: Sendable, Equatable {
    var day: String
    var samples = 0
    var low = 0.0
    var high = 0.0
    var sum = 0.0
    /// Every hour of the day counted.
    var precipitation = 0.0
    var checks: [Int: DayFacts.Totals] = [:]

    /// The local day as the page shows a finished one; nil when nothing was observed on it.
    var observed: ObservedDay? {
        samples > 0 ? ObservedDay(day: day, low: low, high: high, mean: sum / Double(samples), precipitation: precipitation, samples: samples) : nil
    }

    mutating func set(_ tally: DayFacts.Tally) {
        guard let day = tally.observed(day) else { return }
        (samples, low, high, sum, precipitation) = (day.samples, day.low, day.high, tally.sum, day.precipitation)
    }

    init(day: String) {
        self.day = day
    }

    /// A `SELECT` of `day`'s rows where `condition` holds, oldest first, every column
    /// (`columns`), for `fetch`: made once per query, as a constant.
    static func select(where condition: String) -> String {
        "SELECT \(columns.joined(separator: ", ")) FROM day WHERE \(condition) ORDER BY day"
    }

    /// The rows `sql`, a `select(where:)`, selects.
    static func fetch(_ sql: String, _ arguments: StatementArguments, _ db: Database) throws -> [StoredDay] {
        try Array(Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments).map(read))
    }

    /// Reads a row of a `select(where:)`, its columns found by name once, in `columns` (the
    /// per-lead names were made and a statement's positions looked up at every query: a
    /// third of a page's read of its past, with a short history).
    private static let read: @Sendable (Row) -> StoredDay = {
        let column = SQLStatement.Columns(columns)
        let (day, samples, low, high, sum, precipitation) = (column["day"], column["samples"], column["temperature_min"],
                                                             column["temperature_max"], column["temperature_sum"], column["precipitation"])
        let checks = DayFacts.leadHours.map { lead in
            (lead: lead, pairs: column["pairs_\(lead)"], errorSum: column["error_sum_\(lead)"], likely: column["likely_\(lead)"],
             happened: column["happened_\(lead)"])
        }
        return { row in
            var stored = StoredDay(day: row[day])
            (stored.samples, stored.low, stored.high, stored.sum, stored.precipitation) = (row[samples], row[low] ?? 0, row[high] ?? 0,
                                                                                           row[sum] ?? 0, row[precipitation])
            for check in checks {
                let totals = DayFacts.Totals(pairs: row[check.pairs], errorSum: row[check.errorSum], likely: row[check.likely],
                                             happened: row[check.happened])
                if totals.pairs > 0 { stored.checks[check.lead] = totals }
            }
            return stored
        }
    }()

    private static let onDay = select(where: "city = :city AND day = :day")

    /// How far around a date the raw rows are read to recompute it: a local day lies within
    /// 14 hours (UTC+14) plus a clock change of its UTC date, and a check reaches half an
    /// hour past its target.
    static let reach = 27 * 3600

    /// Recomputes the city's row for `day` from the raw rows, idempotently: after a run's
    /// batch for every date it touched, and by the v7 migration. Never below what the row
    /// holds: retention deletes the raw rows of old days, whose row then stays as it was.
    static func recompute(_ day: String, of city: String, _ db: Database) throws {
        let start = DayFacts.start(of: day), end = start + 86_400
        // The day's own observations, and those a check of its UTC day may pair.
        let observations = try RawRows.observations(of: city, from: start - DayFacts.tolerance, to: end + DayFacts.tolerance, orOn: day,
                                                     within: start - reach..<end + reach, db)
        var fresh = StoredDay(day: day)
        fresh.set(DayFacts.tally(observations.lazy.filter { $0.day == day }))
        fresh.checks = DayFacts.checks(try RawRows.leads(of: city, targetFrom: start, to: end, db), against: observations)
        let stored = try fetch(onDay, ["city": city, "day": day], db).first
        if let stored {
            if stored.samples > fresh.samples {
                (fresh.samples, fresh.low, fresh.high, fresh.sum, fresh.precipitation) = (stored.samples, stored.low, stored.high, stored.sum, stored.precipitation)
            }
            for (lead, totals) in stored.checks where totals.pairs > (fresh.checks[lead]?.pairs ?? 0) { fresh.checks[lead] = totals }
            guard fresh != stored else { return }
        } else if fresh.samples == 0, fresh.checks.isEmpty {
            return
        }
        try fresh.save(city: city, db)
    }

    func save(city: String, _ db: Database) throws {
        var values: [String: (any DatabaseValueConvertible)?] = [
            "city": city, "day": day, "samples": samples, "temperature_min": samples > 0 ? low : nil,
            "temperature_max": samples > 0 ? high : nil, "temperature_sum": samples > 0 ? sum : nil, "precipitation": precipitation,
        ]
        for lead in DayFacts.leadHours {
            let totals = checks[lead] ?? DayFacts.Totals()
            values["pairs_\(lead)"] = totals.pairs
            values["error_sum_\(lead)"] = totals.errorSum
            values["likely_\(lead)"] = totals.likely
            values["happened_\(lead)"] = totals.happened
        }
        try db.cachedStatement(sql: Self.upsert).execute(arguments: StatementArguments(values))
    }

    /// `day`'s columns: what `fetch` reads and `save` writes (INSERT OR REPLACE of a whole row).
    static let columns = ["city", "day", "samples", "temperature_min", "temperature_max", "temperature_sum", "precipitation"]
        + DayFacts.leadHours.flatMap { lead in ["pairs_\(lead)", "error_sum_\(lead)", "likely_\(lead)", "happened_\(lead)"] }
    private static let upsert = SQLStatement.insert("INSERT OR REPLACE", into: "day", columns)
}
