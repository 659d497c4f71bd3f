import Foundation
import MusicCore
import Storage

/// The catalog's reads: lists with paging and sorting, details, and search. Never N+1: a page of
/// songs costs one query for the songs and one each for their artists and genres.
struct CatalogStore: Sendable {
    let database: Database

    /// Where a song's file and lyric sidecar live, for streaming and lyrics.
    struct SongFile: Sendable {
        var id: Int64
        var path: String
        var format: String
        var durationMilliseconds: Int
        var lyricPath: String?
        var lyricStyle: Int
        var embeddedLyric: String?
        var albumID: Int64?
    }

    struct SongFilter: Sendable {
        var artistID: Int64?
        var albumID: Int64?
        var genreID: Int64?
    }

    // MARK: Songs

    func songs(filter: SongFilter, sort: CatalogSort, page: Int, size: Int) throws -> Page<Song> {
        try database.read { db in
            var conditions: [String] = []
            var arguments: [any SQLBindable] = []
            if let artistID = filter.artistID {
                conditions.append("s.id IN (SELECT song_id FROM song_artists WHERE artist_id = ?)")
                arguments.append(artistID)
            }
            if let albumID = filter.albumID {
                conditions.append("s.album_id = ?")
                arguments.append(albumID)
            }
            if let genreID = filter.genreID {
                conditions.append("s.id IN (SELECT song_id FROM song_genres WHERE genre_id = ?)")
                arguments.append(genreID)
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let effectiveOrder =
                filter.albumID != nil ? "s.disc_number, s.track_number, s.id" : Self.order(sort, table: "s")
            let total =
                try db.queryOne("SELECT count(*) FROM songs s \(whereClause)", arguments: arguments) {
                    try $0.int(0)
                } ?? 0
            let rows = try selectSongs(
                db: db, "\(whereClause) ORDER BY \(effectiveOrder) LIMIT ? OFFSET ?",
                arguments + [size, (page - 1) * size])
            return Page(items: rows, total: total, page: page, size: size)
        }
    }

    func song(id: Int64) throws -> Song? {
        try database.read { db in
            guard var song = try selectSongs(db: db, "WHERE s.id = ?", [id]).first else { return nil }
            song.lyric = try lyricText(db: db, songID: id)
            return song
        }
    }

    func songFile(id: Int64) throws -> SongFile? {
        try database.read { db in
            try db.queryOne(
                """
                SELECT id, path, format, duration_ms, lyric_path, lyric_style, embedded_lyric, album_id
                FROM songs WHERE id = ?
                """, id
            ) {
                SongFile(
                    id: try $0.int64(0), path: try $0.string(1), format: try $0.string(2),
                    durationMilliseconds: try $0.int(3), lyricPath: try $0.optionalString(4),
                    lyricStyle: try $0.int(5), embeddedLyric: try $0.optionalString(6),
                    albumID: try $0.optionalInt64(7))
            }
        }
    }

    /// The raw lyric of a song: its sidecar file when readable, else the embedded lyric.
    private func lyricText(db: Connection, songID: Int64) throws -> String? {
        guard
            let (path, embedded) = try db.queryOne(
                "SELECT lyric_path, embedded_lyric FROM songs WHERE id = ?", songID,
                decode: { (try $0.optionalString(0), try $0.optionalString(1)) })
        else { return nil }
        return Self.readLyricFile(path) ?? embedded
    }

    /// Reads a lyric sidecar, at most 1 MiB; tolerates UTF-8 with BOM and GB18030 (common for Chinese LRC).
    static func readLyricFile(_ path: String?) -> String? {
        guard let path, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty else { return nil }
        if let text = String(data: data, encoding: .utf8) { return text }
        return TextEncoding.decodeGB18030(data) ?? String(decoding: data, as: UTF8.self)
    }

    /// Songs for a WHERE/ORDER/LIMIT tail, with their artists and genres in two more queries.
    func selectSongs(db: Connection, _ tail: String, _ arguments: [any SQLBindable]) throws -> [Song] {
        var songs = try db.query(
            """
            SELECT s.id, s.title, s.album_id, a.title, s.lyric_style, s.track_number, s.disc_number, s.year,
                s.duration_ms, s.format, s.bit_rate, s.sample_rate, s.channels, s.clicks_count, s.comments_count,
                s.plays_count, s.created_at, s.updated_at
            FROM songs s LEFT JOIN albums a ON a.id = s.album_id \(tail)
            """, arguments: arguments
        ) { row -> Song in
            let id = try row.int64(0)
            let albumID = try row.optionalInt64(2)
            return Song(
                id: String(id), title: try row.string(1),
                icon: albumID.map { "v1/albums/\($0)/cover" },
                uri: "v1/songs/\(id)/stream", style: try row.int(4), lyric: nil, singer: nil, artists: [],
                album: try albumID.map {
                    AlbumSummary(id: String($0), title: try row.string(3), icon: "v1/albums/\($0)/cover")
                },
                genres: [], trackNumber: try row.optionalInt(5), discNumber: try row.optionalInt(6),
                year: try row.optionalInt(7), duration: try row.int(8), format: try row.string(9),
                bitRate: try row.int(10), sampleRate: try row.int(11), channels: try row.int(12),
                clicksCount: try row.int(13), commentsCount: try row.int(14), playsCount: try row.int(15),
                createdAt: APIDate.string(try row.int64(16)), updatedAt: APIDate.string(try row.int64(17)))
        }
        guard !songs.isEmpty else { return songs }
        let ids = "[" + songs.map(\.id).joined(separator: ",") + "]"
        var artists: [String: [ArtistSummary]] = [:]
        for (songID, artist) in try db.query(
            """
            SELECT sa.song_id, ar.id, ar.name FROM song_artists sa JOIN artists ar ON ar.id = sa.artist_id
            WHERE sa.song_id IN (SELECT value FROM json_each(?)) ORDER BY sa.song_id, sa.position
            """, ids,
            decode: {
                (String(try $0.int64(0)), ArtistSummary(id: String(try $0.int64(1)), name: try $0.string(2)))
            })
        {
            artists[songID, default: []].append(artist)
        }
        var genres: [String: [String]] = [:]
        for (songID, name) in try db.query(
            """
            SELECT sg.song_id, g.name FROM song_genres sg JOIN genres g ON g.id = sg.genre_id
            WHERE sg.song_id IN (SELECT value FROM json_each(?)) ORDER BY g.name
            """, ids, decode: { (String(try $0.int64(0)), try $0.string(1)) })
        {
            genres[songID, default: []].append(name)
        }
        for index in songs.indices {
            let songArtists = artists[songs[index].id] ?? []
            songs[index].artists = songArtists
            songs[index].genres = genres[songs[index].id] ?? []
            if let first = songArtists.first {
                songs[index].singer = Singer(
                    id: first.id, nickname: songArtists.map(\.name).joined(separator: " / "), icon: nil)
            }
        }
        return songs
    }

    // MARK: Albums, artists, genres

    private static let albumSelect = """
        SELECT al.id, al.title, al.artist_id, ar.name, al.year, al.is_compilation, al.songs_count, al.duration_ms,
            al.created_at, al.updated_at
        FROM albums al LEFT JOIN artists ar ON ar.id = al.artist_id
        """

    private static func decodeAlbum(_ row: Row) throws -> Album {
        let id = try row.int64(0)
        let artistID = try row.optionalInt64(2)
        return Album(
            id: String(id), title: try row.string(1), icon: "v1/albums/\(id)/cover",
            artist: try artistID.map { ArtistSummary(id: String($0), name: try row.string(3)) },
            year: try row.optionalInt(4), isCompilation: try row.bool(5), songsCount: try row.int(6),
            duration: try row.int(7), createdAt: APIDate.string(try row.int64(8)),
            updatedAt: APIDate.string(try row.int64(9)))
    }

    /// The ORDER BY of a song or album listing (both tables have these columns), ties broken by id.
    static func order(_ sort: CatalogSort, table: String) -> String {
        switch sort {
        case .name: "\(table).title COLLATE NOCASE, \(table).id"
        case .year: "\(table).year DESC, \(table).id"
        case .recent: "\(table).created_at DESC, \(table).id"
        case .plays: "\(table).plays_count DESC, \(table).id"
        case .played: "\(table).last_played_at DESC, \(table).id"
        }
    }

    func albums(artistID: Int64?, sort: CatalogSort, page: Int, size: Int) throws -> Page<Album> {
        try database.read { db in
            let order = Self.order(sort, table: "al")
            let filter = artistID == nil ? "" : "WHERE al.artist_id = ?"
            let arguments: [any SQLBindable] = artistID.map { [$0] } ?? []
            let total =
                try db.queryOne("SELECT count(*) FROM albums al \(filter)", arguments: arguments) {
                    try $0.int(0)
                } ?? 0
            let rows = try db.query(
                "\(Self.albumSelect) \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
                arguments: arguments + [size, (page - 1) * size], decode: Self.decodeAlbum)
            return Page(items: rows, total: total, page: page, size: size)
        }
    }

    func album(id: Int64) throws -> Album? {
        try database.read { db in
            guard
                var album = try db.queryOne(
                    "\(Self.albumSelect) WHERE al.id = ?", id, decode: Self.decodeAlbum)
            else { return nil }
            album.songs = try selectSongs(
                db: db, "WHERE s.album_id = ? ORDER BY s.disc_number, s.track_number, s.title, s.id", [id])
            return album
        }
    }

    /// Where an album's cover may come from: its folder image, then the embedded pictures of its songs.
    func albumCoverSources(id: Int64) throws -> (folderCover: String?, songPaths: [String])? {
        try database.read { db in
            guard
                let folderCover = try db.queryOne(
                    "SELECT folder_cover FROM albums WHERE id = ?", id, decode: { [try $0.optionalString(0)] }
                )
            else { return nil }
            let paths = try db.query(
                "SELECT path FROM songs WHERE album_id = ? ORDER BY disc_number, track_number LIMIT 3", id
            ) { try $0.string(0) }
            return (folderCover[0], paths)
        }
    }

    private static let artistSelect =
        "SELECT id, name, songs_count, albums_count, created_at, updated_at FROM artists"

    private static func decodeArtist(_ row: Row) throws -> Artist {
        Artist(
            id: String(try row.int64(0)), name: try row.string(1), icon: nil, songsCount: try row.int(2),
            albumsCount: try row.int(3), createdAt: APIDate.string(try row.int64(4)),
            updatedAt: APIDate.string(try row.int64(5)))
    }

    func artists(sort: CatalogSort, page: Int, size: Int) throws -> Page<Artist> {
        try database.read { db in
            let order: String
            switch sort {
            case .name, .year: order = "name_key, id"
            case .recent: order = "created_at DESC, id"
            case .plays, .played: order = "songs_count DESC, id"
            }
            let total = try db.queryOne("SELECT count(*) FROM artists") { try $0.int(0) } ?? 0
            let rows = try db.query(
                "\(Self.artistSelect) ORDER BY \(order) LIMIT ? OFFSET ?", size, (page - 1) * size,
                decode: Self.decodeArtist)
            return Page(items: rows, total: total, page: page, size: size)
        }
    }

    func artist(id: Int64, songLimit: Int = 100) throws -> Artist? {
        try database.read { db in
            guard
                var artist = try db.queryOne(
                    "\(Self.artistSelect) WHERE id = ?", id, decode: Self.decodeArtist)
            else { return nil }
            artist.albums = try db.query(
                "\(Self.albumSelect) WHERE al.artist_id = ? ORDER BY al.year DESC, al.title", id,
                decode: Self.decodeAlbum)
            artist.songs = try selectSongs(
                db: db,
                "WHERE s.id IN (SELECT song_id FROM song_artists WHERE artist_id = ?) ORDER BY s.plays_count DESC, s.title LIMIT ?",
                [id, songLimit])
            return artist
        }
    }

    func genres(page: Int, size: Int) throws -> Page<Genre> {
        try database.read { db in
            let total = try db.queryOne("SELECT count(*) FROM genres") { try $0.int(0) } ?? 0
            let rows = try db.query(
                "SELECT id, name, songs_count FROM genres ORDER BY songs_count DESC, name_key LIMIT ? OFFSET ?",
                size,
                (page - 1) * size
            ) { Genre(id: String(try $0.int64(0)), name: try $0.string(1), songsCount: try $0.int(2)) }
            return Page(items: rows, total: total, page: page, size: size)
        }
    }

    // MARK: Songs by id

    /// The songs with these ids in the order given (repeats kept); ids no longer in the library are left out.
    func songs(ids: [Int64]) throws -> [Song] {
        guard !ids.isEmpty else { return [] }
        return try database.read { db in
            // Joined on the list itself, so rows come back in its order (repeats included), no lookup table.
            try selectSongs(
                db: db, "JOIN json_each(?) wanted ON s.id = wanted.value ORDER BY wanted.key",
                ["[" + ids.map(String.init).joined(separator: ",") + "]"])
        }
    }

    func songExists(id: Int64) throws -> Bool {
        try database.read { db in try db.queryOne("SELECT 1 FROM songs WHERE id = ?", id) { _ in true } ?? false }
    }

    /// The song a playlist entry means: this server's stream address, a file's full path, or
    /// "Artist - Title" (from `#EXTINF`, else from the file name).
    func songID(matching entry: M3U.Entry) throws -> Int64? {
        try database.read { db in
            let location = entry.location
            if let range = location.range(of: #"v1/songs/[0-9]{1,18}/stream"#, options: .regularExpression) {
                let id = Int64(location[range].dropFirst("v1/songs/".count).dropLast("/stream".count)) ?? 0
                if try db.queryOne("SELECT 1 FROM songs WHERE id = ?", id, decode: { _ in true }) != nil { return id }
            }
            if location.hasPrefix("/"),
                let id = try db.queryOne("SELECT id FROM songs WHERE path = ?", location, decode: { try $0.int64(0) })
            {
                return id
            }
            var described = entry.title
            if described == nil {
                var stem = ((location as NSString).lastPathComponent as NSString).deletingPathExtension
                // "01 - Title" and "01. Title": drop the track number.
                if let number = stem.range(of: #"^[0-9]{1,3}(\s*-\s*|\.\s*|\s+)"#, options: .regularExpression) {
                    stem.removeSubrange(number)
                }
                described = stem
            }
            guard let described, !described.isEmpty else { return nil }
            let parts = described.components(separatedBy: " - ")
            let candidates: [(artist: String?, title: String)] =
                parts.count >= 2
                ? [(parts[0], parts.dropFirst().joined(separator: " - ")), (nil, described)]
                : [(nil, described)]
            for candidate in candidates {
                let rows = try db.query(
                    """
                    SELECT s.id, (SELECT group_concat(lower(ar.name), char(31)) FROM song_artists sa
                        JOIN artists ar ON ar.id = sa.artist_id WHERE sa.song_id = s.id)
                    FROM songs s WHERE s.title = ? COLLATE NOCASE ORDER BY s.id LIMIT 50
                    """, candidate.title.trimmingCharacters(in: .whitespaces)
                ) { (try $0.int64(0), try $0.optionalString(1) ?? "") }
                guard let artist = candidate.artist else {
                    if let first = rows.first { return first.0 }
                    continue
                }
                let wanted = Set(
                    artist.lowercased().components(separatedBy: " / ").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    })
                if let match = rows.first(where: { !wanted.isDisjoint(with: $0.1.components(separatedBy: "\u{1F}")) }) {
                    return match.0
                }
            }
            return nil
        }
    }

