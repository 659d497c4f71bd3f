import Foundation
import MusicCore
import Storage

/// The SQL of the Subsonic API: the catalog read with one person's annotations (plays, "I like", favourites,
/// ratings), sheets as playlists, favourites, ratings, bookmarks and who saved the play queue.
///
/// Every function runs on its caller's connection and reads columns by name. Songs are starred through the
/// person's "I like" sheet, written by `SheetService`'s rules; only reads of it are here. SQLite-only:
/// `json_each` for lists of ids, `random()`.
struct SubsonicStore: Sendable {
    /// Whose annotations to read: the catalog's own (see `Catalog.songRows`).
    typealias Listener = Catalog.Annotations
    /// A song with one person's annotations, as the catalog reads it.
    typealias SongRecord = Catalog.SongRow
    let catalog = Catalog()

    /// Ids as the JSON array `json_each(?)` reads: what `JSONColumn.text` makes of them, without an encoder
    /// (a list of ids is bound at almost every request).
    static func idList(_ ids: [Int64]) -> String {
        var text = "["
        text.reserveCapacity(ids.count * 7 + 2)
        for (index, id) in ids.enumerated() {
            if index > 0 { text += "," }
            text += String(id)
        }
        return text + "]"
    }

    // MARK: Songs

    /// Songs for a FROM-clause tail (joins, WHERE, ORDER BY, LIMIT), with their artists and genres and the
    /// listener's annotations: the catalog's query.
    func songs(_ db: Connection, _ listener: Listener, _ tail: String, _ arguments: [any SQLBindable] = [])
        throws -> [SongRecord]
    {
        try catalog.songRows(db, tail, arguments, annotations: listener)
    }

    /// `Catalog.query`: the columns found by name on the first row only.
    static func query<Columns, T>(
        _ db: Connection, _ sql: String, _ arguments: [any SQLBindable], columns: (Row) throws -> Columns,
        decode: (Row, Columns) throws -> T
    ) throws -> [T] {
        try Catalog.query(db, sql, arguments, columns: columns, decode: decode)
    }

    /// The songs with these ids, in this order (repeats kept); ids not in the library are left out.
    func songs(_ db: Connection, _ listener: Listener, ids: [Int64]) throws -> [SongRecord] {
        guard !ids.isEmpty else { return [] }
        return try songs(
            db, listener, "JOIN json_each(?) wanted ON wanted.value = s.id ORDER BY wanted.key",
            [Self.idList(ids)])
    }

    func song(_ db: Connection, _ listener: Listener, id: Int64) throws -> SongRecord? {
        try songs(db, listener, "WHERE s.id = ?", [id]).first
    }

    func albumSongs(_ db: Connection, _ listener: Listener, albumID: Int64) throws -> [SongRecord] {
        try songs(
            db, listener, "WHERE s.album_id = ? ORDER BY s.disc_number, s.track_number, s.title, s.id",
            [albumID])
    }

