import CSQLite

/// A SQLite failure: names the SQL and the SQLite code, never the bound values (they can be secrets).
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// True when the failure is a UNIQUE, PRIMARY KEY or other constraint violation.
    public var isConstraintViolation: Bool { code & 0xff == SQLITE_CONSTRAINT }

    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql))" }
        return "SQLite error \(code): \(message)"
    }
}
