/// The typed fields of a path or a query, read from text by the server and written as text by clients.
///
/// A conforming struct starts from `init()` (its defaults) and lists its fields once; that list is how the
/// server parses and checks them, how the SDK sends them and how the documentation describes them.
public protocol APIParameters: Sendable {
    init()
    static var fields: [ParameterField<Self>] { get }
}

/// No parameters.
public struct NoParameters: APIParameters, Equatable {
    public init() {}
    public static var fields: [ParameterField<Self>] { [] }
}

public typealias NoPath = NoParameters
public typealias NoQuery = NoParameters

/// A path of one id of one kind, such as `/v1/sheets/{id}` (`IDPath<Sheet>`): a handler gets an `ID<Sheet>`,
/// which no song's service takes.
public struct IDPath<Kind>: APIParameters, Equatable {
    /// Set from the address by the router before any handler runs (`init()` is only the parse's start).
    public var id = ID<Kind>.unread
    public init() {}
    public init(_ id: ID<Kind>) { self.id = id }
    /// An id as models carry it: text that is not an id is refused here, before anything is sent.
    public init(_ id: String) throws { self.id = try ID(validating: id, field: "id") }
    /// The id of a row the server has read (a database id is never below 1).
    public init(row id: Int64) { self.id = ID(row: id) }
    public static var fields: [ParameterField<Self>] { [.id("id", \.id)] }
}

/// `page` (from 1) and `size`, the paging of numbered lists.
public struct Paging: Sendable, Equatable {
    public var page = 1
    public var size: Int
    public init(page: Int = 1, size: Int = 20) {
        self.page = page
        self.size = size
    }

    /// The two fields, for a query struct holding paging at `keyPath`.
    public static func fields<Root>(
        _ keyPath: WritableKeyPath<Root, Paging>, maxSize: Int = 100
    ) -> [ParameterField<Root>] {
        [
            .integer("page", keyPath.appending(path: \.page), in: 1...1_000_000, doc: "The page, from 1."),
            .integer("size", keyPath.appending(path: \.size), in: 1...maxSize, doc: "Items per page."),
        ]
    }

    /// The offset of the page's first item.
    public var offset: Int { (page - 1) * size }
}

/// A query of paging alone, with `size` up to 100 (default 20).
public struct PageQuery: APIParameters, Equatable {
    public var paging = Paging()
    public init() {}
    public init(page: Int, size: Int = 20) { paging = Paging(page: page, size: size) }
    public static let fields: [ParameterField<Self>] = Paging.fields(\.paging)
}

/// How a parameter is documented: its JSON Schema type and bounds.
public struct ParameterSchema: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case integer, number, string, boolean
    }

    public var kind: Kind
    public var minimum: Double?
    public var maximum: Double?
    /// In Unicode code points, as JSON Schema counts.
    public var minLength: Int?
    public var maxLength: Int?
    /// A regular expression the whole value matches (anchored with `^` and `$`, or a `\\S` for "not blank").
    public var pattern: String?
    /// The allowed values, for choices.
    public var choices: [String]?
    /// The allowed values, for choices of numbers.
    public var integerChoices: [Int]?
    /// Several values separated by commas.
    public var isList = false
    public var isRequired = false

    /// Whether an empty value (`size=`) means "left out": only for free text. Anything else given empty is
    /// refused, as the document says.
    var takesEmpty: Bool {
        kind == .string && choices == nil && pattern == nil && minLength == nil
    }
}

/// One field of `APIParameters`: its names, how it is documented, and how it is read and written as text.
public struct ParameterField<Root>: Sendable {
    /// The name in the address; `aliases` are also read (the apps call some parameters differently).
    public let name: String
    public let aliases: [String]
    public let schema: ParameterSchema
    public let doc: String
    private let parse: @Sendable (inout Root, String, String) throws -> Void
    private let format: @Sendable (Root) -> String?

    init(
        _ name: String, aliases: [String] = [], schema: ParameterSchema, doc: String,
        parse: @escaping @Sendable (inout Root, String, String) throws -> Void,
        format: @escaping @Sendable (Root) -> String?
    ) {
        self.name = name
        self.aliases = aliases
        self.schema = schema
        self.doc = doc
        self.parse = parse
        self.format = format
    }

