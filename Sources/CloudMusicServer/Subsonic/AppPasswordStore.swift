import Foundation
import Storage

/// The SQL of app passwords. Secrets are stored sealed (`secret`) and as a keyed digest (`lookup`, for
/// finding an API key); never in the clear.
struct AppPasswordStore: Sendable {
    struct Record: Sendable {
        var id: Int64
        var userID: Int64
        var name: String
        var createdAt: Int64
        var lastUsedAt: Int64?
    }

    /// A sealed secret and what it opens to.
    struct Sealed: Sendable {
        var id: Int64
        var userID: Int64
        var secret: [UInt8]
        var lastUsedAt: Int64?
    }

    func insert(_ db: Connection, userID: Int64, name: String, secret: [UInt8], lookup: String, now: Int64)
        throws
        -> Int64
    {
        try db.execute(
            "INSERT INTO app_passwords(user_id, name, secret, lookup, created_at) VALUES (?, ?, ?, ?, ?)",
            userID, name,
            Data(secret), lookup, now)
        return db.lastInsertRowID
    }

    func count(_ db: Connection, userID: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM app_passwords WHERE user_id = ?", userID) {
            try $0.int("n")
        } ?? 0
    }

    func list(_ db: Connection, userID: Int64) throws -> [Record] {
        try db.query(
            "SELECT id, user_id, name, created_at, last_used_at FROM app_passwords WHERE user_id = ? ORDER BY id",
            userID
        ) {
            Record(
                id: try $0.int64("id"), userID: try $0.int64("user_id"), name: try $0.string("name"),
                createdAt: try $0.int64("created_at"), lastUsedAt: try $0.optionalInt64("last_used_at"))
        }
    }

    /// Deletes one of a person's app passwords; false when they have no such one.
    func delete(_ db: Connection, userID: Int64, id: Int64) throws -> Bool {
        try db.execute("DELETE FROM app_passwords WHERE user_id = ? AND id = ?", userID, id) > 0
    }

    /// Every sealed app password of a person.
    func sealed(_ db: Connection, userID: Int64) throws -> [Sealed] {
        try db.query(
            "SELECT id, user_id, secret, last_used_at FROM app_passwords WHERE user_id = ? ORDER BY id",
            userID
        ) {
            Sealed(
                id: try $0.int64("id"), userID: try $0.int64("user_id"),
                secret: [UInt8](try $0.data("secret")),
                lastUsedAt: try $0.optionalInt64("last_used_at"))
        }
    }

    /// The app password whose keyed digest is `lookup`.
    func sealed(_ db: Connection, lookup: String) throws -> Sealed? {
        try db.queryOne(
            "SELECT id, user_id, secret, last_used_at FROM app_passwords WHERE lookup = ?", lookup
        ) {
            Sealed(
                id: try $0.int64("id"), userID: try $0.int64("user_id"),
                secret: [UInt8](try $0.data("secret")),
                lastUsedAt: try $0.optionalInt64("last_used_at"))
        }
    }

    func touch(_ db: Connection, id: Int64, now: Int64) throws {
        try db.execute("UPDATE app_passwords SET last_used_at = ? WHERE id = ?", now, id)
    }
}
