import Foundation
import MusicCore
import Storage

/// The news SQL. Every function reads and writes through the connection of its caller's transaction. Queries
/// that name the viewer use numbered parameters, the viewer always `?1`.
struct NewsStore: Sendable {
    struct Channel: Sendable {
        var id: Int64
        var ownerID: Int64?
        var title: String
        var position: Int
    }

    struct Source: Sendable {
        var id: Int64
        var ownerID: Int64?
        var channelID: Int64
        var url: String
        var title: String
        var etag: String?
        var lastModified: String?
        var refreshedAt: Int64?
        var failures: Int
        var lastError: String?
    }

    /// A place in a list: the key it is ordered by (a date, or when saved) and the article's id.
    struct Key: Sendable, Equatable {
        var at: Int64
        var id: Int64
        var text: String { "\(at):\(id)" }
    }

    struct Row: Sendable {
        var id: Int64
        var url: String?
        var title: String
        var summary: String
        var author: String?
        var publishedAt: Int64
        var images: [String]
        var videos: [NewsFeeds.StoredVideo]
        var channelID: Int64
        var sourceTitle: String
        var read: Bool
        var saved: Bool
        /// The list's key of this row.
        var key: Key
    }

    // MARK: Channels

    private static func channel(_ row: Storage.Row) throws -> Channel {
        Channel(
            id: try row.int64("id"), ownerID: try row.optionalInt64("owner_id"),
            title: try row.string("title"),
            position: try row.int("position"))
    }

    func channels(_ db: Connection, viewerID: Int64) throws -> [Channel] {
        try db.query(
            """
            SELECT id, owner_id, title, position FROM news_channels
            WHERE owner_id IS NULL OR owner_id = ?1 ORDER BY owner_id IS NOT NULL, position, id
            """, viewerID, decode: Self.channel)
    }

    /// A channel the viewer may see (shared, or their own).
    func channel(_ db: Connection, id: Int64, viewerID: Int64) throws -> Channel? {
        try db.queryOne(
            "SELECT id, owner_id, title, position FROM news_channels WHERE id = ?2 AND (owner_id IS NULL OR owner_id = ?1)",
            viewerID, id, decode: Self.channel)
    }

