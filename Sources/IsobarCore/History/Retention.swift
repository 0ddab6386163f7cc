import Foundation
import GRDB

/// What a prune removed, in rows per table.
public struct PruneOutcome: Sendable, Equatable {
    /// Cities looked at.
    public var cities = 0
    public var observations = 0
    public var verifications = 0
    /// Forecasts as issued (a run's hours and days, one row).
    public var forecasts = 0
    /// Hours kept for the checks (`forecast_lead`).
    public var forecastLeads = 0

    public init() {}

    public var rows: Int { observations + verifications + forecasts + forecastLeads }

    static func + (a: PruneOutcome, b: PruneOutcome) -> PruneOutcome {
        var sum = a
        sum.cities += b.cities
        sum.observations += b.observations
        sum.verifications += b.verifications
        sum.forecasts += b.forecasts
        sum.forecastLeads += b.forecastLeads
        return sum
    }
}

/// Retention: the file stays small however long it runs, and what the pages read does not
/// change. Per city, relative to `min(now, its newest observation)` (a city that stopped
/// updating keeps its last month):
/// - observations older than 30 days go; `observed_day` keeps each day's summary for good
///   (the past week, records and "since" read only that; "yesterday" reads 24 h back);
/// - forecast checks (`verification`) whose target is older than 30 days go: the pages'
///   checks cover the last 30 days;
/// - forecasts as issued (a run's hours and days) go a day after their issue: a day of
///   complete runs stays;
/// - the hours kept for the checks go once their target is more than an hour past: their
///   pairs are made by then. Those in a city's open day (`OpenDay`, all of them unless an
///   import wrote them out) go as its runs pass their target, so retention finds only the
///   ones an import left in `forecast_lead`; the open day itself is one row a city, kept.
/// Nothing the pages read changes, so no city's revision is bumped.
extension SQLiteHistory {
    /// Detail (observations) kept, seconds.
    static let detailPeriod = 30 * 86_400
    /// Complete forecasts as issued kept, seconds after their issue.
    static let completeRunPeriod = 86_400
    /// How long past its target an hour kept for the checks is kept, seconds: an
    /// observation up to half an hour after the target hour may still pair with it.
    static let targetGrace = 3_600
    /// A build prunes when the last prune is at least this far from its clock, seconds.
    static let pruneInterval = 86_400
    /// Cities per transaction: a kill leaves each city pruned or not, and other writers
    /// (a build sharing the file) wait for one batch at most.
    static let pruneBatch = 64

    /// When retention last ran, or nil if it never has.
    public func lastPrune() throws -> Date? {
        do {
            return try database.read { db in
                try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'last_prune'").map { Date(timeIntervalSince1970: TimeInterval($0)) }
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    /// Prunes when the last prune is a day or more from `now` (either way: a clock set
    /// back does not stop retention), or never happened; nil when it was not due.
    public func pruneIfDue(now: Date) throws -> PruneOutcome? {
        if let last = try lastPrune(), abs(now.timeIntervalSince(last)) < TimeInterval(Self.pruneInterval) { return nil }
        return try prune(now: now)
    }

    /// Applies the retention policy to every city, a batch of cities per transaction, and
    /// notes the time in `meta` with the last batch.
    public func prune(now: Date) throws -> PruneOutcome {
        let clock = Int(now.timeIntervalSince1970.rounded(.down))
        var outcome = PruneOutcome()
        var after = ""
        do {
            var finished = false
            while !finished {
                let (batch, last, done) = try database.write { db -> (PruneOutcome, String, Bool) in
                    var batch = PruneOutcome()
                    var city = after
                    // Each next city is one key lookup in observation's primary key.
                    let next = try db.cachedStatement(sql: "SELECT city FROM observation WHERE city > ? ORDER BY city LIMIT 1")
                    for _ in 0..<Self.pruneBatch {
                        guard let found = try String.fetchOne(next, arguments: [city]) else {
                            try db.execute(sql: """
                                INSERT INTO meta VALUES ('last_prune', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                                """, arguments: [clock])
                            return (batch, city, true)
                        }
                        city = found
                        batch = batch + (try Self.prune(city, clock: clock, db))
                    }
                    return (batch, city, false)
                }
                outcome = outcome + batch
                after = last
                finished = done
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
        return outcome
    }

    /// One city's rows, each table by a range of its primary key (the city's rows).
    private static func prune(_ city: String, clock: Int, _ db: Database) throws -> PruneOutcome {
        var removed = PruneOutcome()
        removed.cities = 1
        guard let newest = try Int.fetchOne(db.cachedStatement(sql: "SELECT time FROM observation WHERE city = ? ORDER BY time DESC LIMIT 1"),
                                            arguments: [city])
        else { return removed }
        let reference = min(clock, newest)
        try db.cachedStatement(sql: "DELETE FROM observation WHERE city = ? AND time < ?").execute(arguments: [city, reference - detailPeriod])
        removed.observations = db.changesCount
        try db.cachedStatement(sql: "DELETE FROM verification WHERE city = ? AND target < ?").execute(arguments: [city, reference - checkPeriod])
        removed.verifications = db.changesCount
        try db.cachedStatement(sql: "DELETE FROM forecast WHERE city = ? AND issued < ?").execute(arguments: [city, reference - completeRunPeriod])
        removed.forecasts = db.changesCount
        // Keyed by made, the target less the lead (so never after it): the range of made
        // before the limit holds every row whose target is.
        try db.cachedStatement(sql: "DELETE FROM forecast_lead WHERE city = ?1 AND made < ?2 AND target < ?2")
            .execute(arguments: [city, reference - targetGrace])
        removed.forecastLeads = db.changesCount
        return removed
    }

    /// Rebuilds the file without its free pages (which SQLite otherwise reuses), and folds
    /// the write-ahead log back into it: the file at its smallest. Takes as long as
    /// copying the file, and as much room again while it runs.
    public func vacuum() throws {
        do {
            try database.vacuum()
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
        try checkpoint()
    }

    /// Folds the write-ahead log into the file, so its size is the history's.
    public func checkpoint() throws {
        do {
            _ = try database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }
}
