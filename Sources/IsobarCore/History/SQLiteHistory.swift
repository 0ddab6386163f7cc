import Foundation
import GRDB

/// The history in one SQLite file (WAL mode), through GRDB: the embedded default, as in
/// WeeWX. The schema is versioned by GRDB's migrator from its first version on, so a
/// later Isobar migrates the file in place and an older one refuses a newer file rather
/// than misreading it. One writer at a time: the build's output lock, and SQLite's own
/// lock (waited on for a few seconds) against another site sharing the file.
public final class SQLiteHistory: HistoryStore {
    public let file: URL
    let database: DatabaseQueue

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
        do {
            database = try DatabaseQueue(path: file.path, configuration: configuration)
            try database.write { db in
                if try Self.migrator.hasBeenSuperseded(db) {
                    throw Unavailable(file: file, reason: "was written by a newer Isobar (schema \(try Self.migrator.appliedIdentifiers(db).sorted().last ?? "?"))",
                                      hint: "update Isobar, or point history.database at another file")
                }
            }
            try Self.migrator.migrate(database)
        } catch let unavailable as Unavailable {
            throw unavailable
        } catch let error as DatabaseError {
            throw Self.unavailable(file, error)
        }
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

    /// Version 1: observations, and forecasts as issued, keyed so that a data time is
    /// recorded once. Times are Unix seconds (UTC); values in canonical units.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE observation (
                    city TEXT NOT NULL, time INTEGER NOT NULL, source TEXT NOT NULL, time_zone TEXT NOT NULL,
                    temperature REAL NOT NULL, feels_like REAL, humidity REAL, dew_point REAL,
                    pressure REAL, surface_pressure REAL, wind_speed REAL, wind_gust REAL, wind_direction REAL,
                    cloud_cover REAL, visibility REAL, uv_index REAL, rain_1h REAL, snow_1h REAL, condition INTEGER,
                    PRIMARY KEY (city, time)) WITHOUT ROWID;
                CREATE TABLE forecast_hour (
                    city TEXT NOT NULL, issued INTEGER NOT NULL, target INTEGER NOT NULL, step_hours INTEGER NOT NULL,
                    temperature REAL NOT NULL, feels_like REAL, humidity REAL, dew_point REAL, pressure REAL,
                    precipitation_chance REAL, rain REAL, snow REAL, wind_speed REAL, wind_gust REAL, wind_direction REAL,
                    cloud_cover REAL, visibility REAL, uv_index REAL, condition INTEGER,
                    PRIMARY KEY (city, issued, target)) WITHOUT ROWID;
                CREATE TABLE forecast_day (
                    city TEXT NOT NULL, issued INTEGER NOT NULL, day TEXT NOT NULL,
                    temperature_min REAL NOT NULL, temperature_max REAL NOT NULL, precipitation_chance REAL,
                    rain REAL, snow REAL, wind_speed REAL, wind_gust REAL, uv_index REAL, condition INTEGER,
                    PRIMARY KEY (city, issued, day)) WITHOUT ROWID;
                """)
        }
        return migrator
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
    private static func insert(_ entry: HistoryEntry, into db: Database) throws -> Int {
        let issued = Int(entry.time.timeIntervalSince1970)
        let now = entry.current
        // Statements are prepared once per connection and reused for every row.
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO observation VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").execute(
            arguments: [entry.city, issued, entry.source, entry.timeZone, now.temperature, now.feelsLike, now.humidity, now.dewPoint,
                        now.pressure, now.surfacePressure, now.windSpeed, now.windGust, now.windDirection, now.cloudCover,
                        now.visibility, now.uvIndex, now.rainLastHour, now.snowLastHour, now.conditions.first?.code])
        guard db.changesCount > 0 else { return 0 }
        let hour = try db.cachedStatement(sql: "INSERT OR IGNORE INTO forecast_hour VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for step in entry.hourly {
            try hour.execute(arguments: [
                entry.city, issued, Int(step.time.timeIntervalSince1970), step.stepHours, step.temperature, step.feelsLike,
                step.humidity, step.dewPoint, step.pressure, step.precipitationChance, step.rain, step.snow, step.windSpeed,
                step.windGust, step.windDirection, step.cloudCover, step.visibility, step.uvIndex, step.condition.code,
            ])
        }
        let day = try db.cachedStatement(sql: "INSERT OR IGNORE INTO forecast_day VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for forecast in entry.daily {
            try day.execute(arguments: [
                entry.city, issued, forecast.day, forecast.temperatureMin, forecast.temperatureMax, forecast.precipitationChance,
                forecast.rain, forecast.snow, forecast.windSpeed, forecast.windGust, forecast.uvIndex, forecast.condition.code,
            ])
        }
        return 1
    }

    public func stats() throws -> [HistoryCityStats] {
        do {
            return try database.read { db in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT o.city, o.n, o.first, o.last,
                           (SELECT COUNT(*) FROM forecast_hour h WHERE h.city = o.city) AS hours,
                           (SELECT COUNT(*) FROM forecast_day d WHERE d.city = o.city) AS days
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
