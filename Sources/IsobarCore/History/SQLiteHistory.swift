import Foundation
import GRDB

/// The history in one SQLite file (WAL mode), through GRDB: the embedded default, as in
/// WeeWX. The schema is versioned by GRDB's migrator from its first version on, so a
/// later Isobar migrates the file in place and an older one refuses a newer file rather
/// than misreading it. One writer at a time: the build's output lock, and SQLite's own
/// lock (waited on for a few seconds) against another site sharing the file.
public final class SQLiteHistory: HistoryStore {
    public let file: URL
    let database: DatabasePool
    /// Said once by whoever opened the history (a build's log, `isobar history …`): the
    /// file was there but held nothing, so a new history was started in it.
    public let warning: IsobarError?
    /// The file the writer opened (its device and inode), which every reader must open too.
    private let identity: FileIdentity?

    /// Why the history could not be used, said with the file and what to do.
    public struct Unavailable: Error, Sendable {
        public var file: URL
        public var reason: String
        public var hint: String

        public var error: IsobarError {
            IsobarError(step: .history, path: file.path, message: "the history database \(reason); the pages are built without their history sections",
                        hint: hint)
        }
    }

    /// Each connection's page cache, in SQLite's negative-KiB form: a batch of cities
    /// (`HistoryRecorder.batchSize`) and the days it recomputes fit, so a transaction's
    /// pages are written to the WAL once (Benchmarks/README.md, "history.sh").
    static let cacheKiB = -16_384

