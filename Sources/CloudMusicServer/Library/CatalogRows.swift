import AudioMetadata
import Foundation
import MusicCore
import Storage

/// The catalog's song rows: one query for the songs (with, when asked, one person's annotations joined in:
/// their plays, their star through "I like", their rating, as Navidrome's repositories join their annotation
/// table) and one each for the songs' artists and genres. The v1 API's `Song`s and the Subsonic API's `Child`
/// elements are both made from these rows, so the catalog's SQL is written once.
extension CatalogStore {
    /// Whose annotations a read joins in.
    struct Annotations: Sendable {
        var userID: Int64
        /// The person's "I like" sheet (0 when they have none, which matches no row).
        var likesSheetID: Int64
    }

    /// A song as the catalog stores it, with its artists and genres; `plays`, `lastPlayed`, `starredAt` and
    /// `rating` are the annotated person's (nil and 0 when read without annotations).
    struct SongRow: Sendable {
        var id: Int64
        var title: String
        var albumID: Int64?
        var albumTitle: String?
        var albumArtistID: Int64?
        var albumArtistName: String?
        var track: Int?
        var disc: Int?
        var year: Int?
        var durationMilliseconds: Int
        var bitRate: Int
        var sampleRate: Int
        var channels: Int
        var format: String
        var size: Int64
        var path: String
        var folderPath: String?
        var createdAt: Int64
        var updatedAt: Int64
        var musicBrainzID: String?
        var lyricStyle: Int
        var clicksCount: Int
        var commentsCount: Int
        /// Everyone's plays.
        var totalPlays: Int
        var plays: Int
        var lastPlayed: Int64?
        var starredAt: Int64?
        var rating: Int?
        var replayGain = ReplayGain()
        var bpm: Int?
        var bitDepth = 0
        var sortTitle: String?
        var comment: String?
        var artists: [(id: Int64, name: String)] = []
        var genres: [String] = []

        /// The song as the v1 API answers it.
        var model: Song {
            let id = String(self.id)
            let summaries = artists.map { ArtistSummary(id: String($0.id), name: $0.name) }
            return Song(
                id: id, title: title, icon: albumID.map { "v1/albums/\($0)/cover" },
                uri: "v1/songs/\(id)/stream",
                style: lyricStyle, lyric: nil,
                singer: summaries.first.map {
                    Singer(id: $0.id, name: summaries.map(\.name).joined(separator: " / "))
                },
                artists: summaries,
                album: albumID.map {
                    AlbumSummary(id: String($0), title: albumTitle ?? "", icon: "v1/albums/\($0)/cover")
                },
                genres: genres, trackNumber: track, discNumber: disc, year: year,
                duration: durationMilliseconds,
                format: format, bitRate: bitRate, sampleRate: sampleRate, channels: channels,
                clicksCount: clicksCount, commentsCount: commentsCount, playsCount: totalPlays,
                createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }
    }

    private static let songColumns = """
        s.id, s.title, s.album_id, al.title AS album_title, al.artist_id AS album_artist_id,
            aa.name AS album_artist_name, s.track_number, s.disc_number, s.year, s.duration_ms, s.bit_rate,
            s.sample_rate, s.channels, s.format, s.size, s.path, mf.path AS folder_path, s.created_at,
            s.updated_at, s.musicbrainz_track_id, s.lyric_style, s.clicks_count, s.comments_count, s.plays_count,
            s.replaygain_track_gain, s.replaygain_track_peak, s.replaygain_album_gain, s.replaygain_album_peak,
            s.bpm, s.bit_depth, s.sort_title, s.comment
        """

    private static let songJoins = """
        FROM songs s
            LEFT JOIN albums al ON al.id = s.album_id
            LEFT JOIN artists aa ON aa.id = al.artist_id
            LEFT JOIN music_folders mf ON mf.id = s.folder_id
        """

    private static let plainSongSelect = """
        SELECT \(songColumns), NULL AS starred_at, NULL AS user_plays, NULL AS user_last_played,
            NULL AS user_rating
        \(songJoins)
        """

    /// The three `?` are the likes sheet, then the user twice.
    private static let annotatedSongSelect = """
        SELECT \(songColumns),
            (SELECT ss.added_at FROM sheet_songs ss WHERE ss.sheet_id = ? AND ss.song_id = s.id LIMIT 1) AS starred_at,
            p.plays_count AS user_plays, p.last_played_at AS user_last_played, r.rating AS user_rating
        \(songJoins)
            LEFT JOIN song_plays p ON p.user_id = ? AND p.song_id = s.id
            LEFT JOIN song_ratings r ON r.user_id = ? AND r.song_id = s.id
        """

