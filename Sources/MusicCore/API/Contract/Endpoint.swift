/// One endpoint of the API, declared once and shared by the server, the SDK, the OpenAPI document and the
/// web player's client.
///
/// `Path` and `Query` are `APIParameters` (typed fields read from the address), `Body` is what the request
/// carries (`NoBody`, a `Codable` JSON value, an `Upload` or a `TextBody`), `Answer` is what a success
/// carries (`Done`, a `Codable` value, or a `MediaAnswer` such as an audio stream), and `Caller` says who may
/// call it. The server enforces `Caller` before a handler runs.
public struct Endpoint<
    Path: APIParameters, Query: APIParameters, Body: Sendable, Answer: Sendable, Caller: AccessLevel
>:
    Sendable
{
    /// The endpoint's name in its group (`detail`), for generated clients and the document's operation ids.
    public let name: String
    public let method: HTTPVerb
    /// A template such as `/v1/sheets/{id}/relations/{songId}`; every `{name}` is a field of `Path`.
    public let path: String
    /// One sentence: what it does, as the documentation shows it.
    public let summary: String
    /// The HTTP status of a success (201 for what creates, 202 for what starts).
    public let status: Int
    /// What a path id names in "That sheet does not exist."; also the OpenAPI tag's noun.
    public let resource: String
    /// Whether sending it twice has the effect of sending it once, so a client may retry it.
    public let isIdempotent: Bool
    /// Refusals the documentation should list beyond those the declaration implies.
    public let refusals: [ServiceError.Kind]

    public init(
        _ name: String, _ method: HTTPVerb, _ path: String, _ summary: String, status: Int = 200,
        resource: String = "", idempotent: Bool? = nil, refusals: [ServiceError.Kind] = []
    ) {
        self.name = name
        self.method = method
        self.path = path
        self.summary = summary
        self.status = status
        self.resource = resource
        self.isIdempotent = idempotent ?? (method == .GET)
        self.refusals = refusals
    }

    /// The path with `values` put in for its parameters, each percent-encoded as one segment.
    public func address(_ values: Path) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return String(segment) }
            let name = segment.dropFirst().dropLast()
            let field = Path.fields.first { $0.name == name }
            return percentEncodedSegment(field?.text(values) ?? "")
        }.joined(separator: "/")
    }

    /// The address relative to the server root, as models carry media paths (`v1/songs/5/stream`).
    public func uri(_ values: Path) -> String { String(address(values).dropFirst()) }

    /// `path` as the server's router writes patterns: `{id}` becomes `:id`.
    public var routePattern: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
        }.joined(separator: "/")
    }
}

/// The request methods endpoints use.
public enum HTTPVerb: String, Sendable, CaseIterable {
    // Spelled as on the wire.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case GET, POST, PUT, PATCH, DELETE
}

/// Who may call an endpoint, as a value (for documentation and generated clients).
public enum Access: String, Sendable {
    /// Anyone. `Authorization` is not read: these are the endpoints that hand out credentials.
    case anyone
    /// Anyone; a valid token makes the caller known, and a token that is sent but invalid is a 401.
    case optionalSignIn
    /// A signed-in person.
    case signedIn
    /// An administrator.
    case admin
    /// An administrator, or a client on the server's own machine while the server has no administrator.
    case adminOrFirstRun
    /// The holder of a chat token (from signing in): it opens the event stream and nothing else.
    case chatToken
}

/// Who may call an endpoint, as a type, so a handler of a signed-in endpoint receives a signed-in caller.
public protocol AccessLevel: Sendable {
    static var access: Access { get }
}

public enum Anyone: AccessLevel { public static var access: Access { .anyone } }
public enum OptionalSignIn: AccessLevel { public static var access: Access { .optionalSignIn } }
public enum SignedIn: AccessLevel { public static var access: Access { .signedIn } }
public enum Admin: AccessLevel { public static var access: Access { .admin } }
public enum AdminOrFirstRun: AccessLevel { public static var access: Access { .adminOrFirstRun } }
public enum ChatTokenHolder: AccessLevel { public static var access: Access { .chatToken } }

/// A request without a body.
public struct NoBody: Codable, Sendable, Equatable {
    public init() {}
}

/// A success that carries nothing: `{"status":0}`.
public struct Done: Codable, Sendable, Equatable {
    public init() {}
}