    /// Songs by a WHERE clause in random order.
    func randomSongs(
        _ db: Connection, _ listener: Listener, genre: String?, fromYear: Int?, toYear: Int?, count: Int
    ) throws -> [SongRecord] {
        var conditions: [String] = []
        var arguments: [any SQLBindable] = []
        if let genre {
            conditions.append(
                "s.id IN (SELECT sg.song_id FROM song_genres sg JOIN genres g ON g.id = sg.genre_id WHERE g.name_key = ?)"
            )
            arguments.append(CatalogName.key(genre))
        }
        if let fromYear {
            conditions.append("s.year >= ?")
            arguments.append(fromYear)
        }
        if let toYear {
            conditions.append("s.year <= ?")
            arguments.append(toYear)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let ids = try db.query(
            "SELECT s.id FROM songs s \(filter) ORDER BY random() LIMIT ?", arguments: arguments + [count]
        ) { try $0.int64("id") }
        return try songs(db, listener, ids: ids)
    }

    func songsByGenre(_ db: Connection, _ listener: Listener, genre: String, offset: Int, count: Int) throws
        -> [SongRecord]
    {
        try songs(
            db, listener,
            """
            WHERE s.id IN (SELECT sg.song_id FROM song_genres sg JOIN genres g ON g.id = sg.genre_id
                WHERE g.name_key = ?)
            ORDER BY s.title COLLATE NOCASE, s.id LIMIT ? OFFSET ?
            """, [CatalogName.key(genre), count, offset])
    }

    /// An artist's songs (any artist of the song), most played first.
    func topSongs(_ db: Connection, _ listener: Listener, artistID: Int64, count: Int) throws -> [SongRecord]
    {
        try songs(
            db, listener,
            """
            WHERE s.id IN (SELECT song_id FROM song_artists WHERE artist_id = ?)
            ORDER BY s.plays_count DESC, s.title COLLATE NOCASE, s.id LIMIT ?
            """, [artistID, count])
    }

    /// Songs of these artists (any artist of the song), in random order.
    func songsOfArtists(_ db: Connection, _ listener: Listener, artistIDs: [Int64], count: Int) throws
        -> [SongRecord]
    {
        let ids = try db.query(
            """
            SELECT DISTINCT song_id FROM song_artists WHERE artist_id IN (SELECT value FROM json_each(?))
            ORDER BY random() LIMIT ?
            """, Self.idList(artistIDs), count
        ) { try $0.int64("song_id") }
        return try songs(db, listener, ids: ids)
    }

    /// Every song in id order, a page at a time (an empty search: clients sync the whole library this way).
    func allSongs(_ db: Connection, _ listener: Listener, offset: Int, count: Int) throws -> [SongRecord] {
        try songs(db, listener, "WHERE s.id > 0 ORDER BY s.id LIMIT ? OFFSET ?", [count, offset])
    }

    /// Songs whose title and artist match, for `getLyrics`; the best first.
    func songIDs(_ db: Connection, title: String?, artist: String?) throws -> [Int64] {
        var conditions: [String] = []
        var arguments: [any SQLBindable] = []
        if let title {
            conditions.append("s.title = ? COLLATE NOCASE")
            arguments.append(title)
        }
        if let artist {
            conditions.append(
                "s.id IN (SELECT sa.song_id FROM song_artists sa JOIN artists ar ON ar.id = sa.artist_id WHERE ar.name_key = ?)"
            )
            arguments.append(CatalogName.key(artist))
        }
        guard !conditions.isEmpty else { return [] }
        return try db.query(
            "SELECT s.id FROM songs s WHERE \(conditions.joined(separator: " AND ")) ORDER BY s.id LIMIT 20",
            arguments: arguments
        ) { try $0.int64("id") }
    }

    /// What `stream` needs of a song, in one query: its file, format, length, bit rate (kbit/s) and title.
    struct StreamSong: Sendable {
        var path: String
        var format: String
        var durationMilliseconds: Int
        var bitRate: Int
        var title: String
    }

    func streamSong(_ db: Connection, id: Int64) throws -> StreamSong? {
        try db.queryOne("SELECT path, format, duration_ms, bit_rate, title FROM songs WHERE id = ?", id) {
            StreamSong(
                path: try $0.string("path"), format: try $0.string("format"),
                durationMilliseconds: try $0.int("duration_ms"), bitRate: try $0.int("bit_rate"),
                title: try $0.string("title"))
        }
    }

    /// What a stream needs besides the file: the song's bit rate (kbit/s) and title.
    func streamFacts(_ db: Connection, songID: Int64) throws -> (bitRate: Int, title: String)? {
        try db.queryOne("SELECT bit_rate, title FROM songs WHERE id = ?", songID) {
            (try $0.int("bit_rate"), try $0.string("title"))
        }
    }

    /// An artist's albums, newest first, then albums they appear on (for the artist's picture).
    func albumIDs(_ db: Connection, artistID: Int64) throws -> [Int64] {
        let own = try db.query(
            "SELECT id FROM albums WHERE artist_id = ? ORDER BY year DESC, id LIMIT 5", artistID
        ) {
            try $0.int64("id")
        }
        guard own.isEmpty else { return own }
        return try db.query(
            """
            SELECT DISTINCT s.album_id FROM song_artists sa JOIN songs s ON s.id = sa.song_id
            WHERE sa.artist_id = ? AND s.album_id IS NOT NULL LIMIT 5
            """, artistID
        ) { try $0.int64("album_id") }
    }

    /// What an album's songs say of it in their comments: the one comment they share, nil when they differ.
    func albumNotes(_ db: Connection, albumID: Int64) throws -> String? {
        let comments = try db.query(
            "SELECT DISTINCT comment FROM songs WHERE album_id = ? AND comment IS NOT NULL LIMIT 2", albumID
        ) { try $0.string("comment") }
        return comments.count == 1 ? comments[0] : nil
    }

    func songExists(_ db: Connection, id: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM songs WHERE id = ?", id) { _ in true } ?? false
    }

    // MARK: Albums

    /// An album with one person's favourite and rating, as the catalog reads it.
    typealias AlbumRecord = Catalog.AlbumRow

    /// Albums' genres and MusicBrainz ids kept for a snapshot's library generation (`SubsonicCatalogCache`),
    /// where `albums` takes them instead of reading them.
    struct KeptAlbumFacts: Sendable {
        var cache: SubsonicCatalogCache
        var generation: Int64?
    }

    /// What an album's songs say of it: its genres (in SQLite's order) and a MusicBrainz album id. Catalog
    /// facts: they change only in scans.
    struct AlbumFacts: Sendable, Equatable {
        var genres: [String] = []
        var musicBrainzID: String?
    }

    /// The facts of these albums, read (every id gets an entry).
    func albumFacts(_ db: Connection, ids: [Int64]) throws -> [Int64: AlbumFacts] {
        var facts: [Int64: AlbumFacts] = [:]
        guard !ids.isEmpty else { return facts }
        let list = Self.idList(ids)
        for (albumID, musicBrainzID) in try Self.query(
            db,
            """
            SELECT al.id, (SELECT s.musicbrainz_album_id FROM songs s WHERE s.album_id = al.id
                AND s.musicbrainz_album_id IS NOT NULL LIMIT 1) AS musicbrainz_album_id
            FROM albums al WHERE al.id IN (SELECT value FROM json_each(?))
            """, [list], columns: { (try $0.index("id"), try $0.index("musicbrainz_album_id")) },
            decode: { row, c in (try row.int64(c.0), try row.optionalString(c.1)) })
        {
            facts[albumID] = AlbumFacts(musicBrainzID: musicBrainzID)
        }
        for (albumID, genres) in try albumGenres(db, list) {
            facts[albumID, default: AlbumFacts()].genres = genres
        }
        for id in ids where facts[id] == nil { facts[id] = AlbumFacts() }
        return facts
    }

    /// The genres of the albums of `list` (ids as `idList` writes them), in SQLite's order of names: the
    /// distinct genres of each album's songs first, then their names (not a name for every song).
    private func albumGenres(_ db: Connection, _ list: String) throws -> [Int64: [String]] {
        var genres: [Int64: [String]] = [:]
        for (albumID, name) in try Self.query(
            db,
            """
            SELECT w.album_id, g.name FROM (
                SELECT DISTINCT s.album_id, sg.genre_id FROM songs s JOIN song_genres sg ON sg.song_id = s.id
                WHERE s.album_id IN (SELECT value FROM json_each(?))
            ) w JOIN genres g ON g.id = w.genre_id ORDER BY w.album_id, g.name
            """, [list], columns: { (try $0.index("album_id"), try $0.index("name")) },
            decode: { row, c in (try row.int64(c.0), try row.string(c.1)) })
        {
            genres[albumID, default: []].append(name)
        }
        return genres
    }

    /// Albums for a FROM-clause tail, with the person's plays of each and their genres (two more queries);
    /// with `kept`, genres and MusicBrainz ids come from the facts kept for the snapshot (read once).
    func albums(
        _ db: Connection, _ listener: Listener, _ tail: String, _ arguments: [any SQLBindable] = [],
        kept: KeptAlbumFacts? = nil
    ) throws -> [AlbumRecord] {
        var albums = try catalog.albumRows(
            db, tail, arguments, annotations: listener, musicBrainzID: kept == nil)
        guard !albums.isEmpty else { return albums }
        let ids = Self.idList(albums.map(\.id))
        var plays: [Int64: (Int, Int64?)] = [:]
        for (albumID, count, last) in try db.query(
            """
            SELECT s.album_id, sum(p.plays_count) AS plays, max(p.last_played_at) AS last_played
            FROM songs s JOIN song_plays p ON p.user_id = ? AND p.song_id = s.id
            WHERE s.album_id IN (SELECT value FROM json_each(?)) GROUP BY s.album_id
            """, listener.userID, ids,
            decode: { (try $0.int64("album_id"), try $0.int("plays"), try $0.optionalInt64("last_played")) })
        {
            plays[albumID] = (count, last)
        }
        if let kept {
            let facts = try kept.cache.albumFacts(albums.map(\.id), generation: kept.generation) {
                try albumFacts(db, ids: $0)
            }
            for index in albums.indices {
                albums[index].genres = facts[albums[index].id]?.genres ?? []
                albums[index].musicBrainzID = facts[albums[index].id]?.musicBrainzID
            }
        } else {
            let genres = try albumGenres(db, ids)
            for index in albums.indices { albums[index].genres = genres[albums[index].id] ?? [] }
        }
        for index in albums.indices {
            if let (count, last) = plays[albums[index].id] {
                albums[index].plays = count
                albums[index].lastPlayed = last
            }
        }
        return albums
    }

    func album(_ db: Connection, _ listener: Listener, id: Int64) throws -> AlbumRecord? {
        try albums(db, listener, "WHERE al.id = ?", [id]).first
    }

    /// An album whose songs (all of them, as `albumSongs` reads them) are at hand: its plays and genres are
    /// theirs, so the two queries `albums` makes for them are not needed. Genres in SQLite's order (bytes).
    func album(_ db: Connection, _ listener: Listener, id: Int64, songs: [SongRecord]) throws -> AlbumRecord?
    {
        guard
            var album = try catalog.albumRows(
                db, "WHERE al.id = ?", [id], annotations: listener, musicBrainzID: true
            ).first
        else { return nil }
        album.plays = songs.reduce(0) { $0 + $1.plays }
        album.lastPlayed = songs.compactMap(\.lastPlayed).max()
        album.genres = Set(songs.flatMap(\.genres)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return album
    }

    /// The albums with these ids, in this order.
    func albums(_ db: Connection, _ listener: Listener, ids: [Int64], kept: KeptAlbumFacts? = nil) throws
        -> [AlbumRecord]
    {
        guard !ids.isEmpty else { return [] }
        return try albums(
            db, listener, "JOIN json_each(?) wanted ON wanted.value = al.id ORDER BY wanted.key",
            [Self.idList(ids)], kept: kept)
    }

    /// An artist's albums; for an artist who appears only on tracks, the albums they appear on.
    func artistAlbums(_ db: Connection, _ listener: Listener, artistID: Int64) throws -> [AlbumRecord] {
        let own = try albums(
            db, listener, "WHERE al.artist_id = ? ORDER BY al.year, al.title COLLATE NOCASE, al.id",
            [artistID])
        guard own.isEmpty else { return own }
        return try albums(
            db, listener,
            """
            WHERE al.id IN (SELECT s.album_id FROM song_artists sa JOIN songs s ON s.id = sa.song_id
                WHERE sa.artist_id = ?)
            ORDER BY al.year, al.title COLLATE NOCASE, al.id
            """, [artistID])
    }

    /// What `getAlbumList` and `getAlbumList2` list.
    enum AlbumList: Sendable {
        case random, newest, highest, frequent, recent, alphabeticalByName, alphabeticalByArtist, starred
        case byYear(from: Int, to: Int)
        case byGenre(String)
    }

    /// A page of albums of one list type. Orders are stable (ties broken by id) except `random`.
    func albumList(
        _ db: Connection, _ listener: Listener, _ list: AlbumList, offset: Int, count: Int,
        kept: KeptAlbumFacts? = nil
    ) throws -> [AlbumRecord] {
        let page: [any SQLBindable] = [count, offset]
        let user = listener.userID
        switch list {
        case .random:
            let ids = try db.query("SELECT id FROM albums ORDER BY random() LIMIT ?", count) {
                try $0.int64("id")
            }
            return try albums(db, listener, ids: ids, kept: kept)
        case .newest:
            return try albums(
                db, listener, "ORDER BY al.created_at DESC, al.id LIMIT ? OFFSET ?", page, kept: kept)
        case .alphabeticalByName:
            return try albums(
                db, listener, "ORDER BY al.title COLLATE NOCASE, al.id LIMIT ? OFFSET ?", page, kept: kept)
        case .alphabeticalByArtist:
            return try albums(
                db, listener,
                "ORDER BY ar.name_key IS NULL, ar.name_key, al.title COLLATE NOCASE, al.id LIMIT ? OFFSET ?",
                page, kept: kept)
        case .highest:
            return try albums(
                db, listener, "WHERE r.rating IS NOT NULL ORDER BY r.rating DESC, al.id LIMIT ? OFFSET ?",
                page, kept: kept)
        case .starred:
            return try albums(
                db, listener,
                "WHERE fa.created_at IS NOT NULL ORDER BY fa.created_at DESC, al.id LIMIT ? OFFSET ?", page,
                kept: kept)
        case .frequent, .recent:
            let order = {
                if case .frequent = list { return "plays DESC, last_played DESC" }
                return "last_played DESC"
            }()
            let ids = try db.query(
                """
                SELECT s.album_id, sum(p.plays_count) AS plays, max(p.last_played_at) AS last_played
                FROM song_plays p JOIN songs s ON s.id = p.song_id
                WHERE p.user_id = ? AND s.album_id IS NOT NULL
                GROUP BY s.album_id ORDER BY \(order), s.album_id LIMIT ? OFFSET ?
                """, user, count, offset
            ) { try $0.int64("album_id") }
            return try albums(db, listener, ids: ids, kept: kept)
        case .byYear(let from, let to):
            let descending = from > to
            return try albums(
                db, listener,
                "WHERE al.year BETWEEN ? AND ? ORDER BY al.year \(descending ? "DESC" : "ASC"), al.id LIMIT ? OFFSET ?",
                [min(from, to), max(from, to)] + page, kept: kept)
        case .byGenre(let genre):
            return try albums(
                db, listener,
                """
                WHERE al.id IN (SELECT s.album_id FROM songs s JOIN song_genres sg ON sg.song_id = s.id
                    JOIN genres g ON g.id = sg.genre_id WHERE g.name_key = ?)
                ORDER BY al.title COLLATE NOCASE, al.id LIMIT ? OFFSET ?
                """, [CatalogName.key(genre)] + page, kept: kept)
        }
    }

    func allAlbums(_ db: Connection, _ listener: Listener, offset: Int, count: Int) throws -> [AlbumRecord] {
        try albums(db, listener, "ORDER BY al.id LIMIT ? OFFSET ?", [count, offset])
    }

    // MARK: Artists

    /// An artist with one person's favourite and rating, as the catalog reads it.
    typealias ArtistRecord = Catalog.ArtistRow

    func artists(_ db: Connection, _ listener: Listener, _ tail: String, _ arguments: [any SQLBindable] = [])
        throws -> [ArtistRecord]
    {
        try catalog.artistRows(db, tail, arguments, annotations: listener)
    }

    func artist(_ db: Connection, _ listener: Listener, id: Int64) throws -> ArtistRecord? {
        try artists(db, listener, "WHERE ar.id = ?", [id]).first
    }

    func artists(_ db: Connection, _ listener: Listener, ids: [Int64]) throws -> [ArtistRecord] {
        guard !ids.isEmpty else { return [] }
        return try artists(
            db, listener, "JOIN json_each(?) wanted ON wanted.value = ar.id ORDER BY wanted.key",
            [Self.idList(ids)])
    }

    /// Every artist of the library: album artists and those who appear only on tracks (feat., compilations).
    func albumArtists(_ db: Connection, _ listener: Listener) throws -> [ArtistRecord] {
        try artists(
            db, listener, "WHERE ar.albums_count > 0 OR ar.songs_count > 0 ORDER BY ar.name_key, ar.id")
    }

    func allArtists(_ db: Connection, _ listener: Listener, offset: Int, count: Int) throws -> [ArtistRecord]
    {
        try artists(db, listener, "ORDER BY ar.id LIMIT ? OFFSET ?", [count, offset])
    }

    func artistID(_ db: Connection, named name: String) throws -> Int64? {
        try db.queryOne("SELECT id FROM artists WHERE name_key = ?", CatalogName.key(name)) {
            try $0.int64("id")
        }
    }

    /// Other artists sharing a genre with `artistID`, those sharing most songs' genres first.
    func similarArtistIDs(_ db: Connection, artistID: Int64, count: Int) throws -> [Int64] {
        try db.query(
            """
            WITH mine AS (SELECT DISTINCT sg.genre_id FROM song_artists sa JOIN song_genres sg ON sg.song_id = sa.song_id
                WHERE sa.artist_id = ?)
            SELECT sa.artist_id, count(*) AS shared FROM song_genres sg JOIN song_artists sa ON sa.song_id = sg.song_id
            WHERE sg.genre_id IN (SELECT genre_id FROM mine) AND sa.artist_id <> ?
            GROUP BY sa.artist_id ORDER BY shared DESC, sa.artist_id LIMIT ?
            """, artistID, artistID, count
        ) { try $0.int64("artist_id") }
    }

    /// The first artist of a song, or an album's artist.
    func artistID(_ db: Connection, of id: SubsonicID) throws -> Int64? {
        switch id.kind {
        case .artist:
            return try db.queryOne("SELECT id FROM artists WHERE id = ?", id.value) { try $0.int64("id") }
        case .album:
            return try db.queryOne(
                """
                SELECT coalesce(al.artist_id, (SELECT sa.artist_id FROM songs s JOIN song_artists sa ON sa.song_id = s.id
                    WHERE s.album_id = al.id ORDER BY sa.position LIMIT 1)) AS artist_id
                FROM albums al WHERE al.id = ?
                """, id.value
            ) { try $0.optionalInt64("artist_id") } ?? nil
        case .song:
            return try db.queryOne(
                "SELECT artist_id FROM song_artists WHERE song_id = ? ORDER BY position LIMIT 1", id.value
            ) { try $0.int64("artist_id") }
        case .playlist, .radio, .podcastChannel, .podcastEpisode:
            return nil
        }
    }

    // MARK: Genres and the library

    struct GenreRecord: Sendable {
        var name: String
        var songsCount: Int
        var albumsCount: Int
    }

    func genres(_ db: Connection) throws -> [GenreRecord] {
        try db.query(
            """
            SELECT g.name, g.songs_count,
                (SELECT count(DISTINCT s.album_id) FROM song_genres sg JOIN songs s ON s.id = sg.song_id
                    WHERE sg.genre_id = g.id) AS albums_count
            FROM genres g WHERE g.songs_count > 0 ORDER BY g.songs_count DESC, g.name_key
            """
        ) {
            GenreRecord(
                name: try $0.string("name"), songsCount: try $0.int("songs_count"),
                albumsCount: try $0.int("albums_count"))
        }
    }

    func songsCount(_ db: Connection) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM songs") { try $0.int("n") } ?? 0
    }

    /// When the library last changed (a scan finished), in Unix seconds.
    func libraryChangedAt(_ db: Connection) throws -> Int64 {
        try db.queryOne(
            """
            SELECT max(coalesce((SELECT max(finished_at) FROM scan_reports), 0),
                coalesce((SELECT max(updated_at) FROM songs), 0)) AS changed
            """
        ) { try $0.int64("changed") } ?? 0
    }

    // MARK: Starred

    func starredSongs(_ db: Connection, _ listener: Listener) throws -> [SongRecord] {
        try songs(
            db, listener,
            """
            JOIN sheet_songs liked ON liked.sheet_id = ? AND liked.song_id = s.id ORDER BY liked.position
            """, [listener.likesSheetID])
    }

    func starredAlbums(_ db: Connection, _ listener: Listener) throws -> [AlbumRecord] {
        try albums(db, listener, "WHERE fa.created_at IS NOT NULL ORDER BY fa.created_at DESC, al.id")
    }

    func starredArtists(_ db: Connection, _ listener: Listener) throws -> [ArtistRecord] {
        try artists(db, listener, "WHERE fa.created_at IS NOT NULL ORDER BY fa.created_at DESC, ar.id")
    }

    /// Stars albums (those that exist); returns how many exist.
    func favourAlbums(_ db: Connection, userID: Int64, ids: [Int64], now: Int64) throws -> Int {
        try db.execute(
            """
            INSERT OR IGNORE INTO favourite_albums(user_id, album_id, created_at)
            SELECT ?, al.id, ? FROM albums al WHERE al.id IN (SELECT value FROM json_each(?))
            """, userID, now, Self.idList(ids))
        return try existing(db, table: "albums", ids: ids)
    }

    func favourArtists(_ db: Connection, userID: Int64, ids: [Int64], now: Int64) throws -> Int {
        try db.execute(
            """
            INSERT OR IGNORE INTO favourite_artists(user_id, artist_id, created_at)
            SELECT ?, ar.id, ? FROM artists ar WHERE ar.id IN (SELECT value FROM json_each(?))
            """, userID, now, Self.idList(ids))
        return try existing(db, table: "artists", ids: ids)
    }

    func unfavourAlbums(_ db: Connection, userID: Int64, ids: [Int64]) throws -> Int {
        try db.execute(
            "DELETE FROM favourite_albums WHERE user_id = ? AND album_id IN (SELECT value FROM json_each(?))",
            userID,
            Self.idList(ids))
        return try existing(db, table: "albums", ids: ids)
    }

    func unfavourArtists(_ db: Connection, userID: Int64, ids: [Int64]) throws -> Int {
        try db.execute(
            "DELETE FROM favourite_artists WHERE user_id = ? AND artist_id IN (SELECT value FROM json_each(?))",
            userID,
            Self.idList(ids))
        return try existing(db, table: "artists", ids: ids)
    }

    /// How many of `ids` are rows of `table` (albums, artists or songs).
    func existing(_ db: Connection, table: String, ids: [Int64]) throws -> Int {
        precondition(["albums", "artists", "songs"].contains(table))
        guard !ids.isEmpty else { return 0 }
        return try db.queryOne(
            "SELECT count(*) AS n FROM \(table) WHERE id IN (SELECT value FROM json_each(?))",
            Self.idList(ids)
        ) { try $0.int("n") } ?? 0
    }

    // MARK: Ratings

    /// Sets (1-5) or removes (nil) a rating; false when the song, album or artist does not exist.
    func setRating(_ db: Connection, userID: Int64, item: SubsonicID, rating: Int?, now: Int64) throws -> Bool
    {
        let (table, column, owner): (String, String, String)
        switch item.kind {
        case .song: (table, column, owner) = ("song_ratings", "song_id", "songs")
        case .album: (table, column, owner) = ("album_ratings", "album_id", "albums")
        case .artist: (table, column, owner) = ("artist_ratings", "artist_id", "artists")
        case .playlist, .radio, .podcastChannel, .podcastEpisode: return false
        }
        guard try existing(db, table: owner, ids: [item.value]) == 1 else { return false }
        if let rating {
            try db.execute(
                """
                INSERT INTO \(table)(user_id, \(column), rating, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(user_id, \(column)) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at
                """, userID, item.value, rating, now)
        } else {
            try db.execute("DELETE FROM \(table) WHERE user_id = ? AND \(column) = ?", userID, item.value)
        }
        return true
    }

    // MARK: Playlists (sheets)

    struct PlaylistRecord: Sendable {
        var id: Int64
        var ownerID: Int64
        var owner: String
        var title: String
        var detail: String?
        var isPrivate: Bool
        var isLikes: Bool
        var songsCount: Int
        var durationMilliseconds: Int
        var hasCover: Bool
        var createdAt: Int64
        var updatedAt: Int64
    }

    private static let playlistSelect = """
        SELECT sh.id, sh.user_id, u.nickname AS owner, sh.title, sh.detail, sh.is_private, sh.kind, sh.songs_count,
            sh.cover_version, sh.created_at, sh.updated_at,
            (SELECT coalesce(sum(s.duration_ms), 0) FROM sheet_songs ss JOIN songs s ON s.id = ss.song_id
                WHERE ss.sheet_id = sh.id) AS duration_ms
        FROM sheets sh JOIN users u ON u.id = sh.user_id
        """

    private static func decodePlaylist(_ row: Row) throws -> PlaylistRecord {
        let songsCount = try row.int("songs_count")
        return PlaylistRecord(
            id: try row.int64("id"), ownerID: try row.int64("user_id"), owner: try row.string("owner"),
            title: try row.string("title"), detail: try row.optionalString("detail"),
            isPrivate: try row.bool("is_private"), isLikes: try row.int("kind") == 1, songsCount: songsCount,
            durationMilliseconds: try row.int("duration_ms"),
            hasCover: try row.optionalInt64("cover_version") != nil || songsCount > 0,
            createdAt: try row.int64("created_at"), updatedAt: try row.int64("updated_at"))
    }

    func playlist(_ db: Connection, id: Int64) throws -> PlaylistRecord? {
        try db.queryOne("\(Self.playlistSelect) WHERE sh.id = ?", id, decode: Self.decodePlaylist)
    }

    /// A person's own sheets ("I like" first), then the public sheets they collected; `publicOnly` for
    /// someone else's list.
    func playlists(_ db: Connection, ownerID: Int64, includeCollected: Bool, publicOnly: Bool) throws
        -> [PlaylistRecord]
    {
        var rows = try db.query(
            "\(Self.playlistSelect) WHERE sh.user_id = ? \(publicOnly ? "AND sh.is_private = 0" : "") ORDER BY sh.kind DESC, sh.id DESC",
            ownerID, decode: Self.decodePlaylist)
        if includeCollected {
            rows += try db.query(
                """
                \(Self.playlistSelect) JOIN collections c ON c.sheet_id = sh.id
                WHERE c.user_id = ? AND sh.is_private = 0 AND sh.user_id <> ? ORDER BY c.created_at DESC, sh.id DESC
                """, ownerID, ownerID, decode: Self.decodePlaylist)
        }
        return rows
    }

    // MARK: People

    struct PersonRecord: Sendable {
        var id: Int64
        var nickname: String
        var email: String?
        var isAdmin: Bool
        var disabled: Bool
        var hasAvatar: Bool
    }

    /// The person a Subsonic username names: a nickname (any letter case, full-width folded), an email or a
    /// phone number.
    func person(_ db: Connection, username: String) throws -> PersonRecord? {
        let decode: (Row) throws -> PersonRecord = {
            PersonRecord(
                id: try $0.int64("id"), nickname: try $0.string("nickname"),
                email: try $0.optionalString("email"),
                isAdmin: try $0.string("role") == "admin", disabled: try $0.bool("disabled"),
                hasAvatar: try $0.optionalInt64("avatar_version") != nil)
        }
        let columns = "SELECT id, nickname, email, role, disabled, avatar_version FROM users"
        if let found = try db.queryOne(
            "\(columns) WHERE nickname_key = ?",
            AccountRules.nicknameKey(username.trimmingCharacters(in: .whitespaces)),
            decode: decode)
        {
            return found
        }
        if username.contains("@"), let email = try? AccountRules.email(username) {
            return try db.queryOne("\(columns) WHERE email = ?", email, decode: decode)
        }
        if let phone = try? AccountRules.phone(username) {
            return try db.queryOne("\(columns) WHERE phone = ?", phone, decode: decode)
        }
        return nil
    }

    /// Everyone, by nickname (getUsers for administrators).
    func people(_ db: Connection) throws -> [PersonRecord] {
        try db.query(
            "SELECT id, nickname, email, role, disabled, avatar_version FROM users ORDER BY nickname_key, id"
        ) {
            PersonRecord(
                id: try $0.int64("id"), nickname: try $0.string("nickname"),
                email: try $0.optionalString("email"),
                isAdmin: try $0.string("role") == "admin", disabled: try $0.bool("disabled"),
                hasAvatar: try $0.optionalInt64("avatar_version") != nil)
        }
    }

    func person(_ db: Connection, id: Int64) throws -> PersonRecord? {
        try db.queryOne(
            "SELECT id, nickname, email, role, disabled, avatar_version FROM users WHERE id = ?", id
        ) {
            PersonRecord(
                id: try $0.int64("id"), nickname: try $0.string("nickname"),
                email: try $0.optionalString("email"),
                isAdmin: try $0.string("role") == "admin", disabled: try $0.bool("disabled"),
                hasAvatar: try $0.optionalInt64("avatar_version") != nil)
        }
    }

    // MARK: Bookmarks

    struct BookmarkRecord: Sendable {
        var songID: Int64
        var positionMilliseconds: Int64
        var comment: String?
        var createdAt: Int64
        var updatedAt: Int64
    }

    func bookmarks(_ db: Connection, userID: Int64) throws -> [BookmarkRecord] {
        try db.query(
            """
            SELECT song_id, position_ms, comment, created_at, updated_at FROM bookmarks WHERE user_id = ?
            ORDER BY updated_at DESC, song_id
            """, userID
        ) {
            BookmarkRecord(
                songID: try $0.int64("song_id"), positionMilliseconds: try $0.int64("position_ms"),
                comment: try $0.optionalString("comment"), createdAt: try $0.int64("created_at"),
                updatedAt: try $0.int64("updated_at"))
        }
    }

    func saveBookmark(
        _ db: Connection, userID: Int64, songID: Int64, position: Int64, comment: String?, now: Int64
    )
        throws
    {
        try db.execute(
            """
            INSERT INTO bookmarks(user_id, song_id, position_ms, comment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(user_id, song_id) DO UPDATE SET position_ms = excluded.position_ms, comment = excluded.comment,
                updated_at = excluded.updated_at
            """, userID, songID, position, comment, now, now)
    }

    func deleteBookmark(_ db: Connection, userID: Int64, songID: Int64) throws {
        try db.execute("DELETE FROM bookmarks WHERE user_id = ? AND song_id = ?", userID, songID)
    }

    /// Which of `people` let `viewerID` see what they are playing: those whose setting is 'everyone', and
    /// those set to 'followers' (the default) whom the viewer follows.
    func nowPlayingVisible(_ db: Connection, to viewerID: Int64, of people: [Int64]) throws -> Set<Int64> {
        guard !people.isEmpty else { return [] }
        return Set(
            try db.query(
                """
                SELECT u.id FROM users u WHERE u.id IN (SELECT value FROM json_each(?))
                    AND (u.now_playing_visibility = 'everyone' OR (u.now_playing_visibility = 'followers'
                        AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ? AND f.followee_id = u.id)))
                """, Self.idList(people), viewerID
            ) { try $0.int64("id") })
    }

    func nowPlayingVisibility(_ db: Connection, userID: Int64) throws -> NowPlayingVisibility? {
        try db.queryOne("SELECT now_playing_visibility FROM users WHERE id = ?", userID) {
            NowPlayingVisibility(rawValue: try $0.string("now_playing_visibility")) ?? .followers
        }
    }

    func setNowPlayingVisibility(_ db: Connection, userID: Int64, _ visibility: NowPlayingVisibility) throws {
        try db.execute(
            "UPDATE users SET now_playing_visibility = ? WHERE id = ?", visibility.rawValue, userID)
    }

    // MARK: Internet radio

    struct RadioStation: Sendable, Equatable {
        var id: Int64
        var name: String
        var streamURL: String
        var homepageURL: String?
    }

    func radioStations(_ db: Connection) throws -> [RadioStation] {
        try db.query(
            "SELECT id, name, stream_url, homepage_url FROM internet_radio_stations ORDER BY name COLLATE NOCASE, id"
        ) {
            RadioStation(
                id: try $0.int64("id"), name: try $0.string("name"), streamURL: try $0.string("stream_url"),
                homepageURL: try $0.optionalString("homepage_url"))
        }
    }

    func radioStationsCount(_ db: Connection) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM internet_radio_stations") { try $0.int("n") } ?? 0
    }

