import Foundation
import MusicCore
import Storage

/// The SQL of each person's music: sheets, their songs, collections, play history and queues.
///
/// Every function runs on the connection of its caller's transaction, so a service composes several in
/// one. Positions in a sheet are dense (0..<songsCount) so a page is an index range; counts are kept by
/// the schema's triggers. SQLite-only: the FTS5 table `search_sheets`, triggers, `json_each`.
struct SheetStore: Sendable {
    struct SheetRecord: Sendable {
        var id: Int64
        var userID: Int64
        var title: String
        var detail: String?
        var tags: [String]
        var isPrivate: Bool
        var isLikes: Bool
        var coverVersion: Int64?
        var songsCount: Int
        var clicksCount: Int
        var collectsCount: Int
        var commentsCount: Int
        var createdAt: Int64
        var updatedAt: Int64
        var ownerNickname: String
        var ownerAvatarVersion: Int64?
        var firstAlbumID: Int64?
        var collected: Bool

        func model(signedIn: Bool, songs: [Song]? = nil) -> Sheet {
            let icon =
                coverVersion.map { SheetsAPI.cover.uri(IDPath(row: id)) + "?v=\($0)" }
                ?? firstAlbumID.map { CatalogAPI.albumCover.uri(IDPath(row: $0)) }
            return Sheet(
                id: String(id), title: title, icon: icon, detail: detail, tags: tags, isPrivate: isPrivate,
                kind: isLikes ? "likes" : "sheet", clicksCount: clicksCount, collectsCount: collectsCount,
                commentsCount: commentsCount, songsCount: songsCount,
                user: UserSummary(
                    id: String(userID), nickname: ownerNickname,
                    icon: ownerAvatarVersion.map { AccountsAPI.avatar.uri(IDPath(row: userID)) + "?v=\($0)" }),
                collected: signedIn ? collected : nil, songs: songs, createdAt: APIDate.string(createdAt),
                updatedAt: APIDate.string(updatedAt))
        }
    }

    /// The columns of `SheetRecord`; `?` is the viewer's id (0 when nobody is signed in).
    private static let sheetSelect = """
        SELECT sh.id, sh.user_id, sh.title, sh.detail, sh.tags, sh.is_private, sh.kind, sh.cover_version,
            sh.songs_count, sh.clicks_count, sh.collects_count, sh.comments_count, sh.created_at, sh.updated_at,
            u.nickname AS owner_nickname, u.avatar_version AS owner_avatar_version,
            (SELECT s.album_id FROM sheet_songs ss JOIN songs s ON s.id = ss.song_id
                WHERE ss.sheet_id = sh.id ORDER BY ss.position LIMIT 1) AS first_album_id,
            EXISTS (SELECT 1 FROM collections c WHERE c.user_id = ? AND c.sheet_id = sh.id) AS collected
        FROM sheets sh JOIN users u ON u.id = sh.user_id
        """

    private static func decodeSheet(_ row: Row) throws -> SheetRecord {
        SheetRecord(
            id: try row.int64("id"), userID: try row.int64("user_id"), title: try row.string("title"),
            detail: try row.optionalString("detail"),
            tags: (try? JSONColumn.decode([String].self, try row.string("tags"))) ?? [],
            isPrivate: try row.bool("is_private"), isLikes: try row.int("kind") == 1,
            coverVersion: try row.optionalInt64("cover_version"), songsCount: try row.int("songs_count"),
            clicksCount: try row.int("clicks_count"), collectsCount: try row.int("collects_count"),
            commentsCount: try row.int("comments_count"), createdAt: try row.int64("created_at"),
            updatedAt: try row.int64("updated_at"), ownerNickname: try row.string("owner_nickname"),
            ownerAvatarVersion: try row.optionalInt64("owner_avatar_version"),
            firstAlbumID: try row.optionalInt64("first_album_id"), collected: try row.bool("collected"))
    }

    func sheet(_ db: Connection, id: Int64, viewerID: Int64?) throws -> SheetRecord? {
        try db.queryOne("\(Self.sheetSelect) WHERE sh.id = ?", viewerID ?? 0, id, decode: Self.decodeSheet)
    }

    /// The sheets of these ids, in no order (those that do not exist are left out).
    func sheets(_ db: Connection, ids: [Int64], viewerID: Int64?) throws -> [SheetRecord] {
        guard !ids.isEmpty else { return [] }
        return try db.query(
            "\(Self.sheetSelect) WHERE sh.id IN (SELECT value FROM json_each(?))", viewerID ?? 0,
            ids.jsonArray,
            decode: Self.decodeSheet)
    }

