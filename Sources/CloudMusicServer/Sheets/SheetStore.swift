import Foundation
import MusicCore
import Storage

/// The SQL of each person's music: sheets, their songs, collections, play history and queues.
///
/// Positions in a sheet are dense (0..<songsCount) so a page is an index range; counts are kept by the
/// schema's triggers.
struct SheetStore: Sendable {
    let database: Database

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
                coverVersion.map { "v1/sheets/\(id)/cover?v=\($0)" }
                ?? firstAlbumID.map { "v1/albums/\($0)/cover" }
            return Sheet(
                id: String(id), title: title, icon: icon, detail: detail, tags: tags, isPrivate: isPrivate,
                kind: isLikes ? "likes" : "sheet", clicksCount: clicksCount, collectsCount: collectsCount,
                commentsCount: commentsCount, songsCount: songsCount,
                user: UserSummary(
                    id: String(userID), nickname: ownerNickname,
                    icon: ownerAvatarVersion.map { "v1/users/\(userID)/avatar?v=\($0)" }),
                collected: signedIn ? collected : nil, songs: songs, createdAt: APIDate.string(createdAt),
                updatedAt: APIDate.string(updatedAt))
        }
    }

    /// The columns of `SheetRecord`; `?` is the viewer's id (0 when nobody is signed in).
    static let sheetSelect = """
        SELECT sh.id, sh.user_id, sh.title, sh.detail, sh.tags, sh.is_private, sh.kind, sh.cover_version,
            sh.songs_count, sh.clicks_count, sh.collects_count, sh.comments_count, sh.created_at, sh.updated_at,
            u.nickname, u.avatar_version,
            (SELECT s.album_id FROM sheet_songs ss JOIN songs s ON s.id = ss.song_id
                WHERE ss.sheet_id = sh.id ORDER BY ss.position LIMIT 1),
            EXISTS (SELECT 1 FROM collections c WHERE c.user_id = ? AND c.sheet_id = sh.id)
        FROM sheets sh JOIN users u ON u.id = sh.user_id
        """

    static func decodeSheet(_ row: Row) throws -> SheetRecord {
        let tagsJSON = try row.string(4)
        let tags = (try? JSONColumn.decode([String].self, tagsJSON)) ?? []
        return SheetRecord(
            id: try row.int64(0), userID: try row.int64(1), title: try row.string(2),
            detail: try row.optionalString(3), tags: tags, isPrivate: try row.bool(5),
            isLikes: try row.int(6) == 1,
            coverVersion: try row.optionalInt64(7), songsCount: try row.int(8), clicksCount: try row.int(9),
            collectsCount: try row.int(10), commentsCount: try row.int(11), createdAt: try row.int64(12),
            updatedAt: try row.int64(13), ownerNickname: try row.string(14),
            ownerAvatarVersion: try row.optionalInt64(15), firstAlbumID: try row.optionalInt64(16),
            collected: try row.bool(17))
    }

    func sheet(id: Int64, viewerID: Int64?) throws -> SheetRecord? {
        try database.read { db in try Self.sheet(db: db, id: id, viewerID: viewerID) }
    }

    static func sheet(db: Connection, id: Int64, viewerID: Int64?) throws -> SheetRecord? {
        try db.queryOne("\(sheetSelect) WHERE sh.id = ?", viewerID ?? 0, id, decode: decodeSheet)
    }

    /// A sheet's owner and privacy, the least needed to decide who may see or change it.
    func access(sheetID: Int64) throws -> (ownerID: Int64, isPrivate: Bool, isLikes: Bool)? {
        try database.read { db in
            try db.queryOne("SELECT user_id, is_private, kind FROM sheets WHERE id = ?", sheetID) {
                (try $0.int64(0), try $0.bool(1), try $0.int(2) == 1)
            }
        }
    }

    func likesSheetID(userID: Int64) throws -> Int64? {
        try database.read { db in
            try db.queryOne("SELECT id FROM sheets WHERE user_id = ? AND kind = 1", userID) {
                try $0.int64(0)
            }
        }
    }

    func sheetIDsWithCovers(userID: Int64) throws -> [Int64] {
        try database.read { db in
            try db.query("SELECT id FROM sheets WHERE user_id = ? AND cover_version IS NOT NULL", userID) {
                try $0.int64(0)
            }
        }
    }

    func sheetsCount(userID: Int64) throws -> Int {
        try database.read { db in
            try db.queryOne("SELECT count(*) FROM sheets WHERE user_id = ?", userID) { try $0.int(0) } ?? 0
        }
    }

    /// A new sheet, with `songIDs` in it (an import), in one transaction: a crash leaves all or nothing.
    func insertSheet(
        userID: Int64, title: String, detail: String?, tags: [String], isPrivate: Bool, songIDs: [Int64] = [],
        maxSongs: Int = .max, now: Int64
    ) throws -> Int64 {
        try database.write { db in
            try db.execute(
                """
                INSERT INTO sheets(user_id, title, detail, tags, is_private, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, userID, title, detail, JSONColumn.text(tags), isPrivate, now, now)
            let id = db.lastInsertRowID
            try Self.reindex(db: db, sheetID: id)
            if !songIDs.isEmpty {
                _ = try Self.addSongs(
                    db: db, sheetID: id, songIDs: songIDs, atTop: false, maxSongs: maxSongs, now: now)
            }
            return id
        }
    }

    struct SheetChanges {
        var title: String?
        var detail: String??
        var tags: [String]?
        var isPrivate: Bool?
    }

    func updateSheet(id: Int64, changes: SheetChanges, now: Int64) throws {
        try database.write { db in
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
                        "DELETE FROM collections WHERE sheet_id = ? AND user_id <> (SELECT user_id FROM sheets WHERE id = ?)",
                        id, id)
                }
            }
            try db.execute("UPDATE sheets SET updated_at = ? WHERE id = ?", now, id)
            try Self.reindex(db: db, sheetID: id)
        }
    }

    func setCoverVersion(sheetID: Int64, version: Int64?, now: Int64) throws {
        _ = try database.write { db in
            try db.execute(
                "UPDATE sheets SET cover_version = ?, updated_at = ? WHERE id = ?", version, now, sheetID)
        }
    }

    func deleteSheet(id: Int64) throws {
        _ = try database.write { db in try db.execute("DELETE FROM sheets WHERE id = ?", id) }
    }

    func addClicks(_ counts: [Int64: Int]) throws {
        try database.write { db in
            for (sheetID, count) in counts {
                try db.execute(
                    "UPDATE sheets SET clicks_count = clicks_count + ? WHERE id = ?", count, sheetID)
            }
        }
    }

    // MARK: Lists of sheets

    enum SheetListOrder: String, CaseIterable {
        case new, hot
    }

    func publicSheets(order: SheetListOrder, page: Int, size: Int, viewerID: Int64?) throws -> Page<Sheet> {
        try database.read { db in
            let total =
                try db.queryOne("SELECT count(*) FROM sheets WHERE is_private = 0 AND kind = 0") {
                    try $0.int(0)
                }
                ?? 0
            let orderBy = order == .new ? "sh.id DESC" : "sh.collects_count DESC, sh.id DESC"
            let rows = try db.query(
                "\(Self.sheetSelect) WHERE sh.is_private = 0 AND sh.kind = 0 ORDER BY \(orderBy) LIMIT ? OFFSET ?",
                viewerID ?? 0, size, (page - 1) * size, decode: Self.decodeSheet)
            return Page(
                items: rows.map { $0.model(signedIn: viewerID != nil) }, total: total, page: page, size: size)
        }
    }

    // MARK: Search

    /// Puts a sheet's title and tags in the search index when it is public and not an "I like" sheet, and
    /// takes it out otherwise.
    static func reindex(db: Connection, sheetID: Int64) throws {
        try db.execute("DELETE FROM search_sheets WHERE rowid = ?", sheetID)
        guard
            let (title, tags) = try db.queryOne(
                "SELECT title, tags FROM sheets WHERE id = ? AND kind = 0 AND is_private = 0", sheetID,
                decode: { (try $0.string(0), try $0.string(1)) })
        else { return }
        let tagText = ((try? JSONColumn.decode([String].self, tags)) ?? []).joined(separator: " ")
        try db.execute(
            "INSERT INTO search_sheets(rowid, title, tags) VALUES (?, ?, ?)", sheetID, SearchText.indexText(title),
            SearchText.indexText(tagText))
    }

    /// Public sheets matching what a person typed, best first (bm25, a title match weighing more than a
    /// tag). Like song search, only the first `CatalogStore.rankedCandidates` matches are ranked and counted.
    func search(_ typed: String, page: Int, size: Int, viewerID: Int64?) throws -> Page<Sheet> {
        guard let query = SearchText.matchQuery(typed) else {
            return Page(items: [], total: 0, page: page, size: size)
        }
        return try database.read { db in
            let candidates = """
                SELECT rowid, bm25(search_sheets, 4.0, 1.0) AS score FROM search_sheets
                WHERE search_sheets MATCH ? LIMIT \(CatalogStore.rankedCandidates)
                """
            let total = try db.queryOne("SELECT count(*) FROM (\(candidates))", query) { try $0.int(0) } ?? 0
            let ids = try db.query(
                "SELECT rowid FROM (\(candidates)) ORDER BY score, rowid LIMIT ? OFFSET ?", query, size,
                (page - 1) * size
            ) { try $0.int64(0) }
            let rows = try db.query(
                "\(Self.sheetSelect) WHERE sh.id IN (SELECT value FROM json_each(?))", viewerID ?? 0,
                JSONColumn.text(ids), decode: Self.decodeSheet)
            let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
            return Page(
                items: ids.compactMap { byID[$0]?.model(signedIn: viewerID != nil) }, total: total, page: page,
                size: size)
        }
    }

    /// Sheets `userID` made; private ones only when `includePrivate`.
    func createdSheets(userID: Int64, includePrivate: Bool, page: Int, size: Int, viewerID: Int64?) throws
        -> Page<Sheet>
    {
        try database.read { db in
            let filter = "sh.user_id = ?" + (includePrivate ? "" : " AND sh.is_private = 0")
            let total =
                try db.queryOne("SELECT count(*) FROM sheets sh WHERE \(filter)", userID) { try $0.int(0) }
                ?? 0
            let rows = try db.query(
                "\(Self.sheetSelect) WHERE \(filter) ORDER BY sh.kind DESC, sh.id DESC LIMIT ? OFFSET ?",
                viewerID ?? 0, userID, size, (page - 1) * size, decode: Self.decodeSheet)
            return Page(
                items: rows.map { $0.model(signedIn: viewerID != nil) }, total: total, page: page, size: size)
        }
    }

    /// Sheets `userID` collected, newest first; another person's private sheet never shows.
    func collectedSheets(userID: Int64, page: Int, size: Int, viewerID: Int64?) throws -> Page<Sheet> {
        try database.read { db in
            let total =
                try db.queryOne(
                    """
                    SELECT count(*) FROM collections c JOIN sheets sh ON sh.id = c.sheet_id
                    WHERE c.user_id = ? AND sh.is_private = 0
                    """, userID
                ) { try $0.int(0) } ?? 0
            let rows = try db.query(
                """
                \(Self.sheetSelect) JOIN collections mine ON mine.sheet_id = sh.id
                WHERE mine.user_id = ? AND sh.is_private = 0
                ORDER BY mine.created_at DESC, sh.id DESC LIMIT ? OFFSET ?
                """, viewerID ?? 0, userID, size, (page - 1) * size, decode: Self.decodeSheet)
            return Page(
                items: rows.map { $0.model(signedIn: viewerID != nil) }, total: total, page: page, size: size)
        }
    }

    // MARK: A sheet's songs

    /// Song ids of `sheetID` in order, from `offset`.
    func songIDs(sheetID: Int64, offset: Int, limit: Int) throws -> [Int64] {
        try database.read { db in
            try db.query(
                """
                SELECT song_id FROM sheet_songs WHERE sheet_id = ? ORDER BY position LIMIT ? OFFSET ?
                """, sheetID, limit, offset
            ) { try $0.int64(0) }
        }
    }

    enum AddOutcome {
        case added(Int)
        case unknownSongs([Int64])
        case tooMany(limit: Int)
    }

    /// Appends the songs not already in the sheet (or puts them first, for "I like"), in one transaction.
    func addSongs(sheetID: Int64, songIDs: [Int64], atTop: Bool, maxSongs: Int, now: Int64) throws
        -> AddOutcome
    {
        try database.write { db in
            try Self.addSongs(
                db: db, sheetID: sheetID, songIDs: songIDs, atTop: atTop, maxSongs: maxSongs, now: now)
        }
    }

    static func addSongs(
        db: Connection, sheetID: Int64, songIDs: [Int64], atTop: Bool, maxSongs: Int, now: Int64
    ) throws -> AddOutcome {
        let list = JSONColumn.text(songIDs)
        let unknown = try db.query(
            """
            SELECT j.value FROM json_each(?) j LEFT JOIN songs s ON s.id = j.value WHERE s.id IS NULL
            """, list
        ) { try $0.int64(0) }
        if !unknown.isEmpty { return .unknownSongs(unknown) }
        var seen = Set<Int64>()
        let present = Set(
            try db.query(
                "SELECT song_id FROM sheet_songs WHERE sheet_id = ? AND song_id IN (SELECT value FROM json_each(?))",
                sheetID, list
            ) { try $0.int64(0) })
        let new = songIDs.filter { !present.contains($0) && seen.insert($0).inserted }
        if new.isEmpty { return .added(0) }
        let count =
            try db.queryOne("SELECT songs_count FROM sheets WHERE id = ?", sheetID) { try $0.int(0) } ?? 0
        if count + new.count > maxSongs { return .tooMany(limit: maxSongs) }
        if atTop {
            // Shift in two steps so the unique (sheet, position) index never sees a collision.
            try db.execute(
                "UPDATE sheet_songs SET position = -position - 1 - ? WHERE sheet_id = ?", new.count,
                sheetID)
            try db.execute("UPDATE sheet_songs SET position = -position - 1 WHERE sheet_id = ?", sheetID)
        }
        // After the top, not at `count`: a song that left the library leaves a gap until compacted.
        let end =
            try db.queryOne(
                "SELECT coalesce(max(position), -1) + 1 FROM sheet_songs WHERE sheet_id = ?", sheetID
            ) { try $0.int(0) } ?? 0
        let start = atTop ? 0 : end
        for (offset, songID) in new.enumerated() {
            try db.execute(
                "INSERT INTO sheet_songs(sheet_id, song_id, position, added_at) VALUES (?, ?, ?, ?)",
                sheetID,
                songID, start + offset, now)
        }
        try db.execute("UPDATE sheets SET updated_at = ? WHERE id = ?", now, sheetID)
        return .added(new.count)
    }

    /// Removes songs and closes the gaps they leave. Returns how many were in the sheet.
    func removeSongs(sheetID: Int64, songIDs: [Int64], now: Int64) throws -> Int {
        try database.write { db in
            let removed = try db.query(
                """
                DELETE FROM sheet_songs WHERE sheet_id = ? AND song_id IN (SELECT value FROM json_each(?))
                RETURNING position
                """, sheetID, JSONColumn.text(songIDs)
            ) { try $0.int(0) }
            guard !removed.isEmpty else { return 0 }
            try Self.compact(db: db, sheetID: sheetID)
            try db.execute("UPDATE sheets SET updated_at = ? WHERE id = ?", now, sheetID)
            return removed.count
        }
    }

    /// Renumbers positions 0..<n keeping their order (after removals, or a song that left the library).
    static func compact(db: Connection, sheetID: Int64) throws {
        let (count, end) =
            try db.queryOne(
                "SELECT count(*), coalesce(max(position), -1) + 1 FROM sheet_songs WHERE sheet_id = ?",
                sheetID
            ) { (try $0.int(0), try $0.int(1)) } ?? (0, 0)
        guard count != end else { return }
        // Through negative positions, numbered from a materialised ranking, so the unique index never
        // sees two songs at one place.
        try db.execute(
            """
            UPDATE sheet_songs SET position = -1 - ranked.rank
            FROM (SELECT song_id, row_number() OVER (ORDER BY position) - 1 AS rank
                  FROM sheet_songs WHERE sheet_id = ?) AS ranked
            WHERE sheet_songs.sheet_id = ? AND sheet_songs.song_id = ranked.song_id
            """, sheetID, sheetID)
        try db.execute("UPDATE sheet_songs SET position = -position - 1 WHERE sheet_id = ?", sheetID)
    }

    enum MoveOutcome { case moved, notInSheet }

    /// Moves one song to `position` (clamped to the sheet), shifting the songs between.
    func moveSong(sheetID: Int64, songID: Int64, to position: Int, now: Int64) throws -> MoveOutcome {
        try database.write { db in
            // Gaps may exist after a song left the library; close them first so positions are indexes.
            try Self.compact(db: db, sheetID: sheetID)
            guard
                let from = try db.queryOne(
                    "SELECT position FROM sheet_songs WHERE sheet_id = ? AND song_id = ?", sheetID, songID,
                    decode: { try $0.int(0) })
            else { return .notInSheet }
            let count =
                try db.queryOne("SELECT count(*) FROM sheet_songs WHERE sheet_id = ?", sheetID) {
                    try $0.int(0)
                } ?? 0
            let to = min(max(position, 0), count - 1)
            if to == from { return .moved }
            try db.execute(
                "UPDATE sheet_songs SET position = -1 WHERE sheet_id = ? AND song_id = ?", sheetID, songID)
            // Shift through negative positions so the unique index never sees two songs at one place.
            if to < from {
                try db.execute(
                    "UPDATE sheet_songs SET position = -position - 2 WHERE sheet_id = ? AND position >= ? AND position < ?",
                    sheetID, to, from)
                try db.execute(
                    "UPDATE sheet_songs SET position = -position - 1 WHERE sheet_id = ? AND position < -1",
                    sheetID)
            } else {
                try db.execute(
                    "UPDATE sheet_songs SET position = -position - 2 WHERE sheet_id = ? AND position > ? AND position <= ?",
                    sheetID, from, to)
                try db.execute(
                    "UPDATE sheet_songs SET position = -position - 3 WHERE sheet_id = ? AND position < -1",
                    sheetID)
            }
            try db.execute(
                "UPDATE sheet_songs SET position = ? WHERE sheet_id = ? AND song_id = ?", to, sheetID, songID)
            try db.execute("UPDATE sheets SET updated_at = ? WHERE id = ?", now, sheetID)
            return .moved
        }
    }

    // MARK: Collections

    /// True when it was not collected before.
    func collect(userID: Int64, sheetID: Int64, now: Int64) throws -> Bool {
        try database.write { db in
            try db.execute(
                "INSERT OR IGNORE INTO collections(user_id, sheet_id, created_at) VALUES (?, ?, ?)", userID,
                sheetID,
                now) > 0
        }
    }

    func uncollect(userID: Int64, sheetID: Int64) throws -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM collections WHERE user_id = ? AND sheet_id = ?", userID, sheetID) > 0
        }
    }

    // MARK: Play history

    /// Counts one play, for the person and for the catalog; false when the same song was already
    /// counted for this person less than `minimumGap` seconds ago.
    func recordPlay(userID: Int64, songID: Int64, at time: Int64, minimumGap: Int64) throws -> Bool? {
        try database.write { db in
            guard
                let albumID = try db.queryOne(
                    "SELECT album_id FROM songs WHERE id = ?", songID,
                    decode: {
                        try $0.optionalInt64(0)
                    })
            else { return nil }
            if let last = try db.queryOne(
                "SELECT last_played_at FROM song_plays WHERE user_id = ? AND song_id = ?", userID, songID,
                decode: { try $0.int64(0) }), time - last < minimumGap, time >= last
            {
                return false
            }
            try db.execute(
                """
                INSERT INTO song_plays(user_id, song_id, plays_count, last_played_at) VALUES (?, ?, 1, ?)
                ON CONFLICT(user_id, song_id) DO UPDATE SET plays_count = plays_count + 1,
                    last_played_at = max(last_played_at, excluded.last_played_at)
                """, userID, songID, time)
            try db.execute(
                """
                UPDATE songs SET plays_count = plays_count + 1,
                    last_played_at = max(coalesce(last_played_at, 0), ?) WHERE id = ?
                """, time, songID)
            if let albumID {
                try db.execute(
                    """
                    UPDATE albums SET plays_count = plays_count + 1,
                        last_played_at = max(coalesce(last_played_at, 0), ?) WHERE id = ?
                    """, time, albumID)
            }
            return true
        }
    }

    enum HistoryOrder: String, CaseIterable {
        case recent, most
    }

    func history(userID: Int64, order: HistoryOrder, page: Int, size: Int) throws
        -> (rows: [(songID: Int64, plays: Int, last: Int64)], total: Int)
    {
        try database.read { db in
            let total =
                try db.queryOne("SELECT count(*) FROM song_plays WHERE user_id = ?", userID) { try $0.int(0) }
                ?? 0
            let orderBy =
                order == .recent
                ? "last_played_at DESC, song_id" : "plays_count DESC, last_played_at DESC, song_id"
            let rows = try db.query(
                """
                SELECT song_id, plays_count, last_played_at FROM song_plays WHERE user_id = ?
                ORDER BY \(orderBy) LIMIT ? OFFSET ?
                """, userID, size, (page - 1) * size
            ) { (songID: try $0.int64(0), plays: try $0.int(1), last: try $0.int64(2)) }
            return (rows, total)
        }
    }

    func clearHistory(userID: Int64) throws {
        _ = try database.write { db in try db.execute("DELETE FROM song_plays WHERE user_id = ?", userID) }
    }

    // MARK: Play queue

    func queue(userID: Int64) throws -> PlayQueue? {
        try database.read { db in
            guard
                let head = try db.queryOne(
                    "SELECT current_position, position_ms, loop_mode, version, updated_at FROM play_queues WHERE user_id = ?",
                    userID,
                    decode: {
                        (
                            try $0.optionalInt(0), try $0.int(1), try $0.string(2), try $0.int(3),
                            try $0.int64(4)
                        )
                    })
            else { return nil }
            let items = try db.query(
                "SELECT position, song_id FROM play_queue_items WHERE user_id = ? ORDER BY position", userID
            ) { (try $0.int(0), try $0.int64(1)) }
            // Songs that left the library left the queue too; the current one is found by its place.
            let index = head.0.flatMap { current in items.firstIndex { $0.0 == current } }
            return PlayQueue(
                songIds: items.map { String($0.1) }, currentIndex: index, position: index == nil ? 0 : head.1,
                loopMode: LoopMode(rawValue: head.2) ?? .list, version: head.3,
                updatedAt: APIDate.string(head.4))
        }
    }

    enum SaveQueueOutcome {
        case saved(version: Int)
        case stale(current: Int)
        case unknownSongs([Int64])
    }

    func saveQueue(
        userID: Int64, songIDs: [Int64], currentIndex: Int?, positionMs: Int, loopMode: LoopMode,
        baseVersion: Int?,
        now: Int64
    ) throws -> SaveQueueOutcome {
        try database.write { db in
            let current =
                try db.queryOne("SELECT version FROM play_queues WHERE user_id = ?", userID) {
                    try $0.int(0)
                } ?? 0
            if let baseVersion, baseVersion != current { return .stale(current: current) }
            let unknown = try db.query(
                """
                SELECT DISTINCT j.value FROM json_each(?) j LEFT JOIN songs s ON s.id = j.value WHERE s.id IS NULL
                """, JSONColumn.text(songIDs)
            ) { try $0.int64(0) }
            if !unknown.isEmpty { return .unknownSongs(unknown) }
            let version = current + 1
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
                    "INSERT INTO play_queue_items(user_id, position, song_id) VALUES (?, ?, ?)", userID,
                    position,
                    songID)
            }
            return .saved(version: version)
        }
    }

}
