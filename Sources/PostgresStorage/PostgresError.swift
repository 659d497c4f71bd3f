import Storage

/// A PostgreSQL failure: its kind, SQLSTATE and message, the constraint or table it names, and the SQL; never
/// the bound values (they can be secrets), so neither PostgreSQL's DETAIL (it quotes key values) nor the quoted
/// value of a data error is kept.
public struct PostgresError: SQLError {
    public let kind: SQLErrorKind
    /// The five-character SQLSTATE (`23505`), empty when libpq failed before the server answered.
    public let sqlState: String
    public let message: String
    public let constraint: String?
    public let table: String?
    public let sql: String?

    public init(
        kind: SQLErrorKind, sqlState: String = "", message: String, constraint: String? = nil,
        table: String? = nil, sql: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.table = table
        self.sql = sql
    }

    /// `write` runs its closure again after these (a bounded number of times).
    public var isRetryable: Bool { kind == .serializationFailure || kind == .deadlock }

    public var description: String {
        var text = "PostgreSQL error"
        if !sqlState.isEmpty { text += " \(sqlState)" }
        text += ": \(message)"
        if let constraint { text += " (constraint \(constraint))" }
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// The kind of a SQLSTATE, as far as a caller acts on it.
    static func kind(of sqlState: String) -> SQLErrorKind {
        switch sqlState {
        case "23505": .uniqueViolation
        case "23503": .foreignKeyViolation
        case "40001": .serializationFailure
        case "40P01": .deadlock
        // The server shut the session down (an administrator, a crash, a restart).
        case "57P01", "57P02", "57P03": .connectionLost
        case _ where sqlState.hasPrefix("23"): .constraintViolation
        case _ where sqlState.hasPrefix("08"): .connectionLost
        default: .other
        }
    }

    /// PostgreSQL's primary message without the value a data error quotes (`invalid input syntax for type
    /// integer: "..."`, class 22), which may be a bound secret.
    static func withoutQuotedValue(_ message: String, sqlState: String) -> String {
        guard sqlState.hasPrefix("22"), let quote = message.range(of: ": \"") else { return message }
        return String(message[..<quote.lowerBound])
    }
}
