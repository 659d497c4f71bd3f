import Foundation
import MusicCore
import Storage

/// The SQL of the event log, and the one way events are made: `append` writes the event in the caller's
/// transaction and hands it to the hub once that transaction has committed (never before, never when it
/// rolls back).
struct EventLog: Sendable {
    let hub: any EventHub

    /// How long events are kept for resuming streams.
    static let keptSeconds: Int64 = 86_400

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// Records an event for `userID`; it is published after the commit.
    func append<Payload: Encodable>(
        _ db: Connection, to userID: Int64, _ kind: ServerEventKind, _ payload: Payload, at now: Int64
    ) throws {
        let data = try Self.encoder.encode(payload)
        try db.execute(
            "INSERT INTO events(user_id, kind, data, created_at) VALUES (?, ?, ?, ?)",
            userID, kind.rawValue, String(decoding: data, as: UTF8.self), now)
        let event = StoredEvent(id: db.lastInsertRowID, userID: userID, kind: kind, data: data)
        db.afterCommit { [hub] in hub.publish([event]) }
    }

    /// Whether the session (a stream's device) still exists.
    func sessionIsOpen(_ db: Connection, id: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM sessions WHERE id = ?", id) { _ in true } ?? false
    }

    /// The newest event id given out so far (0 before the first).
    func latestID(_ db: Connection) throws -> Int64 {
        try db.queryOne("SELECT seq FROM sqlite_sequence WHERE name = 'events'") { try $0.int64("seq") } ?? 0
    }

    /// What a stream resuming after `lastID` missed, oldest first: nil when some of it is no longer kept (or
    /// `lastID` is not one this server gave out), so the client must reload instead; at most `limit` + 1.
    func missed(_ db: Connection, userID: Int64, after lastID: Int64, latest: Int64, limit: Int) throws
        -> [StoredEvent]?
    {
        guard lastID <= latest else { return nil }
        let purged =
            try db.queryOne(
                "SELECT value FROM server_meta WHERE key = 'events_purged_through'"
            ) { Int64(try $0.string("value")) ?? 0 } ?? 0
        guard lastID >= purged else { return nil }
        let events = try db.query(
            "SELECT id, kind, data FROM events WHERE user_id = ? AND id > ? AND id <= ? ORDER BY id LIMIT ?",
            userID, lastID, latest, limit + 1
        ) { row -> StoredEvent? in
            guard let kind = ServerEventKind(rawValue: try row.string("kind")) else { return nil }
            return StoredEvent(
                id: try row.int64("id"), userID: userID, kind: kind, data: Data(try row.string("data").utf8))
        }
        return events.compactMap { $0 }
    }

    /// Deletes up to `batch` events older than `keptSeconds`, remembering the newest id deleted so that a
    /// stream resuming from before it is told to reload. Returns how many went; call it until that is 0, a
    /// transaction each, so a day of events never holds the writer long.
    @discardableResult
    func purge(_ db: Connection, now: Int64, batch: Int = 10_000) throws -> Int {
        let cutoff = now - Self.keptSeconds
        // Ids grow with time, so the oldest `batch` rows are a range of ids.
        guard
            let newest = try db.queryOne(
                """
                SELECT max(id) AS id FROM (SELECT id FROM events WHERE created_at < ? ORDER BY id LIMIT ?)
                """, cutoff, batch
            ) { try $0.optionalInt64("id") } ?? nil
        else { return 0 }
        let deleted = try db.execute("DELETE FROM events WHERE id <= ?", newest)
        try db.execute("DELETE FROM session_ends WHERE ended_at < ?", cutoff)
        try db.execute(
            """
            INSERT INTO server_meta(key, value) VALUES ('events_purged_through', ?)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value
            """, String(newest))
        return deleted
    }
}