    /// Opens (or creates) the database and brings its schema up to date.
    public init(file: URL, busyTimeout: TimeInterval = 5) throws {
        self.file = file
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "history"
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw Unavailable(file: file, reason: "cannot be created (\(error.localizedDescription))",
                              hint: "make \(file.deletingLastPathComponent().path) writable, or set history.database elsewhere")
        }
        let existed = FileManager.default.fileExists(atPath: file.path)
        // A link whose file is gone (a disk not mounted, a moved history) is not a place
        // to start a new history: that would go beside the real one, and hide it.
        if !existed, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file.path) {
            throw Unavailable(file: file, reason: "is a symbolic link to \(target), which does not exist",
                              hint: "bring back the file it points to (a disk not mounted?), or set history.database to the history's real path")
        }
        // Made before it is opened, so its identity is known: a reader opens the file by its
        // path when a page first needs one, and must open the writer's file, or a history
        // moved, replaced or deleted during the build would be read as another ("no such table").
        if !existed { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let identity = FileIdentity(path: file.path)
        self.identity = identity
        configuration.prepareDatabase { db in
            if db.configuration.readonly, FileIdentity(path: file.path) != identity { throw Self.gone(file) }
            // In WAL mode NORMAL syncs at checkpoints, not at every commit: a killed run
            // loses nothing committed, and a power cut at most the last transactions,
            // never the file's consistency.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = \(Self.cacheKiB)")
        }
        let pool: (pool: DatabasePool, wasEmpty: Bool)
        do {
            do {
                pool = try Self.open(file, configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
                // SQLite opens a `-shm` it cannot write read-only, and then cannot write the
                // database either: one left by another user, or a copy, costs the history.
                try SharedMemoryFile(database: file).discardIfStale(error)
                pool = try Self.open(file, configuration)
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
        database = pool.pool
        // A file that was there but held no schema (zero bytes, and no WAL holding its
        // content: a crash right after it was made, or a truncation) is a history that lost
        // its content, not a new one: said, since the past is gone (and `start_from`
        // imports its recorded part again).
        warning = existed && pool.wasEmpty
            ? IsobarError(step: .history, path: file.path,
                          message: "the history database was an empty file: the history it held is lost (a crash right after the file was made, or a truncation); a new history is started in it",
                          hint: "to keep the old history, stop the runs and put a backup of the file in its place; `isobar history import DIR` adds recorded responses again")
            : nil
    }

    /// The pool with its schema brought up to date, and whether the file held no schema
    /// before (so the migrator's first version made it).
    private static func open(_ file: URL, _ configuration: Configuration) throws -> (pool: DatabasePool, wasEmpty: Bool) {
        let pool = try DatabasePool(path: file.path, configuration: configuration)
        let wasEmpty = try pool.write { db -> Bool in
            if let refusal = HistorySchema.refusal(of: try HistorySchema.migrator.appliedIdentifiers(db), file: file) { throw refusal }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0
        }
        try HistorySchema.migrator.migrate(pool)
        try pool.write { try ForecastField.addColumns(CurrentConditions.fields, to: "observation", $0) }
        return (pool, wasEmpty)
    }

    /// Closes every connection, the writer's last, so that its checkpoint folds the WAL
    /// into the file and removes it. A build closes its history itself rather than
    /// leaving it to `deinit`: the recording thread may still hold the store when the
    /// process exits, and a process that exits mid-close leaves the WAL behind.
    public func close() {
        database.releaseMemory()  // GRDB's idle readers, which `close()` would close after its writer
        try? database.close()
    }

    /// `body`, with SQLite's errors said as the history's (`unavailable`).
    func sqlite<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    /// A reader's error: the file gone from its path (a reader cannot open a deleted file)
    /// said as such, else as `unavailable`.
    func readerUnavailable(_ error: DatabaseError) -> Unavailable {
        FileIdentity(path: file.path) != identity ? Self.gone(file) : Self.unavailable(file, error)
    }

    static func gone(_ file: URL) -> Unavailable {
        Unavailable(file: file, reason: "was moved, replaced or deleted while this build was using it",
                    hint: "leave the history file in place while isobar runs; the next build uses the file it finds then")
    }

    static func unavailable(_ file: URL, _ error: DatabaseError) -> Unavailable {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return Unavailable(file: file, reason: "is locked by another program", hint: "wait for it to finish (another isobar run, or an open sqlite3 shell)")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return Unavailable(file: file, reason: "is corrupt (\(error.message ?? "not a database"))",
                               hint: "move it aside to start a new history (keep it: `sqlite3 FILE .recover` may save its rows)")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR:
            return Unavailable(file: file, reason: "cannot be opened or written (\(error.message ?? "\(error.resultCode)"))",
                               hint: "check the file and its folder are writable by the user isobar runs as")
        default:
            return Unavailable(file: file, reason: "failed: \(error.message ?? "\(error.resultCode)")", hint: "see the SQLite message")
        }
    }

    /// The entries in one transaction, then each (city, date) they touched recomputed once
    /// (`StoredDay.recompute`) in the same transaction: a killed run leaves both or neither.
    public func record(_ entries: [HistoryEntry]) throws -> Int {
        try sqlite {
            return try database.write { db in
                var added = 0
                var touched: [String: Set<String>] = [:]
                for entry in entries {
                    if try Self.insert(entry, into: db, touching: &touched[entry.city, default: []]) { added += 1 }
                }
                for (city, days) in touched {
                    for day in days.sorted() { try StoredDay.recompute(day, of: city, db) }
                }
                return added
            }
        }
    }

    /// One entry's observation and the forecast hours the checks keep; false (nothing
    /// written) when its city and data time are already there. `touched` gains the dates
    /// whose `day` row it may change: its local day, the UTC days of the targets it may be
    /// paired with and, recorded out of time order (an import), those of its forecast
    /// hours that may pair with observations already there.
    private static func insert(_ entry: HistoryEntry, into db: Database, touching touched: inout Set<String>) throws -> Bool {
        let time = Int(entry.time.timeIntervalSince1970)
        // A run whose data time the API has not moved on from (cron every few minutes, a
        // provider that updates every ten) records nothing: asked first, as binding every
        // value of the row by name for an insert that would be ignored was nine tenths of
        // such a run's recording.
        let key: StatementArguments = ["city": entry.city, "time": time]
        guard try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM observation WHERE city = :city AND time = :time"), arguments: key) == nil
        else { return false }
        var values = ForecastField.arguments(of: entry.current, CurrentConditions.fields)
        // Typed as the dictionary's values, so an absent condition is bound as NULL: assigned
        // as an `Int?`, a nil would remove its key and the insert would lack `:condition`.
        for (column, value) in [("city", entry.city), ("time", time), ("source", entry.source), ("time_zone", entry.timeZone),
                                ("condition", entry.current.conditions.first?.code), ("day", entry.day)] as [(String, (any DatabaseValueConvertible)?)] {
            values[column] = value
        }
        try db.cachedStatement(sql: insertObservation).execute(arguments: StatementArguments(values))
        guard db.changesCount > 0 else { return false }
        let leads = DayFacts.leads(of: entry.hourly, issued: time)
        for lead in leads { try RawRows.keepLead(lead, of: entry.city, db) }
        touched.formUnion([entry.day, DayFacts.utcDay(time - DayFacts.tolerance + 1), DayFacts.utcDay(time + DayFacts.tolerance)])
        let newest = try Int.fetchOne(db.cachedStatement(sql: "SELECT max(time) FROM observation WHERE city = :city"),
                                      arguments: ["city": entry.city]) ?? time
        if newest > time {
            // Older than the city's newest observation: it changes the past its current
            // pages show, so their fingerprint takes the city's revision.
            try db.cachedStatement(sql: "INSERT INTO city VALUES (:city, 1) ON CONFLICT (city) DO UPDATE SET revision = revision + 1")
                .execute(arguments: ["city": entry.city])
            for lead in leads where lead.target <= newest + DayFacts.tolerance { touched.insert(DayFacts.utcDay(lead.target)) }
        }
        return true
    }

    private static let insertObservation = SQLStatement.insert(
        "INSERT OR IGNORE", into: "observation", ["city", "time", "source", "time_zone", "condition", "day"] + CurrentConditions.fields.map(\.column))

    public func stats() throws -> [HistoryCityStats] {
        try sqlite {
            return try database.read { db in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT o.city, o.n, o.first, o.last, (SELECT count(*) FROM forecast_lead l WHERE l.city = o.city) AS leads
                    FROM (SELECT city, COUNT(*) AS n, MIN(time) AS first, MAX(time) AS last FROM observation GROUP BY city) o
                    ORDER BY o.city
                    """)
                return rows.map { row in
                    HistoryCityStats(
                        city: row["city"], observations: row["n"], forecastLeads: row["leads"],
                        first: (row["first"] as Int?).map { Date(timeIntervalSince1970: TimeInterval($0)) },
                        last: (row["last"] as Int?).map { Date(timeIntervalSince1970: TimeInterval($0)) })
                }
            }
        }
    }
}

/// Which file a path names (its device and inode).
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// Nil when nothing is at the path.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
