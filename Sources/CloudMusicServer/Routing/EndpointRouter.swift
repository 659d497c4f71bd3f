import Cryptography
import Foundation
import HTTPServer
import MusicCore

/// One call of an endpoint as its handler sees it: the path, query and body already read and checked, and
/// the caller the declaration promises (a `Viewer` for signed-in endpoints, `Viewer?` for optional ones).
struct Call<Path: Sendable, Query: Sendable, Body: Sendable, Caller: Sendable>: Sendable {
    let path: Path
    let query: Query
    let body: Body
    let caller: Caller
    /// For the few handlers that need the request itself: the client's address, Range headers.
    let request: Request
}

/// Registers handlers through endpoint declarations: the declaration says the method, the path, how the
/// input is read and who may call; the handler gets the input and returns the answer.
struct EndpointRouter: Sendable {
    let router: Router
    /// The middleware that enforces an endpoint's declared access.
    let authentication: @Sendable (any DescribedEndpoint) -> any Middleware

    /// A handler whose answer goes out as JSON in the envelope (`Done` as `{"status":0}`).
    func on<P, Q, B, A: Encodable & Sendable, C: ServerAccess>(
        _ endpoint: Endpoint<P, Q, B, A, C>,
        _ handler: @escaping @Sendable (Call<P, Q, B, C.Caller>) throws -> A
    ) {
        let status = endpoint.status
        add(endpoint) { request in
            let answer = try handler(try Self.call(endpoint, request))
            if A.self == Done.self { return .ok() }
            if let fast = answer as? any JSONWritable { return .json(fast, status: status) }
            return .json(answer, status: status)
        }
    }

    /// A handler whose answer was written as JSON ahead of time (a cached answer), sent with its `ETag` and
    /// `Cache-Control`; a request whose `If-None-Match` names the tag gets `304 Not Modified` and no body.
    func on<P, Q, B, A: Encodable & Sendable, C: ServerAccess>(
        _ endpoint: Endpoint<P, Q, B, A, C>,
        prepared handler: @escaping @Sendable (Call<P, Q, B, C.Caller>) throws -> PreparedAnswer<A>
    ) {
        let status = endpoint.status
        add(endpoint) { request in
            let answer = try handler(try Self.call(endpoint, request))
            var headers = HTTPHeaders([("ETag", answer.etag), ("Cache-Control", answer.cacheControl)])
            if answer.varyByToken { headers.add("Vary", "Authorization") }
            if let wanted = request.headers["If-None-Match"], PreparedAnswer<A>.matches(wanted, answer.etag) {
                return Response(status: 304, headers: headers, body: .empty)
            }
            headers.add("Content-Type", "application/json; charset=utf-8")
            var payload = Data()
            payload.reserveCapacity(answer.json.count + 20)
            payload.append(contentsOf: #"{"status":0,"data":"#.utf8)
            payload.append(answer.json)
            payload.append(contentsOf: "}".utf8)
            return Response(status: status, headers: headers, body: .data(payload))
        }
    }

    /// A handler whose answer is a file or a stream it builds itself.
    func on<P, Q, B, A: MediaAnswer, C: ServerAccess>(
        _ endpoint: Endpoint<P, Q, B, A, C>,
        _ handler: @escaping @Sendable (Call<P, Q, B, C.Caller>) throws -> Response
    ) {
        add(endpoint) { request in try handler(try Self.call(endpoint, request)) }
    }

    private func add<P, Q, B, A, C>(_ endpoint: Endpoint<P, Q, B, A, C>, _ handler: @escaping Handler) {
        guard let method = HTTPMethod(rawValue: endpoint.method.rawValue) else {
            preconditionFailure("\(endpoint.method) \(endpoint.path) cannot be routed")
        }
        router.group([LocalizedRefusals(), authentication(endpoint)]).add(
            method, endpoint.routePattern, handler)
    }

    private static func call<P, Q, B, A, C: ServerAccess>(
        _ endpoint: Endpoint<P, Q, B, A, C>, _ request: Request
    )
        throws -> Call<P, Q, B, C.Caller>
    {
        Call(
            path: try P.read(resource: endpoint.resource) { request.pathParameters[$0] },
            query: try Q.read { request.query[$0] },
            body: try body(B.self, of: request),
            caller: try C.caller(request.attachments[Viewer.self]),
            request: request)
    }

    private static func body<B>(_ type: B.Type, of request: Request) throws -> B {
        switch type {
        case is NoBody.Type:
            return NoBody() as! B
        case is Upload.Type:
            guard case .multipart(let form) = request.body else {
                throw ServiceError.invalid("Send the file as a multipart/form-data file field named 'file'.")
            }
            let files = form.files.map {
                Upload.File(
                    fileName: $0.fileName, contentType: $0.contentType,
                    content: .stored(path: $0.path, size: $0.size))
            }
            return Upload(files: files, fields: form.fields) as! B
        case let form as any FormBody.Type:
            guard case .multipart(let multipart) = request.body else {
                throw ServiceError.invalid(
                    "Send the form as multipart/form-data: its fields as text parts, its file as a part named 'file'."
                )
            }
            let files = multipart.files.map {
                Upload.File(
                    fileName: $0.fileName, contentType: $0.contentType,
                    content: .stored(path: $0.path, size: $0.size))
            }
            return try form.read(fields: multipart.fields, files: files) as! B
        case is TextBody.Type:
            return try text(of: request) as! B
        case let optional as any OptionalBody.Type:
            // An optional body may be left out: no bytes (or only white space) is nil.
            if case .data(let data, _) = request.body,
                data.contains(where: { !(0x09...0x0D ~= $0 || $0 == 0x20) })
            {
                return try optional.decodeWrapped(request) as! B
            }
            return optional.absent as! B
        case let decodable as any Decodable.Type:
            return try request.decode(decodable) as! B
        default:
            preconditionFailure("\(type) is not a request body")
        }
    }

    /// Largest text document accepted inside a multipart upload (the plain body has the server's limit).
    static let maxTextUpload = 8 << 20

    private static func text(of request: Request) throws -> TextBody {
        switch request.body {
        case .data(let data, _):
            return TextBody(String(decoding: data, as: UTF8.self))
        case .multipart(let form):
            guard let file = form.files.first else {
                throw ServiceError.invalid("Send the text as a file field or as the request body.")
            }
            guard file.size <= maxTextUpload else {
                throw ServiceError.tooLarge("The file can be at most \(maxTextUpload >> 20) MB.")
            }
            return TextBody(
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: file.path)), as: UTF8.self))
        default:
            throw ServiceError.invalid("Send the text as the request body.")
        }
    }
}