    // MARK: Search

    struct SearchResults: Codable, Sendable {
        var songs: [Song]
        var albums: [Album]
        var artists: [Artist]
    }

    /// Songs, albums and artists matching what was typed, best first (title matches outrank others).
    func search(_ typed: String, limit: Int) throws -> SearchResults {
        guard let query = SearchText.matchQuery(typed) else {
            return SearchResults(songs: [], albums: [], artists: [])
        }
        return try database.read { db in
            let songIDs = try Self.titlePrefixSongs(db: db, typed, limit: limit)
                .appendingUnique(
                    try Self.rankedMatches(db: db, query, in: .song, limit: limit).map(\.id), limit: limit)
            let albumIDs = try Self.rankedMatches(db: db, query, in: .album, limit: limit).map(\.id)
            let artistIDs = try Self.rankedMatches(db: db, query, in: .artist, limit: limit).map(\.id)
            func ordered<T: Identifiable>(_ items: [T], _ ids: [Int64]) -> [T] where T.ID == String {
                let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
                return ids.compactMap { byID[String($0)] }
            }
            let idList = { (ids: [Int64]) in "[" + ids.map(String.init).joined(separator: ",") + "]" }
            let songs = try selectSongs(
                db: db, "WHERE s.id IN (SELECT value FROM json_each(?))", [idList(songIDs)])
            let albums = try db.query(
                "\(Self.albumSelect) WHERE al.id IN (SELECT value FROM json_each(?))", idList(albumIDs),
                decode: Self.decodeAlbum)
            let artists = try db.query(
                "\(Self.artistSelect) WHERE id IN (SELECT value FROM json_each(?))", idList(artistIDs),
                decode: Self.decodeArtist)
            return SearchResults(
                songs: ordered(songs, songIDs), albums: ordered(albums, albumIDs),
                artists: ordered(artists, artistIDs))
        }
    }

