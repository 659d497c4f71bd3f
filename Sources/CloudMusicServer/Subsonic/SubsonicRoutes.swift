import Foundation
import HTTPServer
import MusicCore

/// `/rest/<method>` and `/rest/<method>.view`, GET or POST form, for every method `SubsonicAPI.methods`
/// declares: the answer's format from `f`, the client's version (`v`), the credentials (an app password as a
/// token, a password or an API key), the caller's rights, then the declared parameters, all checked before the
/// handler runs. Every answer is HTTP 200 with a `subsonic-response`, errors included, except the bytes of
/// media methods.
struct SubsonicRoutes: Sendable {
    let service: SubsonicService
    let passwords: AppPasswordService
    let media: MediaService
    /// The folders a file named by the database may be opened in.
    let files: FileRoots
    let accounts: AccountService
    let logger: Logger
    let envelope: SubsonicEnvelope
    /// Podcasts: the podcast methods, and episodes (`pe-`) in stream, download, scrobble and createBookmark.
    let podcasts: PodcastService

    private var episodes: PodcastRoutes { PodcastRoutes(podcasts: podcasts, files: files) }

    func register(on router: Router) {
        let rest = SubsonicRouter(router: router, routes: self)
        let service = self.service
        rest.on(SubsonicAPI.ping) { _ in .empty }
        rest.on(SubsonicAPI.getLicense) { _ in
            SubsonicDocument("license", SubsonicElement([("valid", .bool(true))]))
        }
        rest.on(SubsonicAPI.getOpenSubsonicExtensions) { _ in SubsonicService.extensions() }
        rest.on(SubsonicAPI.tokenInfo) { call in
            SubsonicDocument("tokenInfo", SubsonicElement([("username", .string(call.user.username))]))
        }
        rest.on(SubsonicAPI.getMusicFolders) { _ in SubsonicService.musicFolders() }
        rest.on(SubsonicAPI.getIndexes) { try service.indexes($0.user, $0.parameters) }
        rest.on(SubsonicAPI.getMusicDirectory) { try service.musicDirectory($0.user, id: $0.parameters.id) }
        rest.on(SubsonicAPI.getGenres) { _ in try service.genres() }
        rest.on(SubsonicAPI.getArtists) { try service.artists($0.user, $0.parameters) }
        rest.on(SubsonicAPI.getArtist) { try service.artist($0.user, id: $0.parameters.id) }
        rest.on(SubsonicAPI.getAlbum) { try service.album($0.user, id: $0.parameters.id) }
        rest.on(SubsonicAPI.getSong) { try service.song($0.user, id: $0.parameters.id) }
        rest.on(SubsonicAPI.getArtistInfo) {
            try service.artistInfo($0.user, $0.parameters, id3: false, base: Self.base($0.request))
        }
        rest.on(SubsonicAPI.getArtistInfo2) {
            try service.artistInfo($0.user, $0.parameters, id3: true, base: Self.base($0.request))
        }
        rest.on(SubsonicAPI.getAlbumInfo) {
            try service.albumInfo($0.user, id: $0.parameters.id, base: Self.base($0.request))
        }
        rest.on(SubsonicAPI.getAlbumInfo2) {
            try service.albumInfo($0.user, id: $0.parameters.id, base: Self.base($0.request))
        }
        rest.on(SubsonicAPI.getSimilarSongs) { try service.similarSongs($0.user, $0.parameters, id3: false) }
        rest.on(SubsonicAPI.getSimilarSongs2) { try service.similarSongs($0.user, $0.parameters, id3: true) }
        rest.on(SubsonicAPI.getTopSongs) { try service.topSongs($0.user, $0.parameters) }
        rest.on(SubsonicAPI.getAlbumList) { try service.albumList($0.user, $0.parameters, id3: false) }
        rest.on(SubsonicAPI.getAlbumList2) { try service.albumList($0.user, $0.parameters, id3: true) }
        rest.on(SubsonicAPI.getRandomSongs) { try service.randomSongs($0.user, $0.parameters) }
        rest.on(SubsonicAPI.getSongsByGenre) { try service.songsByGenre($0.user, $0.parameters) }
        rest.on(SubsonicAPI.getNowPlaying) { try service.nowPlaying($0.user) }
        rest.on(SubsonicAPI.getStarred) { try service.starred($0.user, $0.parameters, id3: false) }
        rest.on(SubsonicAPI.getStarred2) { try service.starred($0.user, $0.parameters, id3: true) }
        rest.on(SubsonicAPI.search2) { try service.search($0.user, $0.parameters, id3: false) }
        rest.on(SubsonicAPI.search3) { try service.search($0.user, $0.parameters, id3: true) }
        rest.on(SubsonicAPI.getPlaylists) { try service.playlists($0.user, username: $0.parameters.username) }
        rest.on(SubsonicAPI.getPlaylist) { try service.playlist($0.user, id: $0.parameters.id) }
        rest.on(SubsonicAPI.createPlaylist) { try service.createPlaylist($0.user, $0.parameters) }
        rest.on(SubsonicAPI.updatePlaylist) { try service.updatePlaylist($0.user, $0.parameters) }
        rest.on(SubsonicAPI.deletePlaylist) { try service.deletePlaylist($0.user, id: $0.parameters.id) }
        rest.on(SubsonicAPI.stream, media: stream)
        rest.on(SubsonicAPI.download, media: download)
        rest.on(SubsonicAPI.getCoverArt, media: coverArt)
        rest.on(SubsonicAPI.getLyrics) { try service.lyrics($0.parameters) }
        rest.on(SubsonicAPI.getLyricsBySongId) { try service.lyricsBySongID($0.user, $0.parameters) }
        rest.on(SubsonicAPI.getAvatar, media: avatar)
        rest.on(SubsonicAPI.star) { try service.star($0.user, $0.parameters, on: true) }
        rest.on(SubsonicAPI.unstar) { try service.star($0.user, $0.parameters, on: false) }
        rest.on(SubsonicAPI.setRating) { try service.setRating($0.user, $0.parameters) }
        rest.on(SubsonicAPI.scrobble) { [podcasts] call in
            var parameters = call.parameters
            // Episodes heard to their end are marked played; songs count plays as before.
            let episodes = parameters.id.indices.filter { parameters.id[$0].kind == .podcastEpisode }
            if !episodes.isEmpty {
                if parameters.submission ?? true {
                    for index in episodes {
                        try podcasts.markPlayed(
                            episodeID: parameters.id[index].value, viewer: call.user.viewer,
                            atMilliseconds: index < parameters.time.count ? parameters.time[index] : nil)
                    }
                }
                parameters.id = parameters.id.filter { $0.kind != .podcastEpisode }
                if parameters.time.count == call.parameters.id.count {
                    parameters.time = parameters.time.indices.filter { !episodes.contains($0) }.map {
                        parameters.time[$0]
                    }
                }
                if parameters.id.isEmpty { return .empty }
            }
            return try service.scrobble(call.user, parameters, client: call.client)
        }
        rest.on(SubsonicAPI.getBookmarks) { [podcasts] call in
            try service.bookmarks(call.user, episodes: podcasts.unfinishedEpisodes(viewer: call.user.viewer))
        }
        rest.on(SubsonicAPI.createBookmark) { [podcasts] call in
            let parameters = call.parameters
            guard parameters.id.kind == .podcastEpisode else {
                return try service.createBookmark(call.user, parameters)
            }
            // A bookmark in an episode is one's place in it, shared with the web player and the apps.
            _ = try podcasts.saveProgress(
                episodeID: parameters.id.value,
                draft: EpisodeProgressDraft(position: Double(parameters.position ?? 0) / 1_000),
                viewer: call.user.viewer)
            return .empty
        }
        rest.on(SubsonicAPI.deleteBookmark) { [podcasts] call in
            let id = call.parameters.id
            guard id.kind == .podcastEpisode else {
                return try service.deleteBookmark(call.user, songID: id.value)
            }
            // Forgetting one's place is a place at the start, so that every device (gPodder ones too) hears of it.
            _ = try podcasts.saveProgress(
                episodeID: id.value, draft: EpisodeProgressDraft(position: 0), viewer: call.user.viewer)
            return .empty
        }
        rest.on(SubsonicAPI.getPlayQueue) { try service.playQueue($0.user, byIndex: false) }
        rest.on(SubsonicAPI.savePlayQueue) {
            try service.savePlayQueue($0.user, $0.parameters, client: $0.client)
        }
        rest.on(SubsonicAPI.getPlayQueueByIndex) { try service.playQueue($0.user, byIndex: true) }
        rest.on(SubsonicAPI.savePlayQueueByIndex) {
            try service.savePlayQueueByIndex($0.user, $0.parameters, client: $0.client)
        }
        rest.on(SubsonicAPI.getInternetRadioStations) { _ in try service.radioStations() }
        rest.on(SubsonicAPI.createInternetRadioStation) { try service.createRadioStation($0.parameters) }
        rest.on(SubsonicAPI.updateInternetRadioStation) { try service.updateRadioStation($0.parameters) }
        rest.on(SubsonicAPI.deleteInternetRadioStation) {
            try service.deleteRadioStation(id: $0.parameters.id)
        }
        rest.on(SubsonicAPI.getUser) { try service.user($0.user, username: $0.parameters.username) }
        rest.on(SubsonicAPI.getUsers) { try service.users($0.user) }
        rest.on(SubsonicAPI.getScanStatus) { _ in try service.scanStatus(start: false) }
        rest.on(SubsonicAPI.startScan) { _ in try service.scanStatus(start: true) }
        rest.on(SubsonicAPI.getShares) { _ in
            var shares = SubsonicElement()
            shares.add("share", many: [])
            return SubsonicDocument("shares", shares)
        }
        SubsonicPodcasts(podcasts: podcasts).register(on: rest)
        for method in SubsonicAPI.unsupported {
            rest.refuse(method.name, SubsonicError(.generic, method.unsupported ?? "Not supported."))
        }
        rest.finish()
    }

