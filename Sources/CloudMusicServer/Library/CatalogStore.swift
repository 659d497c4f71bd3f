import Foundation
import MusicCore
import Storage

/// The catalog's reads: lists with paging and sorting, details, and search. Never N+1: a page of
/// songs costs one query for the songs and one each for their artists and genres.
///
/// Every function reads through the connection of its caller's transaction. SQLite-only: the FTS5 search
/// tables (`MATCH`, `bm25`) and `json_each` for lists of ids.
struct CatalogStore: Sendable {
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

    func songs(_ db: Connection, filter: SongFilter, sort: CatalogSort, paging: Paging) throws -> Page<Song> {
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
            try db.queryOne("SELECT count(*) AS n FROM songs s \(whereClause)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let rows = try selectSongs(
            db, "\(whereClause) ORDER BY \(effectiveOrder) LIMIT ? OFFSET ?",
            arguments + [paging.size, paging.offset])
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    func song(_ db: Connection, id: Int64) throws -> Song? {
        try selectSongs(db, "WHERE s.id = ?", [id]).first
    }

    func songFile(_ db: Connection, id: Int64) throws -> SongFile? {
        try db.queryOne(
            """
            SELECT id, path, format, duration_ms, lyric_path, lyric_style, embedded_lyric, album_id
            FROM songs WHERE id = ?
            """, id
        ) {
            SongFile(
                id: try $0.int64("id"), path: try $0.string("path"), format: try $0.string("format"),
                durationMilliseconds: try $0.int("duration_ms"),
                lyricPath: try $0.optionalString("lyric_path"),
                lyricStyle: try $0.int("lyric_style"), embeddedLyric: try $0.optionalString("embedded_lyric"),
                albumID: try $0.optionalInt64("album_id"))
        }
    }

    /// Songs for a WHERE/ORDER/LIMIT tail, with their artists and genres in two more queries.
    func selectSongs(_ db: Connection, _ tail: String, _ arguments: [any SQLBindable]) throws -> [Song] {
        var songs = try db.query(
            """
            SELECT s.id, s.title, s.album_id, a.title AS album_title, s.lyric_style, s.track_number,
                s.disc_number, s.year, s.duration_ms, s.format, s.bit_rate, s.sample_rate, s.channels,
                s.clicks_count, s.comments_count, s.plays_count, s.created_at, s.updated_at
            FROM songs s LEFT JOIN albums a ON a.id = s.album_id \(tail)
            """, arguments: arguments
        ) { row -> Song in
            let id = try row.int64("id")
            let albumID = try row.optionalInt64("album_id")
            return Song(
                id: String(id), title: try row.string("title"),
                icon: albumID.map { "v1/albums/\($0)/cover" },
                uri: "v1/songs/\(id)/stream", style: try row.int("lyric_style"), lyric: nil, singer: nil,
                artists: [],
                album: try albumID.map {
                    AlbumSummary(
                        id: String($0), title: try row.string("album_title"), icon: "v1/albums/\($0)/cover")
                },
                genres: [], trackNumber: try row.optionalInt("track_number"),
                discNumber: try row.optionalInt("disc_number"), year: try row.optionalInt("year"),
                duration: try row.int("duration_ms"), format: try row.string("format"),
                bitRate: try row.int("bit_rate"), sampleRate: try row.int("sample_rate"),
                channels: try row.int("channels"), clicksCount: try row.int("clicks_count"),
                commentsCount: try row.int("comments_count"), playsCount: try row.int("plays_count"),
                createdAt: APIDate.string(try row.int64("created_at")),
                updatedAt: APIDate.string(try row.int64("updated_at")))
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
                (
                    String(try $0.int64("song_id")),
                    ArtistSummary(id: String(try $0.int64("id")), name: try $0.string("name"))
                )
            })
        {
            artists[songID, default: []].append(artist)
        }
        var genres: [String: [String]] = [:]
        for (songID, name) in try db.query(
            """
            SELECT sg.song_id, g.name FROM song_genres sg JOIN genres g ON g.id = sg.genre_id
            WHERE sg.song_id IN (SELECT value FROM json_each(?)) ORDER BY g.name
            """, ids, decode: { (String(try $0.int64("song_id")), try $0.string("name")) })
        {
            genres[songID, default: []].append(name)
        }
        for index in songs.indices {
            let songArtists = artists[songs[index].id] ?? []
            songs[index].artists = songArtists
            songs[index].genres = genres[songs[index].id] ?? []
            if let first = songArtists.first {
                songs[index].singer = Singer(
                    id: first.id, name: songArtists.map(\.name).joined(separator: " / "))
            }
        }
        return songs
    }

