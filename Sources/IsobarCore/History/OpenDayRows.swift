import GRDB

/// `open_day`: each city's open day (`OpenDay`) as one row, and its moves to and from the
/// tables it stands in for. Invariants, kept by everything that writes these tables:
/// `observed_day` has no row for a city's open day, and a pair (city, target, lead) is in
/// the open day or in `verification`, never both.
enum OpenDayRows {
    /// The city's open day, or nil when it has none (a new city, or one whose open day a
    /// run out of time order wrote out).
    static func load(_ city: String, _ db: Database) throws -> OpenDay? {
        var query = StatementBinder(try db.cachedStatement(sql: """
            SELECT day, temperature_min, temperature_max, temperature_sum, samples, precipitation, hour, hour_precipitation, last_time,
                   leads, pairs
            FROM open_day WHERE city = ?
            """))
        query.text(city)
        return try query.first(db) { row in
            OpenDay(tally: DayTally(row), leads: OpenDay.leads(row.blob(9)) ?? [], pairs: OpenDay.pairs(row.blob(10)) ?? [])
        }
    }

    /// Writes the city's open day: an update in place once the row exists (the row is
    /// found by the city's key; its rowid, and so the key's index, does not change).
    static func save(_ open: OpenDay, of city: String, _ db: Database) throws {
        var row = StatementBinder(try db.cachedStatement(sql: """
            INSERT INTO open_day VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (city) DO UPDATE SET
                day = excluded.day, temperature_min = excluded.temperature_min, temperature_max = excluded.temperature_max,
                temperature_sum = excluded.temperature_sum, samples = excluded.samples, precipitation = excluded.precipitation,
                hour = excluded.hour, hour_precipitation = excluded.hour_precipitation, last_time = excluded.last_time,
                leads = excluded.leads, pairs = excluded.pairs
            """))
        row.text(city)
        bindTally(open.tally, &row)
        row.blob(open.leadsBlob); row.blob(open.pairsBlob)
        try row.run(db)
    }

    /// Records an observation later than every one the city has, with its run's forecast
    /// hours (`hours`, empty when the run's forecast was there already): the day's tally,
    /// the hours kept for the checks and the checks it makes, in the open day. When the
    /// observation begins a new day, the finished one goes to `observed_day` and the
    /// settled pairs to `verification`: the once-a-day writes.
    static func record(_ fact: ObservationFacts, hours: some Collection<some PackableHour>, issued: Int, _ db: Database) throws {
        var open: OpenDay
        var newDay = false
        if let loaded = try load(fact.city, db) ?? (try fold(fact.city, db) ? load(fact.city, db) : nil) {
            open = loaded
            newDay = open.tally.day != fact.day
            if newDay {
                try writeDay(open.tally, of: fact.city, db)
                // A day seen before (the city's time zone moved west) carries on from its row.
                if let earlier = try takeDay(fact.day, of: fact.city, db) { open.tally = earlier }
            }
            open.add(fact)
        } else {
            open = OpenDay(fact)
        }
        open.addLeads(of: hours, issued: issued)
        open.verify(fact)
        if newDay {
            try writePairs(open.takeSettledPairs(before: fact.time), of: fact.city, db)
        }
        try save(open, of: fact.city, db)
    }

    /// Writes the city's open day into the tables it stands in for and deletes it: before
    /// a run out of time order changes those tables (`DerivedRows`), and for a look at
    /// the tables as a whole (tests).
    static func spill(_ city: String, _ db: Database) throws {
        guard let open = try load(city, db) else { return }
        try writeDay(open.tally, of: city, db)
        for lead in open.leads {
            try DerivedRows.keepLead(city: city, made: lead.made, lead: lead.lead, issued: lead.issued, temperature: lead.temperature,
                                     chance: lead.chance, db)
        }
        try writePairs(open.pairs, of: city, db)
        try db.cachedStatement(sql: "DELETE FROM open_day WHERE city = ?").execute(arguments: [city])
    }

    /// Every city's open day spilled.
    static func spillAll(_ db: Database) throws {
        for city in try String.fetchAll(db, sql: "SELECT city FROM open_day") {
            try spill(city, db)
        }
    }