    /// The address apps reach the server at, for the addresses an answer names (album info's covers).
    static func base(_ request: Request) -> String {
        let host = request.headers["Host"] ?? "localhost"
        let scheme = request.headers["X-Forwarded-Proto"] == "https" ? "https" : "http"
        return "\(scheme)://\(host)"
    }

    // MARK: Answering

    /// What a handler answers: a document, or the bytes of a media method.
    enum Reply {
        case document(SubsonicDocument)
        case media(Response)
    }

    /// The checks every method shares, then its handler: the answer's format from `f`, the client's version
    /// (`v`) and name (`c`), the credentials and the caller's rights, then the declared parameters. Every
    /// refusal is a `subsonic-response` with HTTP 200.
    func respond<P: SubsonicParameterSet, C: SubsonicCaller>(
        _ method: SubsonicEndpoint<P, C>, _ request: Request,
        _ handle: (SubsonicCall<P, C.Person>) throws -> Reply
    ) -> Response {
        let parameters = SubsonicParameters(request)
        let (format, formatError) = SubsonicFormat.read(parameters)
        do {
            if let formatError { throw formatError }
            var user: SubsonicUser?
            if C.access != .anyone {
                try checkClientVersion(parameters)
                guard parameters.has("c") else { throw SubsonicError.missing("c") }
                user = try passwords.authenticate(
                    try SubsonicCredentials.read(parameters), address: request.remoteAddress)
            }
            let person = try C.person(user)
            let read: P
            do {
                read = try P.read(first: parameters.first, all: parameters.all)
            } catch let error as SubsonicParameterError {
                throw SubsonicError(error)
            }
            let call = SubsonicCall(
                parameters: read, user: person, client: parameters.first("c") ?? "", request: request)
            switch try handle(call) {
            case .document(let document): return render(document, format)
            case .media(var response):
                Self.allowAnyOrigin(&response)
                return response
            }
        } catch {
            return refusal(error, method: method.name, format: format, request: request)
        }
    }

