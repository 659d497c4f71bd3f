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
            return .apiKey(key)
        }
        guard let username = parameters.first("u") else { throw SubsonicError.missing("u") }
        let password = parameters.first("p")
        let token = parameters.first("t")
        let salt = parameters.first("s")
        if password != nil && (token != nil || salt != nil) {
            throw SubsonicError(.conflictingAuthentication, "Send either p, or t with s, not both.")
        }
        if let password {
            guard password.hasPrefix("enc:") else {
                return .password(username: username, password: Array(password.utf8))
            }
            // Hex of the password's UTF-8 bytes, in either letter case; bad hex is simply a wrong password.
            let hex = String(password.dropFirst(4))
            return .password(username: username, password: Crypto.unhex(hex) ?? Array(password.utf8))
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

/// A parameter's value after its declaration checked it.
enum SubsonicArgument: Sendable {
    case text(String)
    case integer(Int64)
    case flag(Bool)
    case id(SubsonicID)
}

/// A method's parameters, read and checked against its declaration before the handler runs.
struct SubsonicArguments: Sendable {
    private var values: [String: [SubsonicArgument]] = [:]

    /// Checks every declared parameter: a required one missing is 10, a value of the wrong type or out of
    /// range is 0, an id that does not parse (or is of another kind) is 70.
    init(_ method: SubsonicMethod, _ parameters: SubsonicParameters) throws {
        for parameter in method.parameters {
            let texts =
                parameter.isRepeated
                ? parameters.all(parameter.name) : parameters.first(parameter.name).map { [$0] } ?? []
            if texts.isEmpty {
                if parameter.isRequired { throw SubsonicError.missing(parameter.name) }
                continue
            }
            values[parameter.name] = try texts.map { try Self.read($0, as: parameter) }
        }
    }

    private static func read(_ text: String, as parameter: SubsonicParameter) throws -> SubsonicArgument {
        let name = parameter.name
        switch parameter.kind {
        case .text(let maxLength):
            guard text.count <= maxLength else {
                throw SubsonicError(.generic, "'\(name)' can be at most \(maxLength) characters.")
            }
            return .text(text)
        case .integer(let range):
            guard let value = Int64(trimmedOfSpaces(text)), range.contains(value) else {
                throw SubsonicError(
                    .generic,
                    "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
            }
            return .integer(value)
        case .flag:
            switch text.lowercased() {
            case "true", "1", "on", "yes": return .flag(true)
            case "false", "0", "off", "no": return .flag(false)
            default: throw SubsonicError(.generic, "'\(name)' must be true or false.")
            }
        case .id(let kinds):
            guard let id = SubsonicID(text), kinds.contains(id.kind) else {
                throw SubsonicError.notFound(kinds.count == 1 ? kinds[0].noun : "item")
            }
            return .id(id)
        case .choice(let words):
            guard words.contains(text) else {
                throw SubsonicError(.generic, "'\(name)' must be one of: \(words.joined(separator: ", ")).")
            }
            return .text(text)
        }
    }

    func text(_ name: String) -> String? {
        if case .text(let value)? = values[name]?.first { return value }
        return nil
    }

    func integer(_ name: String) -> Int64? {
        if case .integer(let value)? = values[name]?.first { return value }
        return nil
    }

    func int(_ name: String) -> Int? { integer(name).map { Int(clamping: $0) } }

    func integers(_ name: String) -> [Int64] {
        (values[name] ?? []).compactMap { if case .integer(let value) = $0 { value } else { nil } }
    }

    func flag(_ name: String) -> Bool? {
        if case .flag(let value)? = values[name]?.first { return value }
        return nil
    }

    func id(_ name: String) -> SubsonicID? {
        if case .id(let value)? = values[name]?.first { return value }
        return nil
    }

    func ids(_ name: String) -> [SubsonicID] {
        (values[name] ?? []).compactMap { if case .id(let value) = $0 { value } else { nil } }
    }

    /// A required id (the declaration makes sure it is there).
    func requiredID(_ name: String) throws -> SubsonicID {
        guard let id = id(name) else { throw SubsonicError.missing(name) }
        return id
    }
}

/// One call of a method as its handler sees it.
struct SubsonicCall: Sendable {
    let method: SubsonicMethod
    let arguments: SubsonicArguments
    /// Nil only for the methods anyone may call.
    let user: SubsonicUser?
    /// `c`: the client's name.
    let client: String
    let format: SubsonicFormat
    let request: Request

    /// The signed-in person (every method but getOpenSubsonicExtensions has one).
    func signedIn() throws -> SubsonicUser {
        guard let user else { throw SubsonicError(.wrongCredentials, "Sign in first.") }
        return user
    }
}
