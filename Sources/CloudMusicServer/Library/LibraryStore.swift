import AudioMetadata
import Foundation
import MusicCore
import Storage

/// The library's writes: songs and the artists, albums and genres they hang from, the search index, music
/// folders and scan reports. Every function runs on its caller's connection.
///
/// One value lives for one scan: artist, album and genre ids are cached so a batch costs no lookups.
/// SQLite-only: the FTS5 tables `search_songs`, `search_albums`, `search_artists` and their `optimize`.
final class LibraryStore {
    typealias SearchIndex = CatalogSearchIndex

    struct ExistingSong {
        var id: Int64
        var size: Int64
        var mtimeNanoseconds: Int64
        var lyricPath: String?
        var fingerprint: String
        /// The `tagsVersion` of the scanner that read it.
        var tagsVersion: Int
    }

    /// What the scanner reads from tags changed (1: ReplayGain, tempo, bit depth, sort names, comments):
    /// songs read by an older one are read again, unchanged or not.
    static let tagsVersion = 1

    private var artistIDs: [String: Int64] = [:]
    private var albumIDs: [String: Int64] = [:]
    private var genreIDs: [String: Int64] = [:]
    private let now = Int64(Date().timeIntervalSince1970)

    init(_ db: Connection) throws {
        for (key, id) in try db.query(
            "SELECT name_key, id FROM artists", decode: { (try $0.string("name_key"), try $0.int64("id")) })
        {
            artistIDs[key] = id
        }
        for (key, id) in try db.query(
            "SELECT album_key, id FROM albums", decode: { (try $0.string("album_key"), try $0.int64("id")) })
        {
            albumIDs[key] = id
        }
        for (key, id) in try db.query(
            "SELECT name_key, id FROM genres", decode: { (try $0.string("name_key"), try $0.int64("id")) })
        {
            genreIDs[key] = id
        }
    }

    static func key(_ name: String) -> String { CatalogName.key(name) }

    static func folderID(_ db: Connection, path: String) throws -> Int64 {
        try db.execute("INSERT INTO music_folders(path) VALUES (?) ON CONFLICT(path) DO NOTHING", path)
        return try db.queryOne("SELECT id FROM music_folders WHERE path = ?", path) { try $0.int64("id") }!
    }

    static func existingSongs(_ db: Connection, folderIDs: [Int64]) throws -> [String: ExistingSong] {
        var result: [String: ExistingSong] = [:]
        for folder in folderIDs {
            let rows = try db.query(
                "SELECT path, id, size, mtime_ns, lyric_path, fingerprint, tags_version FROM songs WHERE folder_id = ?",
                folder
            ) {
                (
                    try $0.string("path"),
                    ExistingSong(
                        id: try $0.int64("id"), size: try $0.int64("size"),
                        mtimeNanoseconds: try $0.int64("mtime_ns"),
                        lyricPath: try $0.optionalString("lyric_path"),
                        fingerprint: try $0.string("fingerprint"), tagsVersion: try $0.int("tags_version"))
                )
            }
            result.reserveCapacity(result.count + rows.count)
            for (path, song) in rows { result[path] = song }
        }
        return result
    }

    func artistID(_ db: Connection, name: String) throws -> Int64 {
        let key = Self.key(name)
        if let id = artistIDs[key] { return id }
        try db.execute(
            "INSERT INTO artists(name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?)", name, key, now,
            now)
        let id = db.lastInsertRowID
        try db.execute(
            "INSERT INTO search_artists(rowid, title, extra, display) VALUES (?, ?, '', ?)",
            id, SearchText.indexText(name), name)
        artistIDs[key] = id
        return id
    }

