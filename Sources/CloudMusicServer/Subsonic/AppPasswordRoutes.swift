import Foundation
import HTTPServer
import MusicCore

/// The handlers of `AppPasswordsAPI`: making, listing and revoking app passwords, and who sees what one's
/// Subsonic apps play.
struct AppPasswordRoutes {
    let passwords: AppPasswordService
    let subsonic: SubsonicService

    func register(on api: EndpointRouter) {
        api.on(AppPasswordsAPI.create) { call in
            try passwords.create(userID: call.path.id.rawValue, name: call.body.name, by: call.caller)
        }
        api.on(AppPasswordsAPI.list) { call in
            try passwords.list(userID: call.path.id.rawValue, by: call.caller)
        }
        api.on(AppPasswordsAPI.revoke) { call in
            try passwords.revoke(
                userID: call.path.id.rawValue, passwordID: call.path.passwordId.rawValue, by: call.caller)
            return Done()
        }
        api.on(AppPasswordsAPI.nowPlaying) { call in
            try subsonic.nowPlayingSetting(userID: call.path.id.rawValue, by: call.caller)
        }
        api.on(AppPasswordsAPI.setNowPlaying) { call in
            try subsonic.setNowPlaying(userID: call.path.id.rawValue, call.body.visibility, by: call.caller)
        }
    }
}
