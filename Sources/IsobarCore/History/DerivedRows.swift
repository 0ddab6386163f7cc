import Foundation
import GRDB

/// What a new observation adds to the tables the pages read.
struct ObservationFacts: Sendable, Equatable {
    var city: String
    var time: Int
    var day: String
    var temperature: Double
    var rain: Double?
    var snow: Double?
    var condition: Int?
}

extension ObservationFacts {
    init(_ entry: HistoryEntry) {
        self.init(city: entry.city, time: Int(entry.time.timeIntervalSince1970), day: entry.day, temperature: entry.current.temperature,
                  rain: entry.current.rainLastHour, snow: entry.current.snowLastHour, condition: entry.current.conditions.first?.code)
    }

    /// Rain and snow of the last hour together (mm of water); an API leaves them out when
    /// none fell, so absent is 0.
    var precipitation: Double { (rain ?? 0) + (snow ?? 0) }

    /// Whether precipitation was falling or had fallen in the last hour: an amount, or a
    /// thunderstorm, drizzle, rain or snow condition (2xx–6xx) where the amount is missing.
    var precipitated: Bool { precipitation > 0 || (200..<700).contains(condition ?? 0) }
}

/// Keeps `observed_day`, `forecast_lead` and `verification` up to date, one observation
/// at a time, inside the transaction that records it (so a killed run leaves them as they
/// were or all done): for a run recorded out of time order (an import), with the city's
/// open day written out into them first (`OpenDayRows`). A run in time order changes the
/// open day instead, which does the same in memory (`OpenDay`).
enum DerivedRows {
    /// How far ahead verified forecasts were made, in hours.
    static let leads = [24, 72]
    /// How far from `target - lead` the paired run's data time may be, in seconds (the
    /// half hour `verify` looks either side).
    static let issueTolerance = 1800

    static func add(_ fact: ObservationFacts, to db: Database) throws {
        try addToDay(fact, db)
        try verify(fact, db)
    }

    /// The day's low, high and mean, and its precipitation, as `DayTally.add` adds them.
    /// Each clock hour counts once, with the largest amount reported in it: `hour` is the
    /// hour being counted, `hour_precipitation` its amount so far, `precipitation` the
    /// finished hours' sum (an observation older than the day's latest is counted in the
    /// hour being counted).
    static func addToDay(_ fact: ObservationFacts, _ db: Database) throws {
        var row = StatementBinder(try db.cachedStatement(sql: """
            INSERT INTO observed_day VALUES (?1, ?2, ?3, ?3, ?3, 1, 0, ?4, ?5, ?6)
            ON CONFLICT (city, day) DO UPDATE SET
                last_time = max(coalesce(last_time, 0), excluded.last_time),
                temperature_min = min(temperature_min, excluded.temperature_min),
                temperature_max = max(temperature_max, excluded.temperature_max),
                temperature_sum = temperature_sum + excluded.temperature_sum,
                samples = samples + 1,
                precipitation = CASE WHEN excluded.hour = hour THEN precipitation ELSE precipitation + hour_precipitation END,
                hour_precipitation = CASE WHEN excluded.hour = hour THEN max(hour_precipitation, excluded.hour_precipitation)
                                          ELSE excluded.hour_precipitation END,
                hour = excluded.hour
            """))
        row.text(fact.city); row.text(fact.day); row.real(fact.temperature); row.int(Int64(fact.time / 3600)); row.real(fact.precipitation)
        row.int(Int64(fact.time))
        try row.run(db)
    }

    /// Keeps the forecast's hours that a check can pair: those whose target is a whole hour
    /// made `leads` hours ahead, within half an hour. Of the runs made about that far
    /// ahead of one target, the one nearest `target - lead` is kept (the earlier on a tie).
    static func addLeads(of hours: some Collection<some PackableHour>, city: String, issued: Int64, _ db: Database) throws {
        try forEachLead(of: hours, issued: Int(issued)) { lead in
            try keepLead(city: city, made: lead.made, lead: lead.lead, issued: lead.issued, temperature: lead.temperature,
                         chance: lead.chance, db)
        }
    }

    /// The forecast's hours a check can pair (see `addLeads`), each for each lead it was
    /// made about that far ahead of, its chance as it is stored (`OpenDay.storedChance`).
    static func forEachLead(of hours: some Collection<some PackableHour>, issued: Int, _ body: (OpenDay.Lead) throws -> Void) rethrows {
        for hour in hours where hour.targetSeconds % 3600 == 0 {
            let target = Int(hour.targetSeconds)
            for lead in leads where abs(target - lead * 3600 - issued) <= issueTolerance {
                try body(OpenDay.Lead(made: target - lead * 3600, lead: lead, issued: issued, temperature: hour.temperature,
                                      chance: hour.precipitationChance.map(OpenDay.storedChance)))
            }
        }
    }

    /// The whole hour an observation at `time` is paired for: the nearest (the later on a tie).
    static func targetHour(of time: Int) -> Int {
        (time + 1800) / 3600 * 3600
    }