    /// A refusal in the Subsonic envelope (HTTP 200, `status="failed"`).
    func refusal(_ error: any Error, method: String, format: SubsonicFormat, request: Request) -> Response {
        switch error {
        case var error as SubsonicError:
            if error.code == .wrongCredentials || error.code == .invalidAPIKey {
                error.helpURL = Self.base(request) + "/settings"
            }
            return render(.error(error), format)
        case let error as ServiceError:
            return render(.error(SubsonicError(error)), format)
        case let error as any HTTPResponseError:
            return render(.error(SubsonicError(error)), format)
        default:
            let id = String(UInt32.random(in: .min ... .max), radix: 16)
            logger.error("event=subsonic_error error_id=\(id) method=\(method.prefix(64)) error=\"\(error)\"")
            return render(
                .error(
                    SubsonicError(
                        .generic,
                        "Something went wrong on the server. Please try again; if it keeps happening, tell the administrator (error id \(id))."
                    )),
                format)
        }
    }

    func render(_ document: SubsonicDocument, _ format: SubsonicFormat) -> Response {
        Self.render(document, format, envelope: envelope)
    }

    /// Every error the HTTP layer answers for a `/rest` address (more than 1,000 parameters, an address or a
    /// body too large, a malformed form, another HTTP method) in the Subsonic envelope with HTTP 200, as every
    /// other refusal; the app gives this to the server's `ErrorRenderer` for `/rest`.
    static func refusals(envelope: SubsonicEnvelope) -> ErrorRenderer.Render {
        { error, context in
            // A refused body may be what was too large: without a request, only the query says the format.
            let parameters =
                context.request.map(SubsonicParameters.init)
                ?? SubsonicParameters(
                    items: ["f", "callback"].compactMap { name in context.queryValue(name).map { (name, $0) }
                    })
            let (format, _) = SubsonicFormat.read(parameters)
            return render(.error(SubsonicError(error)), format, envelope: envelope)
        }
    }

