import Foundation
import HTTPServer
import MusicCore

/// The handlers of `AdsAPI`.
struct AdRoutes {
    let ads: AdService
    let files: FileRoots

    func register(on api: EndpointRouter) {
        // Splash and banner answers are kept by the apps and checked again with their ETag.
        api.on(
            AdsAPI.list, caching: .revalidate,
            prepared: { call in
                try ads.showing(position: call.query.position, paging: call.query.paging)
            })
        api.on(AdsAPI.icon) { call in
            let file = try ads.file(adID: call.path.id.rawValue, video: false)
            return try .storedFile(at: file.path, in: files, contentType: file.type, request: call.request)
        }
        api.on(AdsAPI.video) { call in
            let file = try ads.file(adID: call.path.id.rawValue, video: true)
            return try .storedFile(at: file.path, in: files, contentType: file.type, request: call.request)
        }
        api.on(AdsAPI.adminList) { call in
            try ads.adminList(position: call.query.position, paging: call.query.paging)
        }
        api.on(AdsAPI.create) { call in
            try ads.create(call.body.fields, files: call.body.files, createdBy: call.caller.userID)
        }
        api.on(AdsAPI.update) { call in try ads.update(id: call.path.id.rawValue, call.body) }
        api.on(AdsAPI.replaceMedia) { call in
            try ads.replaceMedia(id: call.path.id.rawValue, files: call.body.files)
        }
        api.on(AdsAPI.delete) { call in
            try ads.delete(id: call.path.id.rawValue)
            return Done()
        }
        api.on(AdsAPI.reorder) { call in try ads.reorder(call.body) }
    }
}
