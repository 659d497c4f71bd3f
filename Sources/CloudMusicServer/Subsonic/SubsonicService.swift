import Foundation
import MusicCore
import Storage
import Synchronization

/// The use cases of the Subsonic API, each one transaction over the stores it needs: the catalog read with
/// the caller's plays, stars and ratings; sheets as playlists (by the sheets' rules); "I like", favourites,
/// ratings, bookmarks, scrobbles and the shared play queue. Answers are `SubsonicDocument`s.
struct SubsonicService: Sendable {
    let database: Database
    let store = SubsonicStore()
    let sheetReads = SheetReads()
    let catalog = Catalog()
    let sheets: SheetService
    let library: LibraryService
    let scans: ScanService
    let nowPlaying: NowPlaying
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// Searches' ids, kept until the library changes (see `SubsonicCatalogCache`).
    var catalogCache = SubsonicCatalogCache()

    static let ignoredArticles = ["The", "El", "La", "Los", "Las", "Le", "Les"]

    // MARK: System

    static func extensions() -> SubsonicDocument {
        SubsonicDocument(
            "openSubsonicExtensions",
            .many(
                SubsonicAPI.extensions.map { item in
                    var element = SubsonicElement([("name", .string(item.name))])
                    element.add("versions", .values(item.versions.map { .int(Int64($0)) }))
                    return element
                }))
    }

    /// The one music folder.
    static func musicFolders() -> SubsonicDocument {
        var folders = SubsonicElement()
        folders.add("musicFolder", many: [SubsonicElement([("id", .int(1)), ("name", .string("Music"))])])
        return SubsonicDocument("musicFolders", folders)
    }

    /// `musicFolderId` may only name the one folder.
    static func checkFolder(_ folder: Int?) throws {
        if let folder, folder != 1 {
            throw SubsonicError(.notFound, "That music folder does not exist (this server has one: 1).")
        }
    }

    // MARK: Browsing

    func indexes(_ user: SubsonicUser, _ parameters: IndexesParameters) throws -> SubsonicDocument {
        try Self.checkFolder(parameters.musicFolderId)
        let (artists, changed) = try database.read { db in
            (try store.albumArtists(db, user.listener), try store.libraryChangedAt(db))
        }
        var element = SubsonicElement()
        let lastModified = changed * 1_000
        element.add("lastModified", lastModified)
        element.add("ignoredArticles", Self.ignoredArticles.joined(separator: " "))
        element.add("shortcut", many: [])
        if let since = parameters.ifModifiedSince, since >= lastModified {
            element.add("index", many: [])
        } else {
            element.add(
                "index",
                many: Self.grouped(artists).map { name, group in
                    var index = SubsonicElement([("name", .string(name))])
                    index.add("artist", many: group.map(SubsonicShapes.artistFolder))
                    return index
                })
        }
        element.add("child", many: [])
        return SubsonicDocument("indexes", element)
    }

    func artists(_ user: SubsonicUser, _ parameters: FolderParameters) throws -> SubsonicDocument {
        try Self.checkFolder(parameters.musicFolderId)
        let artists = try database.read { db in try store.albumArtists(db, user.listener) }
        var element = SubsonicElement()
        element.add("ignoredArticles", Self.ignoredArticles.joined(separator: " "))
        element.add(
            "index",
            many: Self.grouped(artists).map { name, group in
                var index = SubsonicElement([("name", .string(name))])
                index.add("artist", many: group.map { SubsonicShapes.artist($0) })
                return index
            })
        return SubsonicDocument("artists", element)
    }

    /// Artists by index letter: the first letter after an ignored article (A-Z, accents folded), else "#".
    static func grouped(_ artists: [SubsonicStore.ArtistRecord]) -> [(String, [SubsonicStore.ArtistRecord])] {
        var groups: [String: [(key: String, artist: SubsonicStore.ArtistRecord)]] = [:]
        var known = indexEntries.withLock { entries in artists.map { entries[$0.name] } }
        var found: [(String, IndexEntry)] = []
        for (index, artist) in artists.enumerated() where known[index] == nil {
            let entry = indexEntry(artist.name)
            known[index] = entry
            found.append((artist.name, entry))
        }
        if !found.isEmpty {
            indexEntries.withLock { entries in
                if entries.count + found.count > 50_000 { entries.removeAll(keepingCapacity: true) }
                for (name, entry) in found { entries[name] = entry }
            }
        }
        for (index, artist) in artists.enumerated() {
            let (letter, key) = known[index]!
            groups[letter, default: []].append((key, artist))
        }
        return groups.keys.sorted { ($0 == "#" ? 1 : 0, $0) < ($1 == "#" ? 1 : 0, $1) }.map { letter in
            (letter, groups[letter]!.sorted { ($0.key, $0.artist.id) < ($1.key, $1.artist.id) }.map(\.artist))
        }
    }

