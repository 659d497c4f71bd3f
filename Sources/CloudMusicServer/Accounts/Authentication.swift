import Foundation
import HTTPServer
import MusicCore

/// Who is calling: the signed-in person of a request, as services see them.
typealias Viewer = AccountService.Viewer

/// The sign-in check every endpoint passes through, chosen by the access its declaration gives.
///
/// A token that is sent but is not valid is a 401 on every endpoint that reads tokens, so clients learn
/// to sign in again; the `anyone` endpoints (signing in, signing up, codes) do not read it.
struct Authentication: Middleware {
    let accounts: AccountService
    let access: Access
    /// What the endpoint does, as the end of "Only an administrator can …".
    let action: String

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        guard access != .anyone else { return try next(request) }
        let viewer = access == .chatToken ? try accounts.chatViewer(request) : try accounts.viewer(request)
        switch access {
        case .chatToken:
            guard viewer != nil else {
                throw ServiceError.unauthenticated(
                    "Open the event stream with the chatToken from signing in (Authorization or ?token=).")
            }
        case .anyone, .optionalSignIn:
            break
        case .signedIn:
            guard viewer != nil else { throw AccountService.signInFirst }
        case .admin:
            try accounts.requireAdmin(viewer, remoteAddress: "", action: action)
        case .adminOrFirstRun:
            try accounts.requireAdmin(viewer, remoteAddress: request.remoteAddress, action: action)
        }
        var request = request
        request.attachments[Viewer.self] = viewer
        return try next(request)
    }
}

extension AccountService {
    /// The viewer of a request with an `Authorization` header (`<token>` or `Bearer <token>`), else nil.
    /// A header with a bad or expired token is a 401, so clients learn to sign in again.
    func viewer(_ request: Request) throws -> Viewer? {
        try Self.bearer(request).map { try authenticate(token: $0, address: request.remoteAddress) }
    }

    /// The person of a chat token in `Authorization` or (for a browser's EventSource) `?token=`, else nil.
    func chatViewer(_ request: Request) throws -> Viewer? {
        guard let token = Self.bearer(request) ?? request.query["token"], !token.isEmpty else { return nil }
        return try authenticate(chatToken: token)
    }

    /// The token of an `Authorization` header, `<token>` or `Bearer <token>`.
    private static func bearer(_ request: Request) -> String? {
        guard var token = request.headers["Authorization"]?.trimmingCharacters(in: .whitespaces),
            !token.isEmpty
        else { return nil }
        if token.count > 7, token.prefix(7).lowercased() == "bearer " {
            token = token.dropFirst(7).trimmingCharacters(in: .whitespaces)
        }
        return token
    }
}
