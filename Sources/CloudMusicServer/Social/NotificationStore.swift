import Foundation
import MusicCore
import Storage

/// The SQL of notification inboxes. Counts are kept by the schema's triggers.
///
/// Services of other features record and take back notifications with `record` and `remove`, on the
/// connection of their own write transaction, so a notification exists exactly when what caused it does.
struct NotificationStore: Sendable {
    /// Where a new notification is also written as an event, for the recipient's open streams.
    let events: EventLog

    /// What happened. Moments reuse these: a like of a moment is `.like` with a feed id, a comment on
    /// someone's moment is `.comment` with the comment and feed ids, a mention in a moment `.mention`.
    enum Kind: Int, CaseIterable, Sendable {
        case mention = 1
        case reply = 2
        case like = 3
        case follow = 4
        case comment = 5

        var name: String {
            switch self {
            case .mention: "mention"
            case .reply: "reply"
            case .like: "like"
            case .follow: "follow"
            case .comment: "comment"
            }
        }
    }

    /// Records that `actor` did something `recipient` should hear about, unless it would be from
    /// themselves, from someone the recipient blocked, or already recorded (liking twice is one like).
    /// Returns whether a notification was added.
    @discardableResult
    func record(
        _ db: Connection, kind: Kind, to recipient: Int64, from actor: Int64, commentID: Int64? = nil,
        feedID: Int64? = nil, at now: Int64
    ) throws -> Bool {
        guard recipient != actor else { return false }
        let added =
            try db.execute(
                """
                INSERT INTO notifications(user_id, actor_id, kind, comment_id, feed_id, created_at)
                SELECT ?, ?, ?, ?, ?, ? WHERE \(FollowStore.hasNotBlocked("?", "?"))
                ON CONFLICT DO NOTHING
                """, recipient, actor, kind.rawValue, commentID, feedID, now, recipient, actor) > 0
        if added, let item = try item(db, id: db.lastInsertRowID, userID: recipient) {
            try events.append(
                db, to: recipient, .notification,
                NotificationEvent(notification: item, unread: try unread(db, userID: recipient)), at: now)
        }
        return added
    }

    /// Takes back what `actor` caused with `kind` on a comment or moment (an unlike, an unfollow);
    /// `recipient` narrows it to one person (a follow names no thing, only whom). Returns how many went.
    @discardableResult
    func remove(
        _ db: Connection, kind: Kind, from actor: Int64, to recipient: Int64? = nil, commentID: Int64? = nil,
        feedID: Int64? = nil
    ) throws -> Int {
        var sql = """
            DELETE FROM notifications WHERE actor_id = ? AND kind = ? AND coalesce(comment_id, 0) = ?
              AND coalesce(feed_id, 0) = ?
            """
        var arguments: [any SQLBindable] = [actor, kind.rawValue, commentID ?? 0, feedID ?? 0]
        if let recipient {
            sql += " AND user_id = ?"
            arguments.append(recipient)
        }
        return try db.execute(sql, arguments: arguments)
    }

    // MARK: The inbox

    private static let select = """
        SELECT n.id, n.kind, n.read_at, n.created_at, n.feed_id, \(UserColumns.select("a", as: "actor")),
            c.id AS comment_id, c.content AS comment_content, c.parent_id AS comment_parent_id,
            c.target_kind AS comment_target_kind, c.target_id AS comment_target_id, c.hidden AS comment_hidden
        FROM notifications n JOIN users a ON a.id = n.actor_id
        LEFT JOIN comments c ON c.id = n.comment_id
        """

    static let quoteLength = 100

