import Foundation
import Storage

/// A value from the server, or from the offline cache when the server could not be reached.
///
/// Reads through to the value (`page.data`, `page.total`), so callers that do not care need no unwrapping;
/// a UI that does shows "offline" when `isFromCache` and may say since when with `fetchedAt`.
@dynamicMemberLookup
public struct Cached<Value: Sendable>: Sendable {
    public var value: Value
    /// True when the server was unreachable and this is the last answer it gave.
    public var isFromCache: Bool
    /// When the server gave this answer.
    public var fetchedAt: Date

    public init(value: Value, isFromCache: Bool, fetchedAt: Date) {
        self.value = value
        self.isFromCache = isFromCache
        self.fetchedAt = fetchedAt
    }

    /// The same as `isFromCache`: the server may have changed it since.
    public var isStale: Bool { isFromCache }

    public subscript<T>(dynamicMember keyPath: KeyPath<Value, T>) -> T { value[keyPath: keyPath] }
}

/// The last good answer of each list request, in the LocalStore, so the library can be browsed offline.
///
/// Keyed by `APIRequest.cacheKey` (method, path and query) plus the signed-in user, so two people sharing
/// a LocalStore never see each other's private lists. Holds at most `limit` answers; the oldest go first.
public final class OfflineCache: Sendable {
    public let store: LocalStore
    public let limit: Int

    public init(store: LocalStore, limit: Int = 2_000) {
        self.store = store
        self.limit = limit
    }

    /// Saves `body` (the whole envelope as the server sent it) under `key`.
    public func save(_ body: Data, for key: String, at date: Date = Date()) throws {
        try store.database.write { db in
            _ = try db.execute(
                """
                INSERT INTO cached_responses (key, body, fetched_at) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at
                """, key, body, Int64(date.timeIntervalSince1970 * 1000))
            _ = try db.execute(
                """
                DELETE FROM cached_responses WHERE key IN (
                    SELECT key FROM cached_responses ORDER BY fetched_at DESC LIMIT -1 OFFSET ?)
                """, limit)
        }
    }

    /// The answer saved under `key` and when it was fetched, or nil.
    public func load(_ key: String) throws -> (body: Data, fetchedAt: Date)? {
        try store.database.read { db in
            try db.queryOne("SELECT body, fetched_at FROM cached_responses WHERE key = ?", key) { row in
                (
                    try row.data("body"),
                    Date(timeIntervalSince1970: Double(try row.int64("fetched_at")) / 1000)
                )
            }
        }
    }

    /// How many answers are saved.
    public func count() throws -> Int {
        try store.database.read { db in
            try db.queryOne("SELECT count(*) AS n FROM cached_responses") { try $0.int("n") } ?? 0
        }
    }

    /// Forgets every saved answer (at sign-out, for example).
    public func removeAll() throws {
        try store.database.write { db in _ = try db.execute("DELETE FROM cached_responses") }
    }
}
