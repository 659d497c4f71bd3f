import CSQLite
import Foundation

/// The names of a statement's result columns, looked up once per statement (as GRDB does), on either engine.
public final class ColumnIndex {
    public let byName: [String: Int]

    /// The names in column order; `nil` for a column without one.
    public init(names: [String?]) {
        var byName: [String: Int] = [:]
        // The first column of a name wins, as in SQL: a later duplicate needs an alias.
        for (i, name) in names.enumerated() where name != nil && byName[name!] == nil { byName[name!] = i }
        self.byName = byName
    }

    convenience init(_ statement: OpaquePointer) {
        self.init(
            names: (0..<sqlite3_column_count(statement)).map { i in
                sqlite3_column_name(statement, i).map { String(cString: $0) }
            })
    }
}

/// The current row of a running query; valid only inside the decode closure.
///
/// Read columns by name (`row.int64("id")`): adding a column to a query then cannot shift the others.
public struct Row {
    let statement: OpaquePointer
    let sql: String
    let columns: ColumnIndex

    /// The index of the column `name`; throws when the query has no such column.
    public func index(_ name: String) throws -> Int {
        guard let i = columns.byName[name] else {
            throw DatabaseError(code: SQLITE_RANGE, message: "no column named \(name)", sql: sql)
        }
        return i
    }

    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL
    }

    public func int64(_ index: Int) throws -> Int64 {
        try expect(index, SQLITE_INTEGER, "an integer")
        return sqlite3_column_int64(statement, Int32(index))
    }

    public func double(_ index: Int) throws -> Double {
        let type = sqlite3_column_type(statement, Int32(index))
        guard type == SQLITE_FLOAT || type == SQLITE_INTEGER else {
            throw mismatch(index, "a number")
        }
        return sqlite3_column_double(statement, Int32(index))
    }

    public func string(_ index: Int) throws -> String {
        try expect(index, SQLITE_TEXT, "text")
        return String(cString: sqlite3_column_text(statement, Int32(index)))
    }

    public func data(_ index: Int) throws -> Data {
        let type = sqlite3_column_type(statement, Int32(index))
        guard type == SQLITE_BLOB || type == SQLITE_TEXT else { throw mismatch(index, "a blob") }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        guard count > 0, let bytes = sqlite3_column_blob(statement, Int32(index)) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    public func bool(_ index: Int) throws -> Bool { try int64(index) != 0 }

    public func value(_ index: Int) -> SQLValue {
        let i = Int32(index)
        switch sqlite3_column_type(statement, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, i))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, i)))
        case SQLITE_BLOB: return .blob((try? data(index)) ?? Data())
        default: return .null
        }
    }

    private func expect(_ index: Int, _ type: Int32, _ name: String) throws {
        guard index >= 0, index < columnCount else {
            throw DatabaseError(code: SQLITE_RANGE, message: "no column \(index)", sql: sql)
        }
        guard sqlite3_column_type(statement, Int32(index)) == type else { throw mismatch(index, name) }
    }

    private func mismatch(_ index: Int, _ expected: String) -> DatabaseError {
        let name = sqlite3_column_name(statement, Int32(index)).map { String(cString: $0) } ?? "\(index)"
        return DatabaseError(
            code: SQLITE_MISMATCH, message: "column \(name) is not \(expected)", sql: sql)
    }
}
