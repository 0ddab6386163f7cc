import Foundation
import GRDB

/// The history's tables, one schema (v8, and v9's `normal`, NormalsTable.swift) through GRDB's migrator. Times are Unix seconds
/// (UTC), days `yyyy-MM-dd`, values in the canonical units `Forecast` holds (°C, hPa, m/s,
/// mm, %, m). What was recorded is the only truth: `observation` and `forecast_lead`.
/// `day` is derived from them (`StoredDay`), `city` and `meta` are facts about the file.
///
/// Versions 1–6 were written by development builds within three days before any release
/// (README, "History"): a file at one of them is refused (`SQLiteHistory.Unavailable`)
/// with the fix, and a v7 file, what releases wrote, is migrated by `HistoryV7`.
enum HistorySchema {
    static let version = "v8"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Merging v1–v7: GRDB runs this once on a v7 file and forgets v1–v7 after it
        // (`refusal` turns v1–v6 away before).
        migrator.registerMigration(version, merging: ["v1", "v2", "v3", "v4", "v5", "v6", "v7"]) { db, applied in
            if applied.contains("v7") {
                try HistoryV7.migrate(db)
            } else {
                try db.execute(sql: observationTable + forecastLeadTable + cityAndMetaTables + dayTable)
            }
        }
        migrator.registerMigration(normalsVersion) { db in try db.execute(sql: normalTable) }
        return migrator
    }

    /// Every observation, recorded once per city and data time: every current value, a
    /// column each (`CurrentConditions.fields`), the main condition's code, and `day`, the
    /// city's local day of its data time.
    static var observationTable: String {
        """
        CREATE TABLE observation (
            city TEXT NOT NULL, time INTEGER NOT NULL, source TEXT NOT NULL, time_zone TEXT NOT NULL,
            \(CurrentConditions.fields.map(\.columnDefinition).joined(separator: ", ")),
            condition INTEGER, day TEXT,
            PRIMARY KEY (city, time)) WITHOUT ROWID;

        """
    }

    /// The forecast hours the checks pair (`DayFacts.leads`): one per city, hour it was
    /// made for (`made`, its target less the lead) and lead, from the run whose data time
    /// was nearest `made` (`RawRows.keepLead`).
    static let forecastLeadTable = """
        CREATE TABLE forecast_lead (
            city TEXT NOT NULL, made INTEGER NOT NULL, lead_hours INTEGER NOT NULL, target INTEGER NOT NULL,
            issued INTEGER NOT NULL, temperature REAL NOT NULL, chance REAL,
            PRIMARY KEY (city, made, lead_hours)) WITHOUT ROWID;

        """

    /// `city.revision`: bumped when a city's past changes other than by a new data time (an
    /// import), part of its pages' fingerprint. `meta`: one value per key (`last_prune`).
    static let cityAndMetaTables = """
        CREATE TABLE city (city TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;

        """

    /// What the pages read about finished days, kept for good (retention thins the raw rows
    /// out, not these), recomputed from the raw rows whenever a run touches the date
    /// (`StoredDay.recompute`). One row per city and date holds two facts of that date:
    /// the city's local day (its tally: samples, low, high, the temperatures' sum, the
    /// precipitation with every hour counted; NULL temperatures when nothing was observed
    /// that local day) and the checks whose target falls on that UTC day, per lead. The
    /// plan had the checks per local day with columns splitting it by UTC day; a local day
    /// can touch three UTC days (a 25-hour day), and the page counts UTC days, so the
    /// checks are keyed by their own UTC date instead, with no split.
    static var dayTable: String {
        let checks = DayFacts.leadHours.map { lead in
            "pairs_\(lead) INTEGER NOT NULL DEFAULT 0, error_sum_\(lead) INTEGER NOT NULL DEFAULT 0, "
                + "likely_\(lead) INTEGER NOT NULL DEFAULT 0, happened_\(lead) INTEGER NOT NULL DEFAULT 0,"
        }.joined(separator: "\n    ")
        return """
            CREATE TABLE day (
                city TEXT NOT NULL, day TEXT NOT NULL,
                samples INTEGER NOT NULL DEFAULT 0, temperature_min REAL, temperature_max REAL, temperature_sum REAL,
                precipitation REAL NOT NULL DEFAULT 0,
                \(checks)
                PRIMARY KEY (city, day)) WITHOUT ROWID;

            """
    }

    /// Why a file cannot be opened as it is, from the migrations it records (nil: it can):
    /// one that a newer Isobar wrote, or a development build's (v1–v6).
    static func refusal(of applied: Set<String>, file: URL) -> SQLiteHistory.Unavailable? {
        let known: Set<String> = ["v1", "v2", "v3", "v4", "v5", "v6", "v7", version, normalsVersion]
        if let newer = applied.subtracting(known).sorted().last {
            return SQLiteHistory.Unavailable(file: file, reason: "was written by a newer Isobar (schema \(newer))",
                                             hint: "update Isobar, or point history.database at another file")
        }
        if !applied.isEmpty, !applied.contains("v7"), !applied.contains(version) {
            return SQLiteHistory.Unavailable(
                file: file, reason: "is at schema \(applied.sorted().last!), a development build's, which this Isobar cannot migrate",
                hint: "open it once with isobar 2db3594 (any `isobar history stats` will do) to bring it to v7, then again with this Isobar")
        }
        return nil
    }
}
