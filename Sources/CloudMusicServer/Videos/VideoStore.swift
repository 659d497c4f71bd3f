import Foundation
import MusicCore
import Storage

/// The videos' SQL: folders, rows found by scans or uploaded, likes and clicks. Every function reads and
/// writes through the connection of its caller's transaction.
///
/// It reads the catalog's `artists` table to name a video's singer (by the catalog's name key).
struct VideoStore: Sendable {
    /// A video row as the service needs it.
    struct Record: Sendable {
        var id: Int64
        var folderID: Int64?
        var path: String
        var title: String
        var artistName: String?
        var artistID: Int64?
        var artistDisplayName: String?
        var songID: Int64?
        var durationMilliseconds: Int
        var width: Int
        var height: Int
        var format: String
        var videoCodec: String
        var audioCodec: String?
        var thumbnail: String?
        var clicksCount: Int
        var commentsCount: Int
        var likesCount: Int
        var liked: Bool?
        var createdAt: Int64
        var updatedAt: Int64
    }

    /// What a scan compares: a known file's size and modification time.
    struct KnownFile: Sendable {
        var id: Int64
        var size: Int64
        var mtimeNanoseconds: Int64
    }

    /// A video's fields from a probe, to insert or update.
    struct Fields: Sendable {
        var path: String
        var size: Int64
        var mtimeNanoseconds: Int64
        var title: String
        var artistName: String?
        var probe: VideoProbe
        var thumbnail: String?
    }

    private static let select = """
        SELECT v.id, v.folder_id, v.path, v.title, v.artist_name, v.artist_id, ar.name AS artist_display,
            v.song_id, v.duration_ms, v.width, v.height, v.format, v.video_codec, v.audio_codec, v.thumbnail,
            v.clicks_count, v.comments_count, v.likes_count, v.created_at, v.updated_at,
            CASE WHEN ? IS NULL THEN NULL
                ELSE EXISTS (SELECT 1 FROM video_likes l WHERE l.user_id = ? AND l.video_id = v.id) END AS liked
        FROM videos v LEFT JOIN artists ar ON ar.id = v.artist_id
        """

    private static func decode(_ row: Row) throws -> Record {
        Record(
            id: try row.int64("id"), folderID: try row.optionalInt64("folder_id"),
            path: try row.string("path"),
            title: try row.string("title"), artistName: try row.optionalString("artist_name"),
            artistID: try row.optionalInt64("artist_id"),
            artistDisplayName: try row.optionalString("artist_display"),
            songID: try row.optionalInt64("song_id"), durationMilliseconds: try row.int("duration_ms"),
            width: try row.int("width"), height: try row.int("height"), format: try row.string("format"),
            videoCodec: try row.string("video_codec"), audioCodec: try row.optionalString("audio_codec"),
            thumbnail: try row.optionalString("thumbnail"), clicksCount: try row.int("clicks_count"),
            commentsCount: try row.int("comments_count"), likesCount: try row.int("likes_count"),
            liked: try row.isNull("liked") ? nil : try row.bool("liked"),
            createdAt: try row.int64("created_at"), updatedAt: try row.int64("updated_at"))
    }

    // MARK: Reading

    func video(_ db: Connection, id: Int64, viewerID: Int64?) throws -> Record? {
        try db.queryOne("\(Self.select) WHERE v.id = ?", viewerID, viewerID, id, decode: Self.decode)
    }

    /// The videos of these ids, in no order (those that do not exist are left out).
    func videos(_ db: Connection, ids: [Int64], viewerID: Int64?) throws -> [Record] {
        guard !ids.isEmpty else { return [] }
        return try db.query(
            "\(Self.select) WHERE v.id IN (SELECT value FROM json_each(?))", viewerID, viewerID,
            ids.jsonArray,
            decode: Self.decode)
    }

    func videos(_ db: Connection, order: VideoOrder, paging: Paging, viewerID: Int64?) throws
        -> (records: [Record], total: Int)
    {
        let orderBy =
            switch order {
            case .new: "v.created_at DESC, v.id DESC"
            case .hot: "(v.likes_count * 5 + v.clicks_count) DESC, v.id DESC"
            }
        let total = try db.queryOne("SELECT count(*) AS n FROM videos") { try $0.int("n") } ?? 0
        let records = try db.query(
            "\(Self.select) ORDER BY \(orderBy) LIMIT ? OFFSET ?", viewerID, viewerID, paging.size,
            paging.offset,
            decode: Self.decode)
        return (records, total)
    }

    // MARK: Scans

    func folderID(_ db: Connection, path: String) throws -> Int64 {
        if let id = try db.queryOne(
            "SELECT id FROM video_folders WHERE path = ?", path, decode: { try $0.int64("id") })
        {
            return id
        }
        try db.execute("INSERT INTO video_folders(path) VALUES (?)", path)
        return db.lastInsertRowID
    }