    /// One hour kept for the checks, unless the one kept for its made hour and lead came
    /// from a run nearer it.
    static func keepLead(city: String, made: Int, lead: Int, issued: Int, temperature: Double, chance: Double?, _ db: Database) throws {
        var row = StatementBinder(try db.cachedStatement(sql: """
            INSERT INTO forecast_lead VALUES (?1, ?2, ?3, ?2 + ?3 * 3600, ?4, ?5, ?6)
            ON CONFLICT (city, made, lead_hours) DO UPDATE SET
                issued = excluded.issued, temperature = excluded.temperature, chance = excluded.chance
            WHERE abs(excluded.made - excluded.issued) < abs(made - issued)
            """))
        row.text(city); row.int(Int64(made)); row.int(Int64(lead)); row.int(Int64(issued)); row.real(temperature); row.real(chance)
        try row.run(db)
    }

    /// Pairs the observation with the forecasts made `leads` hours before its nearest
    /// whole hour, from the run whose data time was nearest that (within half an hour:
    /// `forecast_lead`). The observation nearest the target hour wins when several fall
    /// within half an hour.
    static func verify(_ fact: ObservationFacts, _ db: Database) throws {
        let target = targetHour(of: fact.time)
        for lead in leads {
            var lookup = StatementBinder(try db.cachedStatement(sql: """
                SELECT issued, temperature, chance FROM forecast_lead WHERE city = ? AND made = ? AND lead_hours = ?
                """))
            lookup.text(fact.city); lookup.int(Int64(target - lead * 3600)); lookup.int(Int64(lead))
            guard let forecast = try lookup.first(db, { row in (issued: row.int(0), temperature: row.double(1), chance: row.optionalDouble(2)) })
            else { continue }
            try writePair(city: fact.city, lead: lead, target: target, issued: forecast.issued, forecast: forecast.temperature,
                          chance: forecast.chance, observedTime: fact.time, observed: fact.temperature, precipitated: fact.precipitated, db)
        }
    }

    /// A pair into `verification`, unless the one its hour and lead have was observed nearer the target.
    static func writePair(city: String, lead: Int, target: Int, issued: Int, forecast: Double, chance: Double?, observedTime: Int,
                          observed: Double, precipitated: Bool, _ db: Database) throws {
        var pair = StatementBinder(try db.cachedStatement(sql: pairIfNearer))
        pair.text(city); pair.int(Int64(lead)); pair.int(Int64(target)); pair.int(Int64(issued)); pair.real(forecast)
        pair.real(chance); pair.int(Int64(observedTime)); pair.real(observed); pair.bool(precipitated)
        try pair.run(db)
    }

    /// Writes a check's pair (the nine columns of `verification`), replacing the one its
    /// hour has where `condition` holds. An upsert, not INSERT OR REPLACE: a replacing
    /// insert's delete would not run `check_day`'s delete trigger (SQLite runs those only
    /// with recursive triggers on).
    private static let pairIfNearer = pair(replacing: "abs(excluded.observed_time - excluded.target) < abs(observed_time - target)")
    private static let pairAlways = pair(replacing: "true")

    private static func pair(replacing condition: String) -> String {
        """
        INSERT INTO verification VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (city, target, lead_hours) DO UPDATE SET
            issued = excluded.issued, forecast = excluded.forecast, chance = excluded.chance,
            observed_time = excluded.observed_time, observed = excluded.observed, precipitated = excluded.precipitated
        WHERE \(condition)
        """
    }

    /// A run recorded after later ones (an import): its forecast's checks whose target
    /// hour has already been observed are paired now, from `forecast_lead` (which holds
    /// this run's hours only where they were the nearest) and the observation nearest the
    /// target.
    static func pairLate(city: String, issued: Int64, _ db: Database) throws {
        let leadRows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT l.lead_hours, l.target, l.temperature, l.chance, o.time, o.temperature AS observed, o.rain_1h, o.snow_1h, o.condition
            FROM forecast_lead l JOIN observation o ON o.city = l.city AND o.time >= l.target - 1800 AND o.time < l.target + 1800
            WHERE l.city = ?1 AND l.issued = ?2
            ORDER BY l.lead_hours, l.target, abs(o.time - l.target), o.time
            """), arguments: [city, issued])
        var paired = Set<[Int]>()
        for row in leadRows {
            let lead: Int = row["lead_hours"], target: Int = row["target"]
            guard paired.insert([lead, target]).inserted else { continue }  // the nearest observation came first
            let fact = ObservationFacts(city: city, time: row["time"], day: "", temperature: row["observed"],
                                        rain: row["rain_1h"], snow: row["snow_1h"], condition: row["condition"])
            try db.cachedStatement(sql: pairAlways).execute(arguments: [
                city, lead, target, issued, row["temperature"] as Double, row["chance"] as Double?, fact.time, fact.temperature, fact.precipitated,
            ])
        }
    }
}
