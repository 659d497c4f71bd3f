import CPostgres
import Foundation
import Storage

/// A PostgreSQL database (one primary) behind a pool of connections, with SQLite's `Database` shape: `write`
/// runs its closure in one transaction, `read` in one read-only snapshot.
///
/// Reads and writes share one pool. SQLite needs its one writer kept apart because it has one write lock;
/// PostgreSQL runs writers side by side (row locks, MVCC), so a separate writer would only serialize what the
/// server can run at once, and an idle connection of one kind could not serve the other.
///
/// Writes run SERIALIZABLE by default: the stores were written for SQLite, where a write transaction never sees
/// another writer, and SERIALIZABLE is the level that keeps that promise on PostgreSQL (it aborts what could not
/// have happened one after the other). A serialization failure or a deadlock runs the whole closure again, up to
/// `writeAttempts` times; a connection found dead at BEGIN, before the closure ran, is replaced once. A
/// connection lost inside a transaction is an error: nothing of that transaction was committed.
public final class PostgresDatabase: SQLDatabase {
    public struct Configuration: Sendable {
        /// Connections at most, shared by reads and writes; each is a server process (a few MB) there.
        public var maximumConnections = 8
        /// How many times a `write` closure may run when PostgreSQL aborts it to keep transactions serializable.
        public var writeAttempts = 5
        public var writeIsolation = Isolation.serializable
        /// How long a caller waits for a free connection before it is told the pool is exhausted.
        public var connectionWaitSeconds = 30.0
        /// The name sessions show in `pg_stat_activity`, unless the address sets `application_name`.
        public var applicationName = "cloudmusic"
        public init() {}
    }

    public enum Isolation: String, Sendable {
        case serializable = "SERIALIZABLE"
        case repeatableRead = "REPEATABLE READ"
        case readCommitted = "READ COMMITTED"
    }

    public let address: PostgresAddress
    public let configuration: Configuration
    private let pool: ConnectionPool
    /// Held from a COMMIT through its after-commit actions, so that actions run in commit order (only by
    /// transactions that have actions; the others commit side by side).
    private let commitOrder = NSLock()

    /// Opens the pool and one connection at once, so that a wrong address or password fails here.
    public init(address: PostgresAddress, configuration: Configuration = Configuration()) throws {
        self.address = address
        self.configuration = configuration
        pool = ConnectionPool(
            address: address, applicationName: configuration.applicationName,
            maximum: max(1, configuration.maximumConnections),
            waitSeconds: configuration.connectionWaitSeconds)
        pool.release(try pool.acquire())
    }

    public convenience init(url: String, configuration: Configuration = Configuration()) throws {
        try self.init(address: try PostgresAddress(url), configuration: configuration)
    }

    public var dialect: Dialect { .postgres }

    /// Connections open now, lent or idle.
    public var openConnections: Int { pool.openCount }

