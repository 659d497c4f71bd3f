import Foundation
import MusicCore
import Storage

/// The SQL of follows and blocks, and of the lists of people they make.
///
/// Counts on users are kept by the schema's triggers. Other stores that leave out what blocked people
/// wrote use `hasNotBlocked` and `noBlockBetween`, so the blocks table is queried one way everywhere.
struct FollowStore: Sendable {
    enum Relation {
        case following, followers, friends
    }

    /// Public user columns and whether the viewer (`?`, 0 for nobody) follows each one.
    private static let userSelect = """
        SELECT u.id, u.nickname, u.avatar_version, u.description, u.gender, u.province, u.city, u.area,
            u.followings_count, u.followers_count, u.created_at, u.updated_at,
            EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = ? AND v.followee_id = u.id) AS following
        FROM users u
        """

    private static func decodeUser(_ row: Row, viewerID: Int64?) throws -> User {
        let id = try row.int64("id")
        return User(
            id: String(id), nickname: try row.string("nickname"),
            icon: UserColumns.avatar(userID: id, version: try row.optionalInt64("avatar_version")),
            description: try row.optionalString("description"), gender: try row.int("gender"),
            province: try row.optionalString("province"), city: try row.optionalString("city"),
            area: try row.optionalString("area"), followingsCount: try row.int("followings_count"),
            followersCount: try row.int("followers_count"),
            following: viewerID == nil || viewerID == id ? nil : try row.bool("following"),
            createdAt: APIDate.string(try row.int64("created_at")),
            updatedAt: APIDate.string(try row.int64("updated_at")))
    }

    // MARK: Blocks in other queries

    /// SQL that is true unless the user `blocker` blocked the user `blocked` (each a column or `?`).
    static func hasNotBlocked(_ blocker: String, _ blocked: String) -> String {
        "NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked))"
    }

    /// SQL that is true unless `a` and `b` (columns or `?`) blocked each other, either way.
    static func noBlockBetween(_ a: String, _ b: String) -> String {
        "\(hasNotBlocked(a, b)) AND \(hasNotBlocked(b, a))"
    }

    /// A subquery of the people `?` blocked and who blocked `?` (bind the viewer's id twice).
    static let blockedEitherWay = """
        SELECT blocked_id FROM blocks WHERE blocker_id = ? UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?
        """

    // MARK: Lists of people

    /// A user's following, followers or friends (mutual follows), newest first; disabled users left out.
    func users(_ db: Connection, _ relation: Relation, of userID: Int64, paging: Paging, viewerID: Int64?)
        throws -> Page<User>
    {
        let join: String
        switch relation {
        case .following:
            join = "JOIN follows f ON f.followee_id = u.id AND f.follower_id = ?"
        case .followers:
            join = "JOIN follows f ON f.follower_id = u.id AND f.followee_id = ?"
        case .friends:
            join = """
                JOIN follows f ON f.followee_id = u.id AND f.follower_id = ?
                JOIN follows back ON back.follower_id = u.id AND back.followee_id = f.follower_id
                """
        }
        let total =
            try db.queryOne("SELECT count(*) AS n FROM users u \(join) WHERE u.disabled = 0", userID) {
                try $0.int("n")
            } ?? 0
        let rows = try db.query(
            """
            \(Self.userSelect) \(join) WHERE u.disabled = 0 ORDER BY f.created_at DESC, u.id DESC LIMIT ? OFFSET ?
            """, viewerID ?? 0, userID, paging.size, paging.offset
        ) { try Self.decodeUser($0, viewerID: viewerID) }
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    /// People whose nickname starts with `prefix` (ignoring case and full-width forms), for the mention
    /// picker: the viewer's friends first, then people they follow, then everyone else; never someone who
    /// blocked the viewer. An index range on the nickname key, however many users there are.
    func searchUsers(_ db: Connection, prefix key: String, limit: Int, viewerID: Int64?) throws -> [User] {
        try db.query(
            """
            SELECT * FROM (
                \(Self.userSelect)
                WHERE u.nickname_key >= ? AND u.nickname_key < ? AND u.disabled = 0
                  AND \(Self.hasNotBlocked("u.id", "?"))
                ORDER BY u.nickname_key LIMIT 200)
            ORDER BY
                (EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ? AND f.followee_id = id)
                 + EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = id AND f.followee_id = ?)) DESC,
                nickname COLLATE NOCASE
            LIMIT ?
            """, viewerID ?? 0, key, key + "\u{10FFFF}", viewerID ?? 0, viewerID ?? 0, viewerID ?? 0, limit
        ) { try Self.decodeUser($0, viewerID: viewerID) }
    }

    /// The person a mention of the nickname with `key` names: one who exists, is not disabled and did not
    /// block `authorID`.
    func mentionableUserID(_ db: Connection, nicknameKey key: String, authorID: Int64) throws -> Int64? {
        try db.queryOne(
            """
            SELECT id FROM users WHERE nickname_key = ? AND disabled = 0 AND \(Self.hasNotBlocked("users.id", "?"))
            """, key, authorID
        ) { try $0.int64("id") }
    }

    func blockedUsers(_ db: Connection, by userID: Int64, paging: Paging) throws -> Page<User> {
        let total =
            try db.queryOne("SELECT count(*) AS n FROM blocks WHERE blocker_id = ?", userID) {
                try $0.int("n")
            }
            ?? 0
        let rows = try db.query(
            """
            \(Self.userSelect) JOIN blocks b ON b.blocked_id = u.id AND b.blocker_id = ?
            ORDER BY b.created_at DESC, u.id DESC LIMIT ? OFFSET ?
            """, userID, userID, paging.size, paging.offset
        ) { try Self.decodeUser($0, viewerID: userID) }
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    // MARK: Follows and blocks

    func isBlocked(_ db: Connection, by blockerID: Int64, _ blockedID: Int64) throws -> Bool {
        try db.queryOne(
            "SELECT 1 AS found FROM blocks WHERE blocker_id = ? AND blocked_id = ?", blockerID, blockedID
        ) { _ in true } ?? false
    }

    func follows(_ db: Connection, followerID: Int64, followeeID: Int64) throws -> Bool {
        try db.queryOne(
            "SELECT 1 AS found FROM follows WHERE follower_id = ? AND followee_id = ?", followerID, followeeID
        ) { _ in true } ?? false
    }

    /// True when it is a new follow.
    func follow(_ db: Connection, followerID: Int64, followeeID: Int64, now: Int64) throws -> Bool {
        try db.execute(
            "INSERT OR IGNORE INTO follows(follower_id, followee_id, created_at) VALUES (?, ?, ?)",
            followerID,
            followeeID, now) > 0
    }

    /// True when there was a follow to end.
    func unfollow(_ db: Connection, followerID: Int64, followeeID: Int64) throws -> Bool {
        try db.execute(
            "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?", followerID, followeeID) > 0
    }

    /// Blocks; the schema's triggers end the blocked person's follow and clear what they caused in the
    /// blocker's inbox.
    func block(_ db: Connection, blockerID: Int64, blockedID: Int64, now: Int64) throws {
        try db.execute(
            "INSERT OR IGNORE INTO blocks(blocker_id, blocked_id, created_at) VALUES (?, ?, ?)", blockerID,
            blockedID, now)
    }

    /// True when there was a block to end.
    func unblock(_ db: Connection, blockerID: Int64, blockedID: Int64) throws -> Bool {
        try db.execute("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", blockerID, blockedID) > 0
    }
}
