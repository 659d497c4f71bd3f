/// The id of one kind of thing (`ID<Song>`, `ID<Sheet>`): a positive number, written as text on the wire as
/// the API has always written ids, and checked where it is decoded. So a handler never sees text that is not an
/// id, and a song's id cannot be passed where a sheet's is due.
///
/// `Kind` is only a name (the model the id belongs to); nothing of it is stored.
public struct ID<Kind>: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int64

    /// nil for 0 and below: no row has such an id.
    public init?(rawValue: Int64) {
        guard rawValue > 0 else { return nil }
        self.rawValue = rawValue
    }

    /// An id from its text (`"42"`); nil for anything else, leading zeros, signs and spaces included.
    public init?(_ text: some StringProtocol) {
        guard let value = parseID(text) else { return nil }
        rawValue = value
    }

    /// An id from text a client holds (a model's id), or an error naming `field`: bad text is never turned
    /// into an id nobody has.
    public init(validating text: String, field: String) throws {
        guard let value = parseID(text) else {
            throw ServiceError.invalid("'\(field)' must be an id (digits, as the API gives them).")
        }
        rawValue = value
    }

    /// A row's id as the server read it from its database (never below 1).
    public init(row id: Int64) {
        precondition(id > 0, "a row id below 1")
        rawValue = id
    }

    /// The placeholder of a path before the router reads it; never sent, never stored.
    static var unread: Self { Self(unread: ()) }
    private init(unread: Void) { rawValue = 0 }

    public var description: String { String(rawValue) }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

extension ID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let value = parseID(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "must be an id (digits, as the API gives them).")
        }
        rawValue = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension ID: SchemaDescribed {
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        ["type": "string", "pattern": .string(idPattern)]
    }
    public static func probeValue(in builder: SchemaBuilder) throws -> Self { Self(rawValue: 1)! }
}

extension Array {
    /// The ids of `texts` (models' ids), or an error naming `field` for the first that is not one.
    public static func ids<Kind>(_ texts: [String], field: String) throws -> [ID<Kind>]
    where Element == ID<Kind> {
        try texts.map { try ID<Kind>(validating: $0, field: field) }
    }
}

/// A like of a comment, a moment or an episode, named by its `likeId`: it has no model of its own.
public enum Like {}
