// TEMPORARY: type-check stub of the HTTPServer contract; deleted when the real module merges.
import Foundation
public enum HTTPMethod: String, Sendable, CaseIterable { case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS }
public struct HTTPHeaders: Sendable {
    var pairs: [(String, String)]
    public init(_ pairs: [(String, String)] = []) { self.pairs = pairs }
    public subscript(name: String) -> String? { pairs.first { $0.0.lowercased() == name.lowercased() }?.1 }
    public mutating func add(_ name: String, _ value: String) { pairs.append((name, value)) }
    public mutating func replace(_ name: String, _ value: String) { pairs.append((name, value)) }
}
public struct UploadedFile: Sendable { public let fieldName: String; public let fileName: String?; public let contentType: String?; public let path: String; public let size: Int }
public struct MultipartForm: Sendable { public let fields: [String: String]; public let files: [UploadedFile] }
public enum RequestBody: Sendable { case empty; case data(Data, contentType: String?); case form([String: String]); case multipart(MultipartForm) }
public struct Request: Sendable {
    public let method: HTTPMethod
    public let path: String
    public let route: String
    public let pathParameters: [String: String]
    public let query: [String: String]
    public let queryItems: [(name: String, value: String)]
    public let headers: HTTPHeaders
    public let remoteAddress: String
    public let body: RequestBody
    public func parameter(_ name: String) throws -> String { pathParameters[name]! }
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { fatalError() }
}
public struct HTTPError: Error, Sendable {
    public let status: Int; public let code: Int; public let message: String; public var headers: [(String, String)]
    public init(status: Int, code: Int? = nil, message: String, headers: [(String, String)] = []) { self.status = status; self.code = code ?? status; self.message = message; self.headers = headers }
    public static func badRequest(_ m: String) -> HTTPError { .init(status: 400, message: m) }
    public static func unauthorized(_ m: String) -> HTTPError { .init(status: 401, message: m) }
    public static func forbidden(_ m: String) -> HTTPError { .init(status: 403, message: m) }
    public static func notFound(_ m: String) -> HTTPError { .init(status: 404, message: m) }
    public static func conflict(_ m: String) -> HTTPError { .init(status: 409, message: m) }
    public static func tooLarge(_ m: String) -> HTTPError { .init(status: 413, message: m) }
    public static func tooManyRequests(_ m: String, retryAfter: Int? = nil) -> HTTPError { .init(status: 429, message: m) }
}
public final class StreamWriter: Sendable { public func write(_ data: Data) async throws {}; public var isClosed: Bool { false } }
public struct Response: Sendable {
    public var status: Int; public var headers: HTTPHeaders
    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Data) { self.status = status; self.headers = headers }
    public static func json<T: Encodable>(_ value: T, status: Int = 200) -> Response { .init(body: Data()) }
    public static func ok() -> Response { .init(body: Data()) }
    public static func raw(_ data: Data, contentType: String, status: Int = 200) -> Response { .init(body: data) }
    public static func file(at path: String, contentType: String? = nil, request: Request) throws -> Response { .init(body: Data()) }
    public static func stream(contentType: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), producer: @escaping @Sendable (StreamWriter) async throws -> Void) -> Response { .init(body: Data()) }
}
public typealias Handler = @Sendable (Request) throws -> Response
public final class Router: Sendable {
    public init() {}
    public func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {}
    public func get(_ p: String, _ h: @escaping Handler) {}
    public func post(_ p: String, _ h: @escaping Handler) {}
    public func put(_ p: String, _ h: @escaping Handler) {}
    public func patch(_ p: String, _ h: @escaping Handler) {}
    public func delete(_ p: String, _ h: @escaping Handler) {}
    public var routes: [(method: HTTPMethod, pattern: String)] { [] }
}
public enum LogLevel: Int, Sendable, Comparable { case debug, info, warning, error; public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue } }
public struct Logger: Sendable {
    public init(level: LogLevel = .info, sink: (@Sendable (String) -> Void)? = nil) {}
    public func debug(_ m: @autoclosure () -> String) {}
    public func info(_ m: @autoclosure () -> String) {}
    public func warning(_ m: @autoclosure () -> String) {}
    public func error(_ m: @autoclosure () -> String) {}
}
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"; public var port = 8080; public var threads = 0; public var maxBodyBytes = 1 << 20; public var maxUploadBytes = 100 << 20
    public var maxHeaderBytes = 16 << 10; public var connectionLimit = 16_384; public var perAddressConnectionLimit = 256; public var idleTimeoutSeconds = 30; public var headerTimeoutSeconds = 10
    public var corsOrigins: [String] = []; public var shutdownGraceSeconds = 10; public var logger = Logger()
    public init() {}
}
public final class HTTPServer: Sendable {
    public init(configuration: ServerConfiguration, router: Router) {}
    public func start() throws {}
    public var port: Int { 0 }
    public func shutdown() {}
    public func runUntilSignalled() {}
}
