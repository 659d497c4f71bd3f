import Foundation
import MusicCore
import Storage

/// The podcasts' SQL: feeds with their refresh state, episodes kept by guid, subscriptions and progress. Every
/// function reads and writes through the connection of its caller's transaction.
struct PodcastStore: Sendable {
    typealias Record = PodcastRecord
    typealias Fields = PodcastFields
    typealias EpisodeRecord = PodcastEpisodeRecord
    typealias EpisodeFields = PodcastEpisodeFields
    typealias ProgressRecord = PodcastProgressRecord

    // MARK: Podcasts

    private static let select = """
        SELECT p.id, p.feed_url, p.title, p.author, p.description_text, p.description_html, p.link, p.image_url,
            p.categories, p.explicit, p.language, p.search_text, p.etag, p.last_modified, p.refreshed_at, p.failures, p.last_error, p.keep,
            p.retention, p.created_at, p.updated_at, p.kind, p.narrator, p.series, p.series_part, p.year,
            p.book_cover, p.episodes_count,
            (SELECT count(*) FROM podcast_subscriptions s WHERE s.podcast_id = p.id) AS subscribers_count,
            CASE WHEN ? IS NULL THEN NULL
                ELSE EXISTS (SELECT 1 FROM podcast_subscriptions s WHERE s.user_id = ? AND s.podcast_id = p.id)
            END AS subscribed
        FROM podcasts p
        """

    private static func decode(_ row: Row) throws -> Record {
        let categories =
            (try? JSONDecoder().decode([String].self, from: Data(try row.string("categories").utf8))) ?? []
        return Record(
            id: try row.int64("id"), feedURL: try row.string("feed_url"),
            fields: Fields(
                title: try row.string("title"), author: try row.optionalString("author"),
                descriptionText: try row.string("description_text"),
                descriptionHTML: try row.optionalString("description_html"),
                link: try row.optionalString("link"),
                imageURL: try row.optionalString("image_url"), categories: categories,
                explicit: try row.bool("explicit"), language: try row.optionalString("language"),
                searchText: try row.string("search_text")),
            etag: try row.optionalString("etag"),
            lastModified: try row.optionalString("last_modified"),
            refreshedAt: try row.optionalInt64("refreshed_at"), failures: try row.int("failures"),
            lastError: try row.optionalString("last_error"),
            keep: PodcastKeep(rawValue: try row.string("keep")) ?? .stream,
            retention: try row.int("retention"),
            episodesCount: try row.int("episodes_count"), subscribersCount: try row.int("subscribers_count"),
            subscribed: try row.isNull("subscribed") ? nil : try row.bool("subscribed"),
            createdAt: try row.int64("created_at"), updatedAt: try row.int64("updated_at"),
            book: try AudiobookFields.decode(row))
    }

    func podcast(_ db: Connection, id: Int64, viewerID: Int64?) throws -> Record? {
        try db.queryOne("\(Self.select) WHERE p.id = ?", viewerID, viewerID, id, decode: Self.decode)
    }

    func podcastID(_ db: Connection, feedURL: String) throws -> Int64? {
        try db.queryOne("SELECT id FROM podcasts WHERE feed_url = ?", feedURL) { try $0.int64("id") }
    }

