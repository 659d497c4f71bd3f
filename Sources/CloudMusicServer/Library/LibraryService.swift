import Foundation
import HTTPServer
import MusicCore
import Storage

/// The library's use cases: browsing and searching the catalog, lyrics, and where songs' files are.
struct LibraryService: Sendable {
    let database: Database
    let catalog = CatalogStore()
    /// Where song files and their sidecars may be read from.
    let files: FileRoots
    /// Counts a song's detail and stream starts as clicks, once per viewer in 30 seconds (none in tools
    /// that only read the catalog).
    var clicks: ViewerClicks?
    /// Searches' and suggestions' answers as JSON for `searchSeconds`: a word that matches half the library
    /// is typed again and again (and suggestions at every key), and ranking it is the costly part. A
    /// finished scan forgets them all (`forgetSearches`).
    let searches = ExpiringCache<SearchKey, KeptAnswer>(capacity: 2_000)
    static let searchSeconds = 30.0

    /// A kept answer's JSON and its tag, hashed once when it is built rather than at every request.
    struct KeptAnswer: Sendable {
        var json: Data
        var etag: String
    }

    struct SearchKey: Hashable, Sendable {
        var suggestions: Bool
        var text: String
        var limit: Int
    }

    static let noSong = ServiceError.notFound("That song does not exist.")
    static let noAlbum = ServiceError.notFound("That album does not exist.")

    func songs(_ query: SongListQuery) throws -> Page<Song> {
        let filter = CatalogStore.SongFilter(
            artistID: query.artist, albumID: query.album, genreID: query.genre)
        return try database.read { db in
            try catalog.songs(db, filter: filter, sort: query.sort, paging: query.paging)
        }
    }

    /// A song with its raw lyric text (its sidecar file when readable, else the embedded lyric).
    func song(id: Int64, viewer: ClickViewer? = nil) throws -> Song {
        let found = try database.read { db in (try catalog.song(db, id: id), try catalog.songFile(db, id: id))
        }
        guard var song = found.0, let file = found.1 else { throw Self.noSong }
        song.lyric = lyricText(file)
        if let clicks, let viewer {
            song.clicksCount += clicks.view(.song, id: id, by: viewer)
        }
        return song
    }

    /// A stream of the song starts (not a later Range of it): a click, once per viewer in 30 seconds.
    func streamStarted(songID: Int64, viewer: ClickViewer) {
        clicks?.view(.song, id: songID, by: viewer)
    }

    /// A lyric sidecar (at most 1 MiB; UTF-8, with or without BOM, or GB18030 as Chinese LRC often is), else
    /// the lyric embedded in the tags.
    private func lyricText(_ file: CatalogStore.SongFile) -> String? {
        guard let path = file.lyricPath, let data = files.read(path, limit: 1 << 20), !data.isEmpty else {
            return file.embeddedLyric
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        return TextEncoding.decodeGB18030(data) ?? String(decoding: data, as: UTF8.self)
    }

    /// Counts a play of the song (its and its album's plays), on the caller's connection (the play's
    /// transaction); false when there is no such song.
    static func countPlay(_ db: Connection, songID: Int64, at time: Int64) throws -> Bool {
        try CatalogStore().countPlay(db, songID: songID, at: time)
    }

    /// Adds counted clicks (`ViewerClicks` writes them in batches).
    static func addClicks(_ db: Connection, _ counts: [Int64: Int]) throws {
        try CatalogStore().addClicks(db, counts)
    }

    func songFile(id: Int64) throws -> CatalogStore.SongFile {
        guard let file = try database.read({ db in try catalog.songFile(db, id: id) }) else {
            throw Self.noSong
        }
        return file
    }

    func albums(_ query: AlbumListQuery) throws -> Page<Album> {
        try database.read { db in
            try catalog.albums(db, artistID: query.artist, sort: query.sort, paging: query.paging)
        }
    }

    func album(id: Int64) throws -> Album {
        guard let album = try database.read({ db in try catalog.album(db, id: id) }) else {
            throw Self.noAlbum
        }
        return album
    }

    func albumCoverSources(id: Int64) throws -> (folderCover: String?, songPaths: [String]) {
        guard let sources = try database.read({ db in try catalog.albumCoverSources(db, id: id) }) else {
            throw Self.noAlbum
        }
        return sources
    }

    func artists(_ query: ArtistListQuery) throws -> Page<Artist> {
        try database.read { db in try catalog.artists(db, sort: query.sort, paging: query.paging) }
    }

    func artist(id: Int64) throws -> Artist {
        guard let artist = try database.read({ db in try catalog.artist(db, id: id) }) else {
            throw ServiceError.notFound("That artist does not exist.")
        }
        return artist
    }

    func genres(paging: Paging) throws -> Page<Genre> {
        try database.read { db in try catalog.genres(db, paging: paging) }
    }

    func search(_ text: String, limit: Int) throws -> SearchResults {
        try database.read { db in try catalog.search(db, text, limit: limit) }
    }

    func suggestions(_ text: String, limit: Int) throws -> [SearchSuggestion] {
        try database.read { db in try catalog.suggestions(db, text, limit: limit) }
    }

    /// `search`, answered from the searches kept for the last 30 seconds when it was asked then.
    func preparedSearch(_ text: String, limit: Int) throws -> PreparedAnswer<SearchResults> {
        try prepared(SearchKey(suggestions: false, text: text, limit: limit)) {
            SearchJSON.bytes(try search(text, limit: limit))
        }
    }

    /// `suggestions`, answered like `preparedSearch`.
    func preparedSuggestions(_ text: String, limit: Int) throws -> PreparedAnswer<[SearchSuggestion]> {
        try prepared(SearchKey(suggestions: true, text: text, limit: limit)) {
            var json = JSONWriter(capacity: 64 + limit * 128)
            json.array(try suggestions(text, limit: limit)) { $0.value($1) }
            return json.bytes
        }
    }

    /// Forgets the kept searches (the library changed).
    func forgetSearches() { searches.invalidateAll() }

    /// A kept answer, or a new one from `json` (the answer's bytes, written by hand: see `SearchJSON`).
    private func prepared<A: Encodable & Sendable>(
        _ key: SearchKey, _ json: @escaping @Sendable () throws -> [UInt8]
    ) throws -> PreparedAnswer<A> {
        let kept = try searches.value(key) {
            let built = PreparedAnswer<A>(json: Data(try json()))
            return (
                KeptAnswer(json: built.json, etag: built.etag),
                Date().timeIntervalSince1970 + Self.searchSeconds
            )
        }
        return PreparedAnswer(json: kept.json, etag: kept.etag)
    }

    /// A song's lyric as raw text and as parsed lines, so thin clients need no parser.
    func lyric(songID: Int64) throws -> SongLyric {
        let file = try songFile(id: songID)
        guard let raw = lyricText(file) else {
            throw ServiceError.notFound("This song has no lyrics.")
        }
        let format: LyricFormat =
            file.lyricPath == nil
            ? LyricParser.detectFormat(raw) : LyricParser.format(forSongStyle: file.lyricStyle)
        let parsed = LyricParser.parse(raw, format: format)
        return SongLyric(
            songId: String(songID), style: format == .ksc ? 10 : 0, format: format, raw: raw,
            tags: parsed.tags,
            lines: parsed.lines, issues: parsed.issues)
    }
}
