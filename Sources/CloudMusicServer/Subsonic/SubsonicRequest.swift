import Cryptography
import Foundation
import HTTPServer
import MusicCore

/// A request's parameters: the query and a POST form body together (formPost), in order, repeated names kept.
/// An empty value counts as absent.
struct SubsonicParameters: Sendable {
    let items: [(name: String, value: String)]

    init(_ request: Request) {
        var items = request.queryItems
        if case .form(let form) = request.body { items += form.items }
        self.items = items
    }

    init(items: [(name: String, value: String)]) { self.items = items }

    /// The first non-empty value of `name`.
    func first(_ name: String) -> String? { items.first { $0.name == name && !$0.value.isEmpty }?.value }

    /// Every non-empty value of `name`, in order.
    func all(_ name: String) -> [String] {
        items.compactMap { $0.name == name && !$0.value.isEmpty ? $0.value : nil }
    }

    func has(_ name: String) -> Bool { first(name) != nil }
}

/// `text.trimmingCharacters(in: .whitespaces)`, without Foundation when there is nothing to trim: when the
/// first and last characters are letters, marks, numbers, punctuation or symbols (or ASCII other than the
/// space and the tab), which that set (the tab and the space separators, by Foundation's Unicode tables, which
/// also count U+200B) never holds.
func trimmedOfSpaces(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
    func plain(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar != " " && scalar != "\t" }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
            .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
    return plain(first) && plain(last) ? text : text.trimmingCharacters(in: .whitespaces)
}

/// How the answer is written.
enum SubsonicFormat: Sendable, Equatable {
    case xml
    case json
    case jsonp(callback: String)

    /// From `f` and `callback`; an unknown `f` is XML, a JSONP callback that is no JavaScript name is refused.
    static func read(_ parameters: SubsonicParameters) -> (SubsonicFormat, SubsonicError?) {
        switch parameters.first("f")?.lowercased() {
        case "json": return (.json, nil)
        case "jsonp":
            guard let callback = parameters.first("callback"), isCallbackName(callback) else {
                return (.json, SubsonicError(.generic, "f=jsonp needs a callback that is a JavaScript name."))
            }
            return (.jsonp(callback: callback), nil)
        default: return (.xml, nil)
        }
    }

    private static func isCallbackName(_ text: String) -> Bool {
        guard text.utf8.count <= 128, let first = text.utf8.first else { return false }
        func letter(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x24
        }
        return letter(first)
            && text.utf8.allSatisfy { letter($0) || (0x30...0x39).contains($0) || $0 == 0x2E }
    }
}

extension SubsonicCredentials {
    /// The credentials of a request, by the OpenSubsonic rules: `apiKey` alone (with u, p, t or s: 43), else
    /// `u` with `p` (clear or `enc:` hex) or with `t` and `s`; `p` with `t` is 43; anything missing is 10.
    static func read(_ parameters: SubsonicParameters) throws -> SubsonicCredentials {
        if let key = parameters.first("apiKey") {
            guard !["u", "p", "t", "s"].contains(where: parameters.has) else {
                throw SubsonicError(
                    .conflictingAuthentication,
                    "Send either apiKey alone, or u with p (or with t and s), not both.")
            }
            return .apiKey(
                AppPasswordForms.canonical(Array(key.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? key
            )
        }
        guard let username = parameters.first("u") else { throw SubsonicError.missing("u") }
        let password = parameters.first("p")
        let token = parameters.first("t")
        let salt = parameters.first("s")
        if password != nil && (token != nil || salt != nil) {
            throw SubsonicError(.conflictingAuthentication, "Send either p, or t with s, not both.")
        }
        if let password {
            var bytes = Array(password.utf8)
            if password.hasPrefix("enc:") {
                // Hex of the password's UTF-8 bytes, in either letter case; bad hex is simply a wrong password.
                bytes = Crypto.unhex(String(password.dropFirst(4))) ?? bytes
            }
            // Typed without its dashes, or in capitals: the app password all the same.
            return .password(username: username, password: AppPasswordForms.canonical(bytes) ?? bytes)
        }
        guard let token else { throw SubsonicError.missing(salt == nil ? "p" : "t") }
        guard let salt else { throw SubsonicError.missing("s") }
        return .token(username: username, token: token, salt: salt)
    }
}

/// `v`, the API version the client speaks: any 1.x works; another major version is refused (20 or 30).
func checkClientVersion(_ parameters: SubsonicParameters) throws {
    guard let text = parameters.first("v") else { throw SubsonicError.missing("v") }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count), let major = Int(parts[0]), parts.allSatisfy({ Int($0) != nil })
    else {
        throw SubsonicError(.generic, "'v' must be the API version the client speaks, such as 1.16.1.")
    }
    if major < 1 {
        throw SubsonicError(
            .clientMustUpgrade,
            "Incompatible Subsonic REST protocol version: the client must upgrade (the server speaks \(SubsonicAPI.version))."
        )
    }
    if major > 1 {
        throw SubsonicError(
            .serverMustUpgrade,
            "Incompatible Subsonic REST protocol version: the server must upgrade (it speaks \(SubsonicAPI.version))."
        )
    }
}

/// One call of a method as its handler sees it: the parameters its declaration reads, already checked, and the
/// caller the declaration promises (a `SubsonicUser` for `SignedIn` and `Admin` methods).
struct SubsonicCall<Parameters: Sendable, Person: Sendable>: Sendable {
    let parameters: Parameters
    let user: Person
    /// `c`: the client's name.
    let client: String
    let request: Request
}

/// What the server makes of a Subsonic method's access level: the caller its handlers receive.
protocol SubsonicCaller: AccessLevel {
    associatedtype Person: Sendable
    static func person(_ user: SubsonicUser?) throws -> Person
}

extension Anyone: SubsonicCaller {
    static func person(_ user: SubsonicUser?) throws {}
}

extension SignedIn: SubsonicCaller {
    static func person(_ user: SubsonicUser?) throws -> SubsonicUser {
        guard let user else { throw SubsonicError(.wrongCredentials, "Sign in first.") }
        return user
    }
}

extension Admin: SubsonicCaller {
    static func person(_ user: SubsonicUser?) throws -> SubsonicUser {
        guard let user else { throw SubsonicError(.wrongCredentials, "Sign in first.") }
        guard user.isAdmin else { throw SubsonicError(.notAuthorized, "Only an administrator can do this.") }
        return user
    }
}

extension SubsonicError {
    /// The Subsonic form of a parameter its declaration refused.
    init(_ error: SubsonicParameterError) {
        switch error {
        case .missing(let name): self = .missing(name)
        case .invalid(let message): self.init(.generic, message)
        case .notFound(let noun): self = .notFound(noun)
        }
    }
}
