import Foundation

/// A PostgreSQL session advisory lock, held by a connection of its own (`PostgresDatabase.tryAdvisoryLock`):
/// one holder at a time across every process on the database, such as the one library scanner.
///
/// The lock goes when `release()` is called, when this object goes, or when its connection ends for any reason
/// (the holding process killed included): a holder checks `isHeld` between steps of long work.
public final class AdvisoryLock: @unchecked Sendable {
    public let name: String
    private let connection: PostgresConnection
    private let lock = NSLock()
    private var released = false

    init(name: String, connection: PostgresConnection) {
        self.name = name
        self.connection = connection
    }

    deinit { release() }

    /// The server process of the session holding the lock.
    public var backendPID: Int32 { connection.backendPID }

    /// True while the lock is held: not released, and its session still alive (one round trip to the server).
    public var isHeld: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !released, !connection.isBroken else { return false }
        return (try? connection.queryOne("SELECT 1 AS alive") { try $0.int("alive") }) == 1
    }

    /// Gives the lock up (nothing when it was already released or lost).
    public func release() {
        lock.lock()
        defer { lock.unlock() }
        guard !released else { return }
        released = true
        guard !connection.isBroken else { return }
        _ = try? connection.query("SELECT pg_advisory_unlock(hashtextextended(?, 0))", name) { _ in () }
    }
}
