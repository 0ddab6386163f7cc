import Foundation
import GRDB
import GRDBSQLite

/// Read-only SQLite connections for the pages' reads of a city's past, each with its
/// statements prepared once. A page's read through GRDB's pool (taking a reader, a hop
/// onto its dispatch queue, `Row`s holding boxed values, a column found by name) cost as
/// much as SQLite's own work; here a page takes an idle connection under a lock, binds
/// and steps prepared statements, and reads the columns by position. GRDB stays the
/// writer (`SQLiteHistory.database`), which migrated the schema before any of these
/// opened. Connections open as pages first need them (one per thread reading at once)
/// and close with the history. They open the file by its path, so each first checks that
/// the path still names the file the writer opened: a history moved, replaced or deleted
/// during the build is named as such, not read as another file ("no such table").
final class PastReaders: @unchecked Sendable {
    private let file: URL
    private let identity: FileIdentity?
    private let busyTimeoutMilliseconds: Int32
    private let lock = NSLock()
    private var idle: [PastConnection] = []

    /// `identity`: the file the writer opened, which every connection must open too.
    init(file: URL, identity: FileIdentity?, busyTimeout: TimeInterval) {
        self.file = file
        self.identity = identity
        busyTimeoutMilliseconds = Int32(busyTimeout * 1000)
    }

    /// Closes the idle connections: before GRDB's own, so that the last connection to
    /// close is the writer's, which checkpoints the WAL into the file and removes it.
    func close() {
        lock.withLock { idle.removeAll() }
    }

    func read<T>(_ body: (PastConnection) throws -> T) throws -> T {
        let connection = try lock.withLock { idle.popLast() } ?? open()
        defer { lock.withLock { idle.append(connection) } }
        return try body(connection)
    }

    private func open() throws -> PastConnection {
        guard FileIdentity(path: file.path) == identity else {
            throw SQLiteHistory.Unavailable(file: file, reason: "was moved, replaced or deleted while this build was using it",
                                            hint: "leave the history file in place while isobar runs; the next build uses the file it finds then")
        }
        return try PastConnection(path: file.path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
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

/// One read-only connection and its prepared statements, used by one page at a time.
/// Each statement runs on its own (no transaction around a page's reads: see `past`).
final class PastConnection {
    private let handle: OpaquePointer
    private var prepared: [OpaquePointer?]

    init(path: String, busyTimeoutMilliseconds: Int32) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot be opened"
            sqlite3_close_v2(opened)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        handle = opened
        prepared = Array(repeating: nil, count: PastStatement.allCases.count)
    }

    deinit {
        for statement in prepared { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `statement` with `arguments` (bound as ?1, ?2, … by `StatementBinder`) and hands each result row to
    /// `row`, whose columns are valid only during the call.
    func rows(_ statement: PastStatement, _ arguments: [PastArgument], _ row: (ResultRow) throws -> Void) throws {
        let stmt = try self.statement(statement)
        defer { sqlite3_reset(stmt) }
        var binder = StatementBinder(prepared: stmt)
        for argument in arguments {
            switch argument {
            case .text(let text): binder.text(text)
            case .int(let value): binder.int(Int64(value))
            }
        }
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            try row(ResultRow(statement: stmt))
        }
    }

    private func statement(_ which: PastStatement) throws -> OpaquePointer {
        if let ready = prepared[which.rawValue] { return ready }
        var stmt: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, which.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard code == SQLITE_OK, let stmt else { throw error(code) }
        prepared[which.rawValue] = stmt
        return stmt
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(handle)))
    }
}

enum PastArgument {
    case text(String)
    case int(Int)
}

/// A result row's columns by position.
struct ResultRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func text(_ column: Int32) -> String { sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "" }
    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func blob(_ column: Int32) -> [UInt8] {
        guard let base = sqlite3_column_blob(statement, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(statement, column))))
    }
}