    static func render(_ document: SubsonicDocument, _ format: SubsonicFormat, envelope: SubsonicEnvelope)
        -> Response
    {
        var response: Response
        switch format {
        case .xml:
            response = .raw(
                Data(SubsonicXML.write(document, envelope: envelope)), contentType: "text/xml; charset=utf-8")
        case .json:
            response = .raw(
                Data(SubsonicJSON.write(document, envelope: envelope)),
                contentType: "application/json; charset=utf-8")
        case .jsonp(let callback):
            response = .raw(
                Data(SubsonicJSON.write(document, envelope: envelope, callback: callback)),
                contentType: "application/javascript; charset=utf-8")
        }
        Self.allowAnyOrigin(&response)
        return response
    }

    /// Subsonic apps sign every request with parameters, never with cookies or other ambient credentials, so
    /// any web page may call `/rest` (Feishin's and Airsonic-refix's web builds do): CORS `*`. A server whose
    /// `--cors-origin` names origins answers those itself (the HTTP layer puts the origin in its place).
    static func allowAnyOrigin(_ response: inout Response) {
        guard !response.headers.contains("Access-Control-Allow-Origin") else { return }
        response.headers.add("Access-Control-Allow-Origin", "*")
        response.headers.add(
            "Access-Control-Expose-Headers",
            "Content-Length, Content-Range, Accept-Ranges, ETag, Last-Modified, X-Content-Duration")
    }

    // MARK: Media