    private static let articlePrefixes = ignoredArticles.map {
        (prefix: $0.lowercased() + " ", length: $0.count + 1)
    }

    typealias IndexEntry = (letter: String, key: String)

    /// Index entries by artist name, found once (a pure function of the name: never stale); at most 50,000.
    private static let indexEntries = Mutex<[String: IndexEntry]>([:])

    /// An artist's index letter and sort key: the name without an ignored article, accents, letter case and
    /// width folded; a Chinese name by its pinyin. ASCII names skip Foundation's folding, which leaves them
    /// lower-cased.
    static func indexEntry(_ artistName: String) -> IndexEntry {
        var name = trimmedOfSpaces(artistName)
        let lowered = name.lowercased()
        for article in articlePrefixes where lowered.hasPrefix(article.prefix) {
            name = trimmedOfSpaces(String(name.dropFirst(article.length)))
            break
        }
        let folded: String
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            folded = name.lowercased()
        } else {
            folded = name.folding(
                options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        }
        // Chinese names by pinyin: 周杰伦 under "Z", ordered as "zhou jie lun" among the Latin names.
        if let first = folded.unicodeScalars.first, Pinyin.syllable(first) != nil,
            let romanized = Pinyin.romanized(folded)
        {
            return (String(romanized.prefix(1)).uppercased(), romanized)
        }
        let first = folded.unicodeScalars.first.map { Character($0).uppercased() } ?? "#"
        let letter = first.count == 1 && first >= "A" && first <= "Z" ? first : "#"
        return (letter, folded.lowercased())
    }

    func musicDirectory(_ user: SubsonicUser, id: SubsonicID) throws -> SubsonicDocument {
        return try database.read { db in
            var element = SubsonicElement()
            switch id.kind {
            case .artist:
                guard let artist = try store.artist(db, user.listener, id: id.value) else {
                    throw SubsonicError.notFound("artist")
                }
                element.add("id", id.description)
                element.add("name", artist.name)
                element.addDate("starred", artist.starredAt)
                element.add("userRating", artist.rating)
                element.add(
                    "child",
                    many: try store.artistAlbums(db, user.listener, artistID: id.value).map(
                        SubsonicShapes.albumDirectory))
            default:
                let songs = try store.albumSongs(db, user.listener, albumID: id.value)
                guard let album = try store.album(db, user.listener, id: id.value, songs: songs) else {
                    throw SubsonicError.notFound("album")
                }
                element.add("id", id.description)
                element.add("parent", album.artistID.map { SubsonicShapes.id(.artist, $0) })
                element.add("name", album.title)
                element.addDate("starred", album.starredAt)
                element.add("userRating", album.rating)
                element.add("playCount", album.plays)
                element.add("child", many: songs.map(SubsonicShapes.song))
            }
            return SubsonicDocument("directory", element)
        }
    }

    func genres() throws -> SubsonicDocument {
        let genres = try database.read { db in try store.genres(db) }
        var element = SubsonicElement()
        element.add(
            "genre",
            many: genres.map {
                SubsonicElement(
                    [("songCount", .int(Int64($0.songsCount))), ("albumCount", .int(Int64($0.albumsCount)))],
                    text: $0.name)
            })
        return SubsonicDocument("genres", element)
    }

    func artist(_ user: SubsonicUser, id: Int64) throws -> SubsonicDocument {
        try database.read { db in
            guard let artist = try store.artist(db, user.listener, id: id) else {
                throw SubsonicError.notFound("artist")
            }
            let albums = try store.artistAlbums(db, user.listener, artistID: id)
            return SubsonicDocument("artist", SubsonicShapes.artist(artist, albums: albums))
        }
    }

    func album(_ user: SubsonicUser, id: Int64) throws -> SubsonicDocument {
        try database.read { db in
            let songs = try store.albumSongs(db, user.listener, albumID: id)
            guard let album = try store.album(db, user.listener, id: id, songs: songs) else {
                throw SubsonicError.notFound("album")
            }
            return SubsonicDocument("album", SubsonicShapes.album(album, songs: songs))
        }
    }

