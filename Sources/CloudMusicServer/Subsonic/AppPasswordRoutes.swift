import Foundation
import HTTPServer
import MusicCore

/// The handlers of `AppPasswordsAPI`: making, listing and revoking app passwords.
struct AppPasswordRoutes {
    let passwords: AppPasswordService

    func register(on api: EndpointRouter) {
        api.on(AppPasswordsAPI.create) { call in
            try passwords.create(userID: call.path.id, name: call.body.name, by: call.caller)
        }
        api.on(AppPasswordsAPI.list) { call in try passwords.list(userID: call.path.id, by: call.caller) }
        api.on(AppPasswordsAPI.revoke) { call in
            try passwords.revoke(userID: call.path.id, passwordID: call.path.passwordId, by: call.caller)
            return Done()
        }
    }
}