    /// Sets the field in `root` from `text`; `resource` names what a path id points at in messages.
    public func read(_ text: String, into root: inout Root, resource: String) throws {
        try parse(&root, text, resource)
    }

    /// The field's value as text, or nil when it has none.
    public func text(_ root: Root) -> String? { format(root) }

    /// Every name the field is read under.
    public var names: [String] { [name] + aliases }
}

extension APIParameters {
    /// Reads every field from `lookup` (a path's or a query's values by name); absent or empty text keeps the
    /// default, or is refused when the field is required.
    public static func read(resource: String = "", _ lookup: (String) -> String?) throws -> Self {
        var value = Self()
        for field in fields {
            let given = field.names.compactMap(lookup)
            guard let text = given.first(where: { !$0.isEmpty }) else {
                if field.schema.isRequired {
                    throw ServiceError.invalid(field.missingMessage)
                }
                if !given.isEmpty && !field.schema.takesEmpty {
                    throw ServiceError.invalid(
                        "'\(field.name)' is empty: leave it out, or give \(field.schema.kind == .string ? LocalizedText("one") : LocalizedText("a number"))."
                    )
                }
                continue
            }
            try field.read(text, into: &value, resource: resource)
        }
        return value
    }

    /// Every field that has a value, as name and text, in declaration order.
    public func items() -> [(name: String, value: String)] {
        Self.fields.compactMap { field in field.text(self).map { (field.name, $0) } }
    }
}

extension ParameterField {
    var missingMessage: LocalizedText {
        doc.isEmpty
            ? LocalizedText("Give '\(name)'.")
            : LocalizedText("Give '\(name)': \(doc.prefix(1).lowercased() + doc.dropFirst())")
    }

    // MARK: Ids