    /// The original file (Range, ETag) unless a conversion is asked: `format` other than the file's, a
    /// `maxBitRate` below the file's, or a `timeOffset` (transcodeOffset). Streaming never counts a play.
    private func stream(_ call: SubsonicCall<StreamParameters, SubsonicUser>) throws -> Response {
        let user = call.user
        if call.parameters.id.kind == .podcastEpisode {
            return try episodes.audio(episodeID: call.parameters.id.value, request: Self.asGet(call.request))
        }
        let id = call.parameters.id.value
        guard let song = try service.database.read({ db in try service.store.streamSong(db, id: id) }) else {
            throw LibraryService.noSong
        }
        let maxBitRate = call.parameters.maxBitRate
        let offset = call.parameters.timeOffset
        let wanted: StreamFormat? =
            switch call.parameters.format?.lowercased() {
            case "raw": .raw
            case "mp3": .mp3
            case "opus", "ogg", "oga": .opus
            case "aac", "m4a", "mp4": .aac
            default: nil
            }
        var query = StreamQuery(format: .raw, maxBitRate: 0, timeOffset: offset > 0 ? Double(offset) : nil)
        if let wanted, wanted != .raw {
            let sameFormat = song.format == wanted.rawValue || (wanted == .aac && song.format == "m4a")
            if !sameFormat || (maxBitRate > 0 && song.bitRate > maxBitRate) || offset > 0 {
                query.format = wanted
                query.maxBitRate = maxBitRate
            }
        } else if wanted == nil, maxBitRate > 0, song.bitRate > maxBitRate {
            query.format = .mp3
            query.maxBitRate = maxBitRate
        }
        // The original file: opened and checked once, and that descriptor is sent.
        if MediaService.sendsOriginal(query) {
            let file = try media.openOriginal(path: song.path)
            return try .file(
                descriptor: file.take(), contentType: mimeType(forPath: song.path),
                request: Self.asGet(call.request))
        }
        // A transcode's length is known ahead only as an estimate (its duration at the bit rate, as Navidrome
        // estimates it); a client that asks for it, or for a range, gets that length, and a range starts
        // ffmpeg at the matching time (a constant bit rate makes bytes and seconds proportional).
        let seconds = max(0, Double(song.durationMilliseconds) / 1_000 - Double(offset))
        let estimate = Int(
            (seconds * Double(MediaService.transcodeBitRate(query)) * 1_000 / 8).rounded(.up))
        let range = call.request.method == .HEAD ? nil : Self.byteRange(call.request.headers["Range"])
        let sized = (call.parameters.estimateContentLength ?? false) || range != nil
        var status = 200
        var length: Int? = sized ? estimate : nil
        var headers = HTTPHeaders()
        if sized { headers.add("Accept-Ranges", "bytes") }
        if let range {
            guard estimate > 0, range.start < estimate else {
                var refused = Response(status: 416, body: Data())
                refused.headers.add("Content-Range", "bytes */\(estimate)")
                return refused
            }
            let end = min(range.end ?? estimate - 1, estimate - 1)
            status = 206
            length = end - range.start + 1
            headers.add("Content-Range", "bytes \(range.start)-\(end)/\(estimate)")
            query.timeOffset = Double(offset) + seconds * Double(range.start) / Double(estimate)
        }
        headers.add("X-Content-Duration", String(Int(seconds.rounded())))
        let clients = ["address:" + call.request.remoteAddress, "user:\(user.id)"]
        switch try media.stream(path: song.path, query: query, clients: clients) {
        case .file(let path):
            return try .storedFile(at: path, in: files, request: Self.asGet(call.request))
        case .transcode(let executable, let arguments, let contentType, let release):
            // A HEAD gets the headers a GET would (its length when estimated); no ffmpeg runs.
            if call.request.method == .HEAD { release() }
            let head = call.request.method == .HEAD
            let exactly = length
            var response = Response.stream(contentType: contentType, status: status, headers: headers) {
                writer in
                guard !head else { return }
                defer { release() }
                try await Transcode.pump(
                    executable: executable, arguments: arguments, into: writer, exactly: exactly)
            }
            response.streamLength = exactly
            return response
        }
    }

