import Foundation
import GRDB

/// Where a city's climate normals are kept once computed from the archive's answer: the
/// history's `normal` table (schema v9), one row per city and calendar day with the normal
/// high and low (°C) and their source. Written once per city, in one transaction; read by
/// each run's normals step, which then needs neither the answer nor the averaging again.
protocol NormalsStore: Sendable {
    func normals(of city: String) throws -> ClimateNormals?
    func keep(_ normals: ClimateNormals, of city: String) throws
}

extension HistorySchema {
    /// The migration that added `normal` to a v8 file.
    static let normalsVersion = "v9"

    static let normalTable = """
        CREATE TABLE normal (
            city TEXT NOT NULL, month INTEGER NOT NULL, day INTEGER NOT NULL,
            high REAL NOT NULL, low REAL NOT NULL, source TEXT NOT NULL,
            PRIMARY KEY (city, month, day)) WITHOUT ROWID;

        """
}

extension SQLiteHistory: NormalsStore {
    func normals(of city: String) throws -> ClimateNormals? {
        try sqlite {
            try database.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT month, day, high, low, source FROM normal WHERE city = ?", arguments: [city])
                guard let first = rows.first else { return nil }
                var days: [ClimateNormals.MonthDay: ClimateNormals.Normal] = [:]
                for row in rows { days[.init(month: row["month"], day: row["day"])] = .init(high: row["high"], low: row["low"]) }
                return ClimateNormals(source: first["source"], days: days)
            }
        }
    }

    /// Replaces whatever the city had: the normals of one source, whole.
    func keep(_ normals: ClimateNormals, of city: String) throws {
        try sqlite {
            try database.write { db in
                try db.execute(sql: "DELETE FROM normal WHERE city = ?", arguments: [city])
                let insert = try db.cachedStatement(sql: "INSERT INTO normal VALUES (?, ?, ?, ?, ?, ?)")
                for (day, normal) in normals.days {
                    try insert.execute(arguments: [city, day.month, day.day, normal.high, normal.low, normals.source])
                }
            }
        }
    }
}
