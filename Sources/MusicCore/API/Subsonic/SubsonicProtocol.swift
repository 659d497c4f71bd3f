/// The vocabulary of the Subsonic REST API (1.16.1, with the OpenSubsonic extensions) as CloudMusic speaks it
/// at `/rest`: methods, their parameters, who may call them, and typed ids.
///
/// Subsonic's shapes are its own (`subsonic-response` in XML or JSON, errors with HTTP 200), so its methods are
/// not v1 `Endpoint`s and are not in `APIContract` or `openapi.json`; each is declared once in `SubsonicAPI` as
/// a `SubsonicEndpoint` with its typed parameters, through which the server registers its handler.

/// One method of `/rest`, typed: its parameters (a `SubsonicParameterSet`, read and checked before the handler
/// runs) and who may call it (`Anyone`, `SignedIn` or `Admin`, as for v1 endpoints). The server registers a
/// handler through the declaration itself (`rest.on(SubsonicAPI.getAlbum) { call in ... }`), never by name.
public struct SubsonicEndpoint<Parameters: SubsonicParameterSet, Caller: AccessLevel>: Sendable {
    /// The method's name, as in `/rest/<name>` and `/rest/<name>.view`.
    public let name: String
    public let summary: String
    public let answer: SubsonicMethod.Answer
    /// The OpenSubsonic extension the method belongs to, if any.
    public let extensionName: String?

    public init(
        _ name: String, _ summary: String, answer: SubsonicMethod.Answer, extensionName: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.answer = answer
        self.extensionName = extensionName
    }

    /// The declaration as documentation reads it.
    public var description: SubsonicMethod {
        SubsonicMethod(
            name, summary, access: SubsonicMethod.Access(Caller.access),
            Parameters.fields.map(\.description), answer: answer, extensionName: extensionName)
    }
}

/// A method as documentation and tests read it: name, parameters, who may call it and what it answers.
public struct SubsonicMethod: Sendable {
    /// Who may call a method.
    public enum Access: String, Sendable {
        /// No credentials at all (getOpenSubsonicExtensions must be public).
        case anyone
        /// Any signed-in person (an app password, as a token, a password or an API key).
        case user
        /// An administrator; others get error 50.
        case admin

        init(_ access: MusicCore.Access) {
            switch access {
            case .anyone: self = .anyone
            case .admin, .adminOrFirstRun: self = .admin
            default: self = .user
            }
        }
    }

    /// What a success carries.
    public enum Answer: Sendable, Equatable {
        /// A `subsonic-response` holding the element of this name (nil: an empty `status="ok"` answer).
        case document(String?)
        /// Bytes (audio, an image); errors still come as a `subsonic-response`.
        case media
    }

    /// The method's name, as in `/rest/<name>` and `/rest/<name>.view`.
    public let name: String
    public let summary: String
    public let access: Access
    public let parameters: [SubsonicParameter]
    public let answer: Answer
    /// The OpenSubsonic extension the method belongs to, if any.
    public let extensionName: String?
    /// Why the method answers error 0 instead of working; nil when it works.
    public let unsupported: String?

    init(
        _ name: String, _ summary: String, access: Access, _ parameters: [SubsonicParameter], answer: Answer,
        extensionName: String?
    ) {
        self.name = name
        self.summary = summary
        self.access = access
        self.parameters = parameters
        self.answer = answer
        self.extensionName = extensionName
        self.unsupported = nil
    }

    /// A method clients may call that this server does not offer: it answers error 0 with `reason`.
    public static func notSupported(_ name: String, _ reason: String) -> SubsonicMethod {
        SubsonicMethod(name: name, reason: reason)
    }

    private init(name: String, reason: String) {
        self.name = name
        self.summary = reason
        self.access = .user
        self.parameters = []
        self.answer = .document(nil)
        self.extensionName = nil
        self.unsupported = reason
    }

    /// The declared parameter called `name`.
    public func parameter(_ name: String) -> SubsonicParameter? { parameters.first { $0.name == name } }
}