    /// A path id. Text that is not a positive id is the same "does not exist" as an id nobody has.
    public static func id(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int64>, thing: String? = nil
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, schema: ParameterSchema(kind: .string, pattern: idPattern, isRequired: true), doc: "An id.",
            parse: { root, text, resource in
                guard let id = parseID(text) else {
                    let noun = thing ?? (resource.isEmpty ? "thing" : resource)
                    throw ServiceError.notFound("That \(word: noun) does not exist.")
                }
                root[keyPath: keyPath.path] = id
            },
            format: { String($0[keyPath: keyPath.path]) })
    }

    /// A required typed id in a path: text that is not an id is a "does not exist" of the path's thing.
    public static func id<Kind>(
        _ name: String, _ keyPath: WritableKeyPath<Root, ID<Kind>>, thing: String? = nil
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, schema: ParameterSchema(kind: .string, pattern: idPattern, isRequired: true), doc: "An id.",
            parse: { root, text, resource in
                guard let id = ID<Kind>(text) else {
                    let noun = thing ?? (resource.isEmpty ? "thing" : resource)
                    throw ServiceError.notFound("That \(word: noun) does not exist.")
                }
                root[keyPath: keyPath.path] = id
            },
            format: { $0[keyPath: keyPath.path].description })
    }

    /// An optional id in a query that names the thing asked about (`songId` of the comments on a song):
    /// text that is not an id is the same "does not exist" as an id nobody has.
    public static func id(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int64?>, thing: String, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, schema: ParameterSchema(kind: .string, pattern: idPattern), doc: doc,
            parse: { root, text, _ in
                guard let id = parseID(text) else {
                    throw ServiceError.notFound("That \(word: thing) does not exist.")
                }
                root[keyPath: keyPath.path] = id
            },
            format: { $0[keyPath: keyPath.path].map { String($0) } })
    }

    /// An optional id in a query, such as `artist` in `GET /v1/songs?artist=`.
    public static func id(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int64?>, aliases: [String] = [],
        doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, aliases: aliases, schema: ParameterSchema(kind: .string, pattern: idPattern), doc: doc,
            parse: { root, text, _ in
                guard let id = parseID(text) else {
                    throw ServiceError.invalid("'\(name)' must be an id (digits, as the API gives them).")
                }
                root[keyPath: keyPath.path] = id
            },
            format: { $0[keyPath: keyPath.path].map { String($0) } })
    }

    /// Ids separated by commas.
    public static func ids(
        _ name: String, _ keyPath: WritableKeyPath<Root, [Int64]>, max: Int, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name,
            schema: ParameterSchema(
                kind: .string, pattern: "^[1-9][0-9]{0,17}(,[1-9][0-9]{0,17}){0,\(max - 1)}$", isList: true),
            doc: doc,
            parse: { root, text, _ in
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count <= max else {
                    throw ServiceError.invalid("Send at most \(max) ids in '\(name)'.")
                }
                root[keyPath: keyPath.path] = try parts.map { part in
                    guard let id = parseID(part) else {
                        throw ServiceError.invalid("'\(part)' in '\(name)' is not an id.")
                    }
                    return id
                }
            },
            format: { root in
                let ids = root[keyPath: keyPath.path]
                return ids.isEmpty ? nil : ids.map { String($0) }.joined(separator: ",")
            })
    }

    // MARK: Numbers

    /// A whole number within `range`, written in decimal.
    public static func integer(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int>, in range: ClosedRange<Int>,
        aliases: [String] = [], doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, aliases: aliases, schema: integerSchema(range), doc: doc,
            parse: { root, text, _ in root[keyPath: keyPath.path] = try parseInteger(text, name, range) },
            format: { String($0[keyPath: keyPath.path]) })
    }

    public static func integer(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int?>, in range: ClosedRange<Int>,
        aliases: [String] = [], required: Bool = false, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        var schema = integerSchema(range)
        schema.isRequired = required
        return Self(
            name, aliases: aliases, schema: schema, doc: doc,
            parse: { root, text, _ in root[keyPath: keyPath.path] = try parseInteger(text, name, range) },
            format: { $0[keyPath: keyPath.path].map { String($0) } })
    }

    /// A decimal number within `range`, as JSON writes numbers (an exponent is fine; no hexadecimal, no
    /// infinity).
    public static func number(
        _ name: String, _ keyPath: WritableKeyPath<Root, Double?>, in range: ClosedRange<Double>,
        required: Bool = false, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name,
            schema: ParameterSchema(
                kind: .number, minimum: range.lowerBound, maximum: range.upperBound, isRequired: required),
            doc: doc,
            parse: { root, text, _ in
                guard let value = parseDecimal(text), range.contains(value) else {
                    throw ServiceError.invalid(
                        "'\(name)' must be a decimal number from \(trimmed(range.lowerBound)) to \(trimmed(range.upperBound))."
                    )
                }
                root[keyPath: keyPath.path] = value
            },
            format: { $0[keyPath: keyPath.path].map { trimmed($0) } })
    }

    /// One of a few whole numbers (an ad's position: 0, 10 or 20); `meaning` says what each is, for messages.
    public static func integer(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int?>, oneOf choices: [Int], meaning: LocalizedText,
        required: Bool = false, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name,
            schema: ParameterSchema(kind: .integer, integerChoices: choices, isRequired: required), doc: doc,
            parse: { root, text, _ in
                guard let value = Int(text), choices.contains(value) else {
                    throw ServiceError.invalid("'\(name)' must be \(meaning), not \(text.prefix(20)).")
                }
                root[keyPath: keyPath.path] = value
            },
            format: { $0[keyPath: keyPath.path].map { String($0) } })
    }

    public static func integer(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int>, oneOf choices: [Int], meaning: LocalizedText,
        doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, schema: ParameterSchema(kind: .integer, integerChoices: choices), doc: doc,
            parse: { root, text, _ in
                guard let value = Int(text), choices.contains(value) else {
                    throw ServiceError.invalid("'\(name)' must be \(meaning), not \(text.prefix(20)).")
                }
                root[keyPath: keyPath.path] = value
            },
            format: { String($0[keyPath: keyPath.path]) })
    }

    // MARK: Text and choices

    /// Text that matches `pattern` exactly (taken as sent, not trimmed); `shape` says in a message what it
    /// must look like ("a semantic version such as 1.2.3").
    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Root, String>, pattern: String, shape: LocalizedText,
        maxLength: Int, required: Bool = false, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name,
            schema: ParameterSchema(
                kind: .string, maxLength: maxLength, pattern: pattern, isRequired: required),
            doc: doc,
            parse: { root, text, _ in
                root[keyPath: keyPath.path] = try parsePattern(text, name, pattern, shape, maxLength)
            },
            format: { root in
                let value = root[keyPath: keyPath.path]
                return value.isEmpty ? nil : value
            })
    }

    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Root, String?>, pattern: String, shape: LocalizedText,
        maxLength: Int, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, schema: ParameterSchema(kind: .string, maxLength: maxLength, pattern: pattern), doc: doc,
            parse: { root, text, _ in
                root[keyPath: keyPath.path] = try parsePattern(text, name, pattern, shape, maxLength)
            },
            format: { $0[keyPath: keyPath.path] })
    }

    /// A deep page's key, as the page before gave it in `nextCursor`: an id, or a score and an id.
    public static func cursor(
        _ keyPath: WritableKeyPath<Root, String?>, name: String = "cursor",
        doc: String = "The `nextCursor` of the page before."
    ) -> Self {
        text(
            name, keyPath, pattern: "^([0-9]{1,19}:)?[1-9][0-9]{0,17}$",
            shape: LocalizedText("the `nextCursor` of the page before, as it was given"), maxLength: 40,
            doc: doc)
    }

    /// Text of at most `maxLength` characters, trimmed of spaces at both ends unless `trimming` is false
    /// (a path segment is taken exactly as sent).
    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Root, String>, maxLength: Int,
        aliases: [String] = [], required: Bool = false, trimming: Bool = true, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        // Required text must hold more than spaces, which are trimmed.
        return Self(
            name, aliases: aliases,
            schema: ParameterSchema(
                kind: .string, minLength: required ? 1 : nil, maxLength: maxLength,
                pattern: required && trimming ? "\\S" : nil, isRequired: required),
            doc: doc,
            parse: { root, text, _ in
                let checked = try parseText(text, name, maxLength)
                let value = trimming ? checked.trimmingSpaces() : checked
                if value.isEmpty && required { throw ServiceError.invalid("Give '\(name)'.") }
                root[keyPath: keyPath.path] = value
            },
            format: { root in
                let value = root[keyPath: keyPath.path]
                return value.isEmpty ? nil : value
            })
    }

    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Root, String?>, maxLength: Int,
        aliases: [String] = [], doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, aliases: aliases, schema: ParameterSchema(kind: .string, maxLength: maxLength), doc: doc,
            parse: { root, text, _ in
                let value = try parseText(text, name, maxLength).trimmingSpaces()
                root[keyPath: keyPath.path] = value.isEmpty ? nil : value
            },
            format: { $0[keyPath: keyPath.path] })
    }

    /// One of an enumeration's raw values.
    public static func choice<Value: RawRepresentable & CaseIterable & SendableMetatype>(
        _ name: String, _ keyPath: WritableKeyPath<Root, Value>, doc: String = ""
    ) -> Self where Value.RawValue == String {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, schema: ParameterSchema(kind: .string, choices: Value.allCases.map(\.rawValue)), doc: doc,
            parse: { root, text, _ in root[keyPath: keyPath.path] = try parseChoice(text, name, Value.self) },
            format: { $0[keyPath: keyPath.path].rawValue })
    }

    public static func choice<Value: RawRepresentable & CaseIterable & SendableMetatype>(
        _ name: String, _ keyPath: WritableKeyPath<Root, Value?>, required: Bool = false, doc: String = ""
    ) -> Self where Value.RawValue == String {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name,
            schema: ParameterSchema(
                kind: .string, choices: Value.allCases.map(\.rawValue), isRequired: required), doc: doc,
            parse: { root, text, _ in root[keyPath: keyPath.path] = try parseChoice(text, name, Value.self) },
            format: { $0[keyPath: keyPath.path]?.rawValue })
    }

    /// `true` or `false` (also `1` and `0`).
    public static func flag(
        _ name: String, _ keyPath: WritableKeyPath<Root, Bool>, doc: String = ""
    ) -> Self {
        let keyPath = KeyPathBox(keyPath)
        return Self(
            name, schema: ParameterSchema(kind: .boolean), doc: doc,
            parse: { root, text, _ in
                switch text.lowercased() {
                case "true", "1": root[keyPath: keyPath.path] = true
                case "false", "0": root[keyPath: keyPath.path] = false
                default: throw ServiceError.invalid("'\(name)' must be true or false.")
                }
            },
            format: { $0[keyPath: keyPath.path] ? "true" : nil })
    }
}