    /// Podcasts by title, or those whose folded title and author hold `needle` (already folded).
    func podcasts(
        _ db: Connection, needle: String?, kind: PodcastKind? = nil, category: String? = nil, paging: Paging,
        viewerID: Int64?
    ) throws -> (records: [Record], total: Int) {
        var conditions: [String] = []
        var filterArguments: [any SQLBindable] = []
        if let needle {
            conditions.append("instr(p.search_text, ?) > 0")
            filterArguments.append(needle)
        }
        if let kind {
            conditions.append("p.kind = ?")
            filterArguments.append(kind.rawValue)
        }
        if let category {
            conditions.append("EXISTS (SELECT 1 FROM json_each(p.categories) c WHERE c.value = ?)")
            filterArguments.append(category)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let total =
            try db.queryOne(
                "SELECT count(*) AS n FROM podcasts p \(filter)", arguments: filterArguments
            ) { try $0.int("n") } ?? 0
        let records = try db.query(
            "\(Self.select) \(filter) ORDER BY p.title, p.id LIMIT ? OFFSET ?",
            arguments: [viewerID, viewerID] + filterArguments + [paging.size, paging.offset],
            decode: Self.decode)
        return (records, total)
    }

    /// The podcasts `userID` subscribes to, latest subscription first.
    func subscriptions(_ db: Connection, userID: Int64, paging: Paging) throws -> (
        records: [Record], total: Int
    ) {
        let total =
            try db.queryOne("SELECT count(*) AS n FROM podcast_subscriptions WHERE user_id = ?", userID) {
                try $0.int("n")
            } ?? 0
        let records = try db.query(
            """
            \(Self.select) JOIN podcast_subscriptions mine ON mine.podcast_id = p.id AND mine.user_id = ?
            ORDER BY mine.created_at DESC, p.id DESC LIMIT ? OFFSET ?
            """, userID, userID, userID, paging.size, paging.offset, decode: Self.decode)
        return (records, total)
    }

    func insert(
        _ db: Connection, feedURL: String, fields: Fields, keep: PodcastKeep, retention: Int, now: Int64,
        nextRefresh: Int64
    ) throws -> Int64 {
        try db.queryOne(
            """
            INSERT INTO podcasts(feed_url, title, author, description_text, description_html, link, image_url,
                categories, explicit, language, search_text, keep, retention, refreshed_at, next_refresh_at,
                created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, feedURL, fields.title, fields.author, fields.descriptionText, fields.descriptionHTML,
            fields.link, fields.imageURL, JSONColumn.text(fields.categories), fields.explicit,
            fields.language,
            fields.searchText, keep.rawValue, retention, now, nextRefresh, now, now
        ) { try $0.int64("id") }!
    }

    /// Writes what the feed now says; `updated_at` moves only when something changed.
    func update(_ db: Connection, id: Int64, fields: Fields, now: Int64) throws {
        try db.execute(
            """
            UPDATE podcasts SET title = ?1, author = ?2, description_text = ?3, description_html = ?4, link = ?5,
                image_url = ?6, categories = ?7, explicit = ?8, language = ?9, search_text = ?10, updated_at = ?11
            WHERE id = ?12 AND (title IS NOT ?1 OR author IS NOT ?2 OR description_text IS NOT ?3
                OR description_html IS NOT ?4 OR link IS NOT ?5 OR image_url IS NOT ?6 OR categories IS NOT ?7
                OR explicit IS NOT ?8 OR language IS NOT ?9)
            """, fields.title, fields.author, fields.descriptionText, fields.descriptionHTML, fields.link,
            fields.imageURL, JSONColumn.text(fields.categories), fields.explicit, fields.language,
            fields.searchText, now, id)
    }

    func setFeedURL(_ db: Connection, id: Int64, feedURL: String) throws {
        try db.execute("UPDATE podcasts SET feed_url = ? WHERE id = ?", feedURL, id)
    }

    /// A fetch that worked (a 304 too): the validators to send next, and when to fetch again.
    func recordSuccess(
        _ db: Connection, id: Int64, etag: String?, lastModified: String?, now: Int64, nextRefresh: Int64
    ) throws {
        try db.execute(
            """
            UPDATE podcasts SET etag = ?, last_modified = ?, refreshed_at = ?, next_refresh_at = ?, failures = 0,
                last_error = NULL
            WHERE id = ?
            """, etag, lastModified, now, nextRefresh, id)
    }

    func recordFailure(_ db: Connection, id: Int64, error: String, failures: Int, nextRefresh: Int64) throws {
        try db.execute(
            "UPDATE podcasts SET failures = ?, last_error = ?, next_refresh_at = ? WHERE id = ?", failures,
            String(error.prefix(1_000)), nextRefresh, id)
    }

    func updateSettings(_ db: Connection, id: Int64, keep: PodcastKeep, retention: Int, now: Int64) throws {
        try db.execute(
            "UPDATE podcasts SET keep = ?, retention = ?, updated_at = ? WHERE id = ?", keep.rawValue,
            retention,
            now, id)
    }

    func delete(_ db: Connection, id: Int64) throws -> Bool {
        try db.execute("DELETE FROM podcasts WHERE id = ?", id) > 0
    }

    /// Podcasts whose next refresh is due, soonest first.
    func due(_ db: Connection, now: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            "SELECT id FROM podcasts WHERE next_refresh_at <= ? AND kind = 'podcast' ORDER BY next_refresh_at, id LIMIT ?",
            now,
            limit
        ) { try $0.int64("id") }
    }

    func allIDs(_ db: Connection) throws -> [Int64] {
        try db.query("SELECT id FROM podcasts WHERE kind = 'podcast' ORDER BY id") { try $0.int64("id") }
    }

    // MARK: Episodes

    /// Episode columns with the viewer's place and like: bind the viewer's id (or nil) twice.
    private static let selectEpisode = """
        SELECT e.id, e.podcast_id, p.title AS podcast_title, p.keep, p.kind, e.guid, e.title, e.description_text,
            e.published_at, e.duration, e.enclosure_url, e.enclosure_type, e.enclosure_length, e.season, e.episode,
            e.chapters_url, e.transcript_url, e.image_url, e.file_name, e.created_at, e.updated_at, e.likes_count,
            (SELECT l.id FROM episode_likes l WHERE l.user_id = ? AND l.episode_id = e.id) AS like_id,
            pr.position, pr.finished, pr.updated_at AS progress_at
        FROM podcast_episodes e JOIN podcasts p ON p.id = e.podcast_id
        LEFT JOIN episode_progress pr ON pr.episode_id = e.id AND pr.user_id = ?
        """

    private static func decodeEpisode(_ row: Row) throws -> EpisodeRecord {
        let progress: ProgressRecord? =
            try row.isNull("progress_at")
            ? nil
            : ProgressRecord(
                position: try row.double("position"), finished: try row.bool("finished"),
                updatedAt: try row.int64("progress_at"))
        return EpisodeRecord(
            id: try row.int64("id"), podcastID: try row.int64("podcast_id"),
            podcastTitle: try row.string("podcast_title"), guid: try row.string("guid"),
            fields: EpisodeFields(
                title: try row.string("title"), descriptionText: try row.string("description_text"),
                publishedAt: try row.optionalInt64("published_at"), duration: try row.optionalInt("duration"),
                enclosureURL: try row.string("enclosure_url"),
                enclosureType: try row.optionalString("enclosure_type"),
                enclosureLength: try row.optionalInt64("enclosure_length"),
                season: try row.optionalInt("season"),
                episode: try row.optionalInt("episode"), chaptersURL: try row.optionalString("chapters_url"),
                transcriptURL: try row.optionalString("transcript_url"),
                imageURL: try row.optionalString("image_url")),
            fileName: try row.optionalString("file_name"),
            keep: PodcastKeep(rawValue: try row.string("keep")) ?? .stream,
            kind: PodcastKind(rawValue: try row.string("kind")) ?? .podcast, progress: progress,
            likesCount: try row.int("likes_count"), likeID: try row.optionalInt64("like_id"),
            createdAt: try row.int64("created_at"), updatedAt: try row.int64("updated_at"))
    }

    func episode(_ db: Connection, id: Int64, viewerID: Int64?) throws -> EpisodeRecord? {
        try db.queryOne(
            "\(Self.selectEpisode) WHERE e.id = ?", viewerID, viewerID, id, decode: Self.decodeEpisode)
    }

    /// How many episodes a podcast has (kept by triggers), nil when there is no such podcast.
    func episodesCount(_ db: Connection, podcastID: Int64) throws -> Int? {
        try db.queryOne("SELECT episodes_count FROM podcasts WHERE id = ?", podcastID) {
            try $0.int("episodes_count")
        }
    }

    /// Where a page of an album starts by key: after this episode, whose sort value (its date, or a book's
    /// part number) is `value`, nil when it has none.
    struct AlbumKey: Equatable, Sendable {
        var value: Int64?
        var id: Int64
    }

    /// One page of a podcast's album: the page's ids from an index alone (a deep page by number skips index
    /// entries, not rows), then those rows with the viewer's places, in one statement. A book's parts are
    /// always in their order (AudiobooksSchema's index), whatever the sort.
    ///
    /// With `after`, the page is the `limit` episodes that follow that key in the album's order, found by a
    /// range of the same index (no entries skipped), so a deep page costs what the first one does. Equal dates
    /// are ordered by id; an episode without a date sorts as SQLite's NULL (first oldest-first, last
    /// newest-first), so a key in the dated part goes on into the undated part, or the other way round.
    func episodes(
        _ db: Connection, podcastID: Int64, order: EpisodeOrder, paging: Paging, viewerID: Int64?,
        byPart: Bool = false, after: AlbumKey? = nil, limit: Int? = nil
    ) throws -> [EpisodeRecord] {
        let column = byPart ? "episode" : "published_at"
        let ascending = byPart || order == .oldest
        let direction = ascending ? "ASC" : "DESC"
        let orderBy = "\(column) \(direction), id \(direction)"
        let limit = limit ?? paging.size
        var parts: [String] = []
        var arguments: [any SQLBindable] = []
        func part(_ condition: String, _ values: [any SQLBindable]) {
            parts.append(
                """
                SELECT * FROM (SELECT id FROM podcast_episodes WHERE podcast_id = ? AND \(condition)
                    ORDER BY \(orderBy) LIMIT ?)
                """)
            arguments += [podcastID] + values + [limit]
        }
        switch (after, after?.value) {
        case (nil, _):
            parts.append(
                """
                SELECT id FROM podcast_episodes WHERE podcast_id = ? ORDER BY \(orderBy) LIMIT ? OFFSET ?
                """)
            arguments += [podcastID, limit, paging.offset]
        case (let key?, let value?):
            // After a dated episode: the rest of the dated ones, then (newest first) the undated ones.
            part("(\(column), id) \(ascending ? ">" : "<") (?, ?)", [value, key.id])
            if !ascending { part("\(column) IS NULL", []) }
        case (let key?, nil):
            // After an undated episode: the rest of the undated ones, then (oldest first) the dated ones.
            part("\(column) IS NULL AND id \(ascending ? ">" : "<") ?", [key.id])
            if ascending { part("\(column) IS NOT NULL", []) }
        }
        // The page's statement reads the viewer's like and place (two parameters), then the limit.
        arguments += [viewerID, viewerID, limit]
        return try db.query(
            """
            WITH page(id) AS (\(parts.joined(separator: " UNION ALL ")))
            \(Self.selectEpisode) JOIN page ON page.id = e.id
            ORDER BY e.\(column) \(direction), e.id \(direction) LIMIT ?
            """, arguments: arguments, decode: Self.decodeEpisode)
    }

    /// The newest episodes of every podcast (Subsonic's getNewestPodcasts), on the index of dates.
    func newestEpisodes(_ db: Connection, limit: Int, viewerID: Int64?) throws -> [EpisodeRecord] {
        try db.query(
            """
            WITH newest(id) AS (SELECT id FROM podcast_episodes ORDER BY published_at DESC, id DESC LIMIT ?)
            \(Self.selectEpisode) JOIN newest ON newest.id = e.id ORDER BY e.published_at DESC, e.id DESC
            """, limit, viewerID, viewerID, decode: Self.decodeEpisode)
    }

    /// Episodes whose title holds `needle` (lower-cased as the index is), newest first.
    /// Episodes whose title or notes match `match` (an FTS5 query from `SearchText.matchQuery`), newest first.
    func searchEpisodes(_ db: Connection, match: String, paging: Paging, viewerID: Int64?) throws
        -> (records: [EpisodeRecord], total: Int)
    {
        let total =
            try db.queryOne("SELECT count(*) AS n FROM episode_search WHERE episode_search MATCH ?", match) {
                try $0.int("n")
            } ?? 0
        guard total > paging.offset else { return ([], total) }
        let records = try db.query(
            """
            WITH found(id) AS (SELECT rowid FROM episode_search WHERE episode_search MATCH ?)
            \(Self.selectEpisode) JOIN found ON found.id = e.id
            ORDER BY e.published_at DESC, e.id DESC LIMIT ? OFFSET ?
            """, match, viewerID, viewerID, paging.size, paging.offset, decode: Self.decodeEpisode)
        return (records, total)
    }

    /// Writes an episode's title and notes (the first 20,000 characters) into the search index, replacing what
    /// was there.
    static func indexEpisode(_ db: Connection, id: Int64, title: String, notes: String) throws {
        try db.execute("DELETE FROM episode_search WHERE rowid = ?", id)
        try db.execute(
            "INSERT INTO episode_search(rowid, title, notes) VALUES (?, ?, ?)", id,
            SearchText.indexText(title),
            SearchText.indexText(String(notes.prefix(20_000))))
    }

    /// Indexes every episode of a podcast or book again (a book's parts, written by the audiobook scan).
    func reindexEpisodes(_ db: Connection, podcastID: Int64) throws {
        let episodes = try db.query(
            "SELECT id, title, description_text FROM podcast_episodes WHERE podcast_id = ?", podcastID
        ) { (try $0.int64("id"), try $0.string("title"), try $0.string("description_text")) }
        for (id, title, notes) in episodes {
            try Self.indexEpisode(db, id: id, title: title, notes: notes)
        }
    }

    /// The episodes of the podcasts `userID` subscribes to, newest first.
    func newEpisodes(_ db: Connection, userID: Int64, paging: Paging) throws
        -> (records: [EpisodeRecord], total: Int)
    {
        let mine = "SELECT podcast_id FROM podcast_subscriptions WHERE user_id = ?"
        let total =
            try db.queryOne(
                "SELECT count(*) AS n FROM podcast_episodes WHERE podcast_id IN (\(mine))", userID
            ) {
                try $0.int("n")
            } ?? 0
        let records = try db.query(
            """
            \(Self.selectEpisode) WHERE e.podcast_id IN (\(mine))
            ORDER BY coalesce(e.published_at, 0) DESC, e.id DESC LIMIT ? OFFSET ?
            """, userID, userID, userID, paging.size, paging.offset, decode: Self.decodeEpisode)
        return (records, total)
    }

    /// Episodes `userID` started and has not finished, the last played first.
    func unfinished(_ db: Connection, userID: Int64, paging: Paging) throws
        -> (records: [EpisodeRecord], total: Int)
    {
        let total =
            try db.queryOne(
                "SELECT count(*) AS n FROM episode_progress WHERE user_id = ? AND finished = 0 AND position > 0",
                userID
            ) { try $0.int("n") } ?? 0
        let records = try db.query(
            """
            \(Self.selectEpisode) WHERE pr.user_id IS NOT NULL AND pr.finished = 0 AND pr.position > 0
            ORDER BY pr.updated_at DESC, e.id DESC LIMIT ? OFFSET ?
            """, userID, userID, paging.size, paging.offset, decode: Self.decodeEpisode)
        return (records, total)
    }

    /// The episodes a podcast has, by guid, with what was written of them.
    func knownEpisodes(_ db: Connection, podcastID: Int64) throws -> [String: (
        id: Int64, fields: EpisodeFields
    )] {
        var known: [String: (id: Int64, fields: EpisodeFields)] = [:]
        for record in try db.query(
            "\(Self.selectEpisode) WHERE e.podcast_id = ?", nil as Int64?, nil as Int64?, podcastID,
            decode: Self.decodeEpisode)
        {
            known[record.guid] = (record.id, record.fields)
        }
        return known
    }

    func insertEpisode(_ db: Connection, podcastID: Int64, guid: String, _ fields: EpisodeFields, now: Int64)
        throws
    {
        let id = try db.queryOne(
            """
            INSERT INTO podcast_episodes(podcast_id, guid, title, description_text, published_at, duration,
                enclosure_url, enclosure_type, enclosure_length, season, episode, chapters_url, transcript_url,
                image_url, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, podcastID, guid, fields.title, fields.descriptionText, fields.publishedAt, fields.duration,
            fields.enclosureURL, fields.enclosureType, fields.enclosureLength, fields.season, fields.episode,
            fields.chaptersURL, fields.transcriptURL, fields.imageURL, now, now
        ) { try $0.int64("id") }
        if let id { try Self.indexEpisode(db, id: id, title: fields.title, notes: fields.descriptionText) }
    }

    func updateEpisode(_ db: Connection, id: Int64, _ fields: EpisodeFields, now: Int64) throws {
        try db.execute(
            """
            UPDATE podcast_episodes SET title = ?, description_text = ?, published_at = ?, duration = ?,
                enclosure_url = ?, enclosure_type = ?, enclosure_length = ?, season = ?, episode = ?,
                chapters_url = ?, transcript_url = ?, image_url = ?, updated_at = ?
            WHERE id = ?
            """, fields.title, fields.descriptionText, fields.publishedAt, fields.duration,
            fields.enclosureURL,
            fields.enclosureType, fields.enclosureLength, fields.season, fields.episode, fields.chaptersURL,
            fields.transcriptURL, fields.imageURL, now, id)
        try Self.indexEpisode(db, id: id, title: fields.title, notes: fields.descriptionText)
    }

    // MARK: Downloads

    /// The newest `limit` episodes of a podcast without a file, to download.
    func episodesToDownload(_ db: Connection, podcastID: Int64, limit: Int) throws -> [(
        id: Int64, url: String, fileName: String?
    )] {
        try db.query(
            """
            SELECT id, enclosure_url, file_name FROM podcast_episodes WHERE podcast_id = ?
            ORDER BY published_at DESC, id DESC LIMIT ?
            """, podcastID, limit
        ) { (try $0.int64("id"), try $0.string("enclosure_url"), try $0.optionalString("file_name")) }
    }

    /// Downloaded episodes beyond the newest `keep`, to delete.
    func downloadsBeyond(_ db: Connection, podcastID: Int64, keep: Int) throws -> [(
        id: Int64, fileName: String
    )] {
        try db.query(
            """
            SELECT id, file_name FROM podcast_episodes WHERE podcast_id = ? AND file_name IS NOT NULL
            ORDER BY published_at DESC, id DESC LIMIT -1 OFFSET ?
            """, podcastID, keep
        ) { (try $0.int64("id"), try $0.string("file_name")) }
    }

    func setFileName(_ db: Connection, episodeID: Int64, fileName: String?) throws {
        try db.execute("UPDATE podcast_episodes SET file_name = ? WHERE id = ?", fileName, episodeID)
    }

    // MARK: Subscriptions and progress

    func subscribe(_ db: Connection, userID: Int64, podcastID: Int64, now: Int64) throws {
        try db.execute(
            """
            INSERT INTO podcast_subscriptions(user_id, podcast_id, created_at) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING
            """, userID, podcastID, now)
    }

    func unsubscribe(_ db: Connection, userID: Int64, podcastID: Int64) throws {
        try db.execute(
            "DELETE FROM podcast_subscriptions WHERE user_id = ? AND podcast_id = ?", userID, podcastID)
    }

    func progress(_ db: Connection, userID: Int64, episodeID: Int64) throws -> ProgressRecord? {
        try db.queryOne(
            "SELECT position, finished, updated_at FROM episode_progress WHERE user_id = ? AND episode_id = ?",
            userID, episodeID
        ) {
            ProgressRecord(
                position: try $0.double("position"), finished: try $0.bool("finished"),
                updatedAt: try $0.int64("updated_at"))
        }
    }

    /// Writes a place unless the one stored was taken later (the later one wins, whatever order they arrive in).
    /// `receivedAt` (milliseconds, the server's clock) and the gPodder `device` are what sync's "since" reads.
    func saveProgress(
        _ db: Connection, userID: Int64, episodeID: Int64, _ progress: ProgressRecord,
        receivedAt: Int64 = Int64(Date().timeIntervalSince1970 * 1_000), device: String? = nil
    ) throws {
        try db.execute(
            """
            INSERT INTO episode_progress(user_id, episode_id, position, finished, updated_at, received_at, device)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, episode_id) DO UPDATE SET position = excluded.position,
                finished = excluded.finished, updated_at = excluded.updated_at,
                received_at = excluded.received_at, device = excluded.device
            WHERE excluded.updated_at >= episode_progress.updated_at
            """, userID, episodeID, progress.position, progress.finished, progress.updatedAt, receivedAt,
            device)
    }
}
