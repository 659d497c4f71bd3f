import Foundation

/// The request methods the server routes.
public enum HTTPMethod: String, Sendable, CaseIterable {
    // Spelled as on the wire.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS

    init?(cString p: UnsafePointer<CChar>) {
        // Fast path without allocating a String; each byte is read only if the ones before it are not NUL.
        if p[0] == 0x47 && p[1] == 0x45 && p[2] == 0x54 && p[3] == 0 {
            self = .GET
        } else if p[0] == 0x50 && p[1] == 0x4F && p[2] == 0x53 && p[3] == 0x54 && p[4] == 0 {
            self = .POST
        } else if p[0] == 0x50 && p[1] == 0x55 && p[2] == 0x54 && p[3] == 0 {
            self = .PUT
        } else {
            guard let m = HTTPMethod(rawValue: String(cString: p)) else { return nil }
            self = m
        }
    }
}

/// Header fields in arrival order, looked up without regard to case.
public struct HTTPHeaders: Sendable, Sequence {
    public typealias Element = (name: String, value: String)
    @usableFromInline var pairs: [(name: String, value: String)]

    public init(_ pairs: [(String, String)] = []) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    init(labelled pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// The first value of the field `name`.
    public subscript(name: String) -> String? {
        for p in pairs where asciiCaseInsensitiveEqual(p.name, name) { return p.value }
        return nil
    }

    /// Every value of the field `name`, in order.
    public func values(_ name: String) -> [String] {
        pairs.filter { asciiCaseInsensitiveEqual($0.name, name) }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    /// Removes every field called `name` and adds one with `value`.
    public mutating func replace(_ name: String, _ value: String) {
        remove(name)
        pairs.append((name: name, value: value))
    }

    public mutating func remove(_ name: String) {
        pairs.removeAll { asciiCaseInsensitiveEqual($0.name, name) }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public var count: Int { pairs.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        pairs.makeIterator()
    }
}

@inline(__always)
func asciiCaseInsensitiveEqual(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { ua in
        b.withUTF8 { ub in
            guard ua.count == ub.count else { return false }
            for i in 0..<ua.count {
                let x = ua[i]
                let y = ub[i]
                if x == y { continue }
                let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
                let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
                if lx != ly { return false }
            }
            return true
        }
    }
}

/// A file part of a multipart upload, stored in a temporary file for the length of the request.
public struct UploadedFile: Sendable {
    public let fieldName: String
    public let fileName: String?
    public let contentType: String?
    /// A temporary file, deleted when the request ends: move or copy it to keep it.
    public let path: String
    public let size: Int

    public init(fieldName: String, fileName: String?, contentType: String?, path: String, size: Int) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        self.path = path
        self.size = size
    }
}

/// The fields and files of a `multipart/form-data` body.
public struct MultipartForm: Sendable {
    public let fields: [String: String]
    public let files: [UploadedFile]

    public init(fields: [String: String], files: [UploadedFile]) {
        self.fields = fields
        self.files = files
    }
}

/// A request's body, parsed by content type.
public enum RequestBody: Sendable {
    case empty
    case data(Data, contentType: String?)
    case form(FormFields)
    case multipart(MultipartForm)
}

/// The fields of an `application/x-www-form-urlencoded` body, in order, repeated names kept.
public struct FormFields: Sendable, Encodable {
    public let items: [(name: String, value: String)]

    public init(_ items: [(name: String, value: String)]) { self.items = items }

    /// The last value of `name`, as `Request.query` keeps it.
    public subscript(name: String) -> String? { items.last { $0.name == name }?.value }

    /// Encodes as an object of the last value of each name.
    public func encode(to encoder: any Encoder) throws {
        var last: [String: String] = [:]
        for item in items { last[item.name] = item.value }
        try last.encode(to: encoder)
    }
}

/// An error answered with its own status, headers and a sentence a person can act on, rather than a 500.
///
/// How the sentence is written (plain text, an API's envelope) is the server's `ErrorRenderer`'s choice.
public protocol HTTPResponseError: Error {
    var status: Int { get }
    var message: String { get }
    var headers: [(String, String)] { get }
}

extension HTTPResponseError {
    public var headers: [(String, String)] { [] }
}

/// An error the HTTP layer itself throws (bad framing, sizes, unknown addresses).
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    public let status: Int
    /// The sentence as a template, for a renderer that writes it in the reader's language.
    public let text: HTTPErrorText
    public var headers: [(String, String)]

    /// The sentence in English.
    public var message: String { text.description }

    public init(status: Int, message: HTTPErrorText, headers: [(String, String)] = []) {
        self.status = status
        self.text = message
        self.headers = headers
    }

    public static func badRequest(_ message: HTTPErrorText) -> HTTPError {
        HTTPError(status: 400, message: message)
    }
    public static func unauthorized(_ message: HTTPErrorText) -> HTTPError {
        HTTPError(status: 401, message: message)
    }
    public static func forbidden(_ message: HTTPErrorText) -> HTTPError {
        HTTPError(status: 403, message: message)
    }
    public static func notFound(_ message: HTTPErrorText) -> HTTPError {
        HTTPError(status: 404, message: message)
    }
    public static func conflict(_ message: HTTPErrorText) -> HTTPError {
        HTTPError(status: 409, message: message)
    }
    public static func tooLarge(_ message: HTTPErrorText) -> HTTPError {
        HTTPError(status: 413, message: message)
    }
    public static func unsupportedMediaType(_ message: HTTPErrorText) -> HTTPError {
        HTTPError(status: 415, message: message)
    }
    public static func tooManyRequests(_ message: HTTPErrorText, retryAfter: Int? = nil) -> HTTPError {
        HTTPError(
            status: 429, message: message, headers: retryAfter.map { [("Retry-After", String($0))] } ?? [])
    }

    public var description: String { "HTTPError(\(status)): \(message)" }
}
