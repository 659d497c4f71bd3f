import Foundation
import HTTPServer
import MusicCore

/// The catalog API: songs, albums, artists, genres, search, lyrics, covers, streams and scans.
struct LibraryRoutes {
    let catalog: CatalogStore
    let media: MediaService
    let scans: ScanService
    let accounts: AccountService

    func register(on router: Router) {
        router.get("/v1/songs") { request in
            let (page, size) = try request.paging()
            let filter = CatalogStore.SongFilter(
                artistID: try request.optionalIDQuery("artist"), albumID: try request.optionalIDQuery("album"),
                genreID: try request.optionalIDQuery("genre"))
            let sort: CatalogSort = try request.enumQuery("sort", default: .name)
            return .json(try catalog.songs(filter: filter, sort: sort, page: page, size: size))
        }
        router.get("/v1/songs/:id") { request in
            guard let song = try catalog.song(id: try request.id(thing: "song")) else { throw Self.noSong }
            return .json(song)
        }
        router.get("/v1/songs/:id/lyric") { request in
            .json(try lyric(songID: try request.id(thing: "song")))
        }
        router.get("/v1/songs/:id/stream") { request in
            guard let file = try catalog.songFile(id: try request.id(thing: "song")) else { throw Self.noSong }
            return try media.stream(file: file, request: request)
        }
        router.get("/v1/songs/:id/cover") { request in
            guard let file = try catalog.songFile(id: try request.id(thing: "song")) else { throw Self.noSong }
            let size = try request.integerQuery("size", default: 0, range: 0...100_000)
            var cover = try media.embeddedCover(songPath: file.path, size: size)
            if cover == nil, let albumID = file.albumID, let sources = try catalog.albumCoverSources(id: albumID) {
                cover = try media.albumCover(albumID: albumID, sources: sources, size: size)
            }
            guard let cover else { throw HTTPError.notFound("This song has no cover art.") }
            return try .file(at: cover, contentType: "image/jpeg", request: request)
        }
        router.get("/v1/albums") { request in
            let (page, size) = try request.paging()
            let sort: CatalogSort = try request.enumQuery("sort", default: .name)
            return .json(
                try catalog.albums(artistID: try request.optionalIDQuery("artist"), sort: sort, page: page, size: size))
        }
        router.get("/v1/albums/:id") { request in
            guard let album = try catalog.album(id: try request.id(thing: "album")) else {
                throw HTTPError.notFound("That album does not exist.")
            }
            return .json(album)
        }
        router.get("/v1/albums/:id/cover") { request in
            let id = try request.id(thing: "album")
            guard let sources = try catalog.albumCoverSources(id: id) else {
                throw HTTPError.notFound("That album does not exist.")
            }
            let size = try request.integerQuery("size", default: 0, range: 0...100_000)
            guard let cover = try media.albumCover(albumID: id, sources: sources, size: size) else {
                throw HTTPError.notFound("This album has no cover art.")
            }
            return try .file(at: cover, request: request)
        }
        router.get("/v1/artists") { request in
            let (page, size) = try request.paging()
            let sort: CatalogSort = try request.enumQuery("sort", default: .name)
            return .json(try catalog.artists(sort: sort, page: page, size: size))
        }
        router.get("/v1/artists/:id") { request in
            guard let artist = try catalog.artist(id: try request.id(thing: "artist")) else {
                throw HTTPError.notFound("That artist does not exist.")
            }
            return .json(artist)
        }
        router.get("/v1/genres") { request in
            let (page, size) = try request.paging(defaultSize: 50, maxSize: 500)
            return .json(try catalog.genres(page: page, size: size))
        }
        router.get("/v1/searches") { request in
            let limit = try request.integerQuery("size", default: 20, range: 1...100)
            return .json(try catalog.search(try searchText(request), limit: limit))
        }
        router.get("/v1/searches/suggests") { request in
            let limit = try request.integerQuery("size", default: 10, range: 1...50)
            return .json(try catalog.suggestions(try searchText(request), limit: limit))
        }
        router.get("/v1/library/scan") { _ in .json(try scans.status()) }
        router.post("/v1/library/scan") { request in
            try accounts.requireAdmin(request, action: "start a library scan")
            return .json(try scans.start(), status: 202)
        }
    }

    static let noSong = HTTPError.notFound("That song does not exist.")

    func searchText(_ request: Request) throws -> String {
        let text = (request.query["q"] ?? request.query["query"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw HTTPError.badRequest("Type something to search for (the 'q' parameter).") }
        guard text.count <= 100 else { throw HTTPError.badRequest("Search text can be at most 100 characters.") }
        return text
    }

    /// A song's lyric as raw text and as parsed lines, so thin clients need no parser.
    struct LyricResponse: Codable, Sendable {
        var songId: String
        var style: Int
        var format: LyricFormat
        var raw: String
        var tags: [String: String]
        var lines: [LyricLine]
        var issues: [LyricIssue]
    }

    func lyric(songID: Int64) throws -> LyricResponse {
        guard let file = try catalog.songFile(id: songID) else { throw Self.noSong }
        guard let raw = CatalogStore.readLyricFile(file.lyricPath) ?? file.embeddedLyric else {
            throw HTTPError.notFound("This song has no lyrics.")
        }
        let format: LyricFormat = file.lyricPath == nil ? LyricParser.detectFormat(raw) : LyricParser.format(forSongStyle: file.lyricStyle)
        let parsed = LyricParser.parse(raw, format: format)
        return LyricResponse(
            songId: String(songID), style: format == .ksc ? 10 : 0, format: format, raw: raw, tags: parsed.tags,
            lines: parsed.lines, issues: parsed.issues)
    }
}