/// Files sent as `multipart/form-data` (pictures, playlists).
public struct Upload: Sendable {
    public struct File: Sendable {
        public enum Content: Sendable {
            /// The bytes, as a client sends them.
            case bytes([UInt8])
            /// A file holding them, as the server receives them.
            case stored(path: String, size: Int)
        }

        public var fileName: String?
        public var contentType: String?
        public var content: Content

        public init(fileName: String?, contentType: String?, content: Content) {
            self.fileName = fileName
            self.contentType = contentType
            self.content = content
        }

        /// The size in bytes.
        public var size: Int {
            switch content {
            case .bytes(let b): b.count
            case .stored(_, let size): size
            }
        }
    }

    /// The multipart field every file is sent under.
    public static let fieldName = "file"

    public var files: [File]
    /// Text fields sent beside the files.
    public var fields: [String: String]

    public init(files: [File], fields: [String: String] = [:]) {
        self.files = files
        self.fields = fields
    }
}

/// Files sent as `multipart/form-data` with typed text fields beside them (an ad's title and times with its
/// picture): the fields are read and checked like a query, from the form's text parts.
public struct Form<Fields: APIParameters>: Sendable {
    public var fields: Fields
    /// The file parts, all sent under `Upload.fieldName`.
    public var files: [Upload.File]

    public init(_ fields: Fields, files: [Upload.File]) {
        self.fields = fields
        self.files = files
    }
}

/// What generic code (the server's router, the SDK, the documentation) needs of a `Form`, whatever its fields.
public protocol FormBody: Sendable {
    /// The text fields, as documented.
    static var fieldDescriptions: [ParameterDescription] { get }
    /// Reads and checks the fields from the form's text parts.
    static func read(fields: [String: String], files: [Upload.File]) throws -> Self
    /// The files and the fields as text, as a client sends them.
    var upload: Upload { get }
}

extension Form: FormBody {
    public static var fieldDescriptions: [ParameterDescription] {
        Fields.fields.map { field in
            ParameterDescription(
                name: field.name, aliases: field.aliases, schema: field.schema, doc: field.doc,
                defaultValue: nil)
        }
    }

    public static func read(fields: [String: String], files: [Upload.File]) throws -> Self {
        Form(try Fields.read { fields[$0] }, files: files)
    }

    public var upload: Upload {
        var text: [String: String] = [:]
        for item in fields.items() { text[item.name] = item.value }
        return Upload(files: files, fields: text)
    }
}

/// A text document sent as the request body, or as one file of a multipart upload (an M3U playlist).
public struct TextBody: Sendable {
    public var text: String
    public init(_ text: String) { self.text = text }
}

/// An answer that is a file or a stream rather than a JSON value.
public protocol MediaAnswer: Sendable {
    /// The Content-Type the documentation gives, such as `audio/*`.
    static var contentType: String { get }
    static var summary: String { get }
}

public enum AudioFile: MediaAnswer {
    public static var contentType: String { "audio/*" }
    public static var summary: String { "The audio, with Range, ETag and 304 support" }
}

public enum VideoFile: MediaAnswer {
    public static var contentType: String { "video/*" }
    public static var summary: String { "The video, with Range, ETag and 304 support" }
}

public enum Picture: MediaAnswer {
    public static var contentType: String { "image/*" }
    public static var summary: String { "The picture, with ETag and 304 support" }
}

public enum PlaylistFile: MediaAnswer {
    public static var contentType: String { "audio/x-mpegurl" }
    public static var summary: String { "The playlist as an extended M3U file" }
}

public enum PlainText: MediaAnswer {
    public static var contentType: String { "text/plain" }
    public static var summary: String { "Text" }
}

public enum JSONDocument: MediaAnswer {
    public static var contentType: String { "application/json" }
    public static var summary: String { "A JSON document" }
}

func percentEncodedSegment(_ value: String) -> String {
    var out = ""
    for byte in value.utf8 {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E:
            out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = Array("0123456789ABCDEF".unicodeScalars)
            out.unicodeScalars.append("%")
            out.unicodeScalars.append(hex[Int(byte >> 4)])
            out.unicodeScalars.append(hex[Int(byte & 15)])
        }
    }
    return out
}
