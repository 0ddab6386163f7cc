import GRDB
import GRDBSQLite

/// Binds a prepared statement's parameters 1, 2, … in turn with SQLite's C API, then steps
/// it once: GRDB's boxed arguments cost a third of recording's CPU. Recording's statements
/// all go through it.
struct StatementBinder {
    let statement: SQLiteStatement
    var index: Int32 = 0
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: Statement) {
        self.init(prepared: statement.sqliteStatement)
    }

    /// A statement prepared with the C API (`PastConnection`'s).
    init(prepared statement: SQLiteStatement) {
        self.statement = statement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    /// "(?, …), (?, …)": `rows` tuples of `columns` parameters (at most SQLite's 32,766 in all).
    static func placeholders(_ columns: Int, rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    mutating func text(_ value: String) {
        index += 1
        sqlite3_bind_text(statement, index, value, -1, Self.transient)
    }

    mutating func int(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func real(_ value: Double?) {
        index += 1
        if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func blob(_ bytes: [UInt8]) {
        index += 1
        bytes.withUnsafeBytes { _ = sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    mutating func bool(_ value: Bool) {
        int(value ? 1 : 0)
    }

    /// Steps a query once: its first row, read by `read`, or nil.
    func first<T>(_ db: Database, _ read: (ResultRow) -> T) throws -> T? {
        let code = sqlite3_step(statement)
        defer { sqlite3_reset(statement) }
        switch code {
        case SQLITE_ROW: return read(ResultRow(statement: statement))
        case SQLITE_DONE: return nil
        default: throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    func run(_ db: Database) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }
}