    /// A sheet's owner and privacy, the least needed to decide who may see or change it.
    func access(_ db: Connection, sheetID: Int64) throws -> (ownerID: Int64, isPrivate: Bool, isLikes: Bool)?
    {
        try db.queryOne("SELECT user_id, is_private, kind FROM sheets WHERE id = ?", sheetID) {
            (try $0.int64("user_id"), try $0.bool("is_private"), try $0.int("kind") == 1)
        }
    }

    func likesSheetID(_ db: Connection, userID: Int64) throws -> Int64? {
        try db.queryOne("SELECT id FROM sheets WHERE user_id = ? AND kind = 1", userID) { try $0.int64("id") }
    }

    func sheetIDsWithCovers(_ db: Connection, userID: Int64) throws -> [Int64] {
        try db.query("SELECT id FROM sheets WHERE user_id = ? AND cover_version IS NOT NULL", userID) {
            try $0.int64("id")
        }
    }

    func sheetsCount(_ db: Connection, userID: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM sheets WHERE user_id = ?", userID) { try $0.int("n") } ?? 0
    }

    /// A new sheet, indexed for search when it is public; its songs are added separately.
    func insertSheet(
        _ db: Connection, userID: Int64, title: String, detail: String?, tags: [String], isPrivate: Bool,
        now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO sheets(user_id, title, detail, tags, is_private, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, userID, title, detail, JSONColumn.text(tags), isPrivate, now, now)
        let id = db.lastInsertRowID
        try reindex(db, sheetID: id)
        return id
    }

    func updateSheet(_ db: Connection, id: Int64, changes: SheetChanges, now: Int64) throws {
        if let title = changes.title {
            try db.execute("UPDATE sheets SET title = ? WHERE id = ?", title, id)
        }
        if let detail = changes.detail {
            try db.execute("UPDATE sheets SET detail = ? WHERE id = ?", detail, id)
        }
        if let tags = changes.tags {
            try db.execute("UPDATE sheets SET tags = ? WHERE id = ?", JSONColumn.text(tags), id)
        }
        if let isPrivate = changes.isPrivate {
            try db.execute("UPDATE sheets SET is_private = ? WHERE id = ?", isPrivate, id)
            // A sheet made private is no longer anyone else's to keep.
            if isPrivate {
                try db.execute(
                    """
                    DELETE FROM collections WHERE sheet_id = ?
                    AND user_id <> (SELECT user_id FROM sheets WHERE id = ?)
                    """, id, id)
            }
        }
        try touch(db, sheetID: id, now: now)
        try reindex(db, sheetID: id)
    }

    func touch(_ db: Connection, sheetID: Int64, now: Int64) throws {
        try db.execute("UPDATE sheets SET updated_at = ? WHERE id = ?", now, sheetID)
    }

    func setCoverVersion(_ db: Connection, sheetID: Int64, version: Int64?, now: Int64) throws {
        try db.execute(
            "UPDATE sheets SET cover_version = ?, updated_at = ? WHERE id = ?", version, now, sheetID)
    }

    /// Deletes the sheet; the schema's cascades and triggers take its songs, collections and index entry.
    func deleteSheet(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM sheets WHERE id = ?", id)
    }

    func addClicks(_ db: Connection, _ counts: [Int64: Int]) throws {
        for (sheetID, count) in counts {
            try db.execute("UPDATE sheets SET clicks_count = clicks_count + ? WHERE id = ?", count, sheetID)
        }
    }

    // MARK: Lists of sheets