/// An answer already written as JSON (the envelope's `data`), with the validator and caching rule it is sent
/// with. Services that cache an answer keep it in this form, so a request costs no encoding and a client
/// that has it costs one `304`.
struct PreparedAnswer<A: Encodable & Sendable>: Sendable {
    /// The JSON of an `A`.
    let json: Data
    /// A strong validator, quoted: the same bytes always have the same tag.
    let etag: String
    /// The `Cache-Control` header, such as `public, no-cache` (keep it, but ask again each time).
    var cacheControl: String
    /// Whether the answer depends on who asks (`Vary: Authorization`).
    var varyByToken = false

    /// Encodes `value` the way the router encodes every answer (sorted keys).
    init(_ value: A, cacheControl: String, varyByToken: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        self.init(json: try encoder.encode(value), cacheControl: cacheControl, varyByToken: varyByToken)
    }

    /// Bytes that are the JSON of an `A` (joined from parts encoded separately); the tag is their hash
    /// unless one is given.
    init(json: Data, etag: String? = nil, cacheControl: String, varyByToken: Bool = false) {
        self.json = json
        self.etag = etag ?? Self.tag(json)
        self.cacheControl = cacheControl
        self.varyByToken = varyByToken
    }

    /// A quoted tag of `bytes`: their 128-bit BLAKE2b.
    static func tag(_ bytes: Data) -> String {
        let hasher = Crypto.Hasher()
        hasher.update(bytes)
        return "\"" + hasher.finalizeHex() + "\""
    }

    /// Whether an `If-None-Match` header names `etag` (or is `*`); weak tags compare by their value.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { raw in
            var tag = raw.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}

/// A body that may be left out.
protocol OptionalBody {
    static var absent: Self { get }
    static func decodeWrapped(_ request: Request) throws -> Self
}

extension Optional: OptionalBody where Wrapped: Decodable {
    static var absent: Self { nil }
    static func decodeWrapped(_ request: Request) throws -> Self { try request.decode(Wrapped.self) }
}

/// What the server makes of an access level: the caller its handlers receive.
protocol ServerAccess: AccessLevel {
    associatedtype Caller: Sendable
    /// The caller from the viewer the authentication middleware attached.
    static func caller(_ viewer: Viewer?) throws -> Caller
}

extension Anyone: ServerAccess {
    static func caller(_ viewer: Viewer?) throws {}
}

extension OptionalSignIn: ServerAccess {
    static func caller(_ viewer: Viewer?) throws -> Viewer? { viewer }
}

extension SignedIn: ServerAccess {
    static func caller(_ viewer: Viewer?) throws -> Viewer {
        guard let viewer else { throw AccountService.signInFirst }
        return viewer
    }
}

extension Admin: ServerAccess {
    static func caller(_ viewer: Viewer?) throws -> Viewer {
        guard let viewer else { throw AccountService.signInFirst }
        return viewer
    }
}

extension ChatTokenHolder: ServerAccess {
    static func caller(_ viewer: Viewer?) throws -> Viewer {
        guard let viewer else { throw AccountService.signInFirst }
        return viewer
    }
}

extension AdminOrFirstRun: ServerAccess {
    /// nil when a loopback client calls before any administrator exists.
    static func caller(_ viewer: Viewer?) throws -> Viewer? { viewer }
}

/// Writes the refusals of the v1 API (the router's own, the authentication's and the services') in the
/// language of the request's `Accept-Language`; the status and the envelope's code never change with it.
struct LocalizedRefusals: Middleware {
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        do {
            return try next(request)
        } catch let refusal as ServiceError {
            var headers = refusal.headers
            headers.append(("Vary", "Accept-Language"))
            let language = Language.preferred(by: request.headers["Accept-Language"])
            headers.append(("Content-Language", language.rawValue))
            return HTTPError(status: refusal.status, message: refusal.message(in: language), headers: headers)
                .response
        }
    }
}

/// How every refusal a service throws is answered.
extension ServiceError: HTTPResponseError {
    public var status: Int { kind.httpStatus }
    public var headers: [(String, String)] { retryAfter.map { [("Retry-After", String($0))] } ?? [] }
}