    /// `bytes=START-` or `bytes=START-END` (one range; a suffix range or several are read as none).
    static func byteRange(_ header: String?) -> (start: Int, end: Int?)? {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0].trimmingCharacters(in: .whitespaces)), start >= 0
        else { return nil }
        let endText = parts[1].trimmingCharacters(in: .whitespaces)
        if endText.isEmpty { return (start, nil) }
        guard let end = Int(endText), end >= start else { return nil }
        return (start, end)
    }

    /// Media methods come as POST forms too (formPost): Range and conditional requests are answered as for GET.
    private static func asGet(_ request: Request) -> Request {
        guard request.method == .POST else { return request }
        return Request(
            method: .GET, path: request.path, route: request.route, pathParameters: request.pathParameters,
            queryItems: request.queryItems, headers: request.headers, remoteAddress: request.remoteAddress)
    }

    private func download(_ call: SubsonicCall<DownloadParameters, SubsonicUser>) throws -> Response {
        if call.parameters.id.kind == .podcastEpisode {
            return try episodes.audio(episodeID: call.parameters.id.value, request: Self.asGet(call.request))
        }
        let id = call.parameters.id.value
        let file = try service.library.songFile(id: id)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw SubsonicError(
                .notFound, "This song's file is missing from the music folder; a rescan will remove it.")
        }
        var response = try Response.storedFile(at: file.path, in: files, request: Self.asGet(call.request))
        let title =
            try service.database.read { db in try service.store.streamFacts(db, songID: id)?.title } ?? "song"
        response.headers.add(
            "Content-Disposition", attachment(named: title, extension: (file.path as NSString).pathExtension))
        return response
    }

    /// A cover by coverArt id; entity ids and the decorations clients add (`pl-pl-5`, `al-7_hash`) work too.
    private func coverArt(_ call: SubsonicCall<CoverArtParameters, SubsonicUser>) throws -> Response {
        let user = call.user
        var text = call.parameters.id
        if let underscore = text.firstIndex(of: "_") { text = String(text[..<underscore]) }
        for kind in SubsonicIDKind.allCases where text.hasPrefix("\(kind.rawValue)-\(kind.rawValue)-") {
            text = String(text.dropFirst(3))
        }
        guard let id = SubsonicID(text) else {
            throw SubsonicError(.notFound, "There is no cover art of that id.")
        }
        let size = call.parameters.size
        let library = service.library
        func albumCover(_ albumID: Int64) throws -> String? {
            try media.albumCover(
                albumID: albumID, sources: try library.albumCoverSources(id: albumID), size: size)
        }
        var path: String?
        switch id.kind {
        case .album:
            path = try albumCover(id.value)
        case .song:
            let file = try library.songFile(id: id.value)
            path = try media.embeddedCover(songPath: file.path, size: size)
            if path == nil, let albumID = file.albumID { path = try albumCover(albumID) }
        case .artist:
            let albums = try service.database.read { db in try service.store.albumIDs(db, artistID: id.value)
            }
            for albumID in albums where path == nil { path = try albumCover(albumID) }
        case .playlist:
            let sheet = try service.sheets.visibleSheet(id: id.value, viewer: user.viewer)
            if sheet.coverVersion != nil {
                path = try service.sheets.cover(sheetID: id.value, viewer: user.viewer)
            } else if let albumID = sheet.firstAlbumID {
                path = try albumCover(albumID)
            }
        case .radio:
            path = nil
        case .podcastChannel, .podcastEpisode:
            return try podcastCover(id)
        }
        guard let path else { throw SubsonicError(.notFound, "This \(id.kind.noun) has no cover art.") }
        var response = try Response.storedFile(at: path, in: files, request: Self.asGet(call.request))
        // Apps ask for the same covers all day: kept 30 days, then asked again with the ETag (a 304 when the
        // cover is the same). Private: the address carries the caller's credentials and a sheet may be private.
        response.headers.replace("Cache-Control", Self.coverCaching)
        return response
    }

    static let coverCaching = "private, max-age=2592000"

    /// A podcast's picture (an episode shows its podcast's), fetched from the feed's address by the server.
    private func podcastCover(_ id: SubsonicID) throws -> Response {
        let podcastID =
            id.kind == .podcastEpisode
            ? try podcasts.episodeRecord(id: id.value, viewerID: nil).podcastID : id.value
        let (data, type) = try waitFor { [podcasts] in try await podcasts.cover(podcastID: podcastID) }
        var response = Response.raw(data, contentType: type)
        response.headers.replace("Cache-Control", "private, max-age=3600")
        return response
    }

    private func avatar(_ call: SubsonicCall<UsernameParameters, SubsonicUser>) throws -> Response {
        let name = call.parameters.username
        guard let person = try service.database.read({ db in try service.store.person(db, username: name) })
        else {
            throw SubsonicError.notFound("user")
        }
        let path = accounts.avatarPath(userID: person.id)
        guard person.hasAvatar, FileManager.default.fileExists(atPath: path) else {
            throw SubsonicError(.notFound, "This user has no avatar.")
        }
        return try .storedFile(
            at: path, in: files, contentType: "image/jpeg", request: Self.asGet(call.request))
    }
}
