import Foundation
import MusicCore
import Storage

/// The SQL of comments, their likes and reports.
///
/// Counts and the hot score are kept by the schema's triggers (`CommentsSchema`), so a comment that goes
/// by a cascade (its song, sheet, moment or author gone) leaves every count right.
struct CommentStore: Sendable {
    enum Target: Sendable, Equatable {
        case song(Int64)
        case sheet(Int64)
        case feed(Int64)
        case video(Int64)
        case episode(Int64)

        init(kind: Int, id: Int64) {
            switch kind {
            case 1: self = .song(id)
            case 2: self = .sheet(id)
            case 4: self = .video(id)
            case 5: self = .episode(id)
            default: self = .feed(id)
            }
        }

        var kind: Int {
            switch self {
            case .song: 1
            case .sheet: 2
            case .feed: 3
            case .video: 4
            case .episode: 5
            }
        }

        var id: Int64 {
            switch self {
            case .song(let id), .sheet(let id), .feed(let id), .video(let id), .episode(let id): id
            }
        }

        /// The model fields that name the thing: exactly one of them is set.
        var songID: String? { if case .song(let id) = self { String(id) } else { nil } }
        var sheetID: String? { if case .sheet(let id) = self { String(id) } else { nil } }
        var feedID: String? { if case .feed(let id) = self { String(id) } else { nil } }
        var videoID: String? { if case .video(let id) = self { String(id) } else { nil } }
        var episodeID: String? { if case .episode(let id) = self { String(id) } else { nil } }

