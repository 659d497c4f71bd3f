import CPostgres
import Foundation
import Storage

/// One open PostgreSQL session with its prepared statements: each SQL text is prepared once, as a named
/// server-side statement, the first time this session runs it.
///
/// Parameters go in PostgreSQL's text format (the server converts text to the column's type, as SQLite's
/// affinity does, so an `Int` binds to SMALLINT, BIGINT, NUMERIC or BOOLEAN alike), except `Data`, which goes
/// in binary (bytea's text form would double it and escape every byte). Results come as text, so every type
/// can be read (NUMERIC sums, timestamps, JSON) without a decoder per type; `PostgresRow` parses them.
///
/// Not thread-safe on its own: `PostgresDatabase` lends a connection to one closure at a time.
public final class PostgresConnection: SQLConnection {
    let handle: OpaquePointer
    private var statements: [String: PreparedStatement] = [:]
    private var nextStatement = 0
    /// Reused for every statement's parameters.
    private var parameters = ParameterBuffer()
    /// What runs once the transaction under way commits (dropped when it rolls back).
    var commitActions: [() -> Void] = []
    /// The first statement that failed in the transaction under way: PostgreSQL refuses everything after it
    /// until the rollback, and `write` retries the whole closure when it was a serialization failure.
    var transactionFailure: PostgresError?

    /// Statements beyond this many are forgotten (DEALLOCATE ALL) between transactions, so SQL built at run
    /// time cannot grow a session's memory without end.
    static let statementLimit = 1_000

    public var dialect: Dialect { .postgres }

    /// The server process of this session (what `pg_terminate_backend` takes).
    public var backendPID: Int32 { PQbackendPID(handle) }

    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// True when the session is between transactions.
    var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    init(_ address: PostgresAddress, applicationName: String = "cloudmusic") throws {
        let settings = address.connectionSettings(applicationName: applicationName)
        let keywords = settings.map { strdup($0.keyword) } + [nil]
        let values = settings.map { strdup($0.value) } + [nil]
        defer { for pointer in keywords + values { free(pointer) } }
        let connection = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .connectionLost, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(connection)).trimmingCharacters(
                in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw PostgresError(
                kind: .connectionLost, message: "cannot connect to PostgreSQL at \(address): \(reason)")
        }
        handle = connection
        cm_pq_quiet(connection)
        // Times are stored as numbers, but what the server formats (to_char, now()::text) is in UTC.
        try executeScript("SET TimeZone TO 'UTC'; SET bytea_output TO 'hex'")
    }

    deinit { PQfinish(handle) }

    public func afterCommit(_ action: @escaping () -> Void) {
        commitActions.append(action)
    }

    public func executeScript(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        switch result.map(PQresultStatus) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default: throw failure(result, sql: sql)
        }
    }

    @discardableResult
    public func execute(_ sql: String, arguments: [any SQLBindable]) throws -> Int {
        let (result, _) = try run(sql, arguments)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    public func query<T>(
        _ sql: String, arguments: [any SQLBindable], decode: (PostgresRow) throws -> T
    ) throws -> [T] {
        let (result, statement) = try run(sql, arguments)
        defer { PQclear(result) }
        let count = PQntuples(result)
        var decoded: [T] = []
        decoded.reserveCapacity(Int(count))
        var row = PostgresRow(result: result, row: 0, columns: statement.columns(of: result), sql: sql)
        for index in 0..<count {
            row.row = index
            decoded.append(try decode(row))
        }
        return decoded
    }

    public func queryOne<T>(
        _ sql: String, arguments: [any SQLBindable], decode: (PostgresRow) throws -> T
    ) throws -> T? {
        let (result, statement) = try run(sql, arguments)
        defer { PQclear(result) }
        guard PQntuples(result) > 0 else { return nil }
        return try decode(
            PostgresRow(result: result, row: 0, columns: statement.columns(of: result), sql: sql))
    }

    /// Sends a notification on `channel`, delivered to its listeners when the transaction under way commits
    /// (in commit order, once per distinct payload), never when it rolls back.
    public func notify(_ channel: String, payload: String) throws {
        _ = try query("SELECT pg_notify(?, ?)", channel, payload) { _ in () }
    }

    /// Runs a prepared statement; the caller clears the result.
    private func run(_ sql: String, _ arguments: [any SQLBindable]) throws -> (
        OpaquePointer, PreparedStatement
    ) {
        let statement = try prepared(sql)
        guard arguments.count == statement.parameterCount else {
            throw PostgresError(
                kind: .other,
                message: "statement takes \(statement.parameterCount) parameters, \(arguments.count) given",
                sql: sql)
        }
        parameters.removeAll()
        for argument in arguments { try parameters.append(argument, sql: sql) }
        let result = parameters.withPointers { values, lengths, formats in
            PQexecPrepared(handle, statement.name, Int32(arguments.count), values, lengths, formats, 0)
        }
        switch result.map(PQresultStatus) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return (result!, statement)
        default:
            defer { PQclear(result) }
            throw failure(result, sql: sql)
        }
    }

    private func prepared(_ sql: String) throws -> PreparedStatement {
        if let known = statements[sql] { return known }
        let (numbered, count) = try Placeholders.numbered(sql)
        let name = "cm\(nextStatement)"
        nextStatement += 1
        let result = PQprepare(handle, name, numbered, 0, nil)
        defer { PQclear(result) }
        guard result.map(PQresultStatus) == PGRES_COMMAND_OK else { throw failure(result, sql: sql) }
        let statement = PreparedStatement(name: name, parameterCount: count)
        statements[sql] = statement
        return statement
    }

    /// Forgets every prepared statement when there are too many; only between transactions.
    func trimStatements() {
        guard statements.count > Self.statementLimit, isIdle else { return }
        if (try? executeScript("DEALLOCATE ALL")) != nil { statements.removeAll() }
    }

    /// The typed error for a failed call; also remembered as the transaction's failure.
    func failure(_ result: OpaquePointer?, sql: String?) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else {
                return nil
            }
            return String(cString: value)
        }
        let state = field("C") ?? ""
        var kind = PostgresError.kind(of: state)
        if isBroken {
            kind = .connectionLost
        } else if kind == .connectionLost && !state.hasPrefix("57") {
            kind = .other  // a protocol error the session survived
        }
        let message =
            field("M").map { PostgresError.withoutQuotedValue($0, sqlState: state) }
            ?? String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
        let error = PostgresError(
            kind: kind, sqlState: state,
            message: message.isEmpty ? "the connection to PostgreSQL broke" : message,
            constraint: field("n"), table: field("t"), sql: sql)
        if transactionFailure == nil && !isIdle { transactionFailure = error }
        return error
    }
}