    func albumID(_ db: Connection, song: ScannedSong, artistID: Int64?, artistName: String) throws -> Int64 {
        let owner =
            song.isCompilation && song.albumArtist == nil
            ? "compilation:" + ScannedSong.parent(song.file.path) : Self.key(artistName)
        let key = Self.key(song.album) + "\u{1}" + owner
        if let id = albumIDs[key] {
            if let cover = song.file.folderCover {
                try db.execute(
                    "UPDATE albums SET folder_cover = ? WHERE id = ? AND folder_cover IS NOT ?", cover, id,
                    cover)
            }
            return id
        }
        try db.execute(
            """
            INSERT INTO albums(title, album_key, artist_id, year, is_compilation, folder_cover, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, song.album, key, artistID, song.year, song.isCompilation, song.file.folderCover, now, now)
        let id = db.lastInsertRowID
        try db.execute(
            "INSERT INTO search_albums(rowid, title, extra, display) VALUES (?, ?, ?, ?)",
            id, SearchText.indexText(song.album), SearchText.indexText(artistName),
            song.album)
        albumIDs[key] = id
        return id
    }

    func genreID(_ db: Connection, name: String) throws -> Int64 {
        let key = Self.key(name)
        if let id = genreIDs[key] { return id }
        try db.execute("INSERT INTO genres(name, name_key) VALUES (?, ?)", name, key)
        let id = db.lastInsertRowID
        genreIDs[key] = id
        return id
    }

    /// Inserts a new song, or rewrites an existing one (changed on disk, or moved) keeping its id.
    @discardableResult
    func save(_ db: Connection, song: ScannedSong, existingID: Int64?) throws -> Int64 {
        let artistIDs = try song.artists.map { try artistID(db, name: $0) }
        let albumArtistName = song.albumArtist ?? song.artists.first ?? ScannedSong.unknownArtist
        let albumArtistID = try artistID(db, name: albumArtistName)
        let albumID = try albumID(db, song: song, artistID: albumArtistID, artistName: albumArtistName)
        let lyricStyle = song.file.lyricPath.map { $0.lowercased().hasSuffix(".ksc") ? 10 : 0 } ?? 0
        let values: [any SQLBindable] = [
            song.file.folderID, song.file.path, song.file.size, song.file.mtimeNanoseconds, song.fingerprint,
            song.title, albumID, song.trackNumber, song.trackTotal, song.discNumber, song.discTotal,
            song.year,
            song.durationMilliseconds, song.bitRate, song.sampleRate, song.channels, song.format,
            song.isCompilation, song.file.lyricPath, lyricStyle, song.embeddedLyric, song.musicBrainzTrackID,
            song.musicBrainzAlbumID, song.musicBrainzArtistID, song.details.replayGain.trackGain,
            song.details.replayGain.trackPeak, song.details.replayGain.albumGain,
            song.details.replayGain.albumPeak,
            song.details.bpm, song.details.bitDepth, song.details.titleSort, song.details.comment,
            Self.tagsVersion,
            now,
        ]
        let id: Int64
        if let existingID {
            try db.execute(
                """
                UPDATE songs SET folder_id = ?, path = ?, size = ?, mtime_ns = ?, fingerprint = ?, title = ?,
                    album_id = ?, track_number = ?, track_total = ?, disc_number = ?, disc_total = ?, year = ?,
                    duration_ms = ?, bit_rate = ?, sample_rate = ?, channels = ?, format = ?, is_compilation = ?,
                    lyric_path = ?, lyric_style = ?, embedded_lyric = ?, musicbrainz_track_id = ?,
                    musicbrainz_album_id = ?, musicbrainz_artist_id = ?, replaygain_track_gain = ?,
                    replaygain_track_peak = ?, replaygain_album_gain = ?, replaygain_album_peak = ?, bpm = ?,
                    bit_depth = ?, sort_title = ?, comment = ?, tags_version = ?, updated_at = ?
                WHERE id = ?
                """, arguments: values + [existingID])
            try db.execute("DELETE FROM song_artists WHERE song_id = ?", existingID)
            try db.execute("DELETE FROM song_genres WHERE song_id = ?", existingID)
            try db.execute("DELETE FROM search_songs WHERE rowid = ?", existingID)
            id = existingID
        } else {
            try db.execute(
                """
                INSERT INTO songs(folder_id, path, size, mtime_ns, fingerprint, title, album_id, track_number,
                    track_total, disc_number, disc_total, year, duration_ms, bit_rate, sample_rate, channels,
                    format, is_compilation, lyric_path, lyric_style, embedded_lyric, musicbrainz_track_id,
                    musicbrainz_album_id, musicbrainz_artist_id, replaygain_track_gain, replaygain_track_peak,
                    replaygain_album_gain, replaygain_album_peak, bpm, bit_depth, sort_title, comment, tags_version,
                    updated_at, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    ?, ?, ?)
                """, arguments: values + [now])
            id = db.lastInsertRowID
        }
        // Sort names, from the tags that carry them (the first artist's, the album artist's, the album's).
        for (sort, table, rowID) in [
            (song.details.artistSort, "artists", artistIDs.first),
            (song.details.albumArtistSort, "artists", albumArtistID),
            (song.details.albumSort, "albums", albumID),
        ] {
            guard let sort, let rowID else { continue }
            try db.execute(
                "UPDATE \(table) SET sort_name = ? WHERE id = ? AND sort_name IS NOT ?", sort, rowID, sort)
        }
        for (position, artistID) in artistIDs.enumerated() {
            try db.execute(
                "INSERT OR IGNORE INTO song_artists(song_id, artist_id, position) VALUES (?, ?, ?)", id,
                artistID,
                position)
        }
        for genre in song.genres {
            try db.execute(
                "INSERT OR IGNORE INTO song_genres(song_id, genre_id) VALUES (?, ?)", id,
                try genreID(db, name: genre))
        }
        try db.execute(
            "INSERT INTO search_songs(rowid, title, extra, display) VALUES (?, ?, ?, ?)",
            id, SearchText.indexText(song.title),
            SearchText.indexText((song.artists + [song.album]).joined(separator: " ")), song.title)
        return id
    }

    static func updateLyricPath(_ db: Connection, songID: Int64, lyricPath: String?) throws {
        let style = lyricPath.map { $0.lowercased().hasSuffix(".ksc") ? 10 : 0 } ?? 0
        try db.execute(
            "UPDATE songs SET lyric_path = ?, lyric_style = ?, updated_at = ? WHERE id = ?", lyricPath, style,
            Int64(Date().timeIntervalSince1970), songID)
    }

    static func deleteSongs(_ db: Connection, ids: [Int64]) throws {
        for id in ids {
            try db.execute("DELETE FROM search_songs WHERE rowid = ?", id)
            try db.execute("DELETE FROM songs WHERE id = ?", id)
        }
    }

    /// Recounts every artist, album and genre and removes the ones no song uses any more.
    static func refreshCountsAndOrphans(_ db: Connection) throws {
        try db.executeScript(
            """
            UPDATE albums SET
                songs_count = (SELECT count(*) FROM songs WHERE album_id = albums.id),
                duration_ms = (SELECT coalesce(sum(duration_ms), 0) FROM songs WHERE album_id = albums.id),
                year = coalesce((SELECT max(year) FROM songs WHERE album_id = albums.id), year);
            DELETE FROM search_albums WHERE rowid IN (SELECT id FROM albums WHERE songs_count = 0);
            DELETE FROM albums WHERE songs_count = 0;
            UPDATE artists SET
                songs_count = (SELECT count(*) FROM song_artists WHERE artist_id = artists.id),
                albums_count = (SELECT count(*) FROM albums WHERE artist_id = artists.id);
            DELETE FROM search_artists WHERE rowid IN
                (SELECT id FROM artists WHERE songs_count = 0 AND albums_count = 0);
            DELETE FROM artists WHERE songs_count = 0 AND albums_count = 0;
            UPDATE genres SET songs_count = (SELECT count(*) FROM song_genres WHERE genre_id = genres.id);
            DELETE FROM genres WHERE songs_count = 0;
            """)
        // A scan leaves the index in many small segments; merged into one, a search reads one b-tree
        // per term instead of dozens (0.2 s at 100k songs, and nearly free when little changed).
        for index in SearchIndex.allCases {
            try db.execute("INSERT INTO \(index.table)(\(index.table)) VALUES ('optimize')")
        }
    }

    /// Forgets the folder covers of albums under `roots` that a complete walk no longer found (deleted,
    /// or replaced by a symbolic link, which the walker never follows).
    static func forgetFolderCovers(_ db: Connection, under roots: [String], except seen: Set<String>) throws {
        for root in roots {
            let stale = try db.query(
                "SELECT id, folder_cover FROM albums WHERE folder_cover IS NOT NULL AND substr(folder_cover, 1, ?) = ?",
                root.utf8.count + 1, root + "/"
            ) { (id: try $0.int64("id"), cover: try $0.string("folder_cover")) }
            for album in stale where !seen.contains(album.cover) {
                try db.execute("UPDATE albums SET folder_cover = NULL WHERE id = ?", album.id)
            }
        }
    }

    // MARK: Scan reports

    // MARK: Writing the search index again

    /// Whether the search rows were written by an older `SearchText` (before pinyin words, say).
    static func searchTextIsOld(_ db: Connection) throws -> Bool {
        let written = try ServerMetaStore().value(db, key: "search_text_version").flatMap { Int($0) } ?? 1
        return written < SearchText.version
    }

    static func markSearchTextCurrent(_ db: Connection) throws {
        try ServerMetaStore().set(db, key: "search_text_version", value: String(SearchText.version))
    }

    /// Writes the search rows of up to `limit` items after `after` again, from the catalog as stored; the last
    /// id written, nil when there were none.
    static func rewriteSearchRows(_ db: Connection, _ index: SearchIndex, after: Int64, limit: Int) throws
        -> Int64?
    {
        let rows: [(id: Int64, title: String, extra: String)]
        switch index {
        case .song:
            rows = try db.query(
                """
                SELECT s.id, s.title, coalesce(al.title, '') AS album,
                    coalesce((SELECT group_concat(name, ' ') FROM (SELECT ar.name FROM song_artists sa
                        JOIN artists ar ON ar.id = sa.artist_id WHERE sa.song_id = s.id ORDER BY sa.position)), '')
                        AS artists
                FROM songs s LEFT JOIN albums al ON al.id = s.album_id WHERE s.id > ? ORDER BY s.id LIMIT ?
                """, after, limit
            ) {
                (
                    try $0.int64("id"), try $0.string("title"),
                    [try $0.string("artists"), try $0.string("album")].joined(separator: " ")
                )
            }
        case .album:
            rows = try db.query(
                """
                SELECT al.id, al.title, coalesce(ar.name, '') AS artist FROM albums al
                    LEFT JOIN artists ar ON ar.id = al.artist_id WHERE al.id > ? ORDER BY al.id LIMIT ?
                """, after, limit
            ) { (try $0.int64("id"), try $0.string("title"), try $0.string("artist")) }
        case .artist:
            rows = try db.query("SELECT id, name FROM artists WHERE id > ? ORDER BY id LIMIT ?", after, limit)
            {
                (try $0.int64("id"), try $0.string("name"), "")
            }
        }
        for row in rows {
            try db.execute("DELETE FROM \(index.table) WHERE rowid = ?", row.id)
            try db.execute(
                "INSERT INTO \(index.table)(rowid, title, extra, display) VALUES (?, ?, ?, ?)", row.id,
                SearchText.indexText(row.title), row.extra.isEmpty ? "" : SearchText.indexText(row.extra),
                row.title)
        }
        return rows.last?.id
    }

    /// Marks an interrupted scan as such and opens a report for a new one; returns its id.
    static func beginScan(_ db: Connection, at startedAt: Int64) throws -> Int64 {
        try db.execute("UPDATE scan_reports SET state = 'interrupted' WHERE state = 'running'")
        try db.execute("INSERT INTO scan_reports(started_at, state) VALUES (?, 'running')", startedAt)
        return db.lastInsertRowID
    }

    static func finishScan(_ db: Connection, report: ScanReport) throws {
        guard let id = Int64(report.id) else { return }
        try db.execute(
            """
            UPDATE scan_reports SET state = 'finished', finished_at = ?, files_seen = ?, added = ?, updated = ?,
                moved = ?, removed = ?, unchanged = ?, failed = ? WHERE id = ?
            """, Int64(Date().timeIntervalSince1970), report.filesSeen, report.added, report.updated,
            report.moved,
            report.removed, report.unchanged, report.failed, id)
        for issue in report.issues {
            try db.execute(
                "INSERT INTO scan_issues(scan_id, path, reason) VALUES (?, ?, ?)", id, issue.path,
                issue.reason)
        }
    }

    /// The last scan that is not running, with up to 1,000 of its issues.
    static func lastReport(_ db: Connection) throws -> ScanReport? {
        guard
            var report = try db.queryOne(
                """
                SELECT id, state, started_at, finished_at, files_seen, added, updated, moved, removed, unchanged,
                    failed
                FROM scan_reports WHERE state != 'running' ORDER BY id DESC LIMIT 1
                """,
                decode: { row in
                    ScanReport(
                        id: String(try row.int64("id")), state: try row.string("state"),
                        startedAt: APIDate.string(try row.int64("started_at")),
                        finishedAt: try row.optionalInt64("finished_at").map(APIDate.string),
                        filesSeen: try row.int("files_seen"), added: try row.int("added"),
                        updated: try row.int("updated"), moved: try row.int("moved"),
                        removed: try row.int("removed"),
                        unchanged: try row.int("unchanged"), failed: try row.int("failed"), issues: [])
                })
        else { return nil }
        report.issues = try db.query(
            "SELECT path, reason FROM scan_issues WHERE scan_id = ? LIMIT 1000", Int64(report.id)!
        ) { ScanReport.Issue(path: try $0.string("path"), reason: try $0.string("reason")) }
        return report
    }
}