    /// Takes the city's open day out of the tables, as recording would have left it: its
    /// latest day's summary, the hours kept for the checks that a later observation can
    /// still pair (their target less than half an hour before the newest observation),
    /// and the pairs made since the day began (those its first observation did not
    /// settle). False when the city has no day yet. Schema version 7's migration does
    /// this for every city; a run out of time order, after it wrote the tables.
    @discardableResult
    static func fold(_ city: String, _ db: Database) throws -> Bool {
        guard let day = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT day, temperature_min, temperature_max, temperature_sum, samples, precipitation, hour, hour_precipitation, last_time
                FROM observed_day WHERE city = ? ORDER BY day DESC LIMIT 1
                """), arguments: [city]),
              let newest = try Int.fetchOne(db.cachedStatement(sql: "SELECT max(time) FROM observation WHERE city = ?"), arguments: [city])
        else { return false }
        var tally = DayTally(day: day[0], low: day[1], high: day[2], sum: day[3], samples: day[4], precipitation: day[5], hour: day[6],
                             hourPrecipitation: day[7], lastTime: day[8])
        if tally.lastTime == nil { tally.lastTime = newest }
        _ = try takeDay(tally.day, of: city, db)
        // The day's first observation: within the 26 hours a local day can last.
        let dayStart = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT min(time) FROM observation WHERE city = ? AND time > ? - 93600 AND day = ?
            """), arguments: [city, newest, tally.day]) ?? newest
        let open = OpenDay(
            tally: tally,
            leads: try Row.fetchAll(db.cachedStatement(sql: """
                DELETE FROM forecast_lead WHERE city = ? AND target > ? RETURNING made, lead_hours, issued, temperature, chance
                """), arguments: [city, newest - 1800]).map { row in
                    OpenDay.Lead(made: row[0], lead: row[1], issued: row[2], temperature: row[3], chance: row[4])
                }.sorted { ($0.made, $0.lead) < ($1.made, $1.lead) },
            pairs: try Row.fetchAll(db.cachedStatement(sql: """
                DELETE FROM verification WHERE city = ? AND target > ?
                RETURNING target, lead_hours, issued, forecast, chance, observed_time, observed, precipitated
                """), arguments: [city, min(dayStart, newest) - 1800]).map { row in
                    OpenDay.Pair(target: row[0], lead: row[1], issued: row[2], forecast: row[3], chance: row[4], observedTime: row[5],
                                 observed: row[6], precipitated: row[7])
                }.sorted { ($0.target, $0.lead) < ($1.target, $1.lead) })
        try save(open, of: city, db)
        return true
    }

    /// A finished day into `observed_day`.
    private static func writeDay(_ tally: DayTally, of city: String, _ db: Database) throws {
        var row = StatementBinder(try db.cachedStatement(sql: "INSERT OR REPLACE INTO observed_day VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))
        row.text(city)
        bindTally(tally, &row)
        try row.run(db)
    }

    /// The day's row of `observed_day`, deleted, or nil when there is none.
    private static func takeDay(_ day: String, of city: String, _ db: Database) throws -> DayTally? {
        var query = StatementBinder(try db.cachedStatement(sql: """
            DELETE FROM observed_day WHERE city = ? AND day = ?
            RETURNING day, temperature_min, temperature_max, temperature_sum, samples, precipitation, hour, hour_precipitation, last_time
            """))
        query.text(city); query.text(day)
        return try query.first(db) { DayTally($0) }
    }

    /// Pairs into `verification` (whose triggers sum them into `check_day`).
    private static func writePairs(_ pairs: [OpenDay.Pair], of city: String, _ db: Database) throws {
        for pair in pairs {
            try DerivedRows.writePair(city: city, lead: pair.lead, target: pair.target, issued: pair.issued, forecast: pair.forecast,
                                      chance: pair.chance, observedTime: pair.observedTime, observed: pair.observed,
                                      precipitated: pair.precipitated, db)
        }
    }

    private static func bindTally(_ tally: DayTally, _ row: inout StatementBinder) {
        row.text(tally.day); row.real(tally.low); row.real(tally.high); row.real(tally.sum); row.int(Int64(tally.samples))
        row.real(tally.precipitation); row.int(Int64(tally.hour)); row.real(tally.hourPrecipitation); row.int(tally.lastTime.map(Int64.init))
    }
}
