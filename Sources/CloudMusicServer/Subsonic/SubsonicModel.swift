import MusicCore

/// One answer of the Subsonic API as values, written as XML or as JSON by `SubsonicXML` and `SubsonicJSON`:
/// both formats come from the same tree, so they cannot drift apart.
///
/// The tree follows the XML schema: an element has attributes, optional text and child elements. JSON takes
/// attributes and children as keys of one object and text as `value`; a child declared `.many` is a JSON
/// array even with one item or none, as clients expect.
struct SubsonicElement: Sendable {
    var attributes: [(name: String, value: SubsonicValue)] = []
    /// Element text (XML) / `value` (JSON): a genre's name, a lyric line.
    var text: String?
    var children: [(name: String, content: SubsonicContent)] = []

    init() {}

    init(_ attributes: [(name: String, value: SubsonicValue)], text: String? = nil) {
        self.attributes = attributes
        self.text = text
    }

    /// Adds an attribute; nil leaves it out.
    mutating func add(_ name: String, _ value: String?) {
        if let value { attributes.append((name, .string(value))) }
    }

    mutating func add(_ name: String, _ value: Int?) {
        if let value { attributes.append((name, .int(Int64(value)))) }
    }

    mutating func add(_ name: String, _ value: Int64?) {
        if let value { attributes.append((name, .int(value))) }
    }

    mutating func add(_ name: String, _ value: Bool?) {
        if let value { attributes.append((name, .bool(value))) }
    }

    mutating func add(_ name: String, _ value: Double?) {
        if let value { attributes.append((name, .double(value))) }
    }

    /// An OpenSubsonic field the server supports: its value, or "" when unknown (left out of XML).
    mutating func addSoft(_ name: String, _ value: String?) {
        attributes.append((name, .soft(value ?? "")))
    }

    /// A date attribute, from Unix seconds.
    mutating func addDate(_ name: String, _ seconds: Int64?) {
        if let seconds { attributes.append((name, .string(APIDate.string(seconds)))) }
    }

    mutating func add(_ name: String, _ content: SubsonicContent) { children.append((name, content)) }

    mutating func add(_ name: String, one element: SubsonicElement) { children.append((name, .one(element))) }

    mutating func add(_ name: String, many elements: [SubsonicElement]) {
        children.append((name, .many(elements)))
    }
}

/// An attribute's value, typed for JSON.
enum SubsonicValue: Sendable {
    case string(String)
    /// An OpenSubsonic field the server supports but has no value for: XML leaves it out, JSON sends "" (the
    /// OpenSubsonic rule that a supported field is always present).
    case soft(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
}

/// What a child name holds.
enum SubsonicContent: Sendable {
    /// One element: a JSON object.
    case one(SubsonicElement)
    /// Repeated elements: a JSON array (also empty, also of one).
    case many([SubsonicElement])
    /// Repeated elements holding only text or a number (`<versions>1</versions>`): a JSON array of values.
    case values([SubsonicValue])
    /// One element holding only text (`<biography>...</biography>`): a JSON string.
    case text(String)
}

/// The answer of one call: `status="ok"` with at most one payload (`openSubsonicExtensions` repeats), or
/// `status="failed"` with an error.
struct SubsonicDocument: Sendable {
    var failed = false
    var payload: [(name: String, content: SubsonicContent)] = []

    static let empty = SubsonicDocument()

    init() {}

    init(_ name: String, _ content: SubsonicContent) { payload = [(name, content)] }

    init(_ name: String, _ element: SubsonicElement) { payload = [(name, .one(element))] }

    static func error(_ error: SubsonicError) -> SubsonicDocument {
        var element = SubsonicElement()
        element.add("code", error.code.rawValue)
        element.add("message", error.message)
        element.add("helpUrl", error.helpURL)
        var document = SubsonicDocument("error", element)
        document.failed = true
        return document
    }
}

/// The root attributes every answer carries.
struct SubsonicEnvelope: Sendable {
    var serverVersion: String

    /// This server's.
    static let current = SubsonicEnvelope(serverVersion: CloudMusicVersion.current)

    func rootAttributes(failed: Bool) -> [(name: String, value: SubsonicValue)] {
        [
            ("status", .string(failed ? "failed" : "ok")), ("version", .string(SubsonicAPI.version)),
            ("type", .string(SubsonicAPI.serverType)), ("serverVersion", .string(serverVersion)),
            ("openSubsonic", .bool(true)),
        ]
    }
}
