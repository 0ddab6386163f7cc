import GRDB

/// The recorded truth (`observation`, `forecast_lead`) as `DayFacts` reads it, and the one
/// rule SQL keeps: of the runs whose hour qualifies for a check, the one nearest `made`.
enum RawRows {
    /// A city's observations in [from, to), in time order.
    static func observations(of city: String, from: Int, to: Int, _ db: Database) throws -> [DayFacts.Observation] {
        try observations(db.cachedStatement(sql: select + "WHERE city = :city AND time >= :from AND time < :to ORDER BY time"),
                         ["city": city, "from": from, "to": to])
    }

    /// A city's observations in [from, to) and those of its local day `day` (within
    /// `reach`, a key range), in time order: what recomputing a date reads.
    static func observations(of city: String, from: Int, to: Int, orOn day: String, within reach: Range<Int>,
                             _ db: Database) throws -> [DayFacts.Observation] {
        try observations(db.cachedStatement(sql: select + """
            WHERE city = :city AND time >= :reachFrom AND time < :reachTo AND (day = :day OR (time >= :from AND time < :to)) ORDER BY time
            """), ["city": city, "from": from, "to": to, "day": day, "reachFrom": reach.lowerBound, "reachTo": reach.upperBound])
    }

    private static let select = "SELECT time, day, temperature, rain_1h, snow_1h, condition FROM observation "

    private static func observations(_ statement: Statement, _ arguments: StatementArguments) throws -> [DayFacts.Observation] {
        try SQLStatement.rows(statement, arguments) { column in
            let (time, day, temperature, rain, snow, condition) = (column["time"], column["day"], column["temperature"], column["rain_1h"],
                                                                   column["snow_1h"], column["condition"])
            return { row in
                DayFacts.Observation(time: row[time], day: row[day] ?? "", temperature: row[temperature], rain: row[rain], snow: row[snow],
                                     condition: row[condition])
            }
        }
    }

    /// A city's forecast hours kept for the checks whose target is in [from, to): a key
    /// range of `made` (the target less at most the longest lead), then the targets.
    static func leads(of city: String, targetFrom from: Int, to: Int, _ db: Database) throws -> [DayFacts.Lead] {
        try SQLStatement.rows(db.cachedStatement(sql: """
            SELECT made, lead_hours, issued, temperature, chance FROM forecast_lead
            WHERE city = :city AND made >= :earliest AND made < :to AND target >= :from AND target < :to
            """), ["city": city, "earliest": from - (DayFacts.leadHours.max() ?? 0) * 3600, "from": from, "to": to]) { column in
            let (made, lead, issued, temperature, chance) = (column["made"], column["lead_hours"], column["issued"], column["temperature"],
                                                             column["chance"])
            return { row in DayFacts.Lead(made: row[made], lead: row[lead], issued: row[issued], temperature: row[temperature], chance: row[chance]) }
        }
    }

    /// Keeps a forecast hour for the checks, unless the one kept for its made hour and lead
    /// came from a run nearer it (the earlier run on a tie, whatever order they came in).
    static func keepLead(_ lead: DayFacts.Lead, of city: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO forecast_lead (city, made, lead_hours, target, issued, temperature, chance)
            VALUES (:city, :made, :lead, :target, :issued, :temperature, :chance)
            """ + keepNearer).execute(arguments: [
                "city": city, "made": lead.made, "lead": lead.lead, "target": lead.target, "issued": lead.issued,
                "temperature": lead.temperature, "chance": lead.chance,
            ])
    }

    /// `forecast_lead`'s upsert clause (also the v7 migration's).
    static let keepNearer = """

        ON CONFLICT (city, made, lead_hours) DO UPDATE SET
            issued = excluded.issued, temperature = excluded.temperature, chance = excluded.chance
        WHERE abs(excluded.made - excluded.issued) < abs(made - issued)
           OR (abs(excluded.made - excluded.issued) = abs(made - issued) AND excluded.issued < issued)
        """
}
