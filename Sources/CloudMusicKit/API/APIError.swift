import Foundation

/// A failed API call: what went wrong, as a value a UI can switch on, with the server's own sentence.
///
/// `message` is the server's `message` when it sent one (the apps show it as a toast), else a sentence
/// written here.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// 400: the request was malformed; `message` says what to change.
        case badRequest
        /// 401: not signed in, the session ended, or a wrong sign-in.
        case unauthorized
        /// 403.
        case forbidden
        /// 404.
        case notFound
        /// 409: taken, or changed elsewhere (the queue's `baseVersion`).
        case conflict
        /// 413.
        case tooLarge
        /// 429: `retryAfter` seconds from the server's `Retry-After`, when it sent one.
        case rateLimited(retryAfter: Double?)
        /// 5xx.
        case server
        /// Any other non-2xx status.
        case other
        /// The server could not be reached, the connection dropped, or the request timed out.
        case network
        /// The answer was not the JSON this call expects.
        case decoding
        /// The calling task was cancelled.
        case cancelled
    }

    public var kind: Kind
    /// The HTTP status, when an answer came.
    public var httpStatus: Int?
    /// The envelope's non-zero `status` code, when the server sent one.
    public var code: Int?
    public var message: String

    public init(kind: Kind, httpStatus: Int? = nil, code: Int? = nil, message: String) {
        self.kind = kind
        self.httpStatus = httpStatus
        self.code = code
        self.message = message
    }

    public var description: String {
        var text = "APIError(\(kind)"
        if let httpStatus { text += ", HTTP \(httpStatus)" }
        if let code { text += ", status \(code)" }
        return text + "): \(message)"
    }

    /// True for failures where the server was never heard from (offline, refused, dropped, timed out).
    public var isNetwork: Bool { kind == .network }

    static func kind(forHTTPStatus status: Int, retryAfter: Double?) -> Kind {
        switch status {
        case 400: .badRequest
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 409: .conflict
        case 413: .tooLarge
        case 429: .rateLimited(retryAfter: retryAfter)
        case 500...599: .server
        default: .other
        }
    }
}
