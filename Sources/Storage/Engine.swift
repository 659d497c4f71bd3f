import Foundation

// The surface both engines meet (SQLite here, PostgreSQL in PostgresStorage), so that one set of stores runs on
// either: a store takes `some SQLConnection` (or `any SQLConnection`), reads rows through `SQLRow`, and asks the
// connection's `dialect` for the SQL that differs. The engines' own types keep their full API; SQLite's
// `Connection`, `Database` and `Row` meet these protocols with the methods they already had (`Row`'s reads by
// name now come from the inlinable extension below, the same code, specialized into the caller).

/// The current row of a running query, read by column name or position; valid only inside the decode closure.
public protocol SQLRow: SendableMetatype {
    /// The position of the column `name`; throws when the query has no such column.
    func index(_ name: String) throws -> Int
    var columnCount: Int { get }
    func isNull(_ index: Int) -> Bool
    func int64(_ index: Int) throws -> Int64
    func double(_ index: Int) throws -> Double
    func string(_ index: Int) throws -> String
    func data(_ index: Int) throws -> Data
    func bool(_ index: Int) throws -> Bool
    /// The value as the engine holds it (what a copy from one engine to the other moves).
    func value(_ index: Int) -> SQLValue
}

extension SQLRow {
    @inlinable public func int(_ index: Int) throws -> Int { Int(try int64(index)) }
    @inlinable public func optionalString(_ index: Int) throws -> String? {
        isNull(index) ? nil : try string(index)
    }
    @inlinable public func optionalInt(_ index: Int) throws -> Int? { isNull(index) ? nil : try int(index) }
    @inlinable public func optionalInt64(_ index: Int) throws -> Int64? {
        isNull(index) ? nil : try int64(index)
    }
    @inlinable public func optionalDouble(_ index: Int) throws -> Double? {
        isNull(index) ? nil : try double(index)
    }

    @inlinable public func isNull(_ name: String) throws -> Bool { isNull(try index(name)) }
    @inlinable public func int(_ name: String) throws -> Int { try int(try index(name)) }
    @inlinable public func int64(_ name: String) throws -> Int64 { try int64(try index(name)) }
    @inlinable public func double(_ name: String) throws -> Double { try double(try index(name)) }
    @inlinable public func string(_ name: String) throws -> String { try string(try index(name)) }
    @inlinable public func data(_ name: String) throws -> Data { try data(try index(name)) }
    @inlinable public func bool(_ name: String) throws -> Bool { try bool(try index(name)) }
    @inlinable public func optionalString(_ name: String) throws -> String? {
        try optionalString(try index(name))
    }
    @inlinable public func optionalInt(_ name: String) throws -> Int? { try optionalInt(try index(name)) }
    @inlinable public func optionalInt64(_ name: String) throws -> Int64? {
        try optionalInt64(try index(name))
    }
    @inlinable public func optionalDouble(_ name: String) throws -> Double? {
        try optionalDouble(try index(name))
    }
    @inlinable public func optionalData(_ name: String) throws -> Data? {
        let i = try index(name)
        return isNull(i) ? nil : try data(i)
    }
}

/// One connection lent to one closure at a time, inside the transaction its database began.
///
/// Stores write `?` placeholders and bind values with `SQLBindable`; a list is one `SQLArray` parameter.
/// New rows' ids come back with `RETURNING id` (both engines have it), not from a last-insert id.
public protocol SQLConnection: AnyObject {
    associatedtype Row: SQLRow
    /// How this engine spells what the two engines spell differently.
    var dialect: Dialect { get }
    /// Runs one or more statements that take no parameters (schema).
    func executeScript(_ sql: String) throws
    /// Runs one statement with bound parameters and returns the number of changed rows.
    @discardableResult func execute(_ sql: String, arguments: [any SQLBindable]) throws -> Int
    func query<T>(_ sql: String, arguments: [any SQLBindable], decode: (Row) throws -> T) throws -> [T]
    func queryOne<T>(_ sql: String, arguments: [any SQLBindable], decode: (Row) throws -> T) throws -> T?
    /// Runs `action` once the write transaction under way has committed, in commit order; never on rollback.
    func afterCommit(_ action: @escaping () -> Void)
}

extension SQLConnection {
    @discardableResult
    public func execute(_ sql: String, _ arguments: any SQLBindable...) throws -> Int {
        try execute(sql, arguments: arguments)
    }

    public func query<T>(
        _ sql: String, _ arguments: any SQLBindable..., decode: (Row) throws -> T
    ) throws -> [T] {
        try query(sql, arguments: arguments, decode: decode)
    }

    public func queryOne<T>(
        _ sql: String, _ arguments: any SQLBindable..., decode: (Row) throws -> T
    ) throws -> T? {
        try queryOne(sql, arguments: arguments, decode: decode)
    }
}

/// A database on either engine: `write` runs its closure in one transaction (rolled back when it throws);
/// `read` in one read-only transaction, a consistent snapshot.
///
/// A `write` closure may run more than once on an engine that retries serialization failures (PostgreSQL):
/// what must happen once goes in `afterCommit`.
public protocol SQLDatabase: Sendable {
    associatedtype Connection: SQLConnection
    var dialect: Dialect { get }
    func read<T>(_ body: (Connection) throws -> T) throws -> T
    func write<T>(_ body: (Connection) throws -> T) throws -> T
}

/// What a store or service may need to tell apart in a failure, whichever engine raised it.
public enum SQLErrorKind: Sendable, Equatable {
    /// A UNIQUE or PRIMARY KEY constraint refused the row.
    case uniqueViolation
    case foreignKeyViolation
    /// Another constraint (NOT NULL, CHECK) refused the row.
    case constraintViolation
    /// The transaction could not be serialized with a concurrent one (retried by `write`).
    case serializationFailure
    /// The transaction was chosen to end a deadlock (retried by `write`).
    case deadlock
    /// The database could not be reached, or the connection to it broke.
    case connectionLost
    case other
}

/// An engine's failure, with the kind a caller can act on; it names the SQL, never the bound values.
public protocol SQLError: Error, Sendable, CustomStringConvertible {
    var kind: SQLErrorKind { get }
}
