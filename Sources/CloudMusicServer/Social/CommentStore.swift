import Foundation
import MusicCore
import Storage

/// The SQL of comments, their likes and reports. Counts are kept by the schema's triggers.
struct CommentStore: Sendable {
    let database: Database

    enum Target: Sendable, Equatable {
        case song(Int64)
        case sheet(Int64)
        case feed(Int64)

        init(kind: Int, id: Int64) {
            switch kind {
            case 1: self = .song(id)
            case 2: self = .sheet(id)
            default: self = .feed(id)
            }
        }

        var kind: Int {
            switch self {
            case .song: 1
            case .sheet: 2
            case .feed: 3
            }
        }

        var id: Int64 {
            switch self {
            case .song(let id), .sheet(let id), .feed(let id): id
            }
        }

        /// Sheets and moments belong to someone (`user_id` in `table`); songs belong to the library.
        var hasOwner: Bool {
            if case .song = self { false } else { true }
        }

        /// The table whose `comments_count` counts this thing's comments.
        var table: String {
            switch self {
            case .song: "songs"
            case .sheet: "sheets"
            case .feed: "feeds"
            }
        }
    }


    struct CommentRecord: Sendable {
        var id: Int64
        var userID: Int64
        var target: Target
        var parentID: Int64?
        var hidden: Bool
    }

    /// Comment columns; `?` is the viewer's id (0 when nobody is signed in) for `likeId`.
    static let select = """
        SELECT c.id, c.content, c.likes_count, c.replies_count, c.parent_id, c.target_kind, c.target_id,
            c.created_at, c.updated_at, c.hot, u.id, u.nickname, u.avatar_version,
            (SELECT l.id FROM comment_likes l WHERE l.comment_id = c.id AND l.user_id = ?),
            p.id, p.content, p.created_at, pu.id, pu.nickname, pu.avatar_version, c.mentions, c.topics
        FROM comments c JOIN users u ON u.id = c.user_id
        LEFT JOIN comments p ON p.id = c.parent_id AND p.hidden = 0
        LEFT JOIN users pu ON pu.id = p.user_id
        """

    static func user(_ row: Row, _ column: Int) throws -> UserSummary {
        let id = try row.int64(column)
        return UserSummary(
            id: String(id), nickname: try row.string(column + 1),
            icon: try row.optionalInt64(column + 2).map { "v1/users/\(id)/avatar?v=\($0)" })
    }

    static func decode(_ row: Row) throws -> (comment: Comment, hot: Double) {
        let kind = try row.int(5)
        let targetID = String(try row.int64(6))
        let parent: CommentQuote? =
            try row.optionalInt64(14) == nil
            ? nil
            : CommentQuote(
                id: String(try row.int64(14)), content: try row.string(15), user: try user(row, 17),
                createdAt: APIDate.string(try row.int64(16)))
        let comment = Comment(
            id: String(try row.int64(0)), content: try row.string(1), likesCount: try row.int(2),
            repliesCount: try row.int(3), likeId: try row.optionalInt64(13).map(String.init),
            parentId: try row.optionalInt64(4).map(String.init), parent: parent,
            songId: kind == 1 ? targetID : nil, sheetId: kind == 2 ? targetID : nil,
            feedId: kind == 3 ? targetID : nil, user: try user(row, 10),
            mentions: try JSONColumn.decode([Mention].self, row.string(20)),
            topics: try JSONColumn.decode([TopicMention].self, row.string(21)),
            createdAt: APIDate.string(try row.int64(7)), updatedAt: APIDate.string(try row.int64(8)))
        return (comment, try row.double(9))
    }


    func comment(id: Int64, viewerID: Int64?) throws -> Comment? {
        try database.read { db in
            try db.queryOne("\(Self.select) WHERE c.id = ? AND c.hidden = 0", viewerID ?? 0, id) {
                try Self.decode($0).comment
            }
        }
    }

    func record(id: Int64) throws -> CommentRecord? {
        try database.read { db in
            try db.queryOne(
                "SELECT id, user_id, target_kind, target_id, parent_id, hidden FROM comments WHERE id = ?", id
            ) { row in
                let targetID = try row.int64(3)
                return CommentRecord(
                    id: try row.int64(0), userID: try row.int64(1),
                    target: Target(kind: try row.int(2), id: targetID),
                    parentID: try row.optionalInt64(4), hidden: try row.bool(5))
            }
        }
    }