    func personalChannelCount(_ db: Connection, ownerID: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM news_channels WHERE owner_id = ?", ownerID) {
            try $0.int("n")
        }
            ?? 0
    }

    func nextPosition(_ db: Connection, ownerID: Int64?) throws -> Int {
        try db.queryOne(
            "SELECT coalesce(max(position), 0) + 1 AS p FROM news_channels WHERE owner_id IS ?", ownerID
        ) { try $0.int("p") } ?? 1
    }

    func insertChannel(_ db: Connection, ownerID: Int64?, title: String, position: Int, now: Int64) throws
        -> Int64
    {
        try db.execute(
            "INSERT INTO news_channels(owner_id, title, position, created_at) VALUES (?, ?, ?, ?)", ownerID,
            title,
            position, now)
        return db.lastInsertRowID
    }

    func updateChannel(_ db: Connection, id: Int64, title: String, position: Int) throws {
        try db.execute("UPDATE news_channels SET title = ?, position = ? WHERE id = ?", title, position, id)
    }

    /// Unread articles of a channel for a person: those above their read-all line that they neither read nor
    /// hid, counted among the newest `scan` above the line, at most `cap`.
    func unreadCount(_ db: Connection, channelID: Int64, viewerID: Int64, cap: Int, scan: Int = 5_000) throws
        -> Int
    {
        let line = try readLine(db, channelID: channelID, viewerID: viewerID) ?? Key(at: -1, id: 0)
        let n =
            try db.queryOne(
                """
                SELECT count(*) AS n FROM (
                    SELECT 1 FROM (
                        SELECT e.article_id FROM news_entries e
                        WHERE e.channel_id = ?2 AND (e.published_at, e.article_id) > (?3, ?4)
                        ORDER BY e.published_at DESC, e.article_id DESC LIMIT ?5
                    ) x LEFT JOIN news_marks m ON m.user_id = ?1 AND m.article_id = x.article_id
                    WHERE coalesce(m.read, 0) = 0 AND coalesce(m.hidden, 0) = 0 LIMIT ?6)
                """, viewerID, channelID, line.at, line.id, scan, cap
            ) { try $0.int("n") } ?? 0
        return n
    }

    func readLine(_ db: Connection, channelID: Int64, viewerID: Int64) throws -> Key? {
        try db.queryOne(
            "SELECT published_at, article_id FROM news_read_lines WHERE user_id = ? AND channel_id = ?",
            viewerID,
            channelID
        ) { Key(at: try $0.int64("published_at"), id: try $0.int64("article_id")) }
    }

    /// Moves the person's read-all line of a channel up to `line` (never down), and drops the unread marks
    /// below it in that channel.
    func readAll(_ db: Connection, channelID: Int64, viewerID: Int64, line: Key) throws {
        try db.execute(
            """
            INSERT INTO news_read_lines(user_id, channel_id, published_at, article_id) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (user_id, channel_id) DO UPDATE SET published_at = excluded.published_at,
                article_id = excluded.article_id
            WHERE (excluded.published_at, excluded.article_id) > (published_at, article_id)
            """, viewerID, channelID, line.at, line.id)
        try db.execute(
            """
            UPDATE news_marks SET read = NULL WHERE user_id = ?1 AND read = 0 AND EXISTS (
                SELECT 1 FROM news_entries e WHERE e.channel_id = ?2 AND e.article_id = news_marks.article_id
                    AND (e.published_at, e.article_id) <= (?3, ?4))
            """, viewerID, channelID, line.at, line.id)
    }

    /// The newest entry of a channel, or the entry of `articleID` in it.
    func entryKey(_ db: Connection, channelID: Int64, articleID: Int64?) throws -> Key? {
        if let articleID {
            return try db.queryOne(
                "SELECT published_at, article_id FROM news_entries WHERE channel_id = ? AND article_id = ?",
                channelID, articleID
            ) { Key(at: try $0.int64("published_at"), id: try $0.int64("article_id")) }
        }
        return try db.queryOne(
            """
            SELECT published_at, article_id FROM news_entries WHERE channel_id = ?
            ORDER BY published_at DESC, article_id DESC LIMIT 1
            """, channelID
        ) { Key(at: try $0.int64("published_at"), id: try $0.int64("article_id")) }
    }

    // MARK: Sources

    private static let sourceColumns = """
        id, owner_id, channel_id, url, title, etag, last_modified, refreshed_at, failures, last_error
        """

    private static func source(_ row: Storage.Row) throws -> Source {
        Source(
            id: try row.int64("id"), ownerID: try row.optionalInt64("owner_id"),
            channelID: try row.int64("channel_id"), url: try row.string("url"),
            title: try row.string("title"),
            etag: try row.optionalString("etag"), lastModified: try row.optionalString("last_modified"),
            refreshedAt: try row.optionalInt64("refreshed_at"), failures: try row.int("failures"),
            lastError: try row.optionalString("last_error"))
    }

    func source(_ db: Connection, id: Int64) throws -> Source? {
        try db.queryOne(
            "SELECT \(Self.sourceColumns) FROM news_sources WHERE id = ?", id, decode: Self.source)
    }

    /// An administrator's: the shared sources and their own; anyone else's: their own.
    func sources(_ db: Connection, viewerID: Int64, isAdmin: Bool) throws -> [Source] {
        try db.query(
            """
            SELECT \(Self.sourceColumns) FROM news_sources
            WHERE owner_id = ?1 OR (?2 AND owner_id IS NULL) ORDER BY channel_id, id
            """, viewerID, isAdmin, decode: Self.source)
    }

    func sourceCount(_ db: Connection, ownerID: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM news_sources WHERE owner_id = ?", ownerID) {
            try $0.int("n")
        } ?? 0
    }

    func sourceID(_ db: Connection, channelID: Int64, url: String) throws -> Int64? {
        try db.queryOne("SELECT id FROM news_sources WHERE channel_id = ? AND url = ?", channelID, url) {
            try $0.int64("id")
        }
    }

    func insertSource(
        _ db: Connection, ownerID: Int64?, channelID: Int64, url: String, title: String, now: Int64,
        nextRefresh: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO news_sources(owner_id, channel_id, url, title, next_refresh_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """, ownerID, channelID, url, title, nextRefresh, now)
        return db.lastInsertRowID
    }

    func sourceIDs(_ db: Connection, channelID: Int64) throws -> [Int64] {
        try db.query("SELECT id FROM news_sources WHERE channel_id = ?", channelID) { try $0.int64("id") }
    }

    func due(_ db: Connection, now: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            "SELECT id FROM news_sources WHERE next_refresh_at <= ? ORDER BY next_refresh_at LIMIT ?", now,
            limit
        ) { try $0.int64("id") }
    }

    func recordSuccess(
        _ db: Connection, id: Int64, title: String?, etag: String?, lastModified: String?, now: Int64,
        nextRefresh: Int64
    ) throws {
        try db.execute(
            """
            UPDATE news_sources SET title = coalesce(?, title), etag = ?, last_modified = ?, refreshed_at = ?,
                next_refresh_at = ?, failures = 0, last_error = NULL WHERE id = ?
            """, title, etag, lastModified, now, nextRefresh, id)
    }

    func recordFailure(
        _ db: Connection, id: Int64, error: String, failures: Int, now: Int64, nextRefresh: Int64
    )
        throws
    {
        try db.execute(
            """
            UPDATE news_sources SET last_error = ?, failures = ?, refreshed_at = ?, next_refresh_at = ? WHERE id = ?
            """, error, failures, now, nextRefresh, id)
    }

    /// Deletes a source: its articles leave its channel unless another source there has them, and articles no
    /// source has any more go.
    func deleteSource(_ db: Connection, id: Int64, channelID: Int64) throws {
        try db.execute(
            """
            DELETE FROM news_entries WHERE channel_id = ?1
                AND article_id IN (SELECT article_id FROM news_links WHERE source_id = ?2)
                AND NOT EXISTS (
                    SELECT 1 FROM news_links l JOIN news_sources s ON s.id = l.source_id
                    WHERE l.article_id = news_entries.article_id AND s.channel_id = ?1 AND l.source_id <> ?2)
            """, channelID, id)
        try db.execute(
            """
            DELETE FROM news_articles WHERE id IN (SELECT article_id FROM news_links WHERE source_id = ?1)
                AND NOT EXISTS (SELECT 1 FROM news_links l WHERE l.article_id = news_articles.id AND l.source_id <> ?1)
            """, id)
        try db.execute("DELETE FROM news_sources WHERE id = ?", id)
    }

    // MARK: Articles as the refresh writes them

    struct Known: Sendable {
        var id: Int64
        var title: String
        var summary: String
        var contentHTML: String
        var author: String?
        var publishedAt: Int64
        var images: String
        var videos: String
    }

    func linked(_ db: Connection, sourceID: Int64, guid: String) throws -> Known? {
        try db.queryOne(
            """
            SELECT a.id, a.title, a.summary, a.content_html, a.author, a.published_at, a.images, a.videos
            FROM news_links l JOIN news_articles a ON a.id = l.article_id WHERE l.source_id = ? AND l.guid = ?
            """, sourceID, guid
        ) {
            Known(
                id: try $0.int64("id"), title: try $0.string("title"), summary: try $0.string("summary"),
                contentHTML: try $0.string("content_html"), author: try $0.optionalString("author"),
                publishedAt: try $0.int64("published_at"), images: try $0.string("images"),
                videos: try $0.string("videos"))
        }
    }

    /// The article another source already brought, by link or by a guid that names it everywhere.
    func existingArticle(_ db: Connection, url: String?, guidKey: String?) throws -> Int64? {
        if let url,
            let id = try db.queryOne(
                "SELECT id FROM news_articles WHERE url = ?", url, decode: { try $0.int64("id") })
        {
            return id
        }
        guard let guidKey else { return nil }
        return try db.queryOne("SELECT id FROM news_articles WHERE guid_key = ?", guidKey) {
            try $0.int64("id")
        }
    }

    func insertArticle(
        _ db: Connection, _ article: NewsFeeds.Article, publishedAt: Int64, images: String, videos: String,
        sourceID: Int64, now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO news_articles(url, guid_key, title, summary, content_html, author, published_at, images,
                videos, source_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, article.url, article.guidKey, article.title, article.summary, article.contentHTML,
            article.author,
            publishedAt, images, videos, sourceID, now, now)
        let id = db.lastInsertRowID
        try index(db, id: id, article)
        return id
    }

    func updateArticle(
        _ db: Connection, id: Int64, _ article: NewsFeeds.Article, publishedAt: Int64, images: String,
        videos: String, now: Int64
    ) throws {
        try db.execute(
            """
            UPDATE news_articles SET title = ?, summary = ?, content_html = ?, author = ?, published_at = ?,
                images = ?, videos = ?, updated_at = ? WHERE id = ?
            """, article.title, article.summary, article.contentHTML, article.author, publishedAt, images,
            videos,
            now, id)
        try db.execute("UPDATE news_entries SET published_at = ? WHERE article_id = ?", publishedAt, id)
        try db.execute("DELETE FROM news_search WHERE rowid = ?", id)
        try index(db, id: id, article)
    }

    private func index(_ db: Connection, id: Int64, _ article: NewsFeeds.Article) throws {
        try db.execute(
            "INSERT INTO news_search(rowid, title, body) VALUES (?, ?, ?)", id,
            SearchText.indexText(article.title),
            SearchText.indexText(String(article.text.prefix(20_000))))
    }

    func link(
        _ db: Connection, sourceID: Int64, guid: String, articleID: Int64, channelID: Int64,
        publishedAt: Int64
    )
        throws
    {
        try db.execute(
            "INSERT OR REPLACE INTO news_links(source_id, guid, article_id) VALUES (?, ?, ?)", sourceID, guid,
            articleID)
        try db.execute(
            "INSERT OR IGNORE INTO news_entries(channel_id, article_id, published_at) VALUES (?, ?, ?)",
            channelID,
            articleID, publishedAt)
    }

    func saveImageTokens(_ db: Connection, _ tokens: [(token: String, url: String)]) throws {
        for (token, url) in tokens {
            try db.execute("INSERT OR IGNORE INTO news_images(token, url) VALUES (?, ?)", token, url)
        }
    }

    func imageURL(_ db: Connection, token: String) throws -> String? {
        try db.queryOne("SELECT url FROM news_images WHERE token = ?", token) { try $0.string("url") }
    }

    // MARK: Reading articles

    /// The columns of a list row; `channel` is the SQL of the channel it is listed in, `key` of its list key.
    /// Expects `a` (the article) and `m` (the viewer's marks, left-joined).
    private static func columns(channel: String, key: String) -> String {
        """
        a.id, a.url, a.title, a.summary, a.author, a.published_at, a.images, a.videos,
        \(channel) AS channel_id, \(key) AS list_key,
        coalesce(
            (SELECT s.title FROM news_links l JOIN news_sources s ON s.id = l.source_id
                WHERE l.article_id = a.id AND s.channel_id = \(channel) LIMIT 1),
            (SELECT s.title FROM news_links l JOIN news_sources s ON s.id = l.source_id
                WHERE l.article_id = a.id LIMIT 1), '') AS source_title,
        m.read AS mark_read, m.saved_at AS saved_at,
        EXISTS (SELECT 1 FROM news_entries le JOIN news_read_lines r ON r.user_id = ?1 AND r.channel_id = le.channel_id
            WHERE le.article_id = a.id AND le.channel_id = \(channel)
                AND (le.published_at, le.article_id) <= (r.published_at, r.article_id)) AS below_line
        """
    }

    private static func row(_ row: Storage.Row) throws -> Row {
        let decoder = JSONDecoder()
        let images = (try? decoder.decode([String].self, from: Data(try row.string("images").utf8))) ?? []
        let videos =
            (try? decoder.decode([NewsFeeds.StoredVideo].self, from: Data(try row.string("videos").utf8)))
            ?? []
        let read = try row.isNull("mark_read") ? try row.bool("below_line") : try row.bool("mark_read")
        let id = try row.int64("id")
        return Row(
            id: id, url: try row.optionalString("url"), title: try row.string("title"),
            summary: try row.string("summary"), author: try row.optionalString("author"),
            publishedAt: try row.int64("published_at"), images: images, videos: videos,
            channelID: try row.int64("channel_id"), sourceTitle: try row.string("source_title"), read: read,
            saved: !(try row.isNull("saved_at")), key: Key(at: try row.int64("list_key"), id: id))
    }

    /// The first channel of the viewer's that lists the article (nil: they cannot see it).
    private static let visibleChannel = """
        (SELECT e.channel_id FROM news_entries e JOIN news_channels c ON c.id = e.channel_id
            WHERE e.article_id = a.id AND (c.owner_id IS NULL OR c.owner_id = ?1) ORDER BY c.owner_id IS NOT NULL, c.position, c.id LIMIT 1)
        """

    /// One channel's page: older than `before`, newer than `after` (the nearest ones first, answered newest
    /// first), or from `offset`; hidden ones left out.
    func page(
        _ db: Connection, channelID: Int64, viewerID: Int64, before: Key?, after: Key?, offset: Int, size: Int
    ) throws -> [Row] {
        var filter = ""
        var arguments: [any SQLBindable] = [viewerID, channelID, size, offset]
        var order = "DESC"
        if let before {
            filter = "AND (e.published_at, e.article_id) < (?5, ?6)"
            arguments += [before.at, before.id]
        } else if let after {
            filter = "AND (e.published_at, e.article_id) > (?5, ?6)"
            arguments += [after.at, after.id]
            order = "ASC"
        }
        // The keys first (OFFSET skips cheap rows), then the rows' columns for the page alone.
        let rows = try db.query(
            """
            SELECT \(Self.columns(channel: "e.channel_id", key: "e.published_at"))
            FROM (
                SELECT e.channel_id, e.article_id, e.published_at FROM news_entries e
                LEFT JOIN news_marks h ON h.user_id = ?1 AND h.article_id = e.article_id
                WHERE e.channel_id = ?2 \(filter) AND coalesce(h.hidden, 0) = 0
                ORDER BY e.published_at \(order), e.article_id \(order) LIMIT ?3 OFFSET ?4
            ) e JOIN news_articles a ON a.id = e.article_id
            LEFT JOIN news_marks m ON m.user_id = ?1 AND m.article_id = e.article_id
            ORDER BY e.published_at \(order), e.article_id \(order)
            """, arguments: arguments, decode: Self.row)
        return order == "ASC" ? rows.reversed() : rows
    }

    /// One article the viewer can see, with its content.
    func article(_ db: Connection, id: Int64, viewerID: Int64) throws -> (row: Row, content: String)? {
        try db.queryOne(
            """
            SELECT * FROM (SELECT \(Self.columns(channel: Self.visibleChannel, key: "a.published_at")), a.content_html
                FROM news_articles a LEFT JOIN news_marks m ON m.user_id = ?1 AND m.article_id = a.id WHERE a.id = ?2)
            WHERE channel_id IS NOT NULL
            """, viewerID, id
        ) { (try Self.row($0), try $0.string("content_html")) }
    }

    /// Saved articles, the last saved first.
    func saved(_ db: Connection, viewerID: Int64, before: Key?, size: Int) throws -> [Row] {
        var arguments: [any SQLBindable] = [viewerID, size]
        var filter = ""
        if let before {
            filter = "AND (m.saved_at, m.article_id) < (?3, ?4)"
            arguments += [before.at, before.id]
        }
        return try db.query(
            """
            SELECT * FROM (
                SELECT \(Self.columns(channel: Self.visibleChannel, key: "m.saved_at"))
                FROM news_marks m JOIN news_articles a ON a.id = m.article_id
                WHERE m.user_id = ?1 AND m.saved_at IS NOT NULL AND m.hidden = 0 \(filter))
            WHERE channel_id IS NOT NULL ORDER BY list_key DESC, id DESC LIMIT ?2
            """, arguments: arguments, decode: Self.row)
    }

    /// Articles whose title or text match `match` (an FTS5 query), newest first.
    func search(_ db: Connection, viewerID: Int64, match: String, before: Key?, size: Int) throws -> [Row] {
        var arguments: [any SQLBindable] = [viewerID, match, size]
        var filter = ""
        if let before {
            filter = "AND (a.published_at, a.id) < (?4, ?5)"
            arguments += [before.at, before.id]
        }
        return try db.query(
            """
            SELECT * FROM (
                SELECT \(Self.columns(channel: Self.visibleChannel, key: "a.published_at"))
                FROM news_articles a LEFT JOIN news_marks m ON m.user_id = ?1 AND m.article_id = a.id
                WHERE a.id IN (SELECT rowid FROM news_search WHERE news_search MATCH ?2)
                    AND coalesce(m.hidden, 0) = 0 \(filter))
            WHERE channel_id IS NOT NULL ORDER BY list_key DESC, id DESC LIMIT ?3
            """, arguments: arguments, decode: Self.row)
    }

    // MARK: Marks

    func setRead(_ db: Connection, viewerID: Int64, articleID: Int64, read: Bool) throws {
        try db.execute(
            """
            INSERT INTO news_marks(user_id, article_id, read) VALUES (?, ?, ?)
            ON CONFLICT (user_id, article_id) DO UPDATE SET read = excluded.read
            """, viewerID, articleID, read)
    }

    func setSaved(_ db: Connection, viewerID: Int64, articleID: Int64, savedAt: Int64?) throws {
        try db.execute(
            """
            INSERT INTO news_marks(user_id, article_id, saved_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (user_id, article_id) DO UPDATE SET saved_at = CASE
                WHEN ?3 IS NULL THEN NULL ELSE coalesce(saved_at, ?3) END
            """, viewerID, articleID, savedAt)
    }

    func setHidden(_ db: Connection, viewerID: Int64, articleID: Int64, hidden: Bool) throws {
        try db.execute(
            """
            INSERT INTO news_marks(user_id, article_id, hidden) VALUES (?, ?, ?)
            ON CONFLICT (user_id, article_id) DO UPDATE SET hidden = excluded.hidden
            """, viewerID, articleID, hidden)
    }
}
