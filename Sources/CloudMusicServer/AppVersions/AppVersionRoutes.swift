import MusicCore

/// The handlers of `AppVersionsAPI`.
struct AppVersionRoutes {
    let versions: AppVersionService

    func register(on api: EndpointRouter) {
        api.on(AppVersionsAPI.latest) { call in
            try versions.latest(platform: call.query.platform, version: call.query.version)
        }
        api.on(AppVersionsAPI.adminList) { call in
            try versions.list(platform: call.query.platform, paging: call.query.paging)
        }
        api.on(AppVersionsAPI.publish) { call in
            try versions.publish(call.body, createdBy: call.caller.userID)
        }
        api.on(AppVersionsAPI.update) { call in try versions.update(id: call.path.id.rawValue, call.body) }
        api.on(AppVersionsAPI.delete) { call in
            try versions.delete(id: call.path.id.rawValue)
            return Done()
        }
    }
}
