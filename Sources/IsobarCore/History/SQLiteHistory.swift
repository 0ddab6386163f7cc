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
    /// The pages' reads of a city's past (`PastReaders`: SQLite's C API, not GRDB's pool).
    let readers: PastReaders
    /// Said once by whoever opened the history (a build's log, `isobar history …`): the
    /// file was there but held nothing, so a new history was started in it.
    public let warning: IsobarError?

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

    /// Each connection's page cache, in SQLite's negative-KiB form. A batch of cities
    /// (`HistoryRecorder.batchSize`) changes some 7 pages each, 1,900 pages of 4 KiB; in
    /// SQLite's default 2 MiB they did not fit, so the transaction spilled pages to the
    /// WAL as it went, wrote some of them twice and read them back (Benchmarks/README.md,
    /// "history.sh"). The cache grows only as pages are used: GRDB's readers (the city
    /// revisions, `history stats`) stay small; the pages' own readers (`PastReaders`)
    /// keep SQLite's default.
    static let cacheKiB = -16_384

    /// Opens (or creates) the database and brings its schema up to date.
    public init(file: URL, busyTimeout: TimeInterval = 5) throws {
        self.file = file
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "history"
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL syncs at checkpoints, not at every commit: a killed run
            // loses nothing committed, and a power cut at most the last transactions,
            // never the file's consistency.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = \(Self.cacheKiB)")
        }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw Unavailable(file: file, reason: "cannot be created (\(error.localizedDescription))",
                              hint: "make \(file.deletingLastPathComponent().path) writable, or set history.database elsewhere")
        }
        let existed = FileManager.default.fileExists(atPath: file.path)
        let opened: (pool: DatabasePool, wasEmpty: Bool)
        do {
            do {
                opened = try Self.open(file, configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
                // SQLite opens a `-shm` it cannot write read-only, and then cannot write the
                // database either: one left by another user, or a copy, costs the history.
                try SharedMemoryFile(database: file).discardIfStale(error)
                opened = try Self.open(file, configuration)
            }
        } catch let unavailable as Unavailable {
            throw unavailable
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
        database = opened.pool
        // A file that was there but held no schema (zero bytes, and no WAL holding its
        // content: a crash right after it was made, or a truncation) is a history that lost
        // its content, not a new one: said, since the past is gone (and `start_from`
        // imports its recorded part again).
        warning = existed && opened.wasEmpty
            ? IsobarError(step: .history, path: file.path,
                          message: "the history database was an empty file: the history it held is lost (a crash right after the file was made, or a truncation); a new history is started in it",
                          hint: "to keep the old history, stop the runs and put a backup of the file in its place; `isobar history import DIR` adds recorded responses again")
            : nil
        readers = PastReaders(file: file, identity: FileIdentity(path: file.path), busyTimeout: busyTimeout)
    }

    /// The pool with its schema brought up to date, and whether the file held no schema
    /// before (so the migrator's first version made it).
    private static func open(_ file: URL, _ configuration: Configuration) throws -> (pool: DatabasePool, wasEmpty: Bool) {
        let pool = try DatabasePool(path: file.path, configuration: configuration)
        let wasEmpty = try pool.write { db -> Bool in
            if try HistorySchema.migrator.hasBeenSuperseded(db) {
                throw Unavailable(file: file, reason: "was written by a newer Isobar (schema \(try HistorySchema.migrator.appliedIdentifiers(db).sorted().last ?? "?"))",
                                  hint: "update Isobar, or point history.database at another file")
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0
        }
        try HistorySchema.migrator.migrate(pool)
        return (pool, wasEmpty)
    }

    /// Closes every connection, the writer's last, so that its checkpoint folds the WAL
    /// into the file and removes it. A build closes its history itself rather than
    /// leaving it to `deinit`: the recording thread may still hold the store when the
    /// process exits, and a process that exits mid-close leaves the WAL behind.
    public func close() {
        readers.close()
        database.releaseMemory()  // GRDB's idle readers, which `close()` would close after its writer
        try? database.close()
    }

    deinit {
        readers.close()
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

    public func record(_ entries: [HistoryEntry]) throws -> Int {
        do {
            return try database.write { db in
                var added = 0
                for entry in entries {
                    added += try Self.insert(entry, into: db)
                }
                return added
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }

    /// One entry's rows; nothing when its city and data time are already there.
    /// Values are bound straight to the prepared statements (GRDB's `StatementArguments`
    /// boxed every value: a third of recording's CPU), the forecast as one row
    /// (`IssuedForecast`; Benchmarks/README.md, "history.sh").
    private static func insert(_ entry: HistoryEntry, into db: Database) throws -> Int {
        let issued = Int64(entry.time.timeIntervalSince1970)
        let now = entry.current
        var row = StatementBinder(try db.cachedStatement(sql: insertObservation))
        row.text(entry.city); row.int(issued); row.text(entry.source); row.text(entry.timeZone); row.real(now.temperature)
        row.real(now.feelsLike); row.real(now.humidity); row.real(now.dewPoint); row.real(now.pressure); row.real(now.surfacePressure)
        row.real(now.windSpeed); row.real(now.windGust); row.real(now.windDirection); row.real(now.cloudCover); row.real(now.visibility)
        row.real(now.uvIndex); row.real(now.rainLastHour); row.real(now.snowLastHour); row.int(now.conditions.first.map { Int64($0.code) })
        row.text(entry.day)
        try row.run(db)
        guard db.changesCount > 0 else { return 0 }
        let forecastIsNew = try insertForecast(hours: entry.hourly, days: entry.daily, city: entry.city, issued: issued, into: db)
        let fact = ObservationFacts(entry)
        var later = StatementBinder(try db.cachedStatement(sql: "SELECT 1 FROM observation WHERE city = ? AND time > ? LIMIT 1"))
        later.text(entry.city); later.int(issued)
        guard try later.first(db, { _ in true }) == true else {
            // In time order, as every run but an import's: the city's open day.
            try OpenDayRows.record(fact, hours: forecastIsNew ? entry.hourly[...] : entry.hourly[0..<0], issued: Int(issued), db)
            return 1
        }
        // An observation older than the city's newest (an import) changes the past its
        // current pages show: their fingerprint takes the city's revision. It is added to
        // the tables, with the open day written out into them first and taken out again
        // after; its forecast's checks may have their observations already: they are
        // paired now.
        try OpenDayRows.spill(entry.city, db)
        if forecastIsNew {
            try DerivedRows.addLeads(of: entry.hourly, city: entry.city, issued: issued, db)
        }
        try db.cachedStatement(sql: "INSERT INTO city VALUES (?, 1) ON CONFLICT (city) DO UPDATE SET revision = revision + 1")
            .execute(arguments: [entry.city])
        try DerivedRows.pairLate(city: entry.city, issued: issued, db)
        try DerivedRows.add(fact, to: db)
        try OpenDayRows.fold(entry.city, db)
        return 1
    }

    /// Made once: building the string for every city was a thirtieth of recording's CPU.
    private static let insertObservation = "INSERT OR IGNORE INTO observation VALUES " + StatementBinder.placeholders(20, rows: 1)

    /// A forecast as issued: its row in `forecast`; false (nothing written) if the run is
    /// there.
    @discardableResult
    static func insertForecast(_ forecast: IssuedForecast, city: String, issued: Int64, into db: Database) throws -> Bool {
        try insertForecast(hours: forecast.hours, days: forecast.days, city: city, issued: issued, into: db)
    }

    static func insertForecast(hours: some Collection<some PackableHour>, days: some Collection<some PackableDay>,
                               city: String, issued: Int64, into db: Database) throws -> Bool {
        var row = StatementBinder(try db.cachedStatement(sql: "INSERT OR IGNORE INTO forecast VALUES (?, ?, ?, ?, ?, ?)"))
        row.text(city); row.int(issued); row.int(Int64(hours.count)); row.int(Int64(days.count))
        row.blob(IssuedForecast.hoursBlob(hours)); row.blob(IssuedForecast.daysBlob(days))
        try row.run(db)
        return db.changesCount > 0
    }

    public func stats() throws -> [HistoryCityStats] {
        do {
            return try database.read { db in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT o.city, o.n, o.first, o.last,
                           (SELECT coalesce(sum(hour_count), 0) FROM forecast f WHERE f.city = o.city) AS hours,
                           (SELECT coalesce(sum(day_count), 0) FROM forecast f WHERE f.city = o.city) AS days
                    FROM (SELECT city, COUNT(*) AS n, MIN(time) AS first, MAX(time) AS last FROM observation GROUP BY city) o
                    ORDER BY o.city
                    """)
                return rows.map { row in
                    HistoryCityStats(
                        city: row["city"], observations: row["n"], forecastHours: row["hours"], forecastDays: row["days"],
                        first: (row["first"] as Int?).map { Date(timeIntervalSince1970: TimeInterval($0)) },
                        last: (row["last"] as Int?).map { Date(timeIntervalSince1970: TimeInterval($0)) })
                }
            }
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
    }
}