    private static func decode(_ row: Row) throws -> (item: NotificationItem, id: Int64) {
        let id = try row.int64("id")
        let readAt = try row.optionalInt64("read_at")
        let createdAt = try row.int64("created_at")
        var comment: NotificationComment?
        if let commentID = try row.optionalInt64("comment_id") {
            var content = try row.bool("comment_hidden") ? "" : try row.string("comment_content")
            if content.count > quoteLength { content = String(content.prefix(quoteLength)) + "…" }
            let target = CommentStore.Target(
                kind: try row.int("comment_target_kind"), id: try row.int64("comment_target_id"))
            comment = NotificationComment(
                id: String(commentID), content: content,
                parentId: try row.optionalInt64("comment_parent_id").map(String.init), songId: target.songID,
                sheetId: target.sheetID, feedId: target.feedID, videoId: target.videoID,
                episodeId: target.episodeID)
        }
        let item = NotificationItem(
            id: String(id), kind: Kind(rawValue: try row.int("kind"))?.name ?? "other", read: readAt != nil,
            actor: try UserColumns.person(row, "actor"), comment: comment,
            feedId: try row.optionalInt64("feed_id").map(String.init),
            createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(readAt ?? createdAt))
        return (item, id)
    }

    /// A page of `userID`'s notifications, newest first: after the cursor (an id) when there is one, else
    /// at `offset`. One query for the page, one for the kept count; `hasMore` says whether a next page exists.
    func page(
        _ db: Connection, userID: Int64, unreadOnly: Bool, before cursor: Int64?, offset: Int, limit: Int
    ) throws -> (items: [NotificationItem], lastID: Int64?, hasMore: Bool, total: Int) {
        // Spelled out so the planner takes the partial index of unread rows for the unread filter.
        let filter = unreadOnly ? "n.user_id = ? AND n.read_at IS NULL" : "n.user_id = ?"
        let rows = try db.query(
            "\(Self.select) WHERE \(filter) AND n.id < ? ORDER BY n.id DESC LIMIT ? OFFSET ?",
            userID, cursor ?? Int64.max, limit + 1, offset, decode: Self.decode)
        let total =
            try db.queryOne(
                """
                SELECT coalesce(sum(\(unreadOnly ? "unread" : "total")), 0) AS n FROM notification_counts
                WHERE user_id = ?
                """, userID
            ) { try $0.int("n") } ?? 0
        let kept = rows.prefix(limit)
        return (kept.map(\.item), kept.last?.id, rows.count > limit, total)
    }

    func item(_ db: Connection, id: Int64, userID: Int64) throws -> NotificationItem? {
        try db.queryOne("\(Self.select) WHERE n.id = ? AND n.user_id = ?", id, userID) {
            try Self.decode($0).item
        }
    }

    func unread(_ db: Connection, userID: Int64) throws -> UnreadNotifications {
        var kinds = Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0.name, 0) })
        var count = 0
        for (kind, unread) in try db.query(
            "SELECT kind, unread FROM notification_counts WHERE user_id = ?", userID,
            decode: { (try $0.int("kind"), try $0.int("unread")) })
        {
            count += unread
            if let kind = Kind(rawValue: kind) { kinds[kind.name, default: 0] += unread }
        }
        return UnreadNotifications(count: count, kinds: kinds)
    }

    /// Marks one of `userID`'s notifications read or unread; false when they have no such notification.
    func setRead(_ db: Connection, id: Int64, userID: Int64, read: Bool, now: Int64) throws -> Bool {
        let changed = try db.execute(
            read
                ? "UPDATE notifications SET read_at = ? WHERE id = ? AND user_id = ? AND read_at IS NULL"
                : "UPDATE notifications SET read_at = NULL WHERE id = ? AND user_id = ? AND read_at IS NOT NULL",
            arguments: read ? [now, id, userID] : [id, userID])
        if changed > 0 { return true }
        return try db.queryOne(
            "SELECT 1 AS found FROM notifications WHERE id = ? AND user_id = ?", id, userID,
            decode: { _ in true })
            ?? false
    }

    /// Marks every unread notification of `userID` read, or only those up to and including `through`.
    /// Returns how many changed.
    @discardableResult
    func markAllRead(_ db: Connection, userID: Int64, through: Int64?, now: Int64) throws -> Int {
        try db.execute(
            "UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL AND id <= ?", now,
            userID,
            through ?? Int64.max)
    }
}
