import Foundation
import HTTPServer
import MusicCore

/// The handlers of `SheetsAPI`: each reads its checked input and calls one use case of the service.
struct SheetRoutes {
    let sheets: SheetService
    let accounts: AccountService
    let files: FileRoots

    func register(on api: EndpointRouter) {
        api.on(SheetsAPI.list) { call in
            try sheets.publicSheets(
                order: call.query.order, tag: call.query.tag, paging: call.query.paging, viewer: call.caller)
        }
        api.on(SheetsAPI.search) { call in
            try sheets.search(call.query.query, paging: call.query.paging, viewer: call.caller)
        }
        api.on(SheetsAPI.create) { call in try sheets.create(call.body, viewer: call.caller) }
        api.on(SheetsAPI.importM3U) { call in
            try sheets.importM3U(
                text: call.body.text, title: try SheetService.title(call.query.title),
                isPrivate: call.query.isPrivate, viewer: call.caller)
        }
        api.on(SheetsAPI.detail) { call in
            try sheets.detail(id: call.path.id.rawValue, viewer: call.caller, songsLimit: call.query.songs)
        }
        api.on(SheetsAPI.update) { call in
            try sheets.update(id: call.path.id.rawValue, call.body, viewer: call.caller)
        }
        api.on(SheetsAPI.delete) { call in
            try sheets.delete(id: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(SheetsAPI.cover) { call in
            try .storedFile(
                at: sheets.cover(sheetID: call.path.id.rawValue, viewer: call.caller), in: files,
                request: call.request
            )
        }
        api.on(SheetsAPI.uploadCover) { call in
            let file = try call.body.storedFile()
            return try sheets.setCover(
                sheetID: call.path.id.rawValue, uploadPath: file.path, size: file.size, viewer: call.caller)
        }
        api.on(SheetsAPI.deleteCover) { call in
            try sheets.removeCover(sheetID: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(SheetsAPI.m3u) { call in
            let (title, text) = try sheets.exportM3U(sheetID: call.path.id.rawValue, viewer: call.caller)
            var response = Response.raw(Data(text.utf8), contentType: "audio/x-mpegurl; charset=utf-8")
            response.headers.add("Content-Disposition", attachment(named: title, extension: "m3u8"))
            return response
        }

        api.on(SheetsAPI.songs) { call in
            try sheets.songs(id: call.path.id.rawValue, viewer: call.caller, paging: call.query.paging)
        }
        api.on(SheetsAPI.addSongs) { call in
            try sheets.addSongs(
                sheetID: call.path.id.rawValue, songIDs: call.body.songIds, viewer: call.caller)
        }
        api.on(SheetsAPI.removeSongs) { call in
            try sheets.removeSongs(
                sheetID: call.path.id.rawValue, songIDs: call.query.songIds, viewer: call.caller)
        }
        api.on(SheetsAPI.removeSong) { call in
            try sheets.removeSongs(
                sheetID: call.path.id.rawValue, songIDs: [call.path.songId.rawValue], viewer: call.caller)
        }
        api.on(SheetsAPI.moveSong) { call in
            try sheets.moveSong(
                sheetID: call.path.id.rawValue, songID: call.path.songId.rawValue, to: call.body.position,
                viewer: call.caller)
        }
        api.on(SheetsAPI.likeSong) { call in
            try sheets.like(songID: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(SheetsAPI.unlikeSong) { call in
            try sheets.unlike(songID: call.path.id.rawValue, viewer: call.caller)
        }

        api.on(SheetsAPI.created) { call in
            _ = try accounts.user(id: call.path.id.rawValue, viewer: call.caller)
            return try sheets.created(
                by: call.path.id.rawValue, paging: call.query.paging, viewer: call.caller)
        }
        api.on(SheetsAPI.collected) { call in
            _ = try accounts.user(id: call.path.id.rawValue, viewer: call.caller)
            return try sheets.collected(
                by: call.path.id.rawValue, paging: call.query.paging, viewer: call.caller)
        }
        api.on(SheetsAPI.collect) { call in
            try sheets.collect(sheetID: call.body.sheetId.rawValue, viewer: call.caller)
        }
        api.on(SheetsAPI.uncollect) { call in
            try sheets.uncollect(sheetID: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }

        api.on(SheetsAPI.reportPlay) { call in
            try sheets.recordPlay(songID: call.body.songId, viewer: call.caller)
        }
        api.on(SheetsAPI.history) { call in
            try sheets.history(order: call.query.order, paging: call.query.paging, viewer: call.caller)
        }
        api.on(SheetsAPI.clearHistory) { call in
            try sheets.clearHistory(viewer: call.caller)
            return Done()
        }
        api.on(SheetsAPI.queue) { call in try sheets.queue(viewer: call.caller) }
        api.on(SheetsAPI.saveQueue) { call in try sheets.saveQueue(call.body, viewer: call.caller) }
    }
}