        /// The table whose `comments_count` (kept by the comments' triggers) counts this thing's comments;
        /// nil for episodes, whose table is the podcasts' own and whose comments are few enough to count.
        var table: String? {
            switch self {
            case .song: "songs"
            case .sheet: "sheets"
            case .feed: "feeds"
            case .video: "videos"
            case .episode: nil
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

    /// A comment as listed, with what lists and reports need beyond the model.
    struct Listed: Sendable {
        var comment: Comment
        var hot: Double
        var hidden: Bool
    }

    /// Comment columns; `?` is the viewer's id (0 when nobody is signed in) for `like_id`.
    private static let select = """
        SELECT c.id, c.content, c.likes_count, c.replies_count, c.parent_id, c.target_kind, c.target_id,
            c.created_at, c.updated_at, c.hot, c.hidden, c.mentions, c.topics, \(UserColumns.select("u", as: "user")),
            (SELECT l.id FROM comment_likes l WHERE l.comment_id = c.id AND l.user_id = ?) AS like_id,
            p.id AS quote_id, p.content AS quote_content, p.created_at AS quote_created_at,
            \(UserColumns.select("pu", as: "quote_user"))
        FROM comments c JOIN users u ON u.id = c.user_id
        LEFT JOIN comments p ON p.id = c.parent_id AND p.hidden = 0
        LEFT JOIN users pu ON pu.id = p.user_id
        """

    private static func decode(_ row: Row) throws -> Listed {
        let target = Target(kind: try row.int("target_kind"), id: try row.int64("target_id"))
        var parent: CommentQuote?
        if let quoteID = try row.optionalInt64("quote_id") {
            parent = CommentQuote(
                id: String(quoteID), content: try row.string("quote_content"),
                user: try UserColumns.person(row, "quote_user"),
                createdAt: APIDate.string(try row.int64("quote_created_at")))
        }
        let comment = Comment(
            id: String(try row.int64("id")), content: try row.string("content"),
            likesCount: try row.int("likes_count"), repliesCount: try row.int("replies_count"),
            likeId: try row.optionalInt64("like_id").map(String.init),
            parentId: try row.optionalInt64("parent_id").map(String.init), parent: parent,
            songId: target.songID,
            sheetId: target.sheetID, feedId: target.feedID, videoId: target.videoID,
            episodeId: target.episodeID, user: try UserColumns.person(row, "user"),
            mentions: try JSONColumn.decode([Mention].self, row.string("mentions")),
            topics: try JSONColumn.decode([TopicMention].self, row.string("topics")),
            createdAt: APIDate.string(try row.int64("created_at")),
            updatedAt: APIDate.string(try row.int64("updated_at")))
        return Listed(comment: comment, hot: try row.double("hot"), hidden: try row.bool("hidden"))
    }

    /// A comment that is not hidden.
    func comment(_ db: Connection, id: Int64, viewerID: Int64?) throws -> Comment? {
        try db.queryOne("\(Self.select) WHERE c.id = ? AND c.hidden = 0", viewerID ?? 0, id) {
            try Self.decode($0).comment
        }
    }

    func record(_ db: Connection, id: Int64) throws -> CommentRecord? {
        try db.queryOne(
            "SELECT id, user_id, target_kind, target_id, parent_id, hidden FROM comments WHERE id = ?", id
        ) { row in
            CommentRecord(
                id: try row.int64("id"), userID: try row.int64("user_id"),
                target: Target(kind: try row.int("target_kind"), id: try row.int64("target_id")),
                parentID: try row.optionalInt64("parent_id"), hidden: try row.bool("hidden"))
        }
    }

    /// Whether a podcast episode exists (episodes are everyone's to read, like songs).
    func episodeExists(_ db: Connection, id: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 AS one FROM podcast_episodes WHERE id = ?", id) { try $0.int("one") } != nil
    }

    /// How many comments `userID` wrote since `time`.
    func writtenSince(_ db: Connection, userID: Int64, since time: Int64) throws -> Int {
        try db.queryOne(
            "SELECT count(*) AS n FROM comments WHERE user_id = ? AND created_at >= ?", userID, time
        ) {
            try $0.int("n")
        } ?? 0
    }

    /// A new comment on its topics; the mentions and topics are resolved already. Its hot score is the
    /// schema's (the insert trigger computes it).
    func insert(
        _ db: Connection, userID: Int64, target: Target, parentID: Int64?, content: String,
        mentions: [Mention],
        topics: [TopicMention], now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO comments(user_id, target_kind, target_id, parent_id, content, hot, mentions, topics,
                created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
            """, userID, target.kind, target.id, parentID, content, JSONColumn.text(mentions),
            JSONColumn.text(topics), now, now)
        let id = db.lastInsertRowID
        for topicID in Set(topics.map(\.id)) {
            try db.execute("INSERT INTO comment_topics(comment_id, topic_id) VALUES (?, ?)", id, topicID)
        }
        return id
    }

    /// A topic's visible comments, newest first, keyed by id for deep pages. Comments on private sheets
    /// are left out: a topic page is public.
    func topicComments(_ db: Connection, topicID: Int64, before: Int64?, limit: Int, viewerID: Int64?) throws
        -> [Comment]
    {
        try db.query(
            """
            \(Self.select) JOIN comment_topics ct ON ct.comment_id = c.id
            WHERE ct.topic_id = ? AND c.hidden = 0 AND ct.comment_id < ?
              AND NOT (c.target_kind = 2 AND EXISTS (SELECT 1 FROM sheets sh WHERE sh.id = c.target_id AND sh.is_private = 1))
            ORDER BY ct.comment_id DESC LIMIT ?
            """, viewerID ?? 0, topicID, before ?? Int64.max, limit
        ) { try Self.decode($0).comment }
    }

    /// Deletes the comment; the schema's triggers and cascades take its likes, topics and notifications.
    func delete(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM comments WHERE id = ?", id)
    }

    func setHidden(_ db: Connection, id: Int64, hidden: Bool, now: Int64) throws {
        try db.execute("UPDATE comments SET hidden = ?, updated_at = ? WHERE id = ?", hidden, now, id)
    }

    /// Comments on a thing (or the replies to `parentID`), newest or hottest first: after the cursor (the
    /// last comment's sort key: `id` for new, hot and id for hot) when given, from `offset`.
    func list(
        _ db: Connection, target: Target, parentID: Int64?, order: CommentOrder,
        cursor: (hot: Double?, id: Int64)?,
        offset: Int, limit: Int, viewerID: Int64?
    ) throws -> (comments: [Listed], total: Int) {
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
                try db.queryOne("SELECT replies_count FROM comments WHERE id = ?", parentID) {
                    try $0.int("replies_count")
                } ?? 0
        } else if let table = target.table {
            total =
                try db.queryOne("SELECT comments_count FROM \(table) WHERE id = ?", target.id) {
                    try $0.int("comments_count")
                } ?? 0
        } else {
            total =
                try db.queryOne(
                    "SELECT count(*) AS n FROM comments WHERE target_kind = ? AND target_id = ? AND hidden = 0",
                    target.kind, target.id
                ) { try $0.int("n") } ?? 0
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

    // MARK: Likes

    /// The viewer's like of the comment: the existing one, or a new one (`isNew`).
    func like(_ db: Connection, userID: Int64, commentID: Int64, now: Int64) throws -> (
        likeID: Int64, isNew: Bool
    ) {
        if let existing = try db.queryOne(
            "SELECT id FROM comment_likes WHERE user_id = ? AND comment_id = ?", userID, commentID,
            decode: { try $0.int64("id") })
        {
            return (existing, false)
        }
        try db.execute(
            "INSERT INTO comment_likes(user_id, comment_id, created_at) VALUES (?, ?, ?)", userID, commentID,
            now)
        return (db.lastInsertRowID, true)
    }

    func likeOwner(_ db: Connection, likeID: Int64) throws -> (userID: Int64, commentID: Int64)? {
        try db.queryOne("SELECT user_id, comment_id FROM comment_likes WHERE id = ?", likeID) {
            (try $0.int64("user_id"), try $0.int64("comment_id"))
        }
    }

    /// Deletes the like; returns who made it and of which comment, when there was one.
    func unlike(_ db: Connection, likeID: Int64) throws -> (userID: Int64, commentID: Int64)? {
        try db.query("DELETE FROM comment_likes WHERE id = ? RETURNING user_id, comment_id", likeID) {
            (userID: try $0.int64("user_id"), commentID: try $0.int64("comment_id"))
        }.first
    }

    // MARK: Reports

    func report(_ db: Connection, userID: Int64, commentID: Int64, reason: String, now: Int64) throws {
        try db.execute(
            """
            INSERT INTO comment_reports(user_id, comment_id, reason, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(comment_id, user_id) DO UPDATE SET reason = excluded.reason
            """, userID, commentID, reason, now)
    }

    /// Reported comments, most recently reported first, hidden ones included.
    func reports(_ db: Connection, paging: Paging) throws -> Page<CommentReport> {
        let total =
            try db.queryOne("SELECT count(DISTINCT comment_id) AS n FROM comment_reports") { try $0.int("n") }
            ?? 0
        let rows = try db.query(
            """
            SELECT comment_id, count(*) AS reports, json_group_array(reason) AS reasons, max(created_at) AS last_reported_at
            FROM comment_reports
            GROUP BY comment_id ORDER BY last_reported_at DESC, comment_id DESC LIMIT ? OFFSET ?
            """, paging.size, paging.offset
        ) {
            (
                id: try $0.int64("comment_id"), count: try $0.int("reports"),
                reasons: try $0.string("reasons"),
                last: try $0.int64("last_reported_at")
            )
        }
        // At most one page (100) of reports, for administrators: one lookup each is fine.
        let items = try rows.compactMap { report -> CommentReport? in
            guard
                let listed = try db.queryOne(
                    "\(Self.select) WHERE c.id = ?", 0, report.id, decode: Self.decode)
            else { return nil }
            return CommentReport(
                comment: listed.comment, hidden: listed.hidden, reportsCount: report.count,
                reasons: (try? JSONColumn.decode([String].self, report.reasons)) ?? [],
                lastReportedAt: APIDate.string(report.last))
        }
        return Page(items: items, total: total, page: paging.page, size: paging.size)
    }
}