    // MARK: Albums, artists, genres

    private static let albumSelect = """
        SELECT al.id, al.title, al.artist_id, ar.name AS artist_name, al.year, al.is_compilation,
            al.songs_count, al.duration_ms, al.created_at, al.updated_at
        FROM albums al LEFT JOIN artists ar ON ar.id = al.artist_id
        """

    private static func decodeAlbum(_ row: Row) throws -> Album {
        let id = try row.int64("id")
        let artistID = try row.optionalInt64("artist_id")
        return Album(
            id: String(id), title: try row.string("title"), icon: "v1/albums/\(id)/cover",
            artist: try artistID.map { ArtistSummary(id: String($0), name: try row.string("artist_name")) },
            year: try row.optionalInt("year"), isCompilation: try row.bool("is_compilation"),
            songsCount: try row.int("songs_count"), duration: try row.int("duration_ms"),
            createdAt: APIDate.string(try row.int64("created_at")),
            updatedAt: APIDate.string(try row.int64("updated_at")))
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

    func albums(_ db: Connection, artistID: Int64?, sort: CatalogSort, paging: Paging) throws -> Page<Album> {
        let order = Self.order(sort, table: "al")
        let filter = artistID == nil ? "" : "WHERE al.artist_id = ?"
        let arguments: [any SQLBindable] = artistID.map { [$0] } ?? []
        let total =
            try db.queryOne("SELECT count(*) AS n FROM albums al \(filter)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let rows = try db.query(
            "\(Self.albumSelect) \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
            arguments: arguments + [paging.size, paging.offset], decode: Self.decodeAlbum)
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    func album(_ db: Connection, id: Int64) throws -> Album? {
        guard var album = try db.queryOne("\(Self.albumSelect) WHERE al.id = ?", id, decode: Self.decodeAlbum)
        else { return nil }
        album.songs = try selectSongs(
            db, "WHERE s.album_id = ? ORDER BY s.disc_number, s.track_number, s.title, s.id", [id])
        return album
    }

    /// Where an album's cover may come from: its folder image, then the embedded pictures of its songs.
    func albumCoverSources(_ db: Connection, id: Int64) throws -> (folderCover: String?, songPaths: [String])?
    {
        guard
            let folderCover = try db.queryOne(
                "SELECT folder_cover FROM albums WHERE id = ?", id,
                decode: { [try $0.optionalString("folder_cover")] })
        else { return nil }
        let paths = try db.query(
            "SELECT path FROM songs WHERE album_id = ? ORDER BY disc_number, track_number LIMIT 3", id
        ) { try $0.string("path") }
        return (folderCover[0], paths)
    }

    private static let artistSelect =
        "SELECT id, name, songs_count, albums_count, created_at, updated_at FROM artists"

    private static func decodeArtist(_ row: Row) throws -> Artist {
        Artist(
            id: String(try row.int64("id")), name: try row.string("name"), icon: nil,
            songsCount: try row.int("songs_count"), albumsCount: try row.int("albums_count"),
            createdAt: APIDate.string(try row.int64("created_at")),
            updatedAt: APIDate.string(try row.int64("updated_at")))
    }

    func artists(_ db: Connection, sort: CatalogSort, paging: Paging) throws -> Page<Artist> {
        let order: String
        switch sort {
        case .name, .year: order = "name_key, id"
        case .recent: order = "created_at DESC, id"
        case .plays, .played: order = "songs_count DESC, id"
        }
        let total = try db.queryOne("SELECT count(*) AS n FROM artists") { try $0.int("n") } ?? 0
        let rows = try db.query(
            "\(Self.artistSelect) ORDER BY \(order) LIMIT ? OFFSET ?", paging.size, paging.offset,
            decode: Self.decodeArtist)
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    func artist(_ db: Connection, id: Int64, songLimit: Int = 100) throws -> Artist? {
        guard var artist = try db.queryOne("\(Self.artistSelect) WHERE id = ?", id, decode: Self.decodeArtist)
        else { return nil }
        artist.albums = try db.query(
            "\(Self.albumSelect) WHERE al.artist_id = ? ORDER BY al.year DESC, al.title", id,
            decode: Self.decodeAlbum)
        artist.songs = try selectSongs(
            db,
            """
            WHERE s.id IN (SELECT song_id FROM song_artists WHERE artist_id = ?)
            ORDER BY s.plays_count DESC, s.title LIMIT ?
            """,
            [id, songLimit])
        return artist
    }

    func genres(_ db: Connection, paging: Paging) throws -> Page<Genre> {
        let total = try db.queryOne("SELECT count(*) AS n FROM genres") { try $0.int("n") } ?? 0
        let rows = try db.query(
            "SELECT id, name, songs_count FROM genres ORDER BY songs_count DESC, name_key LIMIT ? OFFSET ?",
            paging.size, paging.offset
        ) {
            Genre(
                id: String(try $0.int64("id")), name: try $0.string("name"),
                songsCount: try $0.int("songs_count"))
        }
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    // MARK: Songs by id

    /// The songs with these ids in the order given (repeats kept); ids no longer in the library are left out.
    func songs(_ db: Connection, ids: [Int64]) throws -> [Song] {
        guard !ids.isEmpty else { return [] }
        // Joined on the list itself, so rows come back in its order (repeats included), no lookup table.
        return try selectSongs(
            db, "JOIN json_each(?) wanted ON s.id = wanted.value ORDER BY wanted.key",
            ["[" + ids.map(String.init).joined(separator: ",") + "]"])
    }

    func songExists(_ db: Connection, id: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM songs WHERE id = ?", id) { _ in true } ?? false
    }

    /// Counts a play on the song and its album; false when there is no such song.
    func countPlay(_ db: Connection, songID: Int64, at time: Int64) throws -> Bool {
        guard
            let albumID = try db.queryOne(
                "SELECT album_id FROM songs WHERE id = ?", songID,
                decode: { try $0.optionalInt64("album_id") })
        else { return false }
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

    /// The ids among `ids` that are not songs of the library.
    func unknownSongs(_ db: Connection, ids: [Int64]) throws -> [Int64] {
        try db.query(
            """
            SELECT DISTINCT j.value AS id FROM json_each(?) j LEFT JOIN songs s ON s.id = j.value
            WHERE s.id IS NULL
            """, JSONColumn.text(ids)
        ) { try $0.int64("id") }
    }

    /// The song a playlist entry means: this server's stream address, a file's full path, or
    /// "Artist - Title" (from `#EXTINF`, else from the file name).
    func songID(_ db: Connection, matching entry: M3U.Entry) throws -> Int64? {
        let location = entry.location
        if let range = location.range(of: #"v1/songs/[0-9]{1,18}/stream"#, options: .regularExpression) {
            let id = Int64(location[range].dropFirst("v1/songs/".count).dropLast("/stream".count)) ?? 0
            if try songExists(db, id: id) { return id }
        }
        if location.hasPrefix("/"),
            let id = try db.queryOne(
                "SELECT id FROM songs WHERE path = ?", location, decode: { try $0.int64("id") })
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
                    JOIN artists ar ON ar.id = sa.artist_id WHERE sa.song_id = s.id) AS artist_names
                FROM songs s WHERE s.title = ? COLLATE NOCASE ORDER BY s.id LIMIT 50
                """, candidate.title.trimmingCharacters(in: .whitespaces)
            ) { (try $0.int64("id"), try $0.optionalString("artist_names") ?? "") }
            guard let artist = candidate.artist else {
                if let first = rows.first { return first.0 }
                continue
            }
            let wanted = Set(
                artist.lowercased().components(separatedBy: " / ").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            if let match = rows.first(where: {
                !wanted.isDisjoint(with: $0.1.components(separatedBy: "\u{1F}"))
            }) {
                return match.0
            }
        }
        return nil
    }

    // MARK: Search

    /// Songs, albums and artists matching what was typed, best first (title matches outrank others).
    func search(_ db: Connection, _ typed: String, limit: Int) throws -> SearchResults {
        guard let query = SearchText.matchQuery(typed) else {
            return SearchResults(songs: [], albums: [], artists: [])
        }
        let songIDs = try Self.titlePrefixSongs(db, typed, limit: limit)
            .appendingUnique(
                try Self.rankedMatches(db, query, in: .song, limit: limit).map(\.id), limit: limit)
        let albumIDs = try Self.rankedMatches(db, query, in: .album, limit: limit).map(\.id)
        let artistIDs = try Self.rankedMatches(db, query, in: .artist, limit: limit).map(\.id)
        func ordered<T: Identifiable>(_ items: [T], _ ids: [Int64]) -> [T] where T.ID == String {
            let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
            return ids.compactMap { byID[String($0)] }
        }
        let songs = try selectSongs(
            db, "WHERE s.id IN (SELECT value FROM json_each(?))", [JSONColumn.text(songIDs)])
        let albums = try db.query(
            "\(Self.albumSelect) WHERE al.id IN (SELECT value FROM json_each(?))", JSONColumn.text(albumIDs),
            decode: Self.decodeAlbum)
        let artists = try db.query(
            "\(Self.artistSelect) WHERE id IN (SELECT value FROM json_each(?))", JSONColumn.text(artistIDs),
            decode: Self.decodeArtist)
        return SearchResults(
            songs: ordered(songs, songIDs), albums: ordered(albums, albumIDs),
            artists: ordered(artists, artistIDs))
    }

    /// One kind's matches for what was typed, best first, a page at a time (Subsonic's search3 pages each
    /// kind on its own). Like `search`, only the first `rankedCandidates` matches are ranked and listed.
    func searchIDs(
        _ db: Connection, _ typed: String, in index: LibraryStore.SearchIndex, offset: Int, limit: Int
    ) throws -> [Int64] {
        guard let query = SearchText.matchQuery(typed), offset < Self.rankedCandidates else { return [] }
        let wanted = min(offset + limit, Self.rankedCandidates)
        var ids = try Self.rankedMatches(db, query, in: index, limit: wanted).map(\.id)
        if index == .song {
            ids = try Self.titlePrefixSongs(db, typed, limit: wanted).appendingUnique(ids, limit: wanted)
        }
        return Array(ids.dropFirst(offset))
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
        _ db: Connection, _ expression: String, in index: LibraryStore.SearchIndex, limit: Int,
        titleWeight: Double = 10, extraWeight: Double = 2
    ) throws -> [RankedMatch] {
        let table = index.table
        let bound =
            try db.queryOne(
                "SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT 1 OFFSET ?", expression,
                rankedCandidates
            ) { try $0.int64("rowid") } ?? Int64.max
        return try db.query(
            """
            SELECT rowid, display, bm25(\(table), ?, ?) AS score FROM \(table)
            WHERE \(table) MATCH ? AND rowid < ? ORDER BY score LIMIT ?
            """, titleWeight, extraWeight, expression, bound, limit
        ) {
            RankedMatch(
                id: try $0.int64("rowid"), display: try $0.string("display"), score: try $0.double("score"))
        }
    }

    /// Songs whose title starts with what was typed (an index range), so they lead however
    /// common the words are.
    static func titlePrefixSongs(_ db: Connection, _ typed: String, limit: Int) throws -> [Int64] {
        let escaped = typed.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "%", with: "\\%"
        )
        .replacingOccurrences(of: "_", with: "\\_")
        return try db.query(
            "SELECT id FROM songs WHERE title LIKE ? ESCAPE '\\' ORDER BY title COLLATE NOCASE, id LIMIT ?",
            escaped + "%", limit
        ) { try $0.int64("id") }
    }

    /// Completions as a person types: titles and names that match, best first, without duplicates.
    func suggestions(_ db: Connection, _ typed: String, limit: Int) throws -> [SearchSuggestion] {
        guard let query = SearchText.matchQuery(typed) else { return [] }
        let expression = "{title} : (\(query))"
        // Titles repeat (many songs called the same), so each index offers more than `limit`.
        let matches = try LibraryStore.SearchIndex.allCases.flatMap { index in
            try Self.rankedMatches(db, expression, in: index, limit: limit * 3, extraWeight: 1).map {
                (index, $0)
            }
        }
        var seen = Set<String>()
        var result: [SearchSuggestion] = []
        for (index, match) in matches.sorted(by: { $0.1.score < $1.1.score })
        where result.count < limit && seen.insert(match.display.lowercased()).inserted {
            result.append(SearchSuggestion(title: match.display, type: index.typeName, id: String(match.id)))
        }
        return result
    }

    /// Adds counted clicks (`ViewerClicks`' writer for songs).
    func addClicks(_ db: Connection, _ counts: [Int64: Int]) throws {
        for (id, count) in counts {
            try db.execute("UPDATE songs SET clicks_count = clicks_count + ? WHERE id = ?", count, id)
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
