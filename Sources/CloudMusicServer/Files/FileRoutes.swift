import Foundation
import HTTPServer
import MusicCore

/// The handlers of `FilesAPI`: uploads and the stored files.
struct FileRoutes {
    let files: UploadService
    let roots: FileRoots

    func register(on api: EndpointRouter) {
        api.on(FilesAPI.upload) { call in try files.upload(call.body.files, userID: call.caller.userID) }
        api.on(FilesAPI.file) { call in
            let (path, mime) = try files.storedFile(named: call.path.name)
            return try .storedFile(
                at: path, in: roots, contentType: mime, immutable: true, request: call.request)
        }
    }
}