    func song(_ user: SubsonicUser, id: Int64) throws -> SubsonicDocument {
        try database.read { db in
            guard let song = try store.song(db, user.listener, id: id) else {
                throw SubsonicError.notFound("song")
            }
            return SubsonicDocument("song", SubsonicShapes.song(song))
        }
    }

    /// Similar artists by shared genres (no biography or pictures are kept; none are made up).
    func artistInfo(_ user: SubsonicUser, _ parameters: ArtistInfoParameters, id3: Bool, base: String) throws
        -> SubsonicDocument
    {
        let id = parameters.id
        let count = parameters.count
        return try database.read { db in
            guard let artistID = try store.artistID(db, of: id) else {
                throw SubsonicError.notFound(id.kind.noun)
            }
            let similar = try store.artists(
                db, user.listener, ids: try store.similarArtistIDs(db, artistID: artistID, count: count))
            var element = SubsonicElement()
            // No biography is kept (nothing is fetched from the internet); the pictures are an album's cover.
            Self.addImages(
                to: &element, albumID: try store.albumIDs(db, artistID: artistID).first, base: base)
            element.add(
                "similarArtist",
                many: similar.map { id3 ? SubsonicShapes.artist($0) : SubsonicShapes.artistFolder($0) })
            return SubsonicDocument(id3 ? "artistInfo2" : "artistInfo", element)
        }
    }

    func albumInfo(_ user: SubsonicUser, id: SubsonicID, base: String) throws -> SubsonicDocument {
        return try database.read { db in
            let albumID: Int64
            if id.kind == .song {
                guard let song = try store.song(db, user.listener, id: id.value) else {
                    throw SubsonicError.notFound("song")
                }
                guard let songAlbum = song.albumID else { throw SubsonicError.notFound("album") }
                albumID = songAlbum
            } else {
                albumID = id.value
            }
            guard let album = try store.album(db, user.listener, id: albumID) else {
                throw SubsonicError.notFound("album")
            }
            var element = SubsonicElement()
            if let notes = try store.albumNotes(db, albumID: albumID) { element.add("notes", .text(notes)) }
            if let mbid = album.musicBrainzID { element.add("musicBrainzId", .text(mbid)) }
            Self.addImages(to: &element, albumID: albumID, base: base)
            return SubsonicDocument("albumInfo", element)
        }
    }

    /// The cover of an album at three sizes: the v1 address, which needs no credentials (apps load these
    /// addresses as they are).
    static func addImages(to element: inout SubsonicElement, albumID: Int64?, base: String) {
        guard let albumID else { return }
        for (name, size) in [("smallImageUrl", 64), ("mediumImageUrl", 256), ("largeImageUrl", 1024)] {
            element.add(name, .text("\(base)/v1/albums/\(albumID)/cover?size=\(size)"))
        }
    }

    /// Songs of the artist and of up to ten artists sharing a genre, shuffled.
    func similarSongs(_ user: SubsonicUser, _ parameters: SimilarSongsParameters, id3: Bool) throws
        -> SubsonicDocument
    {
        let id = parameters.id
        let count = parameters.count
        return try database.read { db in
            guard let artistID = try store.artistID(db, of: id) else {
                throw SubsonicError.notFound(id.kind.noun)
            }
            let artists = [artistID] + (try store.similarArtistIDs(db, artistID: artistID, count: 10))
            var element = SubsonicElement()
            element.add(
                "song",
                many: try store.songsOfArtists(db, user.listener, artistIDs: artists, count: count).map(
                    SubsonicShapes.song))
            return SubsonicDocument(id3 ? "similarSongs2" : "similarSongs", element)
        }
    }

    func topSongs(_ user: SubsonicUser, _ parameters: TopSongsParameters) throws -> SubsonicDocument {
        let count = parameters.count
        return try database.read { db in
            let artistID: Int64?
            if let id = parameters.id {
                guard try store.artist(db, user.listener, id: id.value) != nil else {
                    throw SubsonicError.notFound("artist")
                }
                artistID = id.value
            } else if let name = parameters.artist {
                artistID = try store.artistID(db, named: name)
            } else {
                throw SubsonicError.missing("artist")
            }
            var element = SubsonicElement()
            let songs =
                try artistID.map { try store.topSongs(db, user.listener, artistID: $0, count: count) } ?? []
            element.add("song", many: songs.map(SubsonicShapes.song))
            return SubsonicDocument("topSongs", element)
        }
    }

    // MARK: Lists