    /// Where the song columns are in a result: found by name once per query, not at every row and column.
    private struct SongColumns {
        let id, title, albumID, albumTitle, albumArtistID, albumArtistName, track, disc, year, duration: Int
        let bitRate, sampleRate, channels, format, size, path, folderPath, createdAt, updatedAt: Int
        let musicBrainzID, lyricStyle, clicks, comments, totalPlays, plays, lastPlayed, starredAt, rating: Int
        let trackGain, trackPeak, albumGain, albumPeak, bpm, bitDepth, sortTitle, comment: Int

        init(_ row: Row) throws {
            id = try row.index("id")
            title = try row.index("title")
            albumID = try row.index("album_id")
            albumTitle = try row.index("album_title")
            albumArtistID = try row.index("album_artist_id")
            albumArtistName = try row.index("album_artist_name")
            track = try row.index("track_number")
            disc = try row.index("disc_number")
            year = try row.index("year")
            duration = try row.index("duration_ms")
            bitRate = try row.index("bit_rate")
            sampleRate = try row.index("sample_rate")
            channels = try row.index("channels")
            format = try row.index("format")
            size = try row.index("size")
            path = try row.index("path")
            folderPath = try row.index("folder_path")
            createdAt = try row.index("created_at")
            updatedAt = try row.index("updated_at")
            musicBrainzID = try row.index("musicbrainz_track_id")
            lyricStyle = try row.index("lyric_style")
            clicks = try row.index("clicks_count")
            comments = try row.index("comments_count")
            totalPlays = try row.index("plays_count")
            plays = try row.index("user_plays")
            lastPlayed = try row.index("user_last_played")
            starredAt = try row.index("starred_at")
            rating = try row.index("user_rating")
            trackGain = try row.index("replaygain_track_gain")
            trackPeak = try row.index("replaygain_track_peak")
            albumGain = try row.index("replaygain_album_gain")
            albumPeak = try row.index("replaygain_album_peak")
            bpm = try row.index("bpm")
            bitDepth = try row.index("bit_depth")
            sortTitle = try row.index("sort_title")
            comment = try row.index("comment")
        }
    }

    private static func decodeSong(_ row: Row, _ c: SongColumns) throws -> SongRow {
        SongRow(
            id: try row.int64(c.id), title: try row.string(c.title),
            albumID: try row.optionalInt64(c.albumID),
            albumTitle: try row.optionalString(c.albumTitle),
            albumArtistID: try row.optionalInt64(c.albumArtistID),
            albumArtistName: try row.optionalString(c.albumArtistName), track: try row.optionalInt(c.track),
            disc: try row.optionalInt(c.disc), year: try row.optionalInt(c.year),
            durationMilliseconds: try row.int(c.duration), bitRate: try row.int(c.bitRate),
            sampleRate: try row.int(c.sampleRate), channels: try row.int(c.channels),
            format: try row.string(c.format), size: try row.int64(c.size), path: try row.string(c.path),
            folderPath: try row.optionalString(c.folderPath), createdAt: try row.int64(c.createdAt),
            updatedAt: try row.int64(c.updatedAt), musicBrainzID: try row.optionalString(c.musicBrainzID),
            lyricStyle: try row.int(c.lyricStyle), clicksCount: try row.int(c.clicks),
            commentsCount: try row.int(c.comments), totalPlays: try row.int(c.totalPlays),
            plays: try row.optionalInt(c.plays) ?? 0, lastPlayed: try row.optionalInt64(c.lastPlayed),
            starredAt: try row.optionalInt64(c.starredAt), rating: try row.optionalInt(c.rating),
            replayGain: ReplayGain(
                trackGain: try row.optionalDouble(c.trackGain),
                trackPeak: try row.optionalDouble(c.trackPeak),
                albumGain: try row.optionalDouble(c.albumGain), albumPeak: try row.optionalDouble(c.albumPeak)
            ),
            bpm: try row.optionalInt(c.bpm), bitDepth: try row.int(c.bitDepth),
            sortTitle: try row.optionalString(c.sortTitle), comment: try row.optionalString(c.comment))
    }

    /// `db.query`, with the columns `columns` finds by name looked up on the first row only.
    static func query<Columns, T>(
        _ db: Connection, _ sql: String, _ arguments: [any SQLBindable], columns: (Row) throws -> Columns,
        decode: (Row, Columns) throws -> T
    ) throws -> [T] {
        var found: Columns?
        return try db.query(sql, arguments: arguments) { row in
            let positions = try found ?? columns(row)
            found = positions
            return try decode(row, positions)
        }
    }

