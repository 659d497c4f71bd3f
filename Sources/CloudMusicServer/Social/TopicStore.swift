import MusicCore
import Storage

/// The SQL of #topics#: their records, made on first use, and the most talked about. Their counts of
/// comments and moments are kept by the schema's triggers on `comment_topics` and `feed_topics`.
struct TopicStore: Sendable {
    private static let columns = "id, title, comments_count, feeds_count, created_at"

    private static func decode(_ row: Row) throws -> Topic {
        Topic(
            id: String(try row.int64("id")), title: try row.string("title"),
            commentsCount: try row.int("comments_count"), feedsCount: try row.int("feeds_count"),
            createdAt: APIDate.string(try row.int64("created_at")))
    }

    /// Topics with comments or moments, the most talked about first.
    func topics(_ db: Connection, paging: Paging) throws -> Page<Topic> {
        let total =
            try db.queryOne("SELECT count(*) AS n FROM topics WHERE comments_count + feeds_count > 0") {
                try $0.int("n")
            } ?? 0
        let rows = try db.query(
            """
            SELECT \(Self.columns) FROM topics WHERE comments_count + feeds_count > 0
            ORDER BY comments_count + feeds_count DESC, id DESC LIMIT ? OFFSET ?
            """, paging.size, paging.offset, decode: Self.decode)
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    func topic(_ db: Connection, id: Int64) throws -> Topic? {
        try db.queryOne("SELECT \(Self.columns) FROM topics WHERE id = ?", id, decode: Self.decode)
    }

    /// The topic whose title has `key` (`AccountRules.nicknameKey` of its text).
    func topic(_ db: Connection, key: String) throws -> Topic? {
        try db.queryOne("SELECT \(Self.columns) FROM topics WHERE title_key = ?", key, decode: Self.decode)
    }

    /// The id of the topic `title` (whose key is `key`), made now when it is new.
    func topicID(_ db: Connection, title: String, key: String, now: Int64) throws -> Int64 {
        try db.execute(
            "INSERT INTO topics(title, title_key, created_at) VALUES (?, ?, ?) ON CONFLICT(title_key) DO NOTHING",
            title, key, now)
        guard
            let id = try db.queryOne(
                "SELECT id FROM topics WHERE title_key = ?", key, decode: { try $0.int64("id") })
        else { throw DatabaseError(code: 1, message: "topic \(key) was not made", sql: nil) }
        return id
    }
}
