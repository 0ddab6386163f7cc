import GRDB

/// Statements the history builds from column names, and rows read by column name.
enum SQLStatement {
    /// `VERB INTO table (a, b) VALUES (:a, :b)`: every value bound by its column's name.
    static func insert(_ verb: String, into table: String, _ columns: [String]) -> String {
        "\(verb) INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { ":" + $0 }.joined(separator: ", ")))"
    }

    /// The rows of `statement`, each made into a value by `make`, which reads its columns
    /// by name through `Columns`: the names are looked up once per statement, not at every
    /// read of every row as GRDB's `row["name"]` does (lowercasing the name each time),
    /// which was over half of the CPU a page's read of its history took.
    static func rows<T>(_ statement: Statement, _ arguments: StatementArguments, _ make: (Columns) -> (Row) -> T) throws -> [T] {
        let read = make(Columns(statement))
        return try Array(Row.fetchCursor(statement, arguments: arguments).map(read))
    }

    /// A statement's column positions by name.
    struct Columns {
        private let positions: [String: Int]

        init(_ statement: Statement) {
            self.init(statement.columnNames)
        }

        /// The positions of a `SELECT` of `names`, in that order.
        init(_ names: [String]) {
            positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }

        subscript(_ name: String) -> Int {
            guard let position = positions[name] else { preconditionFailure("the history's statement has no column \(name)") }
            return position
        }
    }
}
