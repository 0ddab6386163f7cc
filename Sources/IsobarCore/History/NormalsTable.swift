import Foundation
import GRDB

/// Where a city's climate normals are kept once computed from the archive's answer: the
/// history's `normal` table (schema v9), one row per city and calendar day with the normal
/// high and low (°C) and their source. Written once per city, in one transaction; read by
/// each run's normals step, which then needs neither the answer nor the averaging again.
protocol NormalsStore: Sendable {
    /// The normals kept for each of `cities` that has them.
    func normals(of cities: [String]) throws -> [String: ClimateNormals]
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
    /// In one read, each row's columns by position: a read per city, its 366 rows' columns
    /// looked up by name, was a fifth of a 3,000-city build's CPU, on one thread.
    func normals(of cities: [String]) throws -> [String: ClimateNormals] {
        try sqlite {
            try database.read { db in
                let source = try db.makeStatement(sql: "SELECT source FROM normal WHERE city = ? LIMIT 1")
                let days = try db.makeStatement(sql: "SELECT month, day, high, low FROM normal WHERE city = ?")
                var found: [String: ClimateNormals] = [:]
                for city in cities {
                    guard let name = try String.fetchOne(source, arguments: [city]) else { continue }
                    let rows = try SQLStatement.rows(days, [city]) { column in
                        let (month, day, high, low) = (column["month"], column["day"], column["high"], column["low"])
                        return { row in (ClimateNormals.MonthDay(month: row[month], day: row[day]), ClimateNormals.Normal(high: row[high], low: row[low])) }
                    }
                    found[city] = ClimateNormals(source: name, days: Dictionary(rows, uniquingKeysWith: { first, _ in first }))
                }
                return found
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
