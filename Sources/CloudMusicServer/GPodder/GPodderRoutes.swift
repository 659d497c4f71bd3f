import Foundation
import HTTPServer
import MusicCore

/// The gPodder sync API at `/api/2`, declared here as the Subsonic methods are in theirs: each route's method,
/// pattern, the largest body it takes and whether it needs a session. It is not part of the v1 contract (its
/// shapes are gPodder's), but its refusals are the server's: `{status, message}` in the person's language, with
/// `WWW-Authenticate` on a 401 so that apps send their credentials.
enum GPodderAPI {
    struct Route: Sendable {
        var method: HTTPMethod
        var pattern: String
        /// The largest body taken, in bytes (the server's own limit applies first).
        var maxBodyBytes: Int
    }

    static let login = Route(method: .POST, pattern: "/api/2/auth/:username/login.json", maxBodyBytes: 4_096)
    static let logout = Route(
        method: .POST, pattern: "/api/2/auth/:username/logout.json", maxBodyBytes: 4_096)
    static let devices = Route(method: .GET, pattern: "/api/2/devices/:file", maxBodyBytes: 0)
    static let saveDevice = Route(
        method: .POST, pattern: "/api/2/devices/:username/:file", maxBodyBytes: 4_096)
    static let subscriptionChanges = Route(
        method: .GET, pattern: "/api/2/subscriptions/:username/:file", maxBodyBytes: 0)
    static let uploadSubscriptions = Route(
        method: .POST, pattern: "/api/2/subscriptions/:username/:file", maxBodyBytes: 1 << 20)
    static let uploadActions = Route(method: .POST, pattern: "/api/2/episodes/:file", maxBodyBytes: 1 << 20)
    static let actions = Route(method: .GET, pattern: "/api/2/episodes/:file", maxBodyBytes: 0)

    static let all = [
        login, logout, devices, saveDevice, subscriptionChanges, uploadSubscriptions, uploadActions, actions,
    ]

    /// The server's refusals under `/api/2`.
    static let refusal: ErrorRenderer.Render = { error, context in
        var response = APIEnvelope.refusal(error, context)
        if error.status == 401 {
            response.headers.add("WWW-Authenticate", #"Basic realm="CloudMusic gPodder""#)
        }
        return response
    }
}

/// The handlers of `GPodderAPI`.
struct GPodderRoutes {
    let gpodder: GPodderService
    let router: Router

    static let cookieName = "sessionid"

    func register() {
        on(GPodderAPI.login) { request in
            let username = try request.parameter("username")
            guard let basic = Self.basic(request) else { throw GPodderService.signIn }
            let person = try gpodder.person(
                username: basic.username, password: basic.password, address: request.remoteAddress,
                userAgent: request.headers["User-Agent"])
            try gpodder.requireOwner(username: username, person: person)
            let token = try gpodder.openSession(for: person)
            var response = APIEnvelope.done()
            response.headers.add(
                "Set-Cookie",
                "\(Self.cookieName)=\(token); Path=/api/2; Max-Age=\(gpodder.sessionLifetime); HttpOnly; SameSite=Lax"
            )
            return response
        }
        on(GPodderAPI.logout) { request in
            if let token = Self.cookie(request) { try gpodder.closeSession(token: token) }
            var response = APIEnvelope.done()
            response.headers.add(
                "Set-Cookie", "\(Self.cookieName)=; Path=/api/2; Max-Age=0; HttpOnly; SameSite=Lax")
            return response
        }
        on(GPodderAPI.devices) { request in
            let person = try signedIn(request, username: try Self.file(request, "file"))
            return Response.json(try gpodder.devices(of: person))
        }
        on(GPodderAPI.saveDevice) { request in
            let person = try signedIn(request, username: try request.parameter("username"))
            let update = try request.decode(GPodderDeviceUpdate.self)
            try gpodder.saveDevice(
                id: try Self.file(request, "file"), caption: update.caption, type: update.type, for: person)
            return APIEnvelope.done()
        }
        on(GPodderAPI.subscriptionChanges) { request in
            let person = try signedIn(request, username: try request.parameter("username"))
            return Response.json(
                try gpodder.subscriptionChanges(
                    device: try Self.file(request, "file"), since: try Self.since(request), for: person))
        }
        on(GPodderAPI.uploadSubscriptions) { request in
            let person = try signedIn(request, username: try request.parameter("username"))
            let upload = try request.decode(GPodderSubscriptionUpload.self)
            return Response.json(
                try gpodder.uploadSubscriptions(device: try Self.file(request, "file"), upload, for: person))
        }
        on(GPodderAPI.uploadActions) { request in
            let person = try signedIn(request, username: try Self.file(request, "file"))
            let actions = try request.decode([GPodderEpisodeAction].self)
            return Response.json(try gpodder.uploadActions(actions, for: person))
        }
        on(GPodderAPI.actions) { request in
            let person = try signedIn(request, username: try Self.file(request, "file"))
            let aggregated: Bool
            switch request.query["aggregated"]?.lowercased() {
            case nil, "false", "0": aggregated = false
            case "true", "1": aggregated = true
            default: throw ServiceError.invalid("'aggregated' must be true or false.")
            }
            let device = try request.query["device"].map(GPodderService.checkedDeviceID)
            return Response.json(
                try gpodder.actions(
                    since: try Self.since(request), podcast: request.query["podcast"], device: device,
                    aggregated: aggregated, for: person))
        }
    }

    /// Adds a declared route, refusing a body over its limit.
    private func on(_ route: GPodderAPI.Route, _ handler: @escaping Handler) {
        router.add(route.method, route.pattern) { request in
            if case .data(let data, _) = request.body, data.count > route.maxBodyBytes {
                throw ServiceError.tooLarge("The request body is too large for this address.")
            }
            return try handler(request)
        }
    }

    /// The person of the request (its session cookie, else its Basic credentials), who must be the one `username`
    /// names.
    private func signedIn(_ request: Request, username: String) throws -> GPodderService.Person {
        var person: GPodderService.Person?
        if let token = Self.cookie(request) { person = try gpodder.person(sessionToken: token) }
        if person == nil, let basic = Self.basic(request) {
            person = try gpodder.person(
                username: basic.username, password: basic.password, address: request.remoteAddress,
                userAgent: request.headers["User-Agent"])
        }
        guard let person else { throw GPodderService.signIn }
        try gpodder.requireOwner(username: username, person: person)
        return person
    }

    /// A `name.json` path segment's name; other formats (`.opml`, `.txt`) are not offered.
    static func file(_ request: Request, _ parameter: String) throws -> String {
        let value = try request.parameter(parameter)
        guard value.hasSuffix(".json"), value.count > 5 else {
            throw ServiceError.notFound(
                "This server offers the gPodder API in JSON only (addresses ending in .json).")
        }
        return String(value.dropLast(5))
    }

    static func since(_ request: Request) throws -> Int64 {
        guard let text = request.query["since"] else { return 0 }
        guard let since = Int64(text), since >= 0, since < 100_000_000_000 else {
            throw ServiceError.invalid("'since' must be a timestamp this server gave (whole seconds).")
        }
        return since
    }

    static func basic(_ request: Request) -> (username: String, password: String)? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    static func cookie(_ request: Request) -> String? {
        guard let header = request.headers["Cookie"] else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix("\(cookieName)=") { return String(pair.dropFirst(cookieName.count + 1)) }
        }
        return nil
    }
}