/// One parameter of a Subsonic method as documented: its type, whether it is required and whether it may
/// repeat (`id=a&id=b`).
public struct SubsonicParameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Text of at most this many characters.
        case text(maxLength: Int)
        /// A whole number in a range (kbit/s, milliseconds...); outside it is refused.
        case integer(ClosedRange<Int64>)
        /// A count or an offset: a whole number brought into the range (a negative offset is 0).
        case clamped(ClosedRange<Int64>)
        /// `true` or `false` (any letter case; also `1`/`0` and `on`).
        case flag
        /// A typed id of one of these kinds (`tr-31`); an id that does not parse is "not found" (70).
        case id([SubsonicIDKind])
        /// One of these words.
        case choice([String])
    }

    public let name: String
    public let kind: Kind
    /// Missing (or empty) is error 10.
    public let isRequired: Bool
    /// Every value is read; otherwise the first.
    public let isRepeated: Bool
    public let doc: String

    public init(
        _ name: String, _ kind: Kind, required: Bool = false, repeated: Bool = false, _ doc: String = ""
    ) {
        self.name = name
        self.kind = kind
        self.isRequired = required
        self.isRepeated = repeated
        self.doc = doc
    }

    public static func text(
        _ name: String, maxLength: Int = 1_000, required: Bool = false, repeated: Bool = false,
        _ doc: String = ""
    ) -> Self {
        Self(name, .text(maxLength: maxLength), required: required, repeated: repeated, doc)
    }

    public static func integer(
        _ name: String, _ range: ClosedRange<Int64>, required: Bool = false, repeated: Bool = false,
        _ doc: String = ""
    ) -> Self {
        Self(name, .integer(range), required: required, repeated: repeated, doc)
    }

    public static func clamped(_ name: String, _ range: ClosedRange<Int64>, _ doc: String = "") -> Self {
        Self(name, .clamped(range), doc)
    }

    public static func flag(_ name: String, _ doc: String = "") -> Self { Self(name, .flag, doc) }

    public static func id(
        _ name: String, _ kinds: [SubsonicIDKind], required: Bool = false, repeated: Bool = false,
        _ doc: String = ""
    ) -> Self {
        Self(name, .id(kinds), required: required, repeated: repeated, doc)
    }

    public static func choice(_ name: String, _ words: [String], required: Bool = false, _ doc: String = "")
        -> Self
    {
        Self(name, .choice(words), required: required, doc)
    }
}

/// An OpenSubsonic extension the server implements, as `getOpenSubsonicExtensions` lists it.
public struct SubsonicExtension: Sendable, Equatable {
    public let name: String
    public let versions: [Int]
    /// What it changes, for the documentation.
    public let summary: String

    public init(_ name: String, versions: [Int], _ summary: String) {
        self.name = name
        self.versions = versions
        self.summary = summary
    }
}

/// What an id names. Ids are `<kind>-<CloudMusic id>`: `ar-12`, `al-7`, `tr-31`, `pl-5` (a sheet), `ra-2` (an
/// internet radio station), `pc-3` (a podcast, a channel to Subsonic), `pe-40` (a podcast episode).
public enum SubsonicIDKind: String, Sendable, CaseIterable {
    case artist = "ar"
    case album = "al"
    case song = "tr"
    case playlist = "pl"
    case radio = "ra"
    case podcastChannel = "pc"
    case podcastEpisode = "pe"

    /// The noun for messages ("That song does not exist.").
    public var noun: String {
        switch self {
        case .artist: "artist"
        case .album: "album"
        case .song: "song"
        case .playlist: "playlist"
        case .radio: "internet radio station"
        case .podcastChannel: "podcast"
        case .podcastEpisode: "podcast episode"
        }
    }
}

/// A typed id: artists, albums, songs and playlists in one namespace, so a method taking "a song, album or
/// artist id" knows which from the id alone.
public struct SubsonicID: Hashable, Sendable, CustomStringConvertible {
    public var kind: SubsonicIDKind
    /// The CloudMusic id (`/v1/songs/31` for `tr-31`).
    public var value: Int64

    public init(_ kind: SubsonicIDKind, _ value: Int64) {
        self.kind = kind
        self.value = value
    }

    /// Parses `ar-12`, `al-7`, `tr-31` or `pl-5` exactly (no sign, no leading zero, no spaces).
    public init?<S: StringProtocol>(_ text: S) {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 4, utf8.count <= 22, utf8[2] == UInt8(ascii: "-"),
            let kind = SubsonicIDKind(rawValue: String(decoding: utf8[0..<2], as: UTF8.self))
        else { return nil }
        let digits = utf8[3...]
        guard digits.first != UInt8(ascii: "0"), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(String(decoding: digits, as: UTF8.self)), value > 0
        else { return nil }
        self.kind = kind
        self.value = value
    }

    public var description: String { "\(kind.rawValue)-\(value)" }
}
