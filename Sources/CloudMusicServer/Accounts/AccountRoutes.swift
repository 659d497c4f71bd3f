import Foundation
import HTTPServer
import MusicCore

/// The handlers of `AccountsAPI`: users, sessions, codes, avatars and administration.
struct AccountRoutes {
    let accounts: AccountService
    let sheets: SheetService
    let files: FileRoots

    func register(on api: EndpointRouter) {
        api.on(AccountsAPI.register) { call in
            let body = call.body
            return try accounts.register(
                phone: body.phone, email: body.email, password: body.password, nickname: body.nickname,
                code: body.code, address: call.request.remoteAddress)
        }
        api.on(AccountsAPI.profile) { call in try accounts.profile(id: call.path.id, viewer: call.caller) }
        api.on(AccountsAPI.updateProfile) { call in
            try accounts.updateProfile(id: call.path.id, patch: call.body, viewer: call.caller)
        }
        api.on(AccountsAPI.deleteAccount) { call in
            let covers = try sheets.coverFiles(ofUser: call.path.id)
            try accounts.deleteUser(id: call.path.id, password: call.body?.password, viewer: call.caller)
            for path in covers { unlink(path) }
            return Done()
        }
        api.on(AccountsAPI.changePassword) { call in
            try accounts.changePassword(
                id: call.path.id, current: call.body.password, new: call.body.newPassword, viewer: call.caller)
            return Done()
        }
        api.on(AccountsAPI.uploadAvatar) { call in
            try accounts.requireSelf(id: call.path.id, viewer: call.caller)
            let file = try call.body.storedFile()
            return try accounts.setAvatar(id: call.path.id, uploadPath: file.path, size: file.size, viewer: call.caller)
        }
        api.on(AccountsAPI.avatar) { call in
            let user = try accounts.user(id: call.path.id, viewer: call.caller)
            let path = accounts.avatarPath(userID: call.path.id)
            guard user.icon != nil, FileManager.default.fileExists(atPath: path) else {
                throw ServiceError.notFound("This user has no avatar.")
            }
            return try .storedFile(at: path, in: files, contentType: "image/jpeg", request: call.request)
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
                .init(phone: body.phone, email: body.email, password: body.password, code: body.code, device: body.device),
                address: call.request.remoteAddress, userAgent: call.request.headers["User-Agent"])
        }
        api.on(AccountsAPI.sessions) { call in try accounts.sessions(of: call.caller) }
        api.on(AccountsAPI.logout) { call in
            try accounts.revokeSession(id: call.caller.sessionID, by: call.caller)
            return Done()
        }
        api.on(AccountsAPI.revokeSession) { call in
            try accounts.revokeSession(id: call.path.id, by: call.caller)
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
        api.on(AccountsAPI.adminUsers) { call in
            try accounts.store.users(page: call.query.paging.page, size: call.query.paging.size)
        }
        api.on(AccountsAPI.adminUpdateUser) { call in
            try accounts.setDisabled(id: call.path.id, disabled: call.body.disabled, by: call.caller)
        }
        api.on(AccountsAPI.outbox) { call in
            try accounts.store.outbox(page: call.query.paging.page, size: call.query.paging.size)
        }
    }
}