    /// Inserts a comment after `check` (given how many comments `userID` wrote since a time) passes, in the
    /// same write transaction, so requests sent at once cannot all pass a limit the first one reached.
    ///
    /// Mentions resolve to people who exist (by nickname, ignoring case and full-width forms; a
    /// nickname nobody has stays plain text), and topics to topic records, made on first use.
    func insert(
        userID: Int64, target: Target, parentID: Int64?, content: String, rich: ParsedRichText, now: Int64,
        check: (_ writtenSince: (Int64) throws -> Int) throws -> Void = { _ in }
    ) throws -> Int64 {
        try database.write { db in
            try check { time in
                try db.queryOne(
                    "SELECT count(*) FROM comments WHERE user_id = ? AND created_at >= ?", userID, time
                ) { try $0.int(0) } ?? 0
            }
            let (mentions, topics) = try Self.resolve(rich, authorID: userID, now: now, in: db)
            try db.execute(
                """
                INSERT INTO comments(user_id, target_kind, target_id, parent_id, content, hot, mentions, topics,
                    created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, userID, target.kind, target.id, parentID, content, Double(now) / 45_000,
                JSONColumn.text(mentions), JSONColumn.text(topics), now, now)
            let id = db.lastInsertRowID
            for topicID in Set(topics.map(\.id)) {
                try db.execute("INSERT INTO comment_topics(comment_id, topic_id) VALUES (?, ?)", id, topicID)
            }
            try NotificationStore.recordComment(
                db, commentID: id, by: userID, parentID: parentID, on: target,
                mentioned: mentions.compactMap { Int64($0.userId) }, at: now)
            return id
        }
    }


    /// Mentions resolve to people who exist (by nickname, ignoring case and full-width forms; a nickname
    /// nobody has stays plain text) and did not block the author; topics to topic records, made on first use.
    static func resolve(_ rich: ParsedRichText, authorID: Int64, now: Int64, in db: Connection) throws -> (
        mentions: [Mention], topics: [TopicMention]
    ) {
        let mentions = try rich.resolvedMentions { nickname in
            try db.queryOne(
                """
                SELECT id FROM users WHERE nickname_key = ? AND disabled = 0
                  AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = users.id AND blocked_id = ?)
                """, AccountRules.nicknameKey(nickname), authorID
            ) { String(try $0.int64(0)) }
        }
        let topics = try rich.resolvedTopics { title in
            let key = AccountRules.nicknameKey(title)
            try db.execute(
                "INSERT INTO topics(title, title_key, created_at) VALUES (?, ?, ?) ON CONFLICT(title_key) DO NOTHING",
                title, key, now)
            return try db.queryOne("SELECT id FROM topics WHERE title_key = ?", key) {
                String(try $0.int64(0))
            }
        }
        return (mentions, topics)
    }

    // MARK: Topics

    func topics(page: Int, size: Int) throws -> Page<Topic> {
        try database.read { db in
            let total =
                try db.queryOne("SELECT count(*) FROM topics WHERE comments_count + feeds_count > 0") {
                    try $0.int(0)
                } ?? 0
            let rows = try db.query(
                """
                SELECT id, title, comments_count, created_at, feeds_count FROM topics
                WHERE comments_count + feeds_count > 0
                ORDER BY comments_count + feeds_count DESC, id DESC LIMIT ? OFFSET ?
                """, size, (page - 1) * size, decode: Self.decodeTopic)
            return Page(items: rows, total: total, page: page, size: size)
        }
    }

    func topic(id: Int64) throws -> Topic? {
        try database.read { db in
            try db.queryOne(
                "SELECT id, title, comments_count, created_at, feeds_count FROM topics WHERE id = ?", id,
                decode: Self.decodeTopic)
        }
    }

    static func decodeTopic(_ row: Row) throws -> Topic {
        Topic(
            id: String(try row.int64(0)), title: try row.string(1), commentsCount: try row.int(2),
            feedsCount: try row.int(4), createdAt: APIDate.string(try row.int64(3)))
    }

    /// A topic's visible comments, newest first, keyed by id for deep pages. Comments on private sheets
    /// are left out: a topic page is public.
    func topicComments(topicID: Int64, before: Int64?, limit: Int, viewerID: Int64?) throws -> [Comment] {
        try database.read { db in
            try db.query(
                """
                \(Self.select) JOIN comment_topics ct ON ct.comment_id = c.id
                WHERE ct.topic_id = ? AND c.hidden = 0 AND ct.comment_id < ?
                  AND NOT (c.target_kind = 2 AND EXISTS (SELECT 1 FROM sheets sh WHERE sh.id = c.target_id AND sh.is_private = 1))
                ORDER BY ct.comment_id DESC LIMIT ?
                """, viewerID ?? 0, topicID, before ?? Int64.max, limit
            ) { try Self.decode($0).comment }
        }
    }

    func delete(id: Int64) throws {
        _ = try database.write { db in try db.execute("DELETE FROM comments WHERE id = ?", id) }
    }

    func setHidden(id: Int64, hidden: Bool, now: Int64) throws {
        _ = try database.write { db in
            try db.execute("UPDATE comments SET hidden = ?, updated_at = ? WHERE id = ?", hidden, now, id)
        }
    }

    /// The cursor is the last comment's sort key: `id` for new, `hot:id` for hot.
    func list(
        target: Target, parentID: Int64?, order: CommentOrder, cursor: (hot: Double?, id: Int64)?, offset: Int,
        limit: Int,
        viewerID: Int64?
    ) throws -> (comments: [(comment: Comment, hot: Double)], total: Int) {
        try database.read { db in
            var filter = "c.target_kind = ? AND c.target_id = ? AND c.hidden = 0"
            var arguments: [any SQLBindable] = [viewerID ?? 0, target.kind, target.id]
            if let parentID {
                filter += " AND c.parent_id = ?"
                arguments.append(parentID)
            }
            // The kept counts, not count(*): a song with a million comments must not count them per page.
            let total: Int
            if let parentID {
                total =
                    try db.queryOne("SELECT replies_count FROM comments WHERE id = ?", parentID) { try $0.int(0) }
                    ?? 0
            } else {
                total =
                    try db.queryOne("SELECT comments_count FROM \(target.table) WHERE id = ?", target.id) {
                        try $0.int(0)
                    } ?? 0
            }
            let orderBy: String
            switch order {
            case .new:
                orderBy = "c.id DESC"
                if let cursor {
                    filter += " AND c.id < ?"
                    arguments.append(cursor.id)
                }
            case .hot:
                orderBy = "c.hot DESC, c.id DESC"
                if let cursor, let hot = cursor.hot {
                    // A row value, so the index range starts at the cursor (an OR made it walk from the top).
                    filter += " AND (c.hot, c.id) < (?, ?)"
                    arguments += [hot, cursor.id]
                }
            }
            let rows = try db.query(
                "\(Self.select) WHERE \(filter) ORDER BY \(orderBy) LIMIT ? OFFSET ?",
                arguments: arguments + [limit, offset], decode: Self.decode)
            return (rows, total)
        }
    }

    // MARK: Likes

    enum LikeOutcome {
        case liked(likeID: Int64)
        case already(likeID: Int64)
    }

    func like(userID: Int64, commentID: Int64, now: Int64) throws -> LikeOutcome {
        try database.write { db in
            if let existing = try db.queryOne(
                "SELECT id FROM comment_likes WHERE user_id = ? AND comment_id = ?", userID, commentID,
                decode: { try $0.int64(0) })
            {
                return .already(likeID: existing)
            }
            try db.execute(
                "INSERT INTO comment_likes(user_id, comment_id, created_at) VALUES (?, ?, ?)", userID,
                commentID,
                now)
            let likeID = db.lastInsertRowID
            if let author = try db.queryOne(
                "SELECT user_id FROM comments WHERE id = ?", commentID, decode: { try $0.int64(0) })
            {
                try NotificationStore.record(
                    db, kind: .like, to: author, from: userID, commentID: commentID, at: now)
            }
            return .liked(likeID: likeID)
        }
    }

    func likeOwner(likeID: Int64) throws -> (userID: Int64, commentID: Int64)? {
        try database.read { db in
            try db.queryOne("SELECT user_id, comment_id FROM comment_likes WHERE id = ?", likeID) {
                (try $0.int64(0), try $0.int64(1))
            }
        }
    }

    func unlike(likeID: Int64) throws {
        try database.write { db in
            for (userID, commentID) in try db.query(
                "DELETE FROM comment_likes WHERE id = ? RETURNING user_id, comment_id", likeID,
                decode: { (try $0.int64(0), try $0.int64(1)) })
            {
                try NotificationStore.remove(db, kind: .like, from: userID, commentID: commentID)
            }
        }
    }

    // MARK: Reports

    func report(userID: Int64, commentID: Int64, reason: String, now: Int64) throws {
        _ = try database.write { db in
            try db.execute(
                """
                INSERT INTO comment_reports(user_id, comment_id, reason, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(comment_id, user_id) DO UPDATE SET reason = excluded.reason
                """, userID, commentID, reason, now)
        }
    }


    /// Reported comments, most recently reported first.
    func reports(page: Int, size: Int) throws -> Page<CommentReport> {
        try database.read { db in
            let total =
                try db.queryOne("SELECT count(DISTINCT comment_id) FROM comment_reports") { try $0.int(0) }
                ?? 0
            let rows = try db.query(
                """
                SELECT comment_id, count(*), json_group_array(reason), max(created_at) FROM comment_reports
                GROUP BY comment_id ORDER BY max(created_at) DESC, comment_id DESC LIMIT ? OFFSET ?
                """, size, (page - 1) * size
            ) { (try $0.int64(0), try $0.int(1), try $0.string(2), try $0.int64(3)) }
            // At most one page (100) of reports, for administrators: two lookups each are fine.
            let items = try rows.compactMap { (id, count, reasons, last) -> CommentReport? in
                guard
                    let comment = try db.queryOne(
                        "\(Self.select) WHERE c.id = ?", 0, id, decode: { try Self.decode($0).comment }),
                    let hidden = try db.queryOne(
                        "SELECT hidden FROM comments WHERE id = ?", id, decode: { try $0.bool(0) })
                else { return nil }
                return CommentReport(
                    comment: comment, hidden: hidden, reportsCount: count,
                    reasons: (try? JSONColumn.decode([String].self, reasons)) ?? [],
                    lastReportedAt: APIDate.string(last))
            }
            return Page(items: items, total: total, page: page, size: size)
        }
    }
}
