import Foundation
import HTTPServer

/// Uploads (`v1/files/multi`) and the stored files (`v1/files/{name}`).
struct FileRoutes {
    let files: UploadService
    let accounts: AccountService

    func register(on router: Router) {
        router.post("/v1/files/multi") { request in
            let viewer = try accounts.requireViewer(request)
            guard case .multipart(let form) = request.body else {
                throw HTTPError.badRequest(
                    "Send the pictures as multipart/form-data file parts (up to \(files.settings.maxFiles)).")
            }
            return .json(try files.upload(form.files, userID: viewer.userID))
        }
        router.get("/v1/files/:name") { request in
            let (path, mime) = try files.storedFile(named: request.pathParameters["name"] ?? "")
            return try .storedPicture(
                at: path, recorded: true, request: request, missing: UploadService.noFile.message,
                contentType: mime, immutable: true)
        }
    }
}
