import Foundation
import HTTPServer
import MusicCore

/// The API of each person's music: sheets and their songs, likes, collections, play history and the queue.
struct SheetRoutes {
    let sheets: SheetService
    let accounts: AccountService

    struct SongIDsBody: Decodable {
        var songIds: [String]
    }

    struct MoveBody: Decodable {
        var position: Int
    }

    struct CollectBody: Decodable {
        var sheetId: String
    }

    struct DeleteAccountBody: Decodable {
        var password: String?
    }

    struct PlayBody: Decodable {
        var songId: String
    }

    struct PlayResult: Codable {
        /// False when the same song was counted for this person moments ago.
        var counted: Bool
    }

    func register(on router: Router) {
        registerSheets(on: router)
        registerSongsOfSheets(on: router)
        registerPeople(on: router)
        registerListening(on: router)
    }

    private func registerSheets(on router: Router) {
        router.get("/v1/sheets") { request in
            let (page, size) = try request.paging()
            let order = try request.enumQuery("order", default: SheetStore.SheetListOrder.new)
            let viewer = try accounts.viewer(request)
            return .json(
                try sheets.store.publicSheets(order: order, page: page, size: size, viewerID: viewer?.userID))
        }
        router.get("/v1/searches/sheets") { request in
            let (page, size) = try request.paging()
            guard let query = request.query["query"], !query.isEmpty, query.count <= 100 else {
                throw HTTPError.badRequest("Type what to look for in 'query' (up to 100 characters).")
            }
            let viewer = try accounts.viewer(request)
            return .json(try sheets.store.search(query, page: page, size: size, viewerID: viewer?.userID))
        }
        router.post("/v1/sheets") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(
                try sheets.create(try request.decode(SheetService.SheetInput.self), viewer: viewer),
                status: 201)
        }
        router.post("/v1/sheets/import") { request in
            let viewer = try accounts.requireViewer(request)
            let text: String
            switch request.body {
            case .data(let data, _):
                text = String(decoding: data, as: UTF8.self)
            case .multipart(let form):
                guard let file = form.files.first else {
                    throw HTTPError.badRequest("Send the playlist as a file field or as the request body.")
                }
                guard file.size <= 8 << 20 else {
                    throw HTTPError.tooLarge("A playlist can be at most 8 MB.")
                }
                text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file.path)), as: UTF8.self)
            default:
                throw HTTPError.badRequest("Send the text of an .m3u or .m3u8 playlist as the request body.")
            }
            let title = try SheetService.title(request.query["title"])
            let result = try sheets.importM3U(
                text: text, title: title, isPrivate: request.query["private"] == "true", viewer: viewer)
            return .json(result, status: 201)
        }
        router.get("/v1/sheets/:id") { request in
            let limit = try request.integerQuery("songs", default: 100, range: 0...1_000)
            return .json(
                try sheets.detail(
                    id: try request.id(thing: "sheet"), viewer: try accounts.viewer(request),
                    songsLimit: limit))
        }
        router.patch("/v1/sheets/:id") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "sheet")
            return .json(
                try sheets.update(id: id, try request.decode(SheetService.SheetInput.self), viewer: viewer))
        }
        router.delete("/v1/sheets/:id") { request in
            let viewer = try accounts.requireViewer(request)
            try sheets.delete(id: try request.id(thing: "sheet"), viewer: viewer)
            return .ok()
        }
        router.get("/v1/sheets/:id/cover") { request in
            let id = try request.id(thing: "sheet")
            let sheet = try sheets.visibleSheet(id: id, viewer: try accounts.viewer(request))
            return try .storedPicture(
                at: sheets.coverPath(sheetID: id), recorded: sheet.coverVersion != nil, request: request,
                missing: "This sheet has no cover of its own; its icon is its first song's.")
        }
        router.post("/v1/sheets/:id/cover") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "sheet")
            guard case .multipart(let form) = request.body, let file = form.files.first else {
                throw HTTPError.badRequest(
                    "Send the picture as a multipart/form-data file field named 'file'.")
            }
            return .json(
                try sheets.setCover(sheetID: id, uploadPath: file.path, size: file.size, viewer: viewer))
        }
        router.delete("/v1/sheets/:id/cover") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(try sheets.removeCover(sheetID: try request.id(thing: "sheet"), viewer: viewer))
        }
        router.get("/v1/sheets/:id/m3u") { request in
            let (title, text) = try sheets.exportM3U(
                sheetID: try request.id(thing: "sheet"), viewer: try accounts.viewer(request))
            var response = Response.raw(Data(text.utf8), contentType: "audio/x-mpegurl; charset=utf-8")
            let ascii = String(
                title.unicodeScalars.map { $0.isASCII && $0.properties.isAlphabetic ? Character($0) : "_" })
            let encoded = title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "sheet"
            response.headers.add(
                "Content-Disposition",
                "attachment; filename=\"\(ascii).m3u8\"; filename*=UTF-8''\(encoded).m3u8")
            return response
        }
    }

    private func registerSongsOfSheets(on router: Router) {
        router.get("/v1/sheets/:id/songs") { request in
            let (page, size) = try request.paging(defaultSize: 50, maxSize: 500)
            return .json(
                try sheets.songs(
                    id: try request.id(thing: "sheet"), viewer: try accounts.viewer(request), page: page,
                    size: size))
        }
        router.post("/v1/sheets/:id/relations") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "sheet")
            let body = try request.decode(SongIDsBody.self)
            return .json(try sheets.addSongs(sheetID: id, songIDs: body.songIds, viewer: viewer))
        }
        router.delete("/v1/sheets/:id/relations") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "sheet")
            let ids = (request.query["songIds"] ?? "").split(separator: ",").map(String.init)
            return .json(try sheets.removeSongs(sheetID: id, songIDs: ids, viewer: viewer))
        }
        router.delete("/v1/sheets/:id/relations/:songId") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "sheet")
            let songID = try request.id("songId", thing: "song")
            return .json(try sheets.removeSongs(sheetID: id, songIDs: [String(songID)], viewer: viewer))
        }
        router.patch("/v1/sheets/:id/relations/:songId") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "sheet")
            let songID = try request.id("songId", thing: "song")
            let body = try request.decode(MoveBody.self)
            return .json(try sheets.moveSong(sheetID: id, songID: songID, to: body.position, viewer: viewer))
        }
        router.put("/v1/songs/:id/like") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(try sheets.like(songID: try request.id(thing: "song"), viewer: viewer))
        }
        router.delete("/v1/songs/:id/like") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(try sheets.unlike(songID: try request.id(thing: "song"), viewer: viewer))
        }
    }

    private func registerPeople(on router: Router) {
        router.delete("/v1/users/:id") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "user")
            let password = try? request.decode(DeleteAccountBody.self).password
            let covers = try sheets.store.sheetIDsWithCovers(userID: id)
            try accounts.deleteUser(id: id, password: password, viewer: viewer)
            for sheetID in covers { unlink(sheets.coverPath(sheetID: sheetID)) }
            return .ok()
        }
        router.get("/v1/users/:id/create") { request in
            let id = try request.id(thing: "user")
            let viewer = try accounts.viewer(request)
            _ = try accounts.user(id: id, viewer: viewer)
            let (page, size) = try request.paging()
            return .json(
                try sheets.store.createdSheets(
                    userID: id, includePrivate: viewer?.userID == id, page: page, size: size,
                    viewerID: viewer?.userID))
        }
        router.get("/v1/users/:id/collect") { request in
            let id = try request.id(thing: "user")
            let viewer = try accounts.viewer(request)
            _ = try accounts.user(id: id, viewer: viewer)
            let (page, size) = try request.paging()
            return .json(
                try sheets.store.collectedSheets(userID: id, page: page, size: size, viewerID: viewer?.userID)
            )
        }
        router.post("/v1/collections") { request in
            let viewer = try accounts.requireViewer(request)
            let body = try request.decode(CollectBody.self)
            guard let id = Int64(body.sheetId), id > 0 else { throw SheetService.noSheet }
            return .json(try sheets.collect(sheetID: id, viewer: viewer), status: 201)
        }
        router.delete("/v1/collections/:id") { request in
            let viewer = try accounts.requireViewer(request)
            try sheets.uncollect(sheetID: try request.id(thing: "sheet"), viewer: viewer)
            return .ok()
        }
    }

    private func registerListening(on router: Router) {
        router.post("/v1/plays") { request in
            let viewer = try accounts.requireViewer(request)
            let body = try request.decode(PlayBody.self)
            guard let id = Int64(body.songId), id > 0 else {
                throw HTTPError.notFound("That song does not exist.")
            }
            return .json(PlayResult(counted: try sheets.recordPlay(songID: id, viewer: viewer)), status: 201)
        }
        router.get("/v1/plays") { request in
            let viewer = try accounts.requireViewer(request)
            let (page, size) = try request.paging()
            let order = try request.enumQuery("order", default: SheetStore.HistoryOrder.recent)
            return .json(try sheets.history(order: order, page: page, size: size, viewer: viewer))
        }
        router.delete("/v1/plays") { request in
            let viewer = try accounts.requireViewer(request)
            try sheets.store.clearHistory(userID: viewer.userID)
            return .ok()
        }
        router.get("/v1/queue") { request in
            .json(try sheets.queue(viewer: try accounts.requireViewer(request)))
        }
        router.put("/v1/queue") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(
                try sheets.saveQueue(try request.decode(SheetService.QueueInput.self), viewer: viewer))
        }
    }
}
