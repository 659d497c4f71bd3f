import Foundation
import HTTPServer
import MusicCore

/// The handlers of `VideosAPI`.
struct VideoRoutes {
    let videos: VideoService
    let scans: VideoScanService
    let files: FileRoots

    func register(on api: EndpointRouter) {
        api.on(VideosAPI.list) { call in
            try videos.videos(order: call.query.order, paging: call.query.paging, viewer: call.caller)
        }
        api.on(VideosAPI.detail) { call in
            try videos.detail(
                id: call.path.id.rawValue, viewer: call.caller, address: call.request.remoteAddress)
        }
        api.on(VideosAPI.stream) { call in
            let clients =
                ["address:" + call.request.remoteAddress] + (call.caller.map { ["user:\($0.userID)"] } ?? [])
            switch try videos.stream(id: call.path.id.rawValue, query: call.query, clients: clients) {
            case .file(let path):
                return try .storedFile(at: path, in: files, request: call.request)
            case .transcode(let executable, let arguments, let release):
                // A HEAD gets the headers only: no ffmpeg runs, so the slot is freed at once.
                guard call.request.method != .HEAD else {
                    release()
                    return .raw(Data(), contentType: "video/mp4")
                }
                return .stream(contentType: "video/mp4") { writer in
                    defer { release() }
                    try await Transcode.pump(executable: executable, arguments: arguments, into: writer)
                }
            }
        }
        api.on(VideosAPI.cover) { call in
            try .storedFile(
                at: videos.still(id: call.path.id.rawValue), in: files, contentType: "image/jpeg",
                request: call.request)
        }
        api.on(VideosAPI.upload) { call in
            let file = try call.body.storedFile()
            return try videos.upload(
                path: file.path, size: file.size, fields: call.body.fields,
                fileName: call.body.files.first?.fileName,
                viewer: call.caller)
        }
        api.on(VideosAPI.delete) { call in
            try videos.delete(id: call.path.id.rawValue)
            return Done()
        }
        api.on(VideosAPI.like) { call in try videos.like(id: call.path.id.rawValue, viewer: call.caller) }
        api.on(VideosAPI.unlike) { call in try videos.unlike(id: call.path.id.rawValue, viewer: call.caller) }
        api.on(VideosAPI.scanStatus) { _ in scans.status(showFolders: true) }
        api.on(VideosAPI.startScan) { _ in scans.start() }
    }
}
