import Foundation
import HTTPServer
import MusicCore

/// The handlers of `CatalogAPI`: the catalog, lyrics, covers, streams and scans.
struct LibraryRoutes {
    let library: LibraryService
    let media: MediaService
    let scans: ScanService
    var files: FileRoots { library.files }

    func register(on api: EndpointRouter) {
        api.on(CatalogAPI.songs) { call in try library.songs(call.query) }
        api.on(CatalogAPI.song) { call in
            try library.song(
                id: call.path.id.rawValue,
                viewer: ClickViewer(userID: call.caller?.userID, address: call.request.remoteAddress))
        }
        api.on(CatalogAPI.lyric) { call in try library.lyric(songID: call.path.id.rawValue) }
        api.on(CatalogAPI.stream) { call in
            let file = try library.songFile(id: call.path.id.rawValue)
            let clients =
                ["address:" + call.request.remoteAddress] + (call.caller.map { ["user:\($0.userID)"] } ?? [])
            let reply = try media.stream(file: file, query: call.query, clients: clients)
            // A player asks for the rest of a song by Range as it plays: only its start is a click.
            let range = call.request.headers["range"]
            if call.request.method != .HEAD, range == nil || range!.hasPrefix("bytes=0-") {
                library.streamStarted(
                    songID: file.id,
                    viewer: ClickViewer(userID: call.caller?.userID, address: call.request.remoteAddress))
            }
            switch reply {
            case .file(let path):
                return try .storedFile(at: path, in: files, request: call.request)
            case .transcode(let executable, let arguments, let contentType, let release):
                // A HEAD gets the headers only: no ffmpeg runs, so the slot is freed at once.
                guard call.request.method != .HEAD else {
                    release()
                    return .raw(Data(), contentType: contentType)
                }
                return .stream(contentType: contentType) { writer in
                    defer { release() }
                    try await Transcode.pump(executable: executable, arguments: arguments, into: writer)
                }
            }
        }
        api.on(CatalogAPI.songCover) { call in
            let file = try library.songFile(id: call.path.id.rawValue)
            let size = call.query.size
            var cover = try media.embeddedCover(songPath: file.path, size: size)
            if cover == nil, let albumID = file.albumID {
                cover = try media.albumCover(
                    albumID: albumID, sources: try library.albumCoverSources(id: albumID), size: size)
            }
            guard let cover else { return Self.placeholderCover }
            return try .storedFile(at: cover, in: files, request: call.request)
        }
        api.on(CatalogAPI.albums) { call in try library.albums(call.query) }
        api.on(CatalogAPI.album) { call in try library.album(id: call.path.id.rawValue) }
        api.on(CatalogAPI.albumCover) { call in
            let sources = try library.albumCoverSources(id: call.path.id.rawValue)
            guard
                let cover = try media.albumCover(
                    albumID: call.path.id.rawValue, sources: sources, size: call.query.size)
            else { return Self.placeholderCover }
            return try .storedFile(at: cover, in: files, request: call.request)
        }
        api.on(CatalogAPI.artists) { call in try library.artists(call.query) }
        api.on(CatalogAPI.artist) { call in try library.artist(id: call.path.id.rawValue) }
        api.on(CatalogAPI.genres) { call in try library.genres(paging: call.query.paging) }
        // As long as the server keeps a search: a client asking again within it would get the same answer.
        let searches = AnswerCaching.fresh(seconds: Int(LibraryService.searchSeconds))
        api.on(
            CatalogAPI.search, caching: searches,
            prepared: { call in try library.preparedSearch(call.query.text, limit: call.query.size) })
        api.on(
            CatalogAPI.suggestions, caching: searches,
            prepared: { call in try library.preparedSuggestions(call.query.text, limit: call.query.size) })
        api.on(CatalogAPI.scanStatus) { _ in try scans.status() }
        api.on(CatalogAPI.startScan) { _ in try scans.start() }
    }

    /// What a song or album without cover art shows: the models always name a cover address (the scanner
    /// learns whether a cover exists only when one is first asked for), so it answers a neutral picture rather
    /// than a 404 that every page showing the album would log. Kept a day: a cover added later shows then.
    static let placeholderCover = Response(
        status: 200,
        headers: HTTPHeaders([
            ("Content-Type", "image/svg+xml"), ("Cache-Control", "public, max-age=86400"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
        ]),
        body: .data(
            Data(
                """
                <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" fill="#e4e4ea"/>\
                <path d="M48 26v25.6a9 9 0 1 0 4 7.4V38h12V26z" fill="#9a9aa5"/></svg>
                """.utf8)))
}