    /// Runs `body` in one write transaction, again after a serialization failure or deadlock; any other thrown
    /// error rolls it back. Actions `body` registered with `afterCommit` run after the commit, in commit order.
    /// An action must not wait for this database: the transactions queued behind it may hold every connection
    /// (as on SQLite, where a write inside an action waits for itself). Hand work on, as the event hub does.
    public func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try transaction(
            begin: "BEGIN ISOLATION LEVEL \(configuration.writeIsolation.rawValue)",
            attempts: max(1, configuration.writeAttempts), body)
    }

    /// Runs `body` in one read-only transaction: one consistent snapshot, as SQLite's readers see.
    public func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", attempts: 1, body)
    }

    /// Runs `body` on a connection outside any transaction (CREATE DATABASE, VACUUM).
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try pool.acquire()
        defer { pool.release(connection) }
        return try body(connection)
    }

    /// Takes the session advisory lock named `name` on a connection of its own, or nil when another session
    /// holds it. The lock lasts until `release()` or until that connection ends (its process dying included),
    /// so a lock whose holder died is free again for the next one who tries.
    public func tryAdvisoryLock(_ name: String) throws -> AdvisoryLock? {
        let connection = try PostgresConnection(address, applicationName: configuration.applicationName)
        let taken = try connection.queryOne(
            "SELECT pg_try_advisory_lock(hashtextextended(?, 0)) AS taken", name
        ) { try $0.bool("taken") }
        return taken == true ? AdvisoryLock(name: name, connection: connection) : nil
    }

    /// Starts listening on `channels` on a connection of its own; see `PostgresListener`.
    public func listen(
        _ channels: [String], handler: @escaping @Sendable (PostgresListener.Event) -> Void
    ) throws -> PostgresListener {
        try PostgresListener(
            address: address, channels: channels, applicationName: configuration.applicationName,
            handler: handler)
    }

    private func transaction<T>(
        begin: String, attempts: Int, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        var attempt = 1
        while true {
            let connection = try begun(begin)
            do {
                let result = try body(connection)
                // The closure caught a failure and went on: PostgreSQL would turn the COMMIT into a ROLLBACK.
                if let failure = connection.transactionFailure { throw failure }
                try commit(connection)
                return result
            } catch {
                let failure = connection.transactionFailure ?? (error as? PostgresError)
                connection.commitActions.removeAll()
                if !connection.isBroken && !connection.isIdle {
                    _ = try? connection.executeScript("ROLLBACK")
                }
                connection.transactionFailure = nil
                pool.release(connection)
                guard let failure, failure.isRetryable, attempt < attempts else { throw error }
                attempt += 1
                // A little apart, so that the transactions that collided do not collide again in step.
                usleep(UInt32.random(in: 0...UInt32(min(50_000, 500 << attempt))))
            }
        }
    }

    /// A pooled connection inside a new transaction. A connection found dead here (the server restarted, an
    /// administrator ended it) is replaced once: nothing of the transaction has run yet.
    private func begun(_ begin: String) throws -> PostgresConnection {
        let connection = try pool.acquire()
        do {
            try connection.executeScript(begin)
            return connection
        } catch let error as PostgresError where error.kind == .connectionLost {
            pool.release(connection)
            // Its idle neighbours were most likely ended by the same cause.
            pool.discardIdle()
            let fresh = try pool.acquire(fresh: true)
            do {
                try fresh.executeScript(begin)
                return fresh
            } catch {
                pool.release(fresh)
                throw error
            }
        } catch {
            pool.release(connection)
            throw error
        }
    }

    /// Commits and gives the connection back, then runs the transaction's actions; a transaction with actions
    /// holds `commitOrder` from its COMMIT to its last action. The connection goes back before the actions, so
    /// that an action may use the database.
    private func commit(_ connection: PostgresConnection) throws {
        let actions = connection.commitActions
        connection.commitActions.removeAll()
        guard !actions.isEmpty else {
            try connection.commit()
            return pool.release(connection)
        }
        commitOrder.lock()
        defer { commitOrder.unlock() }
        try connection.commit()
        pool.release(connection)
        for action in actions { action() }
    }
}

extension PostgresConnection {
    /// COMMIT, which PostgreSQL answers with ROLLBACK when the transaction had failed.
    func commit() throws {
        let result = PQexec(handle, "COMMIT")
        defer { PQclear(result) }
        guard let result, PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw failure(result, sql: "COMMIT")
        }
        guard String(cString: PQcmdStatus(result)) == "COMMIT" else {
            throw transactionFailure
                ?? PostgresError(
                    kind: .other, message: "PostgreSQL rolled the transaction back", sql: "COMMIT")
        }
    }
}

/// Connections lent to one caller at a time, opened as needed up to a maximum; callers wait when all are out.
final class ConnectionPool: @unchecked Sendable {
    private let address: PostgresAddress
    private let applicationName: String
    private let maximum: Int
    private let waitSeconds: Double
    private var idle: [PostgresConnection] = []
    private var open = 0
    private let condition = NSCondition()

    init(address: PostgresAddress, applicationName: String, maximum: Int, waitSeconds: Double) {
        self.address = address
        self.applicationName = applicationName
        self.maximum = maximum
        self.waitSeconds = waitSeconds
    }

    var openCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return open
    }

    /// An idle connection (the most recently used, whose statements are warm), else a new one when the
    /// maximum allows, else the first one given back; `fresh` always opens a new one.
    func acquire(fresh: Bool = false) throws -> PostgresConnection {
        let deadline = Date().addingTimeInterval(waitSeconds)
        var closing: [PostgresConnection] = []
        condition.lock()
        while open >= maximum && (fresh || idle.isEmpty) {
            if fresh, let spare = idle.popLast() {
                closing.append(spare)
                open -= 1
                break
            }
            guard condition.wait(until: deadline) else {
                condition.unlock()
                throw PostgresError(
                    kind: .other,
                    message:
                        "all \(maximum) connections to PostgreSQL stayed busy for \(Int(waitSeconds)) s: "
                        + "allow more connections, or look for transactions that take too long")
            }
        }
        if !fresh, let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        open += 1
        condition.unlock()
        closing.removeAll()
        do {
            return try PostgresConnection(address, applicationName: applicationName)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Takes a connection back; one that broke or is still inside a transaction is closed instead.
    func release(_ connection: PostgresConnection) {
        let reusable = !connection.isBroken && connection.isIdle
        if reusable {
            connection.commitActions.removeAll()
            connection.transactionFailure = nil
            connection.trimStatements()
        }
        condition.lock()
        if reusable { idle.append(connection) } else { open -= 1 }
        condition.signal()
        condition.unlock()
    }

    /// Closes every idle connection (they are opened again as needed).
    func discardIdle() {
        condition.lock()
        let closing = idle
        idle.removeAll()
        open -= closing.count
        condition.broadcast()
        condition.unlock()
    }
}
