import Foundation
import MusicCore
import Storage

/// The SQL of follows and blocks.
struct FollowStore: Sendable {
    let database: Database

    enum Relation {
        case following, followers, friends
    }

    /// Public user columns and whether the viewer (`?`, 0 for nobody) follows each one.
    static let userSelect = """
        SELECT u.id, u.nickname, u.avatar_version, u.description, u.gender, u.province, u.city, u.area,
            u.followings_count, u.followers_count, u.created_at, u.updated_at,
            EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = ? AND v.followee_id = u.id)
        FROM users u
        """

    static func decodeUser(_ row: Row, viewerID: Int64?) throws -> User {
        let id = try row.int64(0)
        return User(
            id: String(id), nickname: try row.string(1),
            icon: try row.optionalInt64(2).map { "v1/users/\(id)/avatar?v=\($0)" },
            description: try row.optionalString(3), gender: try row.int(4),
            province: try row.optionalString(5),
            city: try row.optionalString(6), area: try row.optionalString(7), followingsCount: try row.int(8),
            followersCount: try row.int(9),
            following: viewerID == nil || viewerID == id ? nil : try row.bool(12),
            createdAt: APIDate.string(try row.int64(10)), updatedAt: APIDate.string(try row.int64(11)))
    }

    /// A user's following, followers or friends (mutual follows), newest first; disabled users left out.
    func users(_ relation: Relation, of userID: Int64, page: Int, size: Int, viewerID: Int64?) throws -> Page<
        User
    > {
        try database.read { db in
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
                try db.queryOne("SELECT count(*) FROM users u \(join) WHERE u.disabled = 0", userID) {
                    try $0.int(0)
                } ?? 0
            let rows = try db.query(
                "\(Self.userSelect) \(join) WHERE u.disabled = 0 ORDER BY f.created_at DESC, u.id DESC LIMIT ? OFFSET ?",
                viewerID ?? 0, userID, size, (page - 1) * size
            ) { try Self.decodeUser($0, viewerID: viewerID) }
            return Page(items: rows, total: total, page: page, size: size)
        }
    }

    /// People whose nickname starts with `prefix` (ignoring case and full-width forms), for the mention
    /// picker: the viewer's friends first, then people they follow, then everyone else; never someone who
    /// blocked the viewer. An index range on the nickname key, however many users there are.
    func searchUsers(prefix key: String, limit: Int, viewerID: Int64?) throws -> [User] {
        try database.read { db in
            try db.query(
                """
                SELECT * FROM (
                    \(Self.userSelect)
                    WHERE u.nickname_key >= ? AND u.nickname_key < ? AND u.disabled = 0
                      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = u.id AND b.blocked_id = ?)
                    ORDER BY u.nickname_key LIMIT 200)
                ORDER BY
                    (EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ? AND f.followee_id = id)
                     + EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = id AND f.followee_id = ?)) DESC,
                    nickname COLLATE NOCASE
                LIMIT ?
                """, viewerID ?? 0, key, key + "\u{10FFFF}", viewerID ?? 0, viewerID ?? 0, viewerID ?? 0,
                limit
            ) { try Self.decodeUser($0, viewerID: viewerID) }
        }
    }

    func blockedUsers(by userID: Int64, page: Int, size: Int) throws -> Page<User> {
        try database.read { db in
            let total =
                try db.queryOne("SELECT count(*) FROM blocks WHERE blocker_id = ?", userID) { try $0.int(0) }
                ?? 0
            let rows = try db.query(
                """
                \(Self.userSelect) JOIN blocks b ON b.blocked_id = u.id AND b.blocker_id = ?
                ORDER BY b.created_at DESC, u.id DESC LIMIT ? OFFSET ?
                """, userID, userID, size, (page - 1) * size
            ) { try Self.decodeUser($0, viewerID: userID) }
            return Page(items: rows, total: total, page: page, size: size)
        }
    }

    func isBlocked(by blockerID: Int64, _ blockedID: Int64) throws -> Bool {
        try database.read { db in
            try db.queryOne(
                "SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?", blockerID, blockedID
            ) { _ in true } ?? false
        }
    }

    func follow(followerID: Int64, followeeID: Int64, now: Int64) throws {
        try database.write { db in
            if try db.execute(
                "INSERT OR IGNORE INTO follows(follower_id, followee_id, created_at) VALUES (?, ?, ?)",
                followerID,
                followeeID, now) > 0
            {
                try NotificationStore.record(db, kind: .follow, to: followeeID, from: followerID, at: now)
            }
        }
    }

    func unfollow(followerID: Int64, followeeID: Int64) throws -> Bool {
        try database.write { db in
            let deleted = try db.execute(
                "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?", followerID, followeeID)
            guard deleted > 0 else { return false }
            try NotificationStore.remove(db, kind: .follow, from: followerID, to: followeeID)
            return true
        }
    }

    func block(blockerID: Int64, blockedID: Int64, now: Int64) throws {
        _ = try database.write { db in
            try db.execute(
                "INSERT OR IGNORE INTO blocks(blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
                blockerID,
                blockedID, now)
        }
    }

    func unblock(blockerID: Int64, blockedID: Int64) throws -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", blockerID, blockedID)
                > 0
        }
    }
}
