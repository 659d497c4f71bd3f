import HTTPServer
import MusicCore

/// A Subsonic error: a code from the spec and a sentence a person can act on. Answered with HTTP 200 and
/// `status="failed"`, as the spec says.
struct SubsonicError: Error, Sendable, Equatable {
    /// The Subsonic error codes (OpenSubsonic adds 42, 43 and 44).
    enum Code: Int, Sendable {
        /// A generic error: a bad value, something not supported, too many tries, a fault.
        case generic = 0
        /// A required parameter is missing.
        case missingParameter = 10
        /// The client speaks an older major version than the server.
        case clientMustUpgrade = 20
        /// The client speaks a newer major version than the server.
        case serverMustUpgrade = 30
        /// Wrong username or password (or token, or a revoked app password).
        case wrongCredentials = 40
        /// Token authentication not supported (never: every app password works as a token base).
        case tokenNotSupported = 41
        /// This authentication mechanism is not supported (never: all are).
        case mechanismNotSupported = 42
        /// Several ways of authenticating in one request (apiKey with u, p with t...).
        case conflictingAuthentication = 43
        /// An apiKey that is not (or no longer) an app password.
        case invalidAPIKey = 44
        /// The caller may not do this.
        case notAuthorized = 50
        /// Asked for something that does not exist (or that the caller may not know exists).
        case notFound = 70
    }

    var code: Code
    var message: String
    /// Where a person learns what to do (app passwords, for credential errors).
    var helpURL: String?

    init(_ code: Code, _ message: String, helpURL: String? = nil) {
        self.code = code
        self.message = message
        self.helpURL = helpURL
    }

    static func missing(_ name: String) -> SubsonicError {
        SubsonicError(.missingParameter, "Required parameter '\(name)' is missing.")
    }

    static func notFound(_ noun: String) -> SubsonicError {
        SubsonicError(.notFound, "That \(noun) does not exist.")
    }

    /// The Subsonic form of an HTTP refusal: a miss is 70, another method is told to use GET or POST.
    init(_ error: any HTTPResponseError) {
        switch error.status {
        case 404: self.init(.notFound, error.message)
        case 405: self.init(.generic, "Subsonic methods are called with GET or POST.")
        default: self.init(.generic, error.message)
        }
    }

    /// The Subsonic form of a refusal from the rest of the server.
    init(_ error: ServiceError) {
        switch error.kind {
        case .notFound: self.init(.notFound, error.message)
        case .forbidden: self.init(.notAuthorized, error.message)
        case .unauthenticated: self.init(.wrongCredentials, error.message)
        default: self.init(.generic, error.message)
        }
    }
}
