import Foundation
import HTTPServer
import MusicCore

/// The accounts API: users, sessions, codes, avatars and administration.
struct AccountRoutes {
    let accounts: AccountService

    struct RegisterBody: Decodable {
        var phone: String?
        var email: String?
        var password: String
        var nickname: String
        /// A `register` code sent to the phone or email.
        var code: String?
    }

    struct LoginBody: Decodable {
        var phone: String?
        var email: String?
        var password: String?
        var code: String?
        var device: String?
    }

    struct CodeBody: Decodable {
        var phone: String?
        var email: String?
        var purpose: String?
    }

    struct CheckBody: Decodable {
        var phone: String?
        var email: String?
        var purpose: String?
        var code: String
    }

    struct ResetBody: Decodable {
        var phone: String?
        var email: String?
        var code: String
        var password: String
    }

    struct PasswordChange: Decodable {
        var password: String
        var newPassword: String
    }

    struct AdminUserPatch: Decodable {
        var disabled: Bool
    }

    func register(on router: Router) {
        router.post("/v1/users") { request in
            let body = try request.decode(RegisterBody.self)
            let user = try accounts.register(
                phone: body.phone, email: body.email, password: body.password, nickname: body.nickname,
                code: body.code, address: request.remoteAddress)
            return .json(user, status: 201)
        }
        router.get("/v1/users/:id") { request in
            .json(try accounts.profile(id: try request.id(thing: "user"), viewer: try accounts.viewer(request)))
        }
        router.patch("/v1/users/:id") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "user")
            let patch = try request.decode(AccountService.ProfilePatch.self)
            return .json(try accounts.updateProfile(id: id, patch: patch, viewer: viewer))
        }
        router.put("/v1/users/:id/password") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "user")
            let body = try request.decode(PasswordChange.self)
            try accounts.changePassword(id: id, current: body.password, new: body.newPassword, viewer: viewer)
            return .ok()
        }
        router.post("/v1/users/:id/avatar") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "user")
            try accounts.requireSelf(id: id, viewer: viewer)
            guard case .multipart(let form) = request.body, let file = form.files.first else {
                throw HTTPError.badRequest(
                    "Send the picture as a multipart/form-data file field named 'file'.")
            }
            return .json(
                try accounts.setAvatar(id: id, uploadPath: file.path, size: file.size, viewer: viewer))
        }
        router.get("/v1/users/:id/avatar") { request in
            let id = try request.id(thing: "user")
            let user = try accounts.user(id: id, viewer: try accounts.viewer(request))
            return try .storedPicture(
                at: accounts.avatarPath(userID: id), recorded: user.icon != nil, request: request,
                missing: "This user has no avatar.")
        }
        router.post("/v1/users/reset_password") { request in
            let body = try request.decode(ResetBody.self)
            try accounts.resetPassword(
                phone: body.phone, email: body.email, code: body.code, password: body.password,
                address: request.remoteAddress)
            return .ok()
        }

        router.post("/v1/sessions") { request in
            let body = try request.decode(LoginBody.self)
            let result = try accounts.login(
                .init(
                    phone: body.phone, email: body.email, password: body.password, code: body.code,
                    device: body.device),
                address: request.remoteAddress, userAgent: request.headers["User-Agent"])
            return .json(result, status: 201)
        }
        router.get("/v1/sessions") { request in
            .json(try accounts.sessions(of: try accounts.requireViewer(request)))
        }
        router.delete("/v1/sessions/current") { request in
            let viewer = try accounts.requireViewer(request)
            try accounts.revokeSession(id: viewer.sessionID, by: viewer)
            return .ok()
        }
        router.delete("/v1/sessions/:id") { request in
            let viewer = try accounts.requireViewer(request)
            try accounts.revokeSession(id: try request.id(thing: "session"), by: viewer)
            return .ok()
        }

        router.post("/v1/codes") { request in
            let body = try request.decode(CodeBody.self)
            return .json(
                try accounts.sendCode(
                    phone: body.phone, email: body.email, purpose: body.purpose,
                    address: request.remoteAddress))
        }
        router.post("/v1/codes/check") { request in
            let body = try request.decode(CheckBody.self)
            try accounts.checkCode(
                phone: body.phone, email: body.email, purpose: body.purpose, code: body.code,
                address: request.remoteAddress)
            return .ok()
        }

        router.get("/v1/admin/users") { request in
            let viewer = try accounts.viewer(request)
            try accounts.requireAdmin(viewer, remoteAddress: "", action: "list users")
            let (page, size) = try request.paging()
            return .json(try accounts.store.users(page: page, size: size))
        }
        router.patch("/v1/admin/users/:id") { request in
            let viewer = try accounts.requireViewer(request)
            try accounts.requireAdmin(viewer, remoteAddress: "", action: "disable users")
            let body = try request.decode(AdminUserPatch.self)
            return .json(
                try accounts.setDisabled(
                    id: try request.id(thing: "user"), disabled: body.disabled, by: viewer))
        }
        router.get("/v1/admin/outbox") { request in
            // On a fresh server the first person signs up with a code read here from this machine.
            try accounts.requireAdmin(request, action: "read the code outbox")
            let (page, size) = try request.paging()
            return .json(try accounts.store.outbox(page: page, size: size))
        }
    }
}

extension AccountService {
    /// The viewer of a request with an `Authorization` header (`<token>` or `Bearer <token>`), else nil.
    /// A header with a bad or expired token is a 401, so clients learn to sign in again.
    func viewer(_ request: Request) throws -> Viewer? {
        guard var token = request.headers["Authorization"]?.trimmingCharacters(in: .whitespaces),
            !token.isEmpty
        else { return nil }
        if token.count > 7, token.prefix(7).lowercased() == "bearer " {
            token = token.dropFirst(7).trimmingCharacters(in: .whitespaces)
        }
        return try authenticate(token: token, address: request.remoteAddress)
    }

    func requireViewer(_ request: Request) throws -> Viewer {
        guard let viewer = try viewer(request) else { throw Self.signInFirst }
        return viewer
    }

    /// For other features' routes: an administrator's session, or loopback before any administrator exists.
    func requireAdmin(_ request: Request, action: String) throws {
        try requireAdmin(try viewer(request), remoteAddress: request.remoteAddress, action: action)
    }
}