    /// The scanned videos of these folders, by path.
    func knownFiles(_ db: Connection, folderIDs: [Int64]) throws -> [String: KnownFile] {
        var known: [String: KnownFile] = [:]
        for (path, file) in try db.query(
            """
            SELECT id, path, size, mtime_ns FROM videos
            WHERE folder_id IN (SELECT value FROM json_each(?))
            """, JSONColumn.text(folderIDs),
            decode: {
                (
                    try $0.string("path"),
                    KnownFile(
                        id: try $0.int64("id"), size: try $0.int64("size"),
                        mtimeNanoseconds: try $0.int64("mtime_ns"))
                )
            })
        {
            known[path] = file
        }
        return known
    }

    /// Adds a video (returns its id), or changes the one with `existingID` (its counts and likes stay).
    @discardableResult
    func save(
        _ db: Connection, _ fields: Fields, folderID: Int64?, uploadedBy: Int64?, existingID: Int64?,
        now: Int64
    ) throws -> Int64 {
        let probe = fields.probe
        if let existingID {
            try db.execute(
                """
                UPDATE videos SET size = ?, mtime_ns = ?, title = ?, artist_name = ?, duration_ms = ?, width = ?,
                    height = ?, format = ?, video_codec = ?, audio_codec = ?, thumbnail = ?, updated_at = ?
                WHERE id = ?
                """, fields.size, fields.mtimeNanoseconds, fields.title, fields.artistName,
                probe.durationMilliseconds, probe.width, probe.height, probe.container, probe.videoCodec,
                probe.audioCodec, fields.thumbnail, now, existingID)
            return existingID
        }
        try db.execute(
            """
            INSERT INTO videos(folder_id, path, size, mtime_ns, title, artist_name, duration_ms, width, height,
                format, video_codec, audio_codec, thumbnail, uploaded_by, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, folderID, fields.path, fields.size, fields.mtimeNanoseconds, fields.title, fields.artistName,
            probe.durationMilliseconds, probe.width, probe.height, probe.container, probe.videoCodec,
            probe.audioCodec, fields.thumbnail, uploadedBy, now, now)
        return db.lastInsertRowID
    }

    func delete(_ db: Connection, ids: [Int64]) throws {
        try db.execute(
            "DELETE FROM videos WHERE id IN (SELECT value FROM json_each(?))", JSONColumn.text(ids))
    }

    /// The video with this file, if any (an upload of the same content).
    func videoID(_ db: Connection, path: String) throws -> Int64? {
        try db.queryOne("SELECT id FROM videos WHERE path = ?", path) { try $0.int64("id") }
    }

    /// Whether another video still uses the file.
    func pathInUse(_ db: Connection, _ path: String) throws -> Bool {
        try db.queryOne("SELECT 1 AS used FROM videos WHERE path = ?", path) { _ in true } ?? false
    }

    // MARK: Songs and singers

    /// Videos whose song or singer is not known yet, to match again after the library changed.
    func unmatched(_ db: Connection, limit: Int) throws -> [(
        id: Int64, title: String, artist: String?, songID: Int64?
    )] {
        try db.query(
            """
            SELECT id, title, artist_name, song_id FROM videos
            WHERE song_id IS NULL OR (artist_id IS NULL AND artist_name IS NOT NULL) ORDER BY id LIMIT ?
            """, limit
        ) {
            (
                try $0.int64("id"), try $0.string("title"), try $0.optionalString("artist_name"),
                try $0.optionalInt64("song_id")
            )
        }
    }

    func setMatch(_ db: Connection, videoID: Int64, songID: Int64?, artistID: Int64?) throws {
        try db.execute(
            """
            UPDATE videos SET song_id = ?, artist_id = ? WHERE id = ?
                AND (song_id IS NOT ? OR artist_id IS NOT ?)
            """, songID, artistID, videoID, songID, artistID)
    }

    /// The catalog's artist with this name (letter case and spacing as the library folds them).
    func artistID(_ db: Connection, named name: String) throws -> Int64? {
        try db.queryOne("SELECT id FROM artists WHERE name_key = ?", CatalogName.key(name)) {
            try $0.int64("id")
        }
    }

    /// The first artist of a song.
    func firstArtistID(_ db: Connection, songID: Int64) throws -> Int64? {
        try db.queryOne(
            "SELECT artist_id FROM song_artists WHERE song_id = ? ORDER BY position LIMIT 1", songID
        ) { try $0.int64("artist_id") }
    }

    // MARK: Likes and clicks

    /// Likes a video; false when it already was.
    func like(_ db: Connection, userID: Int64, videoID: Int64, now: Int64) throws -> Bool {
        try db.execute(
            "INSERT INTO video_likes(user_id, video_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            userID, videoID, now) > 0
    }

    func unlike(_ db: Connection, userID: Int64, videoID: Int64) throws {
        try db.execute("DELETE FROM video_likes WHERE user_id = ? AND video_id = ?", userID, videoID)
    }

    func addClicks(_ db: Connection, _ counts: [Int64: Int]) throws {
        for (id, count) in counts {
            try db.execute("UPDATE videos SET clicks_count = clicks_count + ? WHERE id = ?", count, id)
        }
    }
}