    /// Most matches ranked by relevance: past this, ranking costs more than it helps (one common
    /// character can match half the library), so only the oldest this many matches are ranked.
    static let rankedCandidates = 1_000

    struct RankedMatch {
        var id: Int64
        var display: String
        /// bm25: lower is better.
        var score: Double
    }

    /// One index's matches, best first. Ranking reads each row's sizes, so it is bounded to the
    /// first `rankedCandidates` matches by rowid, found first from rowids alone.
    static func rankedMatches(
        db: Connection, _ expression: String, in index: LibraryStore.SearchIndex, limit: Int,
        titleWeight: Double = 10, extraWeight: Double = 2
    ) throws -> [RankedMatch] {
        let table = index.table
        let bound =
            try db.queryOne(
                "SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT 1 OFFSET ?", expression,
                rankedCandidates
            ) { try $0.int64(0) } ?? Int64.max
        return try db.query(
            """
            SELECT rowid, display, bm25(\(table), ?, ?) AS score FROM \(table)
            WHERE \(table) MATCH ? AND rowid < ? ORDER BY score LIMIT ?
            """, titleWeight, extraWeight, expression, bound, limit
        ) { RankedMatch(id: try $0.int64(0), display: try $0.string(1), score: try $0.double(2)) }
    }

    /// Songs whose title starts with what was typed (an index range), so they lead however
    /// common the words are.
    static func titlePrefixSongs(db: Connection, _ typed: String, limit: Int) throws -> [Int64] {
        let escaped = typed.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "%", with: "\\%"
        )
        .replacingOccurrences(of: "_", with: "\\_")
        return try db.query(
            "SELECT id FROM songs WHERE title LIKE ? ESCAPE '\\' ORDER BY title COLLATE NOCASE, id LIMIT ?",
            escaped + "%", limit
        ) { try $0.int64(0) }
    }

    struct Suggestion: Codable, Sendable, Equatable {
        var title: String
        /// song, album or artist
        var type: String
        var id: String
    }

    /// Completions as a person types: titles and names that match, best first, without duplicates.
    func suggestions(_ typed: String, limit: Int) throws -> [Suggestion] {
        guard let query = SearchText.matchQuery(typed) else { return [] }
        return try database.read { db in
            let expression = "{title} : (\(query))"
            // Titles repeat (many songs called the same), so each index offers more than `limit`.
            let matches = try LibraryStore.SearchIndex.allCases.flatMap { index in
                try Self.rankedMatches(db: db, expression, in: index, limit: limit * 3, extraWeight: 1)
                    .map { (index, $0) }
            }
            var seen = Set<String>()
            var result: [Suggestion] = []
            for (index, match) in matches.sorted(by: { $0.1.score < $1.1.score })
            where result.count < limit && seen.insert(match.display.lowercased()).inserted {
                result.append(Suggestion(title: match.display, type: index.typeName, id: String(match.id)))
            }
            return result
        }
    }
}

extension Array where Element == Int64 {
    /// `self` followed by the elements of `more` not already in it, at most `limit` in all.
    func appendingUnique(_ more: [Int64], limit: Int) -> [Int64] {
        var seen = Set(self)
        var result = Array(prefix(limit))
        for id in more where result.count < limit && seen.insert(id).inserted { result.append(id) }
        return result
    }
}
