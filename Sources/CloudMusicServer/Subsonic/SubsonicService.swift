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
    let sheetStore = SheetStore()
    let catalog = CatalogStore()
    let sheets: SheetService
    let library: LibraryService
    let scans: ScanService
    let nowPlaying: NowPlaying
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// Searches' ids, kept until the library changes (see `SubsonicCatalogCache`).
    var catalogCache = SubsonicCatalogCache()

    static let ignoredArticles = ["The", "El", "La", "Los", "Las", "Le", "Les"]
    /// The most items a list method returns (`size`, `count`): the spec's 500.
    static let maxListSize = 500

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
    static func checkFolder(_ arguments: SubsonicArguments) throws {
        if let folder = arguments.integer("musicFolderId"), folder != 1 {
            throw SubsonicError(.notFound, "That music folder does not exist (this server has one: 1).")
        }
    }

    // MARK: Browsing

    func indexes(_ call: SubsonicCall) throws -> SubsonicDocument {
        try Self.checkFolder(call.arguments)
        let user = try call.signedIn()
        let (artists, changed) = try database.read { db in
            (try store.albumArtists(db, user.listener), try store.libraryChangedAt(db))
        }
        var element = SubsonicElement()
        let lastModified = changed * 1_000
        element.add("lastModified", lastModified)
        element.add("ignoredArticles", Self.ignoredArticles.joined(separator: " "))
        element.add("shortcut", many: [])
        if let since = call.arguments.integer("ifModifiedSince"), since >= lastModified {
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

    func artists(_ call: SubsonicCall) throws -> SubsonicDocument {
        try Self.checkFolder(call.arguments)
        let user = try call.signedIn()
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
    /// width folded. ASCII names skip Foundation's folding, which leaves them lower-cased.
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
        let first = folded.unicodeScalars.first.map { Character($0).uppercased() } ?? "#"
        let letter = first.count == 1 && first >= "A" && first <= "Z" ? first : "#"
        return (letter, folded.lowercased())
    }

    func musicDirectory(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
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

    func genres(_ call: SubsonicCall) throws -> SubsonicDocument {
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

    func artist(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
        return try database.read { db in
            guard let artist = try store.artist(db, user.listener, id: id.value) else {
                throw SubsonicError.notFound("artist")
            }
            let albums = try store.artistAlbums(db, user.listener, artistID: id.value)
            return SubsonicDocument("artist", SubsonicShapes.artist(artist, albums: albums))
        }
    }

    func album(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
        return try database.read { db in
            let songs = try store.albumSongs(db, user.listener, albumID: id.value)
            guard let album = try store.album(db, user.listener, id: id.value, songs: songs) else {
                throw SubsonicError.notFound("album")
            }
            return SubsonicDocument("album", SubsonicShapes.album(album, songs: songs))
        }
    }

    func song(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
        return try database.read { db in
            guard let song = try store.song(db, user.listener, id: id.value) else {
                throw SubsonicError.notFound("song")
            }
            return SubsonicDocument("song", SubsonicShapes.song(song))
        }
    }

    /// Similar artists by shared genres (no biography or pictures are kept; none are made up).
    func artistInfo(_ call: SubsonicCall, id3: Bool) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
        let count = call.arguments.int("count") ?? 20
        return try database.read { db in
            guard let artistID = try store.artistID(db, of: id) else {
                throw SubsonicError.notFound(id.kind.noun)
            }
            let similar = try store.artists(
                db, user.listener, ids: try store.similarArtistIDs(db, artistID: artistID, count: count))
            var element = SubsonicElement()
            element.add(
                "similarArtist",
                many: similar.map { id3 ? SubsonicShapes.artist($0) : SubsonicShapes.artistFolder($0) })
            return SubsonicDocument(id3 ? "artistInfo2" : "artistInfo", element)
        }
    }

    func albumInfo(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
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
            if let mbid = album.musicBrainzID { element.add("musicBrainzId", .text(mbid)) }
            return SubsonicDocument("albumInfo", element)
        }
    }

    /// Songs of the artist and of up to ten artists sharing a genre, shuffled.
    func similarSongs(_ call: SubsonicCall, id3: Bool) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
        let count = call.arguments.int("count") ?? 50
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

    func topSongs(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let count = call.arguments.int("count") ?? 50
        return try database.read { db in
            let artistID: Int64?
            if let id = call.arguments.id("id") {
                guard try store.artist(db, user.listener, id: id.value) != nil else {
                    throw SubsonicError.notFound("artist")
                }
                artistID = id.value
            } else if let name = call.arguments.text("artist") {
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

    func albumList(_ call: SubsonicCall, id3: Bool) throws -> SubsonicDocument {
        try Self.checkFolder(call.arguments)
        let user = try call.signedIn()
        let arguments = call.arguments
        let size = min(arguments.int("size") ?? 10, Self.maxListSize)
        let offset = arguments.int("offset") ?? 0
        let list: SubsonicStore.AlbumList
        switch arguments.text("type") ?? "" {
        case "random": list = .random
        case "newest": list = .newest
        case "highest": list = .highest
        case "frequent": list = .frequent
        case "recent": list = .recent
        case "alphabeticalByName": list = .alphabeticalByName
        case "alphabeticalByArtist": list = .alphabeticalByArtist
        case "starred": list = .starred
        case "byYear":
            guard let from = arguments.int("fromYear") else { throw SubsonicError.missing("fromYear") }
            guard let to = arguments.int("toYear") else { throw SubsonicError.missing("toYear") }
            list = .byYear(from: from, to: to)
        case "byGenre":
            guard let genre = arguments.text("genre") else { throw SubsonicError.missing("genre") }
            list = .byGenre(genre)
        default: throw SubsonicError.missing("type")
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

    func randomSongs(_ call: SubsonicCall) throws -> SubsonicDocument {
        try Self.checkFolder(call.arguments)
        let user = try call.signedIn()
        let arguments = call.arguments
        let songs = try database.read { db in
            try store.randomSongs(
                db, user.listener, genre: arguments.text("genre"), fromYear: arguments.int("fromYear"),
                toYear: arguments.int("toYear"), count: min(arguments.int("size") ?? 10, Self.maxListSize))
        }
        var element = SubsonicElement()
        element.add("song", many: songs.map(SubsonicShapes.song))
        return SubsonicDocument("randomSongs", element)
    }

    func songsByGenre(_ call: SubsonicCall) throws -> SubsonicDocument {
        try Self.checkFolder(call.arguments)
        let user = try call.signedIn()
        let arguments = call.arguments
        let songs = try database.read { db in
            try store.songsByGenre(
                db, user.listener, genre: arguments.text("genre") ?? "", offset: arguments.int("offset") ?? 0,
                count: min(arguments.int("count") ?? 10, Self.maxListSize))
        }
        var element = SubsonicElement()
        element.add("song", many: songs.map(SubsonicShapes.song))
        return SubsonicDocument("songsByGenre", element)
    }

    func nowPlaying(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let now = clock()
        let entries = nowPlaying.entries(userID: user.id, everyone: user.isAdmin, now: now)
        let songs = try database.read { db in
            try store.songs(db, user.listener, ids: Array(Set(entries.map(\.songID))))
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

    func starred(_ call: SubsonicCall, id3: Bool) throws -> SubsonicDocument {
        try Self.checkFolder(call.arguments)
        let user = try call.signedIn()
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
    func search(_ call: SubsonicCall, id3: Bool) throws -> SubsonicDocument {
        try Self.checkFolder(call.arguments)
        let user = try call.signedIn()
        let arguments = call.arguments
        var query = trimmedOfSpaces(arguments.text("query") ?? "")
        if query == "\"\"" { query = "" }
        while query.hasSuffix("*") { query.removeLast() }
        let counts = (
            artists: arguments.int("artistCount") ?? 20, albums: arguments.int("albumCount") ?? 20,
            songs: arguments.int("songCount") ?? 20
        )
        let offsets = (
            artists: arguments.int("artistOffset") ?? 0, albums: arguments.int("albumOffset") ?? 0,
            songs: arguments.int("songOffset") ?? 0
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
            func ids(_ index: LibraryStore.SearchIndex, _ offset: Int, _ count: Int) throws -> [Int64] {
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
    func lyrics(_ call: SubsonicCall) throws -> SubsonicDocument {
        _ = try call.signedIn()
        let artist = call.arguments.text("artist")
        let title = call.arguments.text("title")
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
    func lyricsBySongID(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
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
                enhanced: call.arguments.flag("enhanced") ?? false)
        }
        element.add("structuredLyrics", many: structured.map { [$0] } ?? [])
        return SubsonicDocument("lyricsList", element)
    }
}