    func albumList(_ user: SubsonicUser, _ parameters: AlbumListParameters, id3: Bool) throws
        -> SubsonicDocument
    {
        try Self.checkFolder(parameters.musicFolderId)
        let size = parameters.size
        let offset = parameters.offset
        let list: SubsonicStore.AlbumList
        switch parameters.type {
        case .random: list = .random
        case .newest: list = .newest
        case .highest: list = .highest
        case .frequent: list = .frequent
        case .recent: list = .recent
        case .alphabeticalByName: list = .alphabeticalByName
        case .alphabeticalByArtist: list = .alphabeticalByArtist
        case .starred: list = .starred
        case .byYear:
            guard let from = parameters.fromYear else { throw SubsonicError.missing("fromYear") }
            guard let to = parameters.toYear else { throw SubsonicError.missing("toYear") }
            list = .byYear(from: from, to: to)
        case .byGenre:
            guard let genre = parameters.genre else { throw SubsonicError.missing("genre") }
            list = .byGenre(genre)
        }
        let albums = try database.read { db in
            try store.albumList(
                db, user.listener, list, offset: offset, count: size,
                kept: SubsonicStore.KeptAlbumFacts(
                    cache: catalogCache, generation: try SubsonicCatalogCache.generation(db)))
        }
        var element = SubsonicElement()
        element.add(
            "album", many: albums.map { id3 ? SubsonicShapes.album($0) : SubsonicShapes.albumDirectory($0) })
        return SubsonicDocument(id3 ? "albumList2" : "albumList", element)
    }

    func randomSongs(_ user: SubsonicUser, _ parameters: RandomSongsParameters) throws -> SubsonicDocument {
        try Self.checkFolder(parameters.musicFolderId)
        let songs = try database.read { db in
            try store.randomSongs(
                db, user.listener, genre: parameters.genre, fromYear: parameters.fromYear,
                toYear: parameters.toYear, count: parameters.size)
        }
        var element = SubsonicElement()
        element.add("song", many: songs.map(SubsonicShapes.song))
        return SubsonicDocument("randomSongs", element)
    }

    func songsByGenre(_ user: SubsonicUser, _ parameters: SongsByGenreParameters) throws -> SubsonicDocument {
        try Self.checkFolder(parameters.musicFolderId)
        let songs = try database.read { db in
            try store.songsByGenre(
                db, user.listener, genre: parameters.genre, offset: parameters.offset, count: parameters.count
            )
        }
        var element = SubsonicElement()
        element.add("song", many: songs.map(SubsonicShapes.song))
        return SubsonicDocument("songsByGenre", element)
    }

