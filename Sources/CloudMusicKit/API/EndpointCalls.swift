import Foundation
import MusicCore

/// Calls through the endpoint declarations the server is built from, so a path, a method or a field
/// cannot differ between the SDK and the server.
extension APIClient {
    /// The HTTP request for one call of `endpoint`.
    public func request<P, Q, B, A, C>(
        _ endpoint: Endpoint<P, Q, B, A, C>, path: P, query: Q, body: B
    ) throws -> APIRequest {
        let method = APIRequest.Method(rawValue: endpoint.method.rawValue)!
        let items = query.items().map { URLQueryItem(name: $0.name, value: $0.value) }
        var request = APIRequest(
            method, endpoint.uri(path), query: items, body: try Self.encodeBody(body),
            isIdempotent: endpoint.isIdempotent)
        if B.self == Upload.self { request.timeout = 120 }
        return request
    }

    /// Calls `endpoint` and decodes what it answers (`Done` for `{"status":0}`).
    public func send<P, Q, B, A: Decodable & Sendable, C>(
        _ endpoint: Endpoint<P, Q, B, A, C>, path: P, query: Q = Q(), body: B, idempotent: Bool? = nil
    ) async throws -> A {
        var request = try request(endpoint, path: path, query: query, body: body)
        if let idempotent { request.isIdempotent = idempotent }
        let data = try await sendRaw(request)
        if A.self == Done.self {
            _ = try Self.decodeEnvelope(data, as: EmptyData.self)
            return Done() as! A
        }
        return try Self.decodeEnvelope(data, as: A.self)
    }

    public func send<P, Q, A: Decodable & Sendable, C>(
        _ endpoint: Endpoint<P, Q, NoBody, A, C>, path: P, query: Q = Q()
    ) async throws -> A {
        try await send(endpoint, path: path, query: query, body: NoBody())
    }

    public func send<Q, B, A: Decodable & Sendable, C>(
        _ endpoint: Endpoint<NoPath, Q, B, A, C>, query: Q = Q(), body: B, idempotent: Bool? = nil
    ) async throws -> A {
        try await send(endpoint, path: NoPath(), query: query, body: body, idempotent: idempotent)
    }

    public func send<Q, A: Decodable & Sendable, C>(
        _ endpoint: Endpoint<NoPath, Q, NoBody, A, C>, query: Q = Q()
    ) async throws -> A {
        try await send(endpoint, path: NoPath(), query: query, body: NoBody())
    }

    /// The absolute address of a file or stream endpoint, for a player or an image view.
    public func url<P, Q, A: MediaAnswer, C>(
        _ endpoint: Endpoint<P, Q, NoBody, A, C>, path: P, query: Q = Q()
    )
        -> URL
    {
        var components = URLComponents(url: url(for: endpoint.uri(path)), resolvingAgainstBaseURL: true)!
        let items = query.items()
        if !items.isEmpty {
            components.queryItems = items.map { URLQueryItem(name: $0.name, value: $0.value) }
        }
        return components.url!
    }

    /// The bytes of a file endpoint (an M3U playlist, a picture).
    public func data<P, Q, A: MediaAnswer, C>(
        _ endpoint: Endpoint<P, Q, NoBody, A, C>, path: P, query: Q = Q()
    )
        async throws -> Data
    {
        try await sendRaw(try request(endpoint, path: path, query: query, body: NoBody()))
    }

    static func encodeBody<B>(_ body: B) throws -> APIRequest.Body? {
        switch body {
        case is NoBody:
            return nil
        case let upload as Upload:
            return .multipart(upload)
        case let form as any FormBody:
            return .multipart(form.upload)
        case let text as TextBody:
            return .raw(Data(text.text.utf8), contentType: "text/plain; charset=utf-8")
        case let optional as any OptionalBody:
            guard let wrapped = optional.wrapped else { return nil }
            return try encodeBody(wrapped)
        case let value as any Encodable:
            return .json(try JSONEncoder().encode(value))
        default:
            return nil
        }
    }
}

/// An optional body: absent when nil.
protocol OptionalBody {
    var wrapped: Any? { get }
}

extension Optional: OptionalBody {
    var wrapped: Any? { self.map { $0 as Any } }
}
