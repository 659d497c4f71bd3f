/// A refusal with a sentence a person can act on: what services, rules and parameter parsing throw.
///
/// `kind` says what went wrong in the product's terms; the server's one renderer turns it into an HTTP
/// status and the envelope `{"status":code,"message":message}`, with the message in the language of the
/// request's `Accept-Language` (the status never depends on it), and the SDK reads it back.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// What was sent cannot be used (a missing field, a value out of range).
        case invalid
        /// The caller must sign in (or sign in again).
        case unauthenticated
        /// The caller is known but may not do this.
        case forbidden
        /// The thing does not exist, or the caller may not know it does.
        case notFound
        /// It clashes with what exists (a taken name, a stale version, a full sheet).
        case conflict
        /// It is larger than allowed.
        case tooLarge
        /// It is in a format the server does not take.
        case unsupportedFormat
        /// The range asked for lies outside the file.
        case outsideRange
        /// Too many tries; `retryAfter` says when to try again.
        case rateLimited
        /// The server cannot do it now (a helper program or another service is missing or busy).
        case unavailable
        /// Something failed inside the server; the message says whom to tell.
        case serverFault
    }

    public var kind: Kind
    /// The sentence, kept as a template so that it can be written in the reader's language.
    public var text: LocalizedText
    /// Seconds to wait, for `rateLimited` and `unavailable`.
    public var retryAfter: Int?

    /// The sentence in English.
    public var message: String { text.description }

    /// The sentence in `language`.
    public func message(in language: Language) -> String { text.rendered(in: language) }

    public init(_ kind: Kind, _ text: LocalizedText, retryAfter: Int? = nil) {
        self.kind = kind
        self.text = text
        self.retryAfter = retryAfter
    }

    public static func invalid(_ text: LocalizedText) -> ServiceError { ServiceError(.invalid, text) }
    public static func unauthenticated(_ text: LocalizedText) -> ServiceError {
        ServiceError(.unauthenticated, text)
    }
    public static func forbidden(_ text: LocalizedText) -> ServiceError { ServiceError(.forbidden, text) }
    public static func notFound(_ text: LocalizedText) -> ServiceError { ServiceError(.notFound, text) }
    public static func conflict(_ text: LocalizedText) -> ServiceError { ServiceError(.conflict, text) }
    public static func tooLarge(_ text: LocalizedText) -> ServiceError { ServiceError(.tooLarge, text) }
    public static func unsupportedFormat(_ text: LocalizedText) -> ServiceError {
        ServiceError(.unsupportedFormat, text)
    }
    public static func rateLimited(_ text: LocalizedText, retryAfter: Int? = nil) -> ServiceError {
        ServiceError(.rateLimited, text, retryAfter: retryAfter)
    }
    public static func unavailable(_ text: LocalizedText, retryAfter: Int? = nil) -> ServiceError {
        ServiceError(.unavailable, text, retryAfter: retryAfter)
    }

    public static func serverFault(_ text: LocalizedText) -> ServiceError { ServiceError(.serverFault, text) }

    public var description: String { "ServiceError(\(kind.rawValue)): \(message)" }

    /// The same refusal: the same kind, wait and English sentence (however its template was put together).
    public static func == (lhs: ServiceError, rhs: ServiceError) -> Bool {
        lhs.kind == rhs.kind && lhs.retryAfter == rhs.retryAfter && lhs.message == rhs.message
    }
}

extension ServiceError.Kind {
    /// The HTTP status a refusal of this kind is answered with (also the envelope's `status`).
    public var httpStatus: Int {
        switch self {
        case .invalid: 400
        case .unauthenticated: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .tooLarge: 413
        case .unsupportedFormat: 415
        case .outsideRange: 416
        case .rateLimited: 429
        case .unavailable: 503
        case .serverFault: 500
        }
    }

    /// The kind of an HTTP status, for clients reading an answer back.
    public init?(httpStatus: Int) {
        guard let kind = Self.allCases.first(where: { $0.httpStatus == httpStatus }) else { return nil }
        self = kind
    }
}