    func insertRadioStation(_ db: Connection, _ station: RadioStation, now: Int64) throws {
        try db.execute(
            """
            INSERT INTO internet_radio_stations(name, stream_url, homepage_url, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?)
            """, station.name, station.streamURL, station.homepageURL, now, now)
    }

    /// False when there is no such station.
    func updateRadioStation(_ db: Connection, _ station: RadioStation, now: Int64) throws -> Bool {
        try db.execute(
            "UPDATE internet_radio_stations SET name = ?, stream_url = ?, homepage_url = ?, updated_at = ? WHERE id = ?",
            station.name, station.streamURL, station.homepageURL, now, station.id) > 0
    }

    func deleteRadioStation(_ db: Connection, id: Int64) throws -> Bool {
        try db.execute("DELETE FROM internet_radio_stations WHERE id = ?", id) > 0
    }

    // MARK: Who saved the play queue

    /// The client that saved the queue at `version`, if the queue is still that version.
    func queueClient(_ db: Connection, userID: Int64, version: Int) throws -> String? {
        try db.queryOne(
            "SELECT client FROM play_queue_clients WHERE user_id = ? AND version = ?", userID, version
        ) { try $0.string("client") }
    }

    func setQueueClient(_ db: Connection, userID: Int64, version: Int, client: String) throws {
        try db.execute(
            """
            INSERT INTO play_queue_clients(user_id, version, client) VALUES (?, ?, ?)
            ON CONFLICT(user_id) DO UPDATE SET version = excluded.version, client = excluded.client
            """, userID, version, client)
    }
}
