import GRDB

/// The field table (`ForecastField`) as the history's columns: the `observation` table,
/// its insert and its reads name their columns and binds from the declarations, so a
/// value added to `CurrentConditions.fields` is recorded, read back and exported with no
/// other edit (an existing file gains its column when it is next opened).
extension ForecastField {
    /// `name REAL`, NOT NULL for a value no row is without.
    var columnDefinition: String { column + " REAL" + (required ? " NOT NULL" : "") }

    /// The row's values by column name, for a statement's named binds.
    static func arguments(of row: Row, _ fields: [Self]) -> [String: (any DatabaseValueConvertible)?] {
        Dictionary(uniqueKeysWithValues: fields.map { ($0.column, $0.get(row)) })
    }

    /// Adds the column of each field `table` does not have yet (NULL in the rows before:
    /// not recorded then).
    static func addColumns(_ fields: [Self], to table: String, _ db: Database) throws {
        let existing = Set(try db.columns(in: table).map(\.name))
        for field in fields where !existing.contains(field.column) {
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(field.column) REAL")
        }
    }

    /// Sets in `row` each field the database row holds a value for.
    static func read(_ databaseRow: GRDB.Row, into row: inout Row, _ fields: [Self]) {
        for field in fields {
            if let value = databaseRow[field.column] as Double? { field.set(&row, value) }
        }
    }
}
