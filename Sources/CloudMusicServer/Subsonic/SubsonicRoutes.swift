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

    /// What a handler answers: a document, or the bytes of a media method.
    enum Reply {
        case document(SubsonicDocument)
        case media(Response)
    }

    typealias MethodHandler = @Sendable (SubsonicCall) throws -> Reply

    func register(on router: Router) {
        let handlers = self.handlers()
        for method in SubsonicAPI.methods {
            let handler = handlers[method.name]
            precondition(
                (handler == nil) == (method.unsupported != nil),
                "\(method.name): a handler iff the method is supported")
            let route: Handler = { request in self.respond(method, handler, request) }
            for path in ["/rest/\(method.name)", "/rest/\(method.name).view"] {
                router.add(.GET, path, route)
                router.add(.POST, path, route)
            }
        }
        let unknown: Handler = { request in
            let (format, _) = SubsonicFormat.read(SubsonicParameters(request))
            let name = request.path.split(separator: "/").dropFirst().joined(separator: "/")
            let method = name.hasSuffix(".view") ? String(name.dropLast(5)) : name
            return self.render(
                .error(
                    SubsonicError(
                        .generic,
                        "Unknown method '\(method.prefix(64))'. This server speaks Subsonic \(SubsonicAPI.version)."
                    )),
                format)
        }
        router.add(.GET, "/rest/*method", unknown)
        router.add(.POST, "/rest/*method", unknown)
    }

    private func handlers() -> [String: MethodHandler] {
        let service = self.service
        func document(_ body: @escaping @Sendable (SubsonicCall) throws -> SubsonicDocument) -> MethodHandler
        {
            { call in .document(try body(call)) }
        }
        return [
            "ping": document { _ in .empty },
            "getLicense": document { _ in
                SubsonicDocument("license", SubsonicElement([("valid", .bool(true))]))
            },
            "getOpenSubsonicExtensions": document { _ in SubsonicService.extensions() },
            "tokenInfo": document { call in
                SubsonicDocument(
                    "tokenInfo", SubsonicElement([("username", .string(try call.signedIn().username))]))
            },
            "getMusicFolders": document { _ in SubsonicService.musicFolders() },
            "getIndexes": document(service.indexes),
            "getMusicDirectory": document(service.musicDirectory),
            "getGenres": document(service.genres),
            "getArtists": document(service.artists),
            "getArtist": document(service.artist),
            "getAlbum": document(service.album),
            "getSong": document(service.song),
            "getArtistInfo": document { try service.artistInfo($0, id3: false) },
            "getArtistInfo2": document { try service.artistInfo($0, id3: true) },
            "getAlbumInfo": document(service.albumInfo),
            "getAlbumInfo2": document(service.albumInfo),
            "getSimilarSongs": document { try service.similarSongs($0, id3: false) },
            "getSimilarSongs2": document { try service.similarSongs($0, id3: true) },
            "getTopSongs": document(service.topSongs),
            "getAlbumList": document { try service.albumList($0, id3: false) },
            "getAlbumList2": document { try service.albumList($0, id3: true) },
            "getRandomSongs": document(service.randomSongs),
            "getSongsByGenre": document(service.songsByGenre),
            "getNowPlaying": document(service.nowPlaying),
            "getStarred": document { try service.starred($0, id3: false) },
            "getStarred2": document { try service.starred($0, id3: true) },
            "search2": document { try service.search($0, id3: false) },
            "search3": document { try service.search($0, id3: true) },
            "getPlaylists": document(service.playlists),
            "getPlaylist": document(service.playlist),
            "createPlaylist": document(service.createPlaylist),
            "updatePlaylist": document(service.updatePlaylist),
            "deletePlaylist": document(service.deletePlaylist),
            "stream": { call in .media(try stream(call)) },
            "download": { call in .media(try download(call)) },
            "getCoverArt": { call in .media(try coverArt(call)) },
            "getLyrics": document(service.lyrics),
            "getLyricsBySongId": document(service.lyricsBySongID),
            "getAvatar": { call in .media(try avatar(call)) },
            "star": document { try service.star($0, on: true) },
            "unstar": document { try service.star($0, on: false) },
            "setRating": document(service.setRating),
            "scrobble": document(service.scrobble),
            "getBookmarks": document(service.bookmarks),
            "createBookmark": document(service.createBookmark),
            "deleteBookmark": document(service.deleteBookmark),
            "getPlayQueue": document { try service.playQueue($0, byIndex: false) },
            "savePlayQueue": document(service.savePlayQueue),
            "getPlayQueueByIndex": document { try service.playQueue($0, byIndex: true) },
            "savePlayQueueByIndex": document(service.savePlayQueueByIndex),
            "getUser": document(service.user),
            "getScanStatus": document { try service.scanStatus($0, start: false) },
            "startScan": document { try service.scanStatus($0, start: true) },
            "getShares": document { _ in
                var shares = SubsonicElement()
                shares.add("share", many: [])
                return SubsonicDocument("shares", shares)
            },
        ]
    }

    // MARK: Answering

    private func respond(_ method: SubsonicMethod, _ handler: MethodHandler?, _ request: Request) -> Response
    {
        let parameters = SubsonicParameters(request)
        let (format, formatError) = SubsonicFormat.read(parameters)
        do {
            if let formatError { throw formatError }
            var user: SubsonicUser?
            if method.access != .anyone {
                try checkClientVersion(parameters)
                guard parameters.has("c") else { throw SubsonicError.missing("c") }
                let found = try passwords.authenticate(
                    try SubsonicCredentials.read(parameters), address: request.remoteAddress)
                if method.access == .admin && !found.isAdmin {
                    throw SubsonicError(.notAuthorized, "Only an administrator can do this.")
                }
                user = found
            }
            guard let handler else { throw SubsonicError(.generic, method.unsupported ?? "Not supported.") }
            let call = SubsonicCall(
                method: method, arguments: try SubsonicArguments(method, parameters), user: user,
                client: parameters.first("c") ?? "", format: format, request: request)
            switch try handler(call) {
            case .document(let document): return render(document, format)
            case .media(let response): return response
            }
        } catch var error as SubsonicError {
            if error.code == .wrongCredentials || error.code == .invalidAPIKey,
                let host = request.headers["Host"]
            {
                let scheme = request.headers["X-Forwarded-Proto"] == "https" ? "https" : "http"
                error.helpURL = "\(scheme)://\(host)/settings"
            }
            return render(.error(error), format)
        } catch let error as ServiceError {
            return render(.error(SubsonicError(error)), format)
        } catch let error as HTTPError {
            return render(
                .error(SubsonicError(error.status == 404 ? .notFound : .generic, error.message)), format)
        } catch {
            let id = String(UInt32.random(in: .min ... .max), radix: 16)
            logger.error("event=subsonic_error error_id=\(id) method=\(method.name) error=\"\(error)\"")
            return render(
                .error(
                    SubsonicError(
                        .generic,
                        "Something went wrong on the server. Please try again; if it keeps happening, tell the administrator (error id \(id))."
                    )),
                format)
        }
    }

    private func render(_ document: SubsonicDocument, _ format: SubsonicFormat) -> Response {
        switch format {
        case .xml:
            return .raw(
                Data(SubsonicXML.write(document, envelope: envelope)), contentType: "text/xml; charset=utf-8")
        case .json:
            return .raw(
                Data(SubsonicJSON.write(document, envelope: envelope)),
                contentType: "application/json; charset=utf-8")
        case .jsonp(let callback):
            return .raw(
                Data(SubsonicJSON.write(document, envelope: envelope, callback: callback)),
                contentType: "application/javascript; charset=utf-8")
        }
    }

    // MARK: Media

    /// The original file (Range, ETag) unless a conversion is asked: `format` other than the file's, a
    /// `maxBitRate` below the file's, or a `timeOffset` (transcodeOffset). Streaming never counts a play.
    private func stream(_ call: SubsonicCall) throws -> Response {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id").value
        guard let song = try service.database.read({ db in try service.store.streamSong(db, id: id) }) else {
            throw LibraryService.noSong
        }
        let maxBitRate = call.arguments.int("maxBitRate") ?? 0
        let offset = call.arguments.int("timeOffset") ?? 0
        let wanted: StreamFormat? =
            switch call.arguments.text("format")?.lowercased() {
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
        let clients = ["address:" + call.request.remoteAddress, "user:\(user.id)"]
        switch try media.stream(path: song.path, query: query, clients: clients) {
        case .file(let path):
            return try .storedFile(at: path, in: files, request: Self.asGet(call.request))
        case .transcode(let executable, let arguments, let contentType, let release):
            var headers = HTTPHeaders()
            headers.add("X-Content-Duration", String(max(0, song.durationMilliseconds / 1_000 - offset)))
            guard call.request.method != .HEAD else {
                release()
                var response = Response.raw(Data(), contentType: contentType)
                for (name, value) in headers { response.headers.add(name, value) }
                return response
            }
            return .stream(contentType: contentType, headers: headers) { writer in
                defer { release() }
                try await Transcode.pump(executable: executable, arguments: arguments, into: writer)
            }
        }
    }

    /// Media methods come as POST forms too (formPost): Range and conditional requests are answered as for GET.
    private static func asGet(_ request: Request) -> Request {
        guard request.method == .POST else { return request }
        return Request(
            method: .GET, path: request.path, route: request.route, pathParameters: request.pathParameters,
            queryItems: request.queryItems, headers: request.headers, remoteAddress: request.remoteAddress)
    }

    private func download(_ call: SubsonicCall) throws -> Response {
        _ = try call.signedIn()
        let id = try call.arguments.requiredID("id").value
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
    private func coverArt(_ call: SubsonicCall) throws -> Response {
        let user = try call.signedIn()
        var text = call.arguments.text("id") ?? ""
        if let underscore = text.firstIndex(of: "_") { text = String(text[..<underscore]) }
        for kind in SubsonicIDKind.allCases where text.hasPrefix("\(kind.rawValue)-\(kind.rawValue)-") {
            text = String(text.dropFirst(3))
        }
        guard let id = SubsonicID(text) else {
            throw SubsonicError(.notFound, "There is no cover art of that id.")
        }
        let size = call.arguments.int("size") ?? 0
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
        }
        guard let path else { throw SubsonicError(.notFound, "This \(id.kind.noun) has no cover art.") }
        return try .storedFile(at: path, in: files, request: Self.asGet(call.request))
    }

    private func avatar(_ call: SubsonicCall) throws -> Response {
        _ = try call.signedIn()
        let name = call.arguments.text("username") ?? ""
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
