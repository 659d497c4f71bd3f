import CSQLite
import Foundation

/// One open SQLite connection with a prepared-statement cache keyed by SQL.
///
/// Not thread-safe on its own: `Database` hands a connection to one closure at a time.
public final class Connection {
    let handle: OpaquePointer
    private var cache: [String: OpaquePointer] = [:]
    /// Column names to indexes, per cached statement, built the first time a row is read by name.
    private var columnIndexes: [OpaquePointer: ColumnIndex] = [:]
    /// What runs once the write transaction under way commits (dropped when it rolls back).
    var commitActions: [() -> Void] = []

    init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws {
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError(code: rc, message: "\(message) at \(path)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    deinit {
        for statement in cache.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `action` once the write transaction under way has committed, in commit order, before the next
    /// write transaction begins; never when it rolls back. What others must only learn of once it is
    /// durable (a published event) goes here.
    public func afterCommit(_ action: @escaping () -> Void) {
        commitActions.append(action)
    }

    /// Runs one or more statements that take no parameters (schema, pragmas).
    public func executeScript(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw DatabaseError(code: rc, message: message, sql: sql)
        }
    }

    /// Runs one statement with bound parameters and returns the number of changed rows.
    @discardableResult
    public func execute(_ sql: String, _ arguments: any SQLBindable...) throws -> Int {
        try execute(sql, arguments: arguments)
    }

    @discardableResult
    public func execute(_ sql: String, arguments: [any SQLBindable]) throws -> Int {
        let statement = try prepare(sql, arguments)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            if rc != SQLITE_ROW { throw error(rc, sql) }
        }
        return Int(sqlite3_changes(handle))
    }

    /// The rowid of the last inserted row on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs a query and decodes every row with `decode`.
    public func query<T>(
        _ sql: String, _ arguments: any SQLBindable..., decode: (Row) throws -> T
    ) throws -> [T] {
        try query(sql, arguments: arguments, decode: decode)
    }

    public func query<T>(
        _ sql: String, arguments: [any SQLBindable], decode: (Row) throws -> T
    ) throws -> [T] {
        let statement = try prepare(sql, arguments)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        var results: [T] = []
        let row = Row(statement: statement, sql: sql, columns: columns(of: statement))
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc, sql) }
            results.append(try decode(row))
        }
        return results
    }

    /// The first row of a query, decoded, or nil when there is none.
    public func queryOne<T>(
        _ sql: String, _ arguments: any SQLBindable..., decode: (Row) throws -> T
    ) throws -> T? {
        try queryOne(sql, arguments: arguments, decode: decode)
    }

    public func queryOne<T>(
        _ sql: String, arguments: [any SQLBindable], decode: (Row) throws -> T
    ) throws -> T? {
        let statement = try prepare(sql, arguments)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let rc = sqlite3_step(statement)
        if rc == SQLITE_DONE { return nil }
        guard rc == SQLITE_ROW else { throw error(rc, sql) }
        return try decode(Row(statement: statement, sql: sql, columns: columns(of: statement)))
    }

    private func columns(of statement: OpaquePointer) -> ColumnIndex {
        if let known = columnIndexes[statement] { return known }
        let index = ColumnIndex(statement)
        columnIndexes[statement] = index
        return index
    }

    private func prepare(_ sql: String, _ arguments: [any SQLBindable]) throws -> OpaquePointer {
        let statement: OpaquePointer
        if let cached = cache[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard rc == SQLITE_OK, let prepared else { throw error(rc, sql) }
            cache[sql] = prepared
            statement = prepared
        }
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == arguments.count else {
            throw DatabaseError(
                code: SQLITE_MISUSE,
                message: "statement takes \(expected) parameters, \(arguments.count) given", sql: sql)
        }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let rc: Int32
            switch argument.sqlValue {
            case .null: rc = sqlite3_bind_null(statement, position)
            case .integer(let value): rc = sqlite3_bind_int64(statement, position, value)
            case .real(let value): rc = sqlite3_bind_double(statement, position, value)
            case .text(let value):
                rc = sqlite3_bind_text(statement, position, value, -1, cm_sqlite_transient())
            case .blob(let value):
                rc = value.withUnsafeBytes {
                    sqlite3_bind_blob64(
                        statement, position, $0.baseAddress, UInt64($0.count), cm_sqlite_transient())
                }
            }
            if rc != SQLITE_OK { throw error(rc, sql) }
        }
        return statement
    }

    func error(_ rc: Int32, _ sql: String?) -> DatabaseError {
        DatabaseError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