    /// Songs for a FROM-clause tail (joins, WHERE, ORDER BY, LIMIT: songs are `s`, albums `al`), with their
    /// artists and genres, and `annotations`' plays, star and rating.
    func songRows(
        _ db: Connection, _ tail: String, _ arguments: [any SQLBindable], annotations: Annotations? = nil
    ) throws -> [SongRow] {
        let select = annotations == nil ? Self.plainSongSelect : Self.annotatedSongSelect
        let leading: [any SQLBindable] =
            annotations.map { [$0.likesSheetID, $0.userID, $0.userID] } ?? []
        var songs = try Self.query(
            db, "\(select) \(tail)", leading + arguments, columns: SongColumns.init, decode: Self.decodeSong)
        guard !songs.isEmpty else { return songs }
        let ids = Array(Set(songs.map(\.id))).jsonArray
        var artists: [Int64: [(id: Int64, name: String)]] = [:]
        for (songID, artistID, name) in try Self.query(
            db,
            """
            SELECT sa.song_id, ar.id AS artist_id, ar.name FROM song_artists sa JOIN artists ar ON ar.id = sa.artist_id
            WHERE sa.song_id IN (SELECT value FROM json_each(?)) ORDER BY sa.song_id, sa.position
            """, [ids],
            columns: { (try $0.index("song_id"), try $0.index("artist_id"), try $0.index("name")) },
            decode: { row, c in (try row.int64(c.0), try row.int64(c.1), try row.string(c.2)) })
        {
            artists[songID, default: []].append((artistID, name))
        }
        var genres: [Int64: [String]] = [:]
        for (songID, name) in try Self.query(
            db,
            """
            SELECT sg.song_id, g.name FROM song_genres sg JOIN genres g ON g.id = sg.genre_id
            WHERE sg.song_id IN (SELECT value FROM json_each(?)) ORDER BY g.name
            """, [ids], columns: { (try $0.index("song_id"), try $0.index("name")) },
            decode: { row, c in (try row.int64(c.0), try row.string(c.1)) })
        {
            genres[songID, default: []].append(name)
        }
        for index in songs.indices {
            songs[index].artists = artists[songs[index].id] ?? []
            songs[index].genres = genres[songs[index].id] ?? []
        }
        return songs
    }
}

extension CatalogStore {
    /// An album as the catalog stores it; `starredAt` and `rating` are the annotated person's, and the plays
    /// and genres are filled by whoever reads them (the Subsonic feature keeps genres per library generation).
    struct AlbumRow: Sendable {
        var id: Int64
        var title: String
        var artistID: Int64?
        var artistName: String?
        var year: Int?
        var isCompilation: Bool
        var songsCount: Int
        var durationMilliseconds: Int
        var createdAt: Int64
        var updatedAt: Int64
        var sortName: String?
        var musicBrainzID: String?
        var starredAt: Int64?
        var rating: Int?
        var plays = 0
        var lastPlayed: Int64?
        var genres: [String] = []

        /// The album as the v1 API answers it.
        var model: Album {
            Album(
                id: String(id), title: title, icon: "v1/albums/\(id)/cover",
                artist: artistID.map { ArtistSummary(id: String($0), name: artistName ?? "") }, year: year,
                isCompilation: isCompilation, songsCount: songsCount, duration: durationMilliseconds,
                createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }
    }

    /// The album columns; with annotations, two `?`: the user twice. `musicBrainzID` looks the album's up in
    /// its songs (a subquery per album; the Subsonic feature keeps it per library generation instead).
    private static func albumSelect(annotated: Bool, musicBrainzID: Bool) -> String {
        let mbid =
            musicBrainzID
            ? """
            (SELECT s.musicbrainz_album_id FROM songs s WHERE s.album_id = al.id
                AND s.musicbrainz_album_id IS NOT NULL LIMIT 1)
            """ : "NULL"
        return """
            SELECT al.id, al.title, al.artist_id, ar.name AS artist_name, al.year, al.is_compilation, al.songs_count,
                al.duration_ms, al.created_at, al.updated_at, al.sort_name, \(mbid) AS musicbrainz_album_id,
                \(annotated ? "fa.created_at" : "NULL") AS starred_at, \(annotated ? "r.rating" : "NULL") AS user_rating
            FROM albums al
                LEFT JOIN artists ar ON ar.id = al.artist_id
            \(annotated ? """
                LEFT JOIN favourite_albums fa ON fa.user_id = ? AND fa.album_id = al.id
                LEFT JOIN album_ratings r ON r.user_id = ? AND r.album_id = al.id
            """ : "")
            """
    }

    private static let albumSelects = [false, true].flatMap { annotated in
        [false, true].map { mbid in albumSelect(annotated: annotated, musicBrainzID: mbid) }
    }

    private struct AlbumColumns {
        let id, title, artistID, artistName, year, isCompilation, songsCount, duration, createdAt: Int
        let updatedAt, sortName, musicBrainzID, starredAt, rating: Int

