import Foundation
import Storage

/// The gPodder API's SQL: sessions, devices, the episode actions kept as sent, and who a username names.
struct GPodderStore: Sendable {
    struct ActionRecord: Sendable {
        var device: String?
        var podcastURL: String
        var episodeURL: String
        var guid: String?
        var action: String
        var takenAt: Int64
        var started: Int?
        var position: Int?
        var total: Int?
    }

    // MARK: Sessions

    func insertSession(_ db: Connection, tokenHash: String, userID: Int64, now: Int64, expiresAt: Int64)
        throws
    {
        try db.execute("DELETE FROM gpodder_sessions WHERE user_id = ? AND expires_at <= ?", userID, now)
        try db.execute(
            "INSERT INTO gpodder_sessions(token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            tokenHash, userID, now, expiresAt)
    }

    /// The person a session belongs to and whether they are an administrator, unless it expired or they are
    /// disabled.
    func session(_ db: Connection, tokenHash: String, now: Int64) throws -> (userID: Int64, isAdmin: Bool)? {
        try db.queryOne(
            """
            SELECT u.id, u.role FROM gpodder_sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = ? AND s.expires_at > ? AND u.disabled = 0
            """, tokenHash, now
        ) { (try $0.int64("id"), try $0.string("role") == "admin") }
    }

    func deleteSession(_ db: Connection, tokenHash: String) throws {
        try db.execute("DELETE FROM gpodder_sessions WHERE token_hash = ?", tokenHash)
    }

    /// The person a username names: by nickname, else by email or phone.
    func userID(_ db: Connection, nicknameKey: String, email: String?, phone: String?) throws -> Int64? {
        if let id = try db.queryOne(
            "SELECT id FROM users WHERE nickname_key = ?", nicknameKey,
            decode: {
                try $0.int64("id")
            })
        {
            return id
        }
        if let email {
            return try db.queryOne("SELECT id FROM users WHERE email = ?", email) { try $0.int64("id") }
        }
        if let phone {
            return try db.queryOne("SELECT id FROM users WHERE phone = ?", phone) { try $0.int64("id") }
        }
        return nil
    }

    // MARK: Devices

    func devices(_ db: Connection, userID: Int64) throws -> [(id: String, caption: String, type: String)] {
        try db.query(
            "SELECT device_id, caption, type FROM gpodder_devices WHERE user_id = ? ORDER BY device_id LIMIT 1000",
            userID
        ) { (try $0.string("device_id"), try $0.string("caption"), try $0.string("type")) }
    }

    func deviceCount(_ db: Connection, userID: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM gpodder_devices WHERE user_id = ?", userID) {
            try $0.int("n")
        }
            ?? 0
    }

    /// Registers a device, or changes what is given of it.
    func saveDevice(_ db: Connection, userID: Int64, id: String, caption: String?, type: String?, now: Int64)
        throws
    {
        try db.execute(
            """
            INSERT INTO gpodder_devices(user_id, device_id, caption, type, created_at, updated_at)
            VALUES (?1, ?2, coalesce(?3, ''), coalesce(?4, 'other'), ?5, ?5)
            ON CONFLICT (user_id, device_id) DO UPDATE SET caption = coalesce(?3, caption),
                type = coalesce(?4, type), updated_at = ?5
            WHERE ?3 IS NOT NULL OR ?4 IS NOT NULL
            """, userID, id, caption, type, now)
    }

    // MARK: Episode actions

    /// Keeps `action` as the person's newest of its kind on its episode, replacing an older one; an action older
    /// than the one kept (an app uploading late) changes nothing.
    func insertAction(_ db: Connection, userID: Int64, _ action: ActionRecord, receivedAt: Int64) throws {
        let newer = try db.queryOne(
            """
            SELECT 1 AS found FROM gpodder_episode_actions
            WHERE user_id = ? AND episode_url = ? AND action = ? AND taken_at > ? LIMIT 1
            """, userID, action.episodeURL, action.action, action.takenAt
        ) { try $0.int("found") }
        guard newer == nil else { return }
        try db.execute(
            "DELETE FROM gpodder_episode_actions WHERE user_id = ? AND episode_url = ? AND action = ?",
            userID, action.episodeURL, action.action)
        try db.execute(
            """
            INSERT INTO gpodder_episode_actions(user_id, device_id, podcast_url, episode_url, guid, action, taken_at,
                started, position, total, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, userID, action.device, action.podcastURL, action.episodeURL, action.guid, action.action,
            action.takenAt, action.started, action.position, action.total, receivedAt)
    }

    /// The actions kept for `userID` received at or after `since` (milliseconds), oldest first.
    func actions(
        _ db: Connection, userID: Int64, since: Int64, podcastURL: String?, device: String?, limit: Int
    )
        throws -> [ActionRecord]
    {
        try db.query(
            """
            SELECT device_id, podcast_url, episode_url, guid, action, taken_at, started, position, total
            FROM gpodder_episode_actions WHERE user_id = ?1 AND received_at >= ?2
                AND (?3 IS NULL OR podcast_url = ?3) AND (?4 IS NULL OR device_id = ?4)
            ORDER BY received_at, id LIMIT ?5
            """, userID, since, podcastURL, device, limit
        ) { row in
            ActionRecord(
                device: try row.optionalString("device_id"), podcastURL: try row.string("podcast_url"),
                episodeURL: try row.string("episode_url"), guid: try row.optionalString("guid"),
                action: try row.string("action"), takenAt: try row.int64("taken_at"),
                started: try row.optionalInt("started"), position: try row.optionalInt("position"),
                total: try row.optionalInt("total"))
        }
    }
}
