import CSQLite
import Foundation

/// A SQLite database in WAL mode: one writer connection and a pool of readers.
///
/// `write` runs its closure in one transaction (rolled back when it throws); `read` runs
/// against a snapshot on a reader, concurrently with the writer.
public final class Database: Sendable {
    public struct Configuration: Sendable {
        public var readerCount: Int = 4
        public var busyTimeoutMilliseconds: Int32 = 5_000
        public init() {}
    }

    public let path: String
    private let writer: LockedConnection
    private let readers: ReaderPool

    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        let writerConnection = try Connection(
            path: path, readOnly: false, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        try writerConnection.executeScript(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
        writer = LockedConnection(writerConnection)
        var pool: [Connection] = []
        for _ in 0..<max(1, configuration.readerCount) {
            let reader = try Connection(
                path: path, readOnly: true, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
            try reader.executeScript("PRAGMA foreign_keys=ON; PRAGMA query_only=ON;")
            pool.append(reader)
        }
        readers = ReaderPool(pool)
    }

    /// Runs `body` in one write transaction; any thrown error rolls it back. Actions `body` registered with
    /// `Connection.afterCommit` run after the commit.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withConnection { db in
            try db.executeScript("BEGIN IMMEDIATE")
            db.commitActions.removeAll()
            do {
                let result = try body(db)
                try db.executeScript("COMMIT")
                // Still holding the writer, so that actions of consecutive transactions run in commit order.
                let actions = db.commitActions
                db.commitActions.removeAll()
                for action in actions { action() }
                return result
            } catch {
                db.commitActions.removeAll()
                try? db.executeScript("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` on a reader inside a read transaction (one consistent snapshot).
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try readers.withConnection { db in
            try db.executeScript("BEGIN")
            defer { try? db.executeScript("COMMIT") }
            return try body(db)
        }
    }

    /// Runs `body` on the writer outside any transaction (pragmas, VACUUM, the migrator).
    public func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withConnection(body)
    }

    /// Copies the live database to `destination` with SQLite's online backup API.
    ///
    /// Readers and the writer go on while it runs; the copy is one consistent snapshot.
    public func backup(to destination: String) throws {
        let temporary = destination + ".partial"
        unlink(temporary)
        var target: OpaquePointer?
        guard sqlite3_open(temporary, &target) == SQLITE_OK, let target else {
            sqlite3_close(target)
            throw DatabaseError(code: SQLITE_CANTOPEN, message: "cannot create backup file \(destination)")
        }
        // Closed exactly once: on failure here, on success just before the rename.
        var targetOpen = true
        defer { if targetOpen { sqlite3_close(target) } }
        try readers.withConnection { source in
            guard let backup = sqlite3_backup_init(target, "main", source.handle, "main") else {
                throw DatabaseError(
                    code: sqlite3_errcode(target), message: String(cString: sqlite3_errmsg(target)))
            }
            var rc: Int32
            repeat {
                rc = sqlite3_backup_step(backup, 256)
                if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { sqlite3_sleep(10) }
            } while rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED
            sqlite3_backup_finish(backup)
            guard rc == SQLITE_DONE else {
                throw DatabaseError(code: rc, message: String(cString: sqlite3_errstr(rc)))
            }
        }
        targetOpen = false
        guard sqlite3_close(target) == SQLITE_OK else {
            unlink(temporary)
            throw DatabaseError(code: SQLITE_IOERR, message: "cannot finish backup file \(destination)")
        }
        guard rename(temporary, destination) == 0 else {
            throw DatabaseError(
                code: SQLITE_IOERR, message: "cannot move backup into place at \(destination)")
        }
    }
}

/// The writer: one connection behind a lock.
private final class LockedConnection: @unchecked Sendable {
    private let connection: Connection
    private let lock = NSLock()
    init(_ connection: Connection) { self.connection = connection }
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}

/// Readers: each connection lent to one caller at a time; callers wait when all are out.
private final class ReaderPool: @unchecked Sendable {
    private var idle: [Connection]
    private let condition = NSCondition()
    init(_ connections: [Connection]) { idle = connections }
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        condition.lock()
        while idle.isEmpty { condition.wait() }
        let connection = idle.removeLast()
        condition.unlock()
        defer {
            condition.lock()
            idle.append(connection)
            condition.signal()
            condition.unlock()
        }
        return try body(connection)
    }
}