        init(_ row: Row) throws {
            id = try row.index("id")
            title = try row.index("title")
            artistID = try row.index("artist_id")
            artistName = try row.index("artist_name")
            year = try row.index("year")
            isCompilation = try row.index("is_compilation")
            songsCount = try row.index("songs_count")
            duration = try row.index("duration_ms")
            createdAt = try row.index("created_at")
            updatedAt = try row.index("updated_at")
            sortName = try row.index("sort_name")
            musicBrainzID = try row.index("musicbrainz_album_id")
            starredAt = try row.index("starred_at")
            rating = try row.index("user_rating")
        }
    }

    /// Albums for a FROM-clause tail (albums are `al`, their artist `ar`; with annotations, the person's
    /// favourite `fa` and rating `r`).
    func albumRows(
        _ db: Connection, _ tail: String, _ arguments: [any SQLBindable], annotations: Annotations? = nil,
        musicBrainzID: Bool = false
    ) throws -> [AlbumRow] {
        let select = Self.albumSelects[(annotations == nil ? 0 : 2) + (musicBrainzID ? 1 : 0)]
        let leading: [any SQLBindable] = annotations.map { [$0.userID, $0.userID] } ?? []
        return try Self.query(
            db, "\(select) \(tail)", leading + arguments, columns: AlbumColumns.init,
            decode: { row, c in
                AlbumRow(
                    id: try row.int64(c.id), title: try row.string(c.title),
                    artistID: try row.optionalInt64(c.artistID),
                    artistName: try row.optionalString(c.artistName),
                    year: try row.optionalInt(c.year), isCompilation: try row.bool(c.isCompilation),
                    songsCount: try row.int(c.songsCount), durationMilliseconds: try row.int(c.duration),
                    createdAt: try row.int64(c.createdAt), updatedAt: try row.int64(c.updatedAt),
                    sortName: try row.optionalString(c.sortName),
                    musicBrainzID: try row.optionalString(c.musicBrainzID),
                    starredAt: try row.optionalInt64(c.starredAt), rating: try row.optionalInt(c.rating))
            })
    }

    /// An artist as the catalog stores it; `starredAt` and `rating` are the annotated person's.
    struct ArtistRow: Sendable {
        var id: Int64
        var name: String
        var albumsCount: Int
        var songsCount: Int
        var createdAt: Int64
        var updatedAt: Int64
        var sortName: String?
        var starredAt: Int64?
        var rating: Int?

        /// The artist as the v1 API answers it.
        var model: Artist {
            Artist(
                id: String(id), name: name, icon: nil, songsCount: songsCount, albumsCount: albumsCount,
                createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }
    }

    private static let artistSelects = [false, true].map { annotated in
        """
        SELECT ar.id, ar.name, ar.albums_count, ar.songs_count, ar.created_at, ar.updated_at, ar.sort_name,
            \(annotated ? "fa.created_at" : "NULL") AS starred_at, \(annotated ? "r.rating" : "NULL") AS user_rating
        FROM artists ar
        \(annotated ? """
            LEFT JOIN favourite_artists fa ON fa.user_id = ? AND fa.artist_id = ar.id
            LEFT JOIN artist_ratings r ON r.user_id = ? AND r.artist_id = ar.id
        """ : "")
        """
    }

    private struct ArtistColumns {
        let id, name, albumsCount, songsCount, createdAt, updatedAt, sortName, starredAt, rating: Int

        init(_ row: Row) throws {
            id = try row.index("id")
            name = try row.index("name")
            albumsCount = try row.index("albums_count")
            songsCount = try row.index("songs_count")
            createdAt = try row.index("created_at")
            updatedAt = try row.index("updated_at")
            sortName = try row.index("sort_name")
            starredAt = try row.index("starred_at")
            rating = try row.index("user_rating")
        }
    }

    /// Artists for a FROM-clause tail (artists are `ar`; with annotations, the person's favourite `fa` and
    /// rating `r`).
    func artistRows(
        _ db: Connection, _ tail: String, _ arguments: [any SQLBindable], annotations: Annotations? = nil
    ) throws -> [ArtistRow] {
        let leading: [any SQLBindable] = annotations.map { [$0.userID, $0.userID] } ?? []
        return try Self.query(
            db, "\(Self.artistSelects[annotations == nil ? 0 : 1]) \(tail)", leading + arguments,
            columns: ArtistColumns.init,
            decode: { row, c in
                ArtistRow(
                    id: try row.int64(c.id), name: try row.string(c.name),
                    albumsCount: try row.int(c.albumsCount),
                    songsCount: try row.int(c.songsCount), createdAt: try row.int64(c.createdAt),
                    updatedAt: try row.int64(c.updatedAt), sortName: try row.optionalString(c.sortName),
                    starredAt: try row.optionalInt64(c.starredAt), rating: try row.optionalInt(c.rating))
            })
    }
}
