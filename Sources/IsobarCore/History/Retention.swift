import Foundation
import GRDB

/// What a prune removed, in rows per table.
public struct PruneOutcome: Sendable, Equatable {
    /// Cities looked at.
    public var cities = 0
    public var observations = 0
    /// Forecast hours kept for the checks (`forecast_lead`).
    public var forecastLeads = 0

    public init() {}

    public var rows: Int { observations + forecastLeads }
}

/// Retention: the file stays small however long it runs, and what the pages read does not
/// change. Per city, relative to `min(now, its newest observation)` (a city that stopped
/// updating keeps its last month), the raw rows older than 30 days go: observations by
/// their time, forecast hours kept for the checks by their target. `day` keeps each day's
/// figures for good, and a page reads raw rows of the last 26 hours only; a day touched
/// again later (an import) is recomputed never below what it holds (`StoredDay`). Nothing
/// the pages read changes, so no city's revision is bumped.
extension SQLiteHistory {
    /// Raw rows kept, seconds: as long as the checks look back, so a recomputed day still
    /// has its pairs.
    static let detailPeriod = DayFacts.checkDays * 86_400
    /// A build prunes when the last prune is at least this far from its clock, seconds.
    static let pruneInterval = 86_400
    /// Cities per transaction: a kill leaves each city pruned or not, and other writers
    /// (a build sharing the file) wait for one batch at most.
    static let pruneBatch = 64

    /// When retention last ran, or nil if it never has.
    public func lastPrune() throws -> Date? {
        try sqlite {
            return try database.read { db in
                try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'last_prune'").map { Date(timeIntervalSince1970: TimeInterval($0)) }
            }
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
        var city = "", finished = false
        try sqlite {
            while !finished {
                try database.write { db in
                    // Each next city is one key lookup in observation's primary key.
                    let next = try db.cachedStatement(sql: "SELECT city FROM observation WHERE city > :after ORDER BY city LIMIT 1")
                    for _ in 0..<Self.pruneBatch {
                        guard let found = try String.fetchOne(next, arguments: ["after": city]) else {
                            try db.execute(sql: """
                                INSERT INTO meta VALUES ('last_prune', :clock) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                                """, arguments: ["clock": clock])
                            finished = true
                            return
                        }
                        city = found
                        try Self.prune(city, clock: clock, into: &outcome, db)
                    }
                }
            }
        }
        return outcome
    }

    /// One city's rows, each table by a range of its primary key (the city's rows).
    private static func prune(_ city: String, clock: Int, into removed: inout PruneOutcome, _ db: Database) throws {
        removed.cities += 1
        let newest = try Int.fetchOne(db.cachedStatement(sql: "SELECT max(time) FROM observation WHERE city = :city"), arguments: ["city": city])
        let limit: StatementArguments = ["city": city, "limit": min(clock, newest ?? clock) - detailPeriod]
        try db.cachedStatement(sql: "DELETE FROM observation WHERE city = :city AND time < :limit").execute(arguments: limit)
        removed.observations += db.changesCount
        // Keyed by made, the target less the lead (so never after it): the range of made
        // before the limit holds every row whose target is.
        try db.cachedStatement(sql: "DELETE FROM forecast_lead WHERE city = :city AND made < :limit AND target < :limit").execute(arguments: limit)
        removed.forecastLeads += db.changesCount
    }

    /// Rebuilds the file without its free pages (which SQLite otherwise reuses), and folds
    /// the write-ahead log back into it: the file at its smallest. Takes as long as
    /// copying the file, and as much room again while it runs.
    public func vacuum() throws {
        try sqlite {
            try database.vacuum()
        }
        try checkpoint()
    }

    /// Folds the write-ahead log into the file, so its size is the history's.
    public func checkpoint() throws {
        try sqlite {
            _ = try database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
    }
}