private func integerSchema(_ range: ClosedRange<Int>) -> ParameterSchema {
    ParameterSchema(kind: .integer, minimum: Double(range.lowerBound), maximum: Double(range.upperBound))
}

/// Ids as the API gives them: digits without a leading zero, at most 18 (an id of 19 digits is past any table).
let idPattern = "^[1-9][0-9]{0,17}$"

func parseID<S: StringProtocol>(_ text: S) -> Int64? {
    guard !text.isEmpty, text.utf8.count <= 18, text.utf8.first != 0x30,
        text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(text), id > 0
    else { return nil }
    return id
}

private func parseInteger(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
    guard let value = Int(text), range.contains(value) else {
        throw ServiceError.invalid(
            "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
    }
    return value
}

/// A number as JSON writes one (`-1.5`, `5e-324`): `Double("0x10")` is 16 and `Double("inf")` infinite, which
/// the document does not allow.
func parseDecimal(_ text: String) -> Double? {
    var digits = 0
    var dots = 0
    var exponent: Int?
    var previous: UInt8 = 0
    for (i, byte) in text.utf8.enumerated() {
        switch byte {
        case 0x30...0x39: digits += 1
        case 0x2E where exponent == nil: dots += 1
        case 0x65, 0x45:
            guard exponent == nil, digits > 0 else { return nil }
            exponent = i
        case 0x2B, 0x2D: if i != 0 && previous != 0x65 && previous != 0x45 { return nil }
        default: return nil
        }
        previous = byte
    }
    if let exponent, exponent == text.utf8.count - 1 || previous == 0x2B || previous == 0x2D { return nil }
    guard digits > 0, dots <= 1, let value = Double(text), value.isFinite else { return nil }
    return value
}

private func trimmed(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// `value` when it is at most `maxLength` code points long (as the document counts).
private func parseText(_ value: String, _ name: String, _ maxLength: Int) throws -> String {
    guard value.unicodeScalars.count <= maxLength else {
        throw ServiceError.invalid("'\(name)' can be at most \(maxLength) characters.")
    }
    return value
}

/// `value` when it matches `pattern` and is at most `maxLength` code points long.
private func parsePattern(
    _ value: String, _ name: String, _ pattern: String, _ shape: LocalizedText, _ maxLength: Int
)
    throws -> String
{
    _ = try parseText(value, name, maxLength)
    guard let regex = try? Regex(pattern), (try? regex.wholeMatch(in: value)) != nil else {
        throw ServiceError.invalid("'\(name)' must be \(shape).")
    }
    return value
}

private func parseChoice<Value: RawRepresentable & CaseIterable>(
    _ text: String, _ name: String, _ type: Value.Type
) throws -> Value where Value.RawValue == String {
    guard let value = Value(rawValue: text) else {
        let choices = Value.allCases.map(\.rawValue).joined(separator: ", ")
        throw ServiceError.invalid("'\(name)' must be one of: \(choices).")
    }
    return value
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}

/// Key paths are immutable; Swift 6 does not yet see the ones made from literals as `Sendable` here.
struct KeyPathBox<Root, Value>: @unchecked Sendable {
    let path: WritableKeyPath<Root, Value>
    init(_ path: WritableKeyPath<Root, Value>) { self.path = path }
}
