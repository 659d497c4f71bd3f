import Foundation
import HTTPServer
import MusicCore

/// The handlers of `AccountsAPI`: users, sessions, codes, avatars and administration.
struct AccountRoutes {
    let accounts: AccountService
    let files: FileRoots

    func register(on api: EndpointRouter) {
        api.on(AccountsAPI.register) { call in
            let body = call.body
            return try accounts.register(
                phone: body.phone, email: body.email, password: body.password, nickname: body.nickname,
                code: body.code, address: call.request.remoteAddress)
        }
        api.on(AccountsAPI.profile) { call in
            try accounts.profile(id: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(AccountsAPI.updateProfile) { call in
            try accounts.updateProfile(id: call.path.id.rawValue, patch: call.body, viewer: call.caller)
        }
        api.on(AccountsAPI.deleteAccount) { call in
            try accounts.deleteUser(
                id: call.path.id.rawValue, password: call.body?.password, viewer: call.caller)
            return Done()
        }
        api.on(AccountsAPI.changePassword) { call in
            try accounts.changePassword(
                id: call.path.id.rawValue, current: call.body.password, new: call.body.newPassword,
                viewer: call.caller
            )
            return Done()
        }
        api.on(AccountsAPI.uploadAvatar) { call in
            try accounts.setAvatar(id: call.path.id.rawValue, upload: call.body, viewer: call.caller)
        }
        api.on(AccountsAPI.avatar) { call in
            try .storedFile(
                at: accounts.avatar(userID: call.path.id.rawValue, viewer: call.caller), in: files,
                contentType: "image/jpeg",
                request: call.request)
        }
        api.on(AccountsAPI.resetPassword) { call in
            let body = call.body
            try accounts.resetPassword(
                phone: body.phone, email: body.email, code: body.code, password: body.password,
                address: call.request.remoteAddress)
            return Done()
        }
        api.on(AccountsAPI.login) { call in
            let body = call.body
            return try accounts.login(
                .init(
                    phone: body.phone, email: body.email, password: body.password, code: body.code,
                    device: body.device),
                address: call.request.remoteAddress, userAgent: call.request.headers["User-Agent"])
        }
        api.on(AccountsAPI.sessions) { call in try accounts.sessions(of: call.caller) }
        api.on(AccountsAPI.logout) { call in
            try accounts.logout(call.caller)
            return Done()
        }
        api.on(AccountsAPI.revokeSession) { call in
            try accounts.revokeSession(id: call.path.id.rawValue, by: call.caller)
            return Done()
        }
        api.on(AccountsAPI.sendCode) { call in
            let body = call.body
            return try accounts.sendCode(
                phone: body.phone, email: body.email, purpose: body.purpose?.rawValue,
                address: call.request.remoteAddress)
        }
        api.on(AccountsAPI.checkCode) { call in
            let body = call.body
            try accounts.checkCode(
                phone: body.phone, email: body.email, purpose: body.purpose?.rawValue, code: body.code,
                address: call.request.remoteAddress)
            return Done()
        }
        api.on(AccountsAPI.findByNickname) { call in
            try accounts.findByNickname(call.query.nickname, paging: call.query.paging, viewer: call.caller)
        }
        api.on(AccountsAPI.adminUsers) { call in try accounts.users(paging: call.query.paging) }
        api.on(AccountsAPI.adminUpdateUser) { call in
            try accounts.setDisabled(id: call.path.id.rawValue, disabled: call.body.disabled, by: call.caller)
        }
        api.on(AccountsAPI.outbox) { call in try accounts.outbox(paging: call.query.paging) }
    }
}