/// A named server-side statement and the names of its columns, looked up once.
final class PreparedStatement {
    let name: String
    let parameterCount: Int
    private var columns: ColumnIndex?

    init(name: String, parameterCount: Int) {
        self.name = name
        self.parameterCount = parameterCount
    }

    func columns(of result: OpaquePointer) -> ColumnIndex {
        if let columns { return columns }
        let index = ColumnIndex(
            names: (0..<PQnfields(result)).map { column in PQfname(result, column).map { String(cString: $0) }
            })
        columns = index
        return index
    }
}

/// Parameters laid out for PQexecPrepared: one byte buffer, with each value's offset, length and format.
struct ParameterBuffer {
    private var bytes: [UInt8] = []
    /// Offset into `bytes`, or -1 for NULL.
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
    }

    mutating func append(_ argument: any SQLBindable, sql: String) throws {
        if let array = argument as? SQLArray {
            try appendText(Self.arrayLiteral(array), sql: sql)
            return
        }
        switch argument.sqlValue {
        case .null:
            offsets.append(-1)
            lengths.append(0)
            formats.append(0)
        case .integer(let value):
            appendASCII(String(value))
        case .real(let value):
            appendASCII(
                value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-Infinity" : "Infinity") : "\(value)")
        case .text(let value):
            try appendText(value, sql: sql)
        case .blob(let value):
            offsets.append(bytes.count)
            lengths.append(Int32(value.count))
            formats.append(1)
            bytes.append(contentsOf: value)
            bytes.append(0)  // so that an empty value still has an address (no address is NULL)
        }
    }

    private mutating func appendASCII(_ text: String) {
        offsets.append(bytes.count)
        lengths.append(0)
        formats.append(0)
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
    }

    /// Text goes to libpq NUL-terminated, so a NUL inside would cut it short: refused instead.
    private mutating func appendText(_ text: String, sql: String) throws {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        if bytes[start...].contains(0) {
            bytes.removeSubrange(start...)
            throw PostgresError(
                kind: .other, message: "PostgreSQL cannot store text that contains a NUL character", sql: sql)
        }
        bytes.append(0)
        offsets.append(start)
        lengths.append(0)
        formats.append(0)
    }

    /// `{1,2,3}` or `{"a","b \"c\""}`: every string quoted, so that none reads as NULL.
    static func arrayLiteral(_ array: SQLArray) -> String {
        switch array.elements {
        case .integers(let values):
            return "{" + values.map(String.init).joined(separator: ",") + "}"
        case .strings(let values):
            let quoted = values.map { value in
                "\""
                    + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                        of: "\"", with: "\\\"")
                    + "\""
            }
            return "{" + quoted.joined(separator: ",") + "}"
        }
    }

    func withPointers<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        bytes.withUnsafeBytes { buffer in
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard offset >= 0, let base = buffer.baseAddress else { return nil }
                return (base + offset).assumingMemoryBound(to: CChar.self)
            }
            return values.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