    /// Public sheets, newest or most collected first; with `tag`, only those carrying it (case ignored).
    func publicSheets(_ db: Connection, order: SheetOrder, tag: String?, paging: Paging, viewerID: Int64?)
        throws -> Page<Sheet>
    {
        var filter = "sh.is_private = 0 AND sh.kind = 0"
        var arguments: [any SQLBindable] = []
        if let tag {
            filter += " AND EXISTS (SELECT 1 FROM json_each(sh.tags) t WHERE lower(t.value) = lower(?))"
            arguments.append(tag)
        }
        let total =
            try db.queryOne("SELECT count(*) AS n FROM sheets sh WHERE \(filter)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let orderBy = order == .new ? "sh.id DESC" : "sh.collects_count DESC, sh.id DESC"
        let rows = try db.query(
            "\(Self.sheetSelect) WHERE \(filter) ORDER BY \(orderBy) LIMIT ? OFFSET ?",
            arguments: [viewerID ?? 0] + arguments + [paging.size, paging.offset], decode: Self.decodeSheet)
        return Page(
            items: rows.map { $0.model(signedIn: viewerID != nil) }, total: total, page: paging.page,
            size: paging.size)
    }

    // MARK: Search

    /// Puts a sheet's title and tags in the search index when it is public and not an "I like" sheet, and
    /// takes it out otherwise.
    func reindex(_ db: Connection, sheetID: Int64) throws {
        try db.execute("DELETE FROM search_sheets WHERE rowid = ?", sheetID)
        guard
            let (title, tags) = try db.queryOne(
                "SELECT title, tags FROM sheets WHERE id = ? AND kind = 0 AND is_private = 0", sheetID,
                decode: { (try $0.string("title"), try $0.string("tags")) })
        else { return }
        let tagText = ((try? JSONColumn.decode([String].self, tags)) ?? []).joined(separator: " ")
        try db.execute(
            "INSERT INTO search_sheets(rowid, title, tags) VALUES (?, ?, ?)", sheetID,
            SearchText.indexText(title), SearchText.indexText(tagText))
    }

    /// Public sheets matching what a person typed, best first (bm25, a title match weighing more than a
    /// tag). Like song search, only the first `Catalog.rankedCandidates` matches are ranked and counted.
    func search(_ db: Connection, _ typed: String, paging: Paging, viewerID: Int64?) throws -> Page<Sheet> {
        guard let query = SearchText.matchQuery(typed) else {
            return Page(items: [], total: 0, page: paging.page, size: paging.size)
        }
        let candidates = """
            SELECT rowid, bm25(search_sheets, 4.0, 1.0) AS score FROM search_sheets
            WHERE search_sheets MATCH ? LIMIT \(Catalog.rankedCandidates)
            """
        let total =
            try db.queryOne("SELECT count(*) AS n FROM (\(candidates))", query) { try $0.int("n") } ?? 0
        let ids = try db.query(
            "SELECT rowid FROM (\(candidates)) ORDER BY score, rowid LIMIT ? OFFSET ?", query, paging.size,
            paging.offset
        ) { try $0.int64("rowid") }
        let rows = try db.query(
            "\(Self.sheetSelect) WHERE sh.id IN (SELECT value FROM json_each(?))", viewerID ?? 0,
            JSONColumn.text(ids), decode: Self.decodeSheet)
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        return Page(
            items: ids.compactMap { byID[$0]?.model(signedIn: viewerID != nil) }, total: total,
            page: paging.page, size: paging.size)
    }

    /// Sheets `userID` made; private ones only when `includePrivate`.
    func createdSheets(
        _ db: Connection, userID: Int64, includePrivate: Bool, paging: Paging, viewerID: Int64?
    )
        throws -> Page<Sheet>
    {
        let filter = "sh.user_id = ?" + (includePrivate ? "" : " AND sh.is_private = 0")
        let total =
            try db.queryOne("SELECT count(*) AS n FROM sheets sh WHERE \(filter)", userID) { try $0.int("n") }
            ?? 0
        let rows = try db.query(
            "\(Self.sheetSelect) WHERE \(filter) ORDER BY sh.kind DESC, sh.id DESC LIMIT ? OFFSET ?",
            viewerID ?? 0, userID, paging.size, paging.offset, decode: Self.decodeSheet)
        return Page(
            items: rows.map { $0.model(signedIn: viewerID != nil) }, total: total, page: paging.page,
            size: paging.size)
    }

    /// Sheets `userID` collected, newest first; another person's private sheet never shows.
    func collectedSheets(_ db: Connection, userID: Int64, paging: Paging, viewerID: Int64?) throws -> Page<
        Sheet
    > {
        let total =
            try db.queryOne(
                """
                SELECT count(*) AS n FROM collections c JOIN sheets sh ON sh.id = c.sheet_id
                WHERE c.user_id = ? AND sh.is_private = 0
                """, userID
            ) { try $0.int("n") } ?? 0
        let rows = try db.query(
            """
            \(Self.sheetSelect) JOIN collections mine ON mine.sheet_id = sh.id
            WHERE mine.user_id = ? AND sh.is_private = 0
            ORDER BY mine.created_at DESC, sh.id DESC LIMIT ? OFFSET ?
            """, viewerID ?? 0, userID, paging.size, paging.offset, decode: Self.decodeSheet)
        return Page(
            items: rows.map { $0.model(signedIn: viewerID != nil) }, total: total, page: paging.page,
            size: paging.size)
    }

    // MARK: A sheet's songs

    /// Song ids of `sheetID` in order, from `offset`.
    func songIDs(_ db: Connection, sheetID: Int64, offset: Int, limit: Int) throws -> [Int64] {
        try db.query(
            "SELECT song_id FROM sheet_songs WHERE sheet_id = ? ORDER BY position LIMIT ? OFFSET ?", sheetID,
            limit, offset
        ) { try $0.int64("song_id") }
    }

    /// Which of `songIDs` the sheet holds.
    func presentSongs(_ db: Connection, sheetID: Int64, among songIDs: [Int64]) throws -> Set<Int64> {
        Set(
            try db.query(
                """
                SELECT song_id FROM sheet_songs
                WHERE sheet_id = ? AND song_id IN (SELECT value FROM json_each(?))
                """, sheetID, JSONColumn.text(songIDs)
            ) { try $0.int64("song_id") })
    }

    enum AddOutcome {
        /// The songs put in, in the order given.
        case added([Int64])
        case tooMany(limit: Int)
    }

    /// Appends the songs not already in the sheet (or puts them first, for "I like"); with `keepingRepeats`
    /// (a Subsonic playlist), every one of them as given, repeats included. The songs must exist.
    func addSongs(
        _ db: Connection, sheetID: Int64, songIDs: [Int64], atTop: Bool, maxSongs: Int, now: Int64,
        keepingRepeats: Bool = false
    ) throws -> AddOutcome {
        var new = songIDs
        if !keepingRepeats {
            var seen = Set<Int64>()
            let present = try presentSongs(db, sheetID: sheetID, among: songIDs)
            new = songIDs.filter { !present.contains($0) && seen.insert($0).inserted }
        }
        if new.isEmpty { return .added([]) }
        let count =
            try db.queryOne("SELECT songs_count FROM sheets WHERE id = ?", sheetID) {
                try $0.int("songs_count")
            }
            ?? 0
        if count + new.count > maxSongs { return .tooMany(limit: maxSongs) }
        if atTop {
            // Shift in two steps so the unique (sheet, position) index never sees a collision.
            try db.execute(
                "UPDATE sheet_songs SET position = -position - 1 - ? WHERE sheet_id = ?", new.count, sheetID)
            try db.execute("UPDATE sheet_songs SET position = -position - 1 WHERE sheet_id = ?", sheetID)
        }
        // After the top, not at `count`: a song that left the library leaves a gap until compacted.
        let end =
            try db.queryOne(
                "SELECT coalesce(max(position), -1) + 1 AS next FROM sheet_songs WHERE sheet_id = ?", sheetID
            ) { try $0.int("next") } ?? 0
        let start = atTop ? 0 : end
        for (offset, songID) in new.enumerated() {
            try db.execute(
                "INSERT INTO sheet_songs(sheet_id, song_id, position, added_at) VALUES (?, ?, ?, ?)", sheetID,
                songID, start + offset, now)
        }
        try touch(db, sheetID: sheetID, now: now)
        return .added(new)
    }

    /// Removes the entries at these indexes (0-based, in the sheet as it is) and closes the gaps; returns the
    /// song of each entry removed, in the order they stood. An index past the end removes nothing.
    func removeEntries(_ db: Connection, sheetID: Int64, at indexes: [Int64], now: Int64) throws -> [Int64] {
        try compact(db, sheetID: sheetID)
        let removed = try db.query(
            """
            DELETE FROM sheet_songs WHERE sheet_id = ? AND position IN (SELECT value FROM json_each(?))
            RETURNING position, song_id
            """, sheetID, JSONColumn.text(indexes)
        ) { (try $0.int("position"), try $0.int64("song_id")) }
        guard !removed.isEmpty else { return [] }
        try compact(db, sheetID: sheetID)
        try touch(db, sheetID: sheetID, now: now)
        return removed.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Removes songs (every entry of each) and closes the gaps they leave. Returns the songs that were in the
    /// sheet, each once, in the order named.
    func removeSongs(_ db: Connection, sheetID: Int64, songIDs: [Int64], now: Int64) throws -> [Int64] {
        let removed = Set(
            try db.query(
                """
                DELETE FROM sheet_songs WHERE sheet_id = ? AND song_id IN (SELECT value FROM json_each(?))
                RETURNING song_id
                """, sheetID, JSONColumn.text(songIDs)
            ) { try $0.int64("song_id") })
        guard !removed.isEmpty else { return [] }
        try compact(db, sheetID: sheetID)
        try touch(db, sheetID: sheetID, now: now)
        var seen = Set<Int64>()
        return songIDs.filter { removed.contains($0) && seen.insert($0).inserted }
    }

    /// Renumbers positions 0..<n keeping their order (after removals, or a song that left the library).
    func compact(_ db: Connection, sheetID: Int64) throws {
        let (count, end) =
            try db.queryOne(
                """
                SELECT count(*) AS n, coalesce(max(position), -1) + 1 AS next FROM sheet_songs
                WHERE sheet_id = ?
                """, sheetID
            ) { (try $0.int("n"), try $0.int("next")) } ?? (0, 0)
        guard count != end else { return }
        // Through negative positions, numbered from a materialised ranking, so the unique index never
        // sees two songs at one place.
        try db.execute(
            """
            UPDATE sheet_songs SET position = -1 - ranked.rank
            FROM (SELECT position AS old, row_number() OVER (ORDER BY position) - 1 AS rank
                  FROM sheet_songs WHERE sheet_id = ?) AS ranked
            WHERE sheet_songs.sheet_id = ? AND sheet_songs.position = ranked.old
            """, sheetID, sheetID)
        try db.execute("UPDATE sheet_songs SET position = -position - 1 WHERE sheet_id = ?", sheetID)
    }

    enum MoveOutcome { case moved, notInSheet }

    /// Moves one song (its first entry) to `position` (clamped to the sheet), shifting the songs between.
    func moveSong(_ db: Connection, sheetID: Int64, songID: Int64, to position: Int, now: Int64) throws
        -> MoveOutcome
    {
        // Gaps may exist after a song left the library; close them first so positions are indexes.
        try compact(db, sheetID: sheetID)
        guard
            let from = try db.queryOne(
                "SELECT min(position) AS position FROM sheet_songs WHERE sheet_id = ? AND song_id = ? HAVING count(*) > 0",
                sheetID, songID,
                decode: { try $0.int("position") })
        else { return .notInSheet }
        let count =
            try db.queryOne("SELECT count(*) AS n FROM sheet_songs WHERE sheet_id = ?", sheetID) {
                try $0.int("n")
            } ?? 0
        let to = min(max(position, 0), count - 1)
        if to == from { return .moved }
        try db.execute(
            "UPDATE sheet_songs SET position = -1 WHERE sheet_id = ? AND position = ?", sheetID, from)
        // Shift through negative positions so the unique index never sees two songs at one place.
        if to < from {
            try db.execute(
                """
                UPDATE sheet_songs SET position = -position - 2
                WHERE sheet_id = ? AND position >= ? AND position < ?
                """, sheetID, to, from)
            try db.execute(
                "UPDATE sheet_songs SET position = -position - 1 WHERE sheet_id = ? AND position < -1",
                sheetID)
        } else {
            try db.execute(
                """
                UPDATE sheet_songs SET position = -position - 2
                WHERE sheet_id = ? AND position > ? AND position <= ?
                """, sheetID, from, to)
            try db.execute(
                "UPDATE sheet_songs SET position = -position - 3 WHERE sheet_id = ? AND position < -1",
                sheetID)
        }
        try db.execute(
            "UPDATE sheet_songs SET position = ? WHERE sheet_id = ? AND position = -1", to, sheetID)
        try touch(db, sheetID: sheetID, now: now)
        return .moved
    }

    // MARK: Collections

    /// True when it was not collected before.
    func collect(_ db: Connection, userID: Int64, sheetID: Int64, now: Int64) throws -> Bool {
        try db.execute(
            "INSERT OR IGNORE INTO collections(user_id, sheet_id, created_at) VALUES (?, ?, ?)", userID,
            sheetID, now) > 0
    }

    func uncollect(_ db: Connection, userID: Int64, sheetID: Int64) throws -> Bool {
        try db.execute("DELETE FROM collections WHERE user_id = ? AND sheet_id = ?", userID, sheetID) > 0
    }

    // MARK: Play history

    /// When `userID` last played `songID`, or nil.
    func lastPlayed(_ db: Connection, userID: Int64, songID: Int64) throws -> Int64? {
        try db.queryOne(
            "SELECT last_played_at FROM song_plays WHERE user_id = ? AND song_id = ?", userID, songID,
            decode: { try $0.int64("last_played_at") })
    }

    /// Counts one play in the person's history.
    func recordPlay(_ db: Connection, userID: Int64, songID: Int64, at time: Int64) throws {
        try db.execute(
            """
            INSERT INTO song_plays(user_id, song_id, plays_count, last_played_at) VALUES (?, ?, 1, ?)
            ON CONFLICT(user_id, song_id) DO UPDATE SET plays_count = plays_count + 1,
                last_played_at = max(last_played_at, excluded.last_played_at)
            """, userID, songID, time)
    }

    func history(_ db: Connection, userID: Int64, order: HistoryOrder, paging: Paging) throws
        -> (rows: [(songID: Int64, plays: Int, last: Int64)], total: Int)
    {
        let total =
            try db.queryOne("SELECT count(*) AS n FROM song_plays WHERE user_id = ?", userID) {
                try $0.int("n")
            }
            ?? 0
        let orderBy =
            order == .recent
            ? "last_played_at DESC, song_id" : "plays_count DESC, last_played_at DESC, song_id"
        let rows = try db.query(
            """
            SELECT song_id, plays_count, last_played_at FROM song_plays WHERE user_id = ?
            ORDER BY \(orderBy) LIMIT ? OFFSET ?
            """, userID, paging.size, paging.offset
        ) {
            (
                songID: try $0.int64("song_id"), plays: try $0.int("plays_count"),
                last: try $0.int64("last_played_at")
            )
        }
        return (rows, total)
    }

    func clearHistory(_ db: Connection, userID: Int64) throws {
        try db.execute("DELETE FROM song_plays WHERE user_id = ?", userID)
    }

    // MARK: Play queue

    func queue(_ db: Connection, userID: Int64) throws -> PlayQueue? {
        guard
            let head = try db.queryOne(
                """
                SELECT current_position, position_ms, loop_mode, version, updated_at FROM play_queues
                WHERE user_id = ?
                """, userID,
                decode: {
                    (
                        current: try $0.optionalInt("current_position"), position: try $0.int("position_ms"),
                        loopMode: try $0.string("loop_mode"), version: try $0.int("version"),
                        updatedAt: try $0.int64("updated_at")
                    )
                })
        else { return nil }
        let items = try db.query(
            "SELECT position, song_id FROM play_queue_items WHERE user_id = ? ORDER BY position", userID
        ) { (position: try $0.int("position"), songID: try $0.int64("song_id")) }
        // Songs that left the library left the queue too; the current one is found by its place.
        let index = head.current.flatMap { current in items.firstIndex { $0.position == current } }
        return PlayQueue(
            songIds: items.map { String($0.songID) }, currentIndex: index,
            position: index == nil ? 0 : head.position,
            loopMode: LoopMode(rawValue: head.loopMode) ?? .list, version: head.version,
            updatedAt: APIDate.string(head.updatedAt))
    }

    func queueVersion(_ db: Connection, userID: Int64) throws -> Int {
        try db.queryOne("SELECT version FROM play_queues WHERE user_id = ?", userID) { try $0.int("version") }
            ?? 0
    }

    /// Replaces the person's queue with `songIDs` (which must exist) at `version`.
    func saveQueue(
        _ db: Connection, userID: Int64, songIDs: [Int64], currentIndex: Int?, positionMs: Int,
        loopMode: LoopMode,
        version: Int, now: Int64
    ) throws {
        try db.execute(
            """
            INSERT INTO play_queues(user_id, current_position, position_ms, loop_mode, version, updated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(user_id) DO UPDATE SET current_position = excluded.current_position,
                position_ms = excluded.position_ms, loop_mode = excluded.loop_mode, version = excluded.version,
                updated_at = excluded.updated_at
            """, userID, currentIndex, positionMs, loopMode.rawValue, version, now)
        try db.execute("DELETE FROM play_queue_items WHERE user_id = ?", userID)
        for (position, songID) in songIDs.enumerated() {
            try db.execute(
                "INSERT INTO play_queue_items(user_id, position, song_id) VALUES (?, ?, ?)", userID, position,
                songID)
        }
    }
}
