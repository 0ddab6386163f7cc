import Foundation
import GRDB

/// The history's tables, versioned by GRDB's migrator from the first version on: a later
/// Isobar migrates the file in place, an older one refuses a newer file (`SQLiteHistory`).
/// Times are Unix seconds (UTC), days are the city's local `yyyy-MM-dd`, values are in
/// the canonical units `Forecast` holds (°C, hPa, m/s, mm, %, m).
enum HistorySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Version 1: observations, and forecasts as issued, keyed so that a data time is
        // recorded once.
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
        // Version 2: what the pages read, kept up to date as observations are recorded so
        // that a page costs a few key lookups however long the history is, and so that the
        // detail can be thinned out (retention) without changing what the pages say.
        // - observation.day: the local day it counts towards;
        // - observed_day: each local day's summary, kept for good;
        // - verification: each forecast made 24 h and 72 h ahead, paired with what was
        //   observed at its target hour;
        // - city.revision: bumped when a city's past changes other than by a new data
        //   time (an import), part of its pages' fingerprint.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE observation ADD COLUMN day TEXT;
                CREATE TABLE observed_day (
                    city TEXT NOT NULL, day TEXT NOT NULL,
                    temperature_min REAL NOT NULL, temperature_max REAL NOT NULL,
                    temperature_sum REAL NOT NULL, samples INTEGER NOT NULL,
                    precipitation REAL NOT NULL, hour INTEGER NOT NULL, hour_precipitation REAL NOT NULL,
                    PRIMARY KEY (city, day)) WITHOUT ROWID;
                CREATE TABLE verification (
                    city TEXT NOT NULL, lead_hours INTEGER NOT NULL, target INTEGER NOT NULL,
                    issued INTEGER NOT NULL, forecast REAL NOT NULL, chance REAL,
                    observed_time INTEGER NOT NULL, observed REAL NOT NULL, precipitated INTEGER NOT NULL,
                    PRIMARY KEY (city, lead_hours, target)) WITHOUT ROWID;
                CREATE TABLE city (city TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;
                """)
            // A version-1 file's observations, in time order, as if recorded now.
            let rows = try Row.fetchCursor(db, sql: "SELECT city, time, time_zone, temperature, rain_1h, snow_1h, condition FROM observation ORDER BY city, time")
            var facts: [ObservationFacts] = []
            while let row = try rows.next() {
                let zone = TimeZone(identifier: row["time_zone"]) ?? TimeZone(secondsFromGMT: 0)!
                let time: Int = row["time"]
                facts.append(ObservationFacts(
                    city: row["city"], time: time, day: LocalDay.key(for: Date(timeIntervalSince1970: TimeInterval(time)), in: zone),
                    temperature: row["temperature"], rain: row["rain_1h"], snow: row["snow_1h"], condition: row["condition"]))
            }
            // Their checks are paired by version 4, from the forecasts' new form.
            for fact in facts {
                try db.execute(sql: "UPDATE observation SET day = ? WHERE city = ? AND time = ?", arguments: [fact.day, fact.city, fact.time])
                try addToDayV2(fact, db)
            }
        }
        // Version 3: facts about the file itself, one value per key. `last_prune`: when
        // retention last ran (Unix seconds), so a build prunes at most once a day.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID")
        }
        // Version 4: a forecast as issued is one row per city and data time, its hours and
        // days packed (`IssuedForecast`), instead of 56 rows: recording inserted each as
        // a B-tree row of its own, most of its cost. `forecast` is a rowid table, so each
        // run's rows go at its end, with a small index to find a city's. `forecast_lead`
        // holds the hours the checks pair (made 24 h and 72 h ahead, within half an
        // hour), taken out as the forecast is recorded. Written as SQL of this version's
        // tables, not through `DerivedRows`, which writes today's.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                CREATE TABLE forecast (
                    city TEXT NOT NULL, issued INTEGER NOT NULL, hour_count INTEGER NOT NULL, day_count INTEGER NOT NULL,
                    hours BLOB NOT NULL, days BLOB NOT NULL);
                CREATE UNIQUE INDEX forecast_city ON forecast (city, issued);
                CREATE TABLE forecast_lead (
                    city TEXT NOT NULL, lead_hours INTEGER NOT NULL, target INTEGER NOT NULL,
                    issued INTEGER NOT NULL, temperature REAL NOT NULL, chance REAL,
                    PRIMARY KEY (city, lead_hours, target)) WITHOUT ROWID;
                """)
            try HistorySchema.packForecasts(db)
            // The hours the checks pair, of every run, as version 4's recording kept them.
            try db.execute(sql: """
                INSERT INTO forecast_lead
                    SELECT h.city, l.lead, h.target, h.issued, h.temperature, h.precipitation_chance
                    FROM forecast_hour h JOIN (SELECT 24 AS lead UNION ALL SELECT 72) l ON abs(h.target - l.lead * 3600 - h.issued) <= 1800
                    WHERE h.target % 3600 = 0
                    ORDER BY h.city, h.issued, h.target
                ON CONFLICT (city, lead_hours, target) DO UPDATE SET
                    issued = excluded.issued, temperature = excluded.temperature, chance = excluded.chance
                WHERE abs(excluded.target - excluded.lead_hours * 3600 - excluded.issued) < abs(target - lead_hours * 3600 - issued);
                DROP TABLE forecast_hour;
                DROP TABLE forecast_day;
                """)
            // Each paired with the observation nearest its target hour (within half an
            // hour; the earlier on a tie), as version 4 paired them as observations came.
            try db.execute(sql: """
                INSERT INTO verification
                    SELECT l.city, l.lead_hours, l.target, l.issued, l.temperature, l.chance, o.time, o.temperature,
                           coalesce(o.rain_1h, 0) + coalesce(o.snow_1h, 0) > 0 OR coalesce(o.condition, 0) BETWEEN 200 AND 699
                    FROM forecast_lead l JOIN observation o ON o.city = l.city AND o.time >= l.target - 1800 AND o.time < l.target + 1800
                    WHERE true  -- so that the ON below is read as the upsert's, not the join's
                    ORDER BY l.city, l.lead_hours, l.target, o.time
                ON CONFLICT (city, lead_hours, target) DO UPDATE SET
                    issued = excluded.issued, forecast = excluded.forecast, chance = excluded.chance,
                    observed_time = excluded.observed_time, observed = excluded.observed, precipitated = excluded.precipitated
                WHERE abs(excluded.observed_time - excluded.target) < abs(observed_time - target)
                """)
        }
        // Version 5: what the pages read in a few rows however long the checks' period.
        // - observed_day.last_time: the latest observation the day holds, so a page takes
        //   today so far from its summary when the summary holds nothing from its data
        //   time on (it scans the day's observations otherwise);
        // - check_day: each UTC day's checks summed (pairs, absolute errors in millionths of
        //   a degree, likely rain and whether it came), kept by triggers on `verification` so that every way a pair
        //   is written or removed (recording, a late run, retention) keeps it right. A
        //   page sums 30 of these instead of some 1,400 pairs.
        migrator.registerMigration("v5") { db in
            try db.execute(sql: """
                ALTER TABLE observed_day ADD COLUMN last_time INTEGER;
                CREATE TABLE check_day (
                    city TEXT NOT NULL, lead_hours INTEGER NOT NULL, day INTEGER NOT NULL,
                    pairs INTEGER NOT NULL, error_sum INTEGER NOT NULL, likely INTEGER NOT NULL, happened INTEGER NOT NULL,
                    PRIMARY KEY (city, lead_hours, day)) WITHOUT ROWID;
                INSERT INTO check_day
                    SELECT city, lead_hours, target / 86400, count(*), sum(\(CheckDay.error(""))), sum(\(CheckDay.likely(""))), sum(\(CheckDay.happened("")))
                    FROM verification GROUP BY city, lead_hours, target / 86400;
                """ + checkDayTriggers)
        }
        // Version 6: a run's writes to the checks' tables land on one page per table, not
        // one per lead (a page written costs recording its WAL frame and its checkpoint,
        // most of recording's time: Benchmarks/README.md, "history.sh").
        // - forecast_lead is keyed by the whole hour the forecast was made for (`made`,
        //   its target less the lead), so one run's hours for both leads sit side by side
        //   at the end of its city's rows; one row per made hour and lead is one per
        //   target and lead, as before;
        // - verification is keyed by target, then lead: an observation pairs both leads
        //   of its hour.
        // Tables are rebuilt under their names (SQLite cannot change a primary key);
        // dropping `verification` drops its triggers, which are made again, and
        // `check_day`, which sums the same pairs, stays as it is.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: """
                CREATE TABLE forecast_lead_v6 (
                    city TEXT NOT NULL, made INTEGER NOT NULL, lead_hours INTEGER NOT NULL, target INTEGER NOT NULL,
                    issued INTEGER NOT NULL, temperature REAL NOT NULL, chance REAL,
                    PRIMARY KEY (city, made, lead_hours)) WITHOUT ROWID;
                INSERT INTO forecast_lead_v6
                    SELECT city, target - lead_hours * 3600, lead_hours, target, issued, temperature, chance FROM forecast_lead;
                DROP TABLE forecast_lead;
                ALTER TABLE forecast_lead_v6 RENAME TO forecast_lead;
                CREATE TABLE verification_v6 (
                    city TEXT NOT NULL, lead_hours INTEGER NOT NULL, target INTEGER NOT NULL,
                    issued INTEGER NOT NULL, forecast REAL NOT NULL, chance REAL,
                    observed_time INTEGER NOT NULL, observed REAL NOT NULL, precipitated INTEGER NOT NULL,
                    PRIMARY KEY (city, target, lead_hours)) WITHOUT ROWID;
                INSERT INTO verification_v6 SELECT * FROM verification;
                DROP TABLE verification;
                ALTER TABLE verification_v6 RENAME TO verification;
                """ + checkDayTriggers)
        }
        // Version 7: each city's open day in one row (`OpenDay`), rewritten each run, in
        // place of the rows recording changed in `observed_day`, `forecast_lead`,
        // `verification` and `check_day` each run (Benchmarks/README.md, "history.sh").
        // A rowid table, so that a row of some 3.5 KB stays on its leaf page (a WITHOUT
        // ROWID table keeps some 1 KB of a row there and the rest on overflow pages), and
        // an update in place leaves the key's index alone. Each city's open day is taken
        // out of the tables as version 7 does it (`OpenDayRows.fold`).
        migrator.registerMigration("v7") { db in
            try db.execute(sql: """
                CREATE TABLE open_day (
                    city TEXT NOT NULL PRIMARY KEY, day TEXT NOT NULL,
                    temperature_min REAL NOT NULL, temperature_max REAL NOT NULL, temperature_sum REAL NOT NULL, samples INTEGER NOT NULL,
                    precipitation REAL NOT NULL, hour INTEGER NOT NULL, hour_precipitation REAL NOT NULL, last_time INTEGER,
                    leads BLOB NOT NULL, pairs BLOB NOT NULL);
                """)
            for city in try String.fetchAll(db, sql: "SELECT DISTINCT city FROM observed_day") {
                try OpenDayRows.fold(city, db)
            }
        }
        return migrator
    }

    /// `check_day` kept by triggers on `verification` (versions 5 and 6).
    private static var checkDayTriggers: String {
        """
        CREATE TRIGGER check_added AFTER INSERT ON verification BEGIN
            \(CheckDay.add("NEW"));
        END;
        CREATE TRIGGER check_changed AFTER UPDATE ON verification BEGIN
            \(CheckDay.remove("OLD"));
            \(CheckDay.add("NEW"));
            \(CheckDay.dropEmpty("OLD"));
        END;
        CREATE TRIGGER check_removed AFTER DELETE ON verification BEGIN
            \(CheckDay.remove("OLD"));
            \(CheckDay.dropEmpty("OLD"));
        END;
        """
    }

    /// Version 2's daily summary of one observation, as version 2 wrote it: a migration
    /// does what its version did, whatever today's `DerivedRows` does.
    private static func addToDayV2(_ fact: ObservationFacts, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO observed_day VALUES (?1, ?2, ?3, ?3, ?3, 1, 0, ?4, ?5)
            ON CONFLICT (city, day) DO UPDATE SET
                temperature_min = min(temperature_min, excluded.temperature_min),
                temperature_max = max(temperature_max, excluded.temperature_max),
                temperature_sum = temperature_sum + excluded.temperature_sum,
                samples = samples + 1,
                precipitation = CASE WHEN excluded.hour = hour THEN precipitation ELSE precipitation + hour_precipitation END,
                hour_precipitation = CASE WHEN excluded.hour = hour THEN max(hour_precipitation, excluded.hour_precipitation)
                                          ELSE excluded.hour_precipitation END,
                hour = excluded.hour
            """).execute(arguments: [fact.city, fact.day, fact.temperature, fact.time / 3600, fact.precipitation])
    }

    /// Version 4's move of the forecasts as issued into one row per city and data time.
    private static func packForecasts(_ db: Database) throws {
        struct Run: Hashable { var city: String; var issued: Int64 }
        var days: [Run: [IssuedForecast.Day]] = [:]
        let dayRows = try Row.fetchCursor(db, sql: "SELECT * FROM forecast_day ORDER BY city, issued, day")
        while let row = try dayRows.next() {
            days[Run(city: row["city"], issued: row["issued"]), default: []].append(IssuedForecast.Day(
                day: row["day"], condition: row["condition"] ?? 800, temperatureMin: row["temperature_min"], temperatureMax: row["temperature_max"],
                precipitationChance: row["precipitation_chance"], rain: row["rain"], snow: row["snow"], windSpeed: row["wind_speed"],
                windGust: row["wind_gust"], uvIndex: row["uv_index"]))
        }
        var current: Run?
        var hours: [IssuedForecast.Hour] = []
        func flush() throws {
            guard let run = current else { return }
            try SQLiteHistory.insertForecast(IssuedForecast(hours: hours, days: days.removeValue(forKey: run) ?? []),
                                             city: run.city, issued: run.issued, into: db)
        }
        let hourRows = try Row.fetchCursor(db, sql: "SELECT * FROM forecast_hour ORDER BY city, issued, target")
        while let row = try hourRows.next() {
            let run = Run(city: row["city"], issued: row["issued"])
            if current != run {
                try flush()
                current = run
                hours = []
            }
            hours.append(IssuedForecast.Hour(
                target: row["target"], stepHours: row["step_hours"], condition: row["condition"] ?? 800, temperature: row["temperature"],
                feelsLike: row["feels_like"], humidity: row["humidity"], dewPoint: row["dew_point"], pressure: row["pressure"],
                precipitationChance: row["precipitation_chance"], rain: row["rain"], snow: row["snow"], windSpeed: row["wind_speed"],
                windGust: row["wind_gust"], windDirection: row["wind_direction"], cloudCover: row["cloud_cover"],
                visibility: row["visibility"], uvIndex: row["uv_index"]))
        }
        try flush()
        // Runs with days and no hours.
        for (run, list) in days {
            try SQLiteHistory.insertForecast(IssuedForecast(hours: [], days: list), city: run.city, issued: run.issued, into: db)
        }
    }
}
