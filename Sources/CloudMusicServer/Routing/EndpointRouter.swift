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
            if A.self == Done.self { return APIEnvelope.done() }
            if let fast = answer as? any JSONWritable { return APIEnvelope.answer(fast, status: status) }
            return APIEnvelope.answer(answer, status: status)
        }
    }

    /// A handler whose answer was written as JSON ahead of time (a cached answer), sent with its `ETag` and
    /// what `caching` tells caches; a request whose `If-None-Match` names the tag gets `304 Not Modified` and
    /// no body.
    func on<P, Q, B, A: Encodable & Sendable, C: ServerAccess>(
        _ endpoint: Endpoint<P, Q, B, A, C>, caching: AnswerCaching,
        prepared handler: @escaping @Sendable (Call<P, Q, B, C.Caller>) throws -> PreparedAnswer<A>
    ) {
        let status = endpoint.status
        add(endpoint) { request in
            let answer = try handler(try Self.call(endpoint, request))
            var headers = HTTPHeaders([("ETag", answer.etag)])
            caching.add(to: &headers, signedIn: request.attachments[Viewer.self] != nil)
            if let wanted = request.headers["If-None-Match"], PreparedAnswer<A>.matches(wanted, answer.etag) {
                return Response(status: 304, headers: headers, body: .empty)
            }
            headers.add("Content-Type", "application/json; charset=utf-8")
            return Response(status: status, headers: headers, body: .data(APIEnvelope.wrap(answer.json)))
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
        router.group([authentication(endpoint)]).add(method, endpoint.routePattern, handler)
    }

    private static func call<P, Q, B, A, C: ServerAccess>(
        _ endpoint: Endpoint<P, Q, B, A, C>, _ request: Request
    )
        throws -> Call<P, Q, B, C.Caller>
    {
        // `size[x]=5` is how some clients send an object; no parameter here is one.
        if let odd = request.queryItems.first(where: { $0.name.contains("[") || $0.name.contains("]") }) {
            throw ServiceError.invalid(
                "'\(odd.name.prefix(40))' is not a parameter here: send each parameter as plain text, like size=5."
            )
        }
        return Call(
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
                return try checked(optional.decodeWrapped(request)) as! B
            }
            return optional.absent as! B
        case let decodable as any Decodable.Type:
            return try checked(request.decode(decodable)) as! B
        default:
            preconditionFailure("\(type) is not a request body")
        }
    }

    /// `body`, once its declared bounds hold: no handler sees a body past them.
    private static func checked<B>(_ body: B) throws -> B {
        if let limited = body as? any LimitedBody {
            try limited.checkLimits()
        } else if let wrapped = (body as? any OptionalBody)?.wrappedLimited {
            try wrapped.checkLimits()
        }
        return body
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

/// An answer already written as JSON (the envelope's `data`), with its validator. Services that cache an
/// answer keep it in this form, so a request costs no encoding and a client that has it costs one `304`;
/// what caches are told is the route's business (`AnswerCaching`).
struct PreparedAnswer<A: Encodable & Sendable>: Sendable {
    /// The JSON of an `A`.
    let json: Data
    /// A strong validator, quoted: the same bytes always have the same tag.
    let etag: String

    /// Encodes `value` the way the router encodes every answer (sorted keys).
    init(_ value: A) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        self.init(json: try encoder.encode(value))
    }

    /// Bytes that are the JSON of an `A` (joined from parts encoded separately); the tag is their hash
    /// unless one is given.
    init(json: Data, etag: String? = nil) {
        self.json = json
        self.etag = etag ?? Self.tag(json)
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

/// What a prepared answer tells caches, chosen where its endpoint is registered.
enum AnswerCaching: Sendable {
    /// Kept, but asked again each time (`public, no-cache`): answered with a 304 while unchanged.
    case revalidate
    /// Fresh for `seconds` without asking again.
    case fresh(seconds: Int)
    /// Depends on who asks: kept only by the asker's own cache once signed in, asked again each time.
    case perViewer

    func add(to headers: inout HTTPHeaders, signedIn: Bool) {
        switch self {
        case .revalidate:
            headers.add("Cache-Control", "public, no-cache")
        case .fresh(let seconds):
            headers.add("Cache-Control", "public, max-age=\(seconds)")
        case .perViewer:
            headers.add("Cache-Control", signedIn ? "private, no-cache" : "public, no-cache")
            headers.add("Vary", "Authorization")
        }
    }
}

/// A body that may be left out.
protocol OptionalBody {
    static var absent: Self { get }
    /// The body inside, when it is there and has bounds.
    var wrappedLimited: (any LimitedBody)? { get }
    static func decodeWrapped(_ request: Request) throws -> Self
}

extension Optional: OptionalBody where Wrapped: Decodable {
    static var absent: Self { nil }
    var wrappedLimited: (any LimitedBody)? { self.flatMap { $0 as? any LimitedBody } }
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

/// How every refusal a service throws is answered.
extension ServiceError: HTTPResponseError {
    public var status: Int { kind.httpStatus }
    public var headers: [(String, String)] { retryAfter.map { [("Retry-After", String($0))] } ?? [] }
}