    func nowPlaying(_ user: SubsonicUser) throws -> SubsonicDocument {
        let now = clock()
        let live = nowPlaying.entries(userID: user.id, everyone: true, now: now)
        let (entries, songs) = try database.read { db in
            // Others' songs only where they allow the caller: their followers by default (their setting).
            let allowed = try store.nowPlayingVisible(
                db, to: user.id, of: Array(Set(live.map(\.userID)).subtracting([user.id])))
            let entries = live.filter { $0.userID == user.id || allowed.contains($0.userID) }
            return (entries, try store.songs(db, user.listener, ids: Array(Set(entries.map(\.songID)))))
        }
        let byID = Dictionary(songs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var element = SubsonicElement()
        element.add(
            "entry",
            many: entries.compactMap { entry in
                guard let song = byID[entry.songID] else { return nil }
                var item = SubsonicShapes.song(song)
                item.add("username", entry.username)
                item.add("minutesAgo", Int(max(0, now - entry.startedAt) / 60))
                item.add("playerId", entry.playerID)
                item.add("playerName", entry.client)
                return item
            })
        return SubsonicDocument("nowPlaying", element)
    }

    func starred(_ user: SubsonicUser, _ parameters: FolderParameters, id3: Bool) throws -> SubsonicDocument {
        try Self.checkFolder(parameters.musicFolderId)
        return try database.read { db in
            var element = SubsonicElement()
            let artists = try store.starredArtists(db, user.listener)
            let albums = try store.starredAlbums(db, user.listener)
            let songs = try store.starredSongs(db, user.listener)
            element.add(
                "artist",
                many: artists.map { id3 ? SubsonicShapes.artist($0) : SubsonicShapes.artistFolder($0) })
            element.add(
                "album",
                many: albums.map { id3 ? SubsonicShapes.album($0) : SubsonicShapes.albumDirectory($0) })
            element.add("song", many: songs.map(SubsonicShapes.song))
            return SubsonicDocument(id3 ? "starred2" : "starred", element)
        }
    }

    // MARK: Searching

    /// Artists, albums and songs matching `query`, each list paged on its own. An empty query (also `""`)
    /// lists everything in id order, which is how apps sync a whole library page by page.
    func search(_ user: SubsonicUser, _ parameters: SearchParameters, id3: Bool) throws -> SubsonicDocument {
        try Self.checkFolder(parameters.musicFolderId)
        var query = trimmedOfSpaces(parameters.query ?? "")
        if query == "\"\"" { query = "" }
        while query.hasSuffix("*") { query.removeLast() }
        let counts = (
            artists: parameters.artistCount, albums: parameters.albumCount, songs: parameters.songCount
        )
        let offsets = (
            artists: parameters.artistOffset, albums: parameters.albumOffset, songs: parameters.songOffset
        )
        let listener = user.listener
        let (artists, albums, songs) = try database.read { db in
            if query.isEmpty {
                return (
                    counts.artists == 0
                        ? []
                        : try store.allArtists(db, listener, offset: offsets.artists, count: counts.artists),
                    counts.albums == 0
                        ? []
                        : try store.allAlbums(db, listener, offset: offsets.albums, count: counts.albums),
                    counts.songs == 0
                        ? [] : try store.allSongs(db, listener, offset: offsets.songs, count: counts.songs)
                )
            }
            let generation = try SubsonicCatalogCache.generation(db)
            func ids(_ index: CatalogSearchIndex, _ offset: Int, _ count: Int) throws -> [Int64] {
                guard count > 0 else { return [] }
                let key = SubsonicCatalogCache.SearchKey(
                    index: index, query: query, offset: offset, count: count)
                return try catalogCache.searchIDs(key, generation: generation) {
                    try catalog.searchIDs(db, query, in: index, offset: offset, limit: count)
                }
            }
            return (
                try store.artists(db, listener, ids: try ids(.artist, offsets.artists, counts.artists)),
                try store.albums(
                    db, listener, ids: try ids(.album, offsets.albums, counts.albums),
                    kept: SubsonicStore.KeptAlbumFacts(cache: catalogCache, generation: generation)),
                try store.songs(db, listener, ids: try ids(.song, offsets.songs, counts.songs))
            )
        }
        var element = SubsonicElement()
        element.add(
            "artist", many: artists.map { id3 ? SubsonicShapes.artist($0) : SubsonicShapes.artistFolder($0) })
        element.add(
            "album", many: albums.map { id3 ? SubsonicShapes.album($0) : SubsonicShapes.albumDirectory($0) })
        element.add("song", many: songs.map(SubsonicShapes.song))
        return SubsonicDocument(id3 ? "searchResult3" : "searchResult2", element)
    }

    // MARK: Lyrics

    /// The old lyrics method: plain text of the first song matching the artist and title; empty when none.
    func lyrics(_ parameters: LyricsParameters) throws -> SubsonicDocument {
        let artist = parameters.artist
        let title = parameters.title
        let ids = try database.read { db in try store.songIDs(db, title: title, artist: artist) }
        var element = SubsonicElement()
        for id in ids {
            guard let lyric = try? library.lyric(songID: id) else { continue }
            element.add("artist", artist)
            element.add("title", title)
            element.text = SubsonicLyrics.plainText(lyric)
            return SubsonicDocument("lyrics", element)
        }
        element.text = ""
        return SubsonicDocument("lyrics", element)
    }

    /// songLyrics: the song's lyric as structured lyrics (v2 cues with `enhanced=true`); no lyric is an empty
    /// list, an unknown song 70.
    func lyricsBySongID(_ user: SubsonicUser, _ parameters: SongLyricsParameters) throws -> SubsonicDocument {
        let id = parameters.id
        guard let song = try database.read({ db in try store.song(db, user.listener, id: id.value) }) else {
            throw SubsonicError.notFound("song")
        }
        var element = SubsonicElement()
        let lyric: SongLyric?
        do {
            lyric = try library.lyric(songID: id.value)
        } catch let error as ServiceError where error.kind == .notFound {
            lyric = nil
        }
        let artist = song.artists.isEmpty ? nil : song.artists.map(\.name).joined(separator: " / ")
        let structured = lyric.flatMap {
            SubsonicLyrics.structured(
                $0, songTitle: song.title, songArtist: artist,
                enhanced: parameters.enhanced ?? false)
        }
        element.add("structuredLyrics", many: structured.map { [$0] } ?? [])
        return SubsonicDocument("lyricsList", element)
    }
}
