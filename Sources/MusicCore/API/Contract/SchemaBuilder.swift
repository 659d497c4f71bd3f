/// JSON Schemas (the OpenAPI 3.1 dialect) for `Decodable` types, found by decoding each type once with a
/// decoder that records what the type asks for: each key, its type, and whether it may be absent.
///
/// So the schema is what clients really decode, with no second description to keep in step. Structs
/// become components referenced by name; arrays, optionals, dictionaries and enumerations describe
/// themselves (`SchemaDescribed`). A type that refers to itself (a comment's parent) is a reference.
public final class SchemaBuilder {
    /// Named schemas, for `components.schemas`.
    public private(set) var components: [String: JSONValue] = [:]
    private var inProgress: Set<String> = []
    private var values: [String: Any] = [:]

    public init() {}

    /// The schema of `type`: inline for scalars and containers, a `$ref` for structs.
    public func schema<T: Decodable>(for type: T.Type) throws -> JSONValue {
        if let scalar = scalarSchema(type) { return scalar }
        if let described = type as? any SchemaDescribed.Type { return try described.schema(in: self) }
        let name = Self.componentName(type)
        let reference: JSONValue = ["$ref": .string("#/components/schemas/\(name)")]
        if components[name] != nil || inProgress.contains(name) { return reference }
        _ = try probe(type, name: name)
        return reference
    }

    /// A value of `type` to hand back to a decoder probing the type that contains it.
    func value<T: Decodable>(of type: T.Type) throws -> T {
        switch type {
        case is String.Type: return "" as! T
        case is Bool.Type: return false as! T
        case is Double.Type: return 0.0 as! T
        case is Float.Type: return Float(0) as! T
        case is Int.Type: return 0 as! T
        case is Int64.Type: return Int64(0) as! T
        case is Int32.Type: return Int32(0) as! T
        case is UInt.Type: return UInt(0) as! T
        case is UInt64.Type: return UInt64(0) as! T
        case is UInt8.Type: return UInt8(0) as! T
        default: break
        }
        if let described = type as? any SchemaDescribed.Type {
            return try described.probeValue(in: self) as! T
        }
        let name = Self.componentName(type)
        if let known = values[name] as? T { return known }
        guard !inProgress.contains(name) else {
            throw SchemaError("\(name) contains itself other than through an optional or a list.")
        }
        return try probe(type, name: name)
    }

    private func probe<T: Decodable>(_ type: T.Type, name: String) throws -> T {
        inProgress.insert(name)
        defer { inProgress.remove(name) }
        let recorder = ProbeRecorder()
        let value: T
        do {
            value = try T(from: ProbeDecoder(builder: self, recorder: recorder, codingPath: []))
        } catch let error as SchemaError {
            throw error
        } catch {
            throw SchemaError(
                "\(name) could not be described: \(error). Conform it to SchemaDescribed or SchemaEnum.")
        }
        values[name] = value
        components[name] = Self.withLimits(recorder.schema, of: type)
        return value
    }

    private func scalarSchema(_ type: Any.Type) -> JSONValue? {
        switch type {
        case is String.Type: ["type": "string"]
        case is Bool.Type: ["type": "boolean"]
        case is Double.Type, is Float.Type: ["type": "number"]
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type, is UInt.Type,
            is UInt64.Type, is UInt32.Type, is UInt16.Type, is UInt8.Type:
            ["type": "integer"]
        default: nil
        }
    }

    /// The component name of a type: `Page<Sheet>` is `Page_Sheet`, `LibraryScanStatus.Progress` is
    /// `LibraryScanStatusProgress`.
    public static func componentName(_ type: Any.Type) -> String {
        var out = ""
        var word = ""
        func flush() {
            if !modulePrefixes.contains(word) { out += word }
            word = ""
        }
        for c in String(reflecting: type) {
            if c.isLetter || c.isNumber || c == "_" {
                word.append(c)
            } else {
                if c == "." {
                    flush()
                } else {
                    out += word
                    word = ""
                    if c == "<" || c == "," { out += "_" }
                }
            }
        }
        out += word
        return out
    }

    static let modulePrefixes: Set<String> = ["MusicCore", "Swift", "CloudMusicServer", "CloudMusicKit"]

    /// A body's schema with its declared bounds added to its properties' schemas.
    private static func withLimits<T>(_ schema: JSONValue, of type: T.Type) -> JSONValue {
        guard let limited = type as? any LimitedBody.Type, var object = schema.objectValue,
            var properties = object["properties"]?.objectValue
        else { return schema }
        for (field, keywords) in limited.limitKeywords {
            guard var property = properties[field]?.objectValue else { continue }
            property.merge(keywords) { _, new in new }
            properties[field] = .object(property)
        }
        object["properties"] = .object(properties)
        return .object(object)
    }

    /// `schema` that also allows null.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        if case .string(let type)? = schema["type"], var members = schema.objectValue {
            members["type"] = [.string(type), "null"]
            return .object(members)
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }
}

/// Why a type could not be described.
public struct SchemaError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A type that says its own schema instead of being probed: containers, enumerations, free-form values.
public protocol SchemaDescribed {
    static func schema(in builder: SchemaBuilder) throws -> JSONValue
    /// Any value of the type, handed to the decoder of a type that contains it.
    static func probeValue(in builder: SchemaBuilder) throws -> Self
}

/// An enumeration of strings, documented with its values.
public protocol SchemaEnum: SchemaDescribed, CaseIterable, RawRepresentable where RawValue == String {}

extension SchemaEnum where Self: Decodable {
    /// Decodes a raw value, or says which values are allowed.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "must be one of: \(Self.allCases.map(\.rawValue).joined(separator: ", "))."))
        }
        self = value
    }
}

extension SchemaEnum {
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        ["type": "string", "enum": .array(allCases.map { .string($0.rawValue) })]
    }
    public static func probeValue(in builder: SchemaBuilder) throws -> Self { allCases.first! }
}

extension Array: SchemaDescribed where Element: Decodable {
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        ["type": "array", "items": try builder.schema(for: Element.self)]
    }
    public static func probeValue(in builder: SchemaBuilder) throws -> Self {
        _ = try builder.schema(for: Element.self)
        return []
    }
}

extension Set: SchemaDescribed where Element: Decodable {
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        ["type": "array", "items": try builder.schema(for: Element.self), "uniqueItems": true]
    }
    public static func probeValue(in builder: SchemaBuilder) throws -> Self { [] }
}

extension Optional: SchemaDescribed where Wrapped: Decodable {
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        SchemaBuilder.nullable(try builder.schema(for: Wrapped.self))
    }
    public static func probeValue(in builder: SchemaBuilder) throws -> Self { nil }
}

extension Dictionary: SchemaDescribed where Key == String, Value: Decodable {
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        ["type": "object", "additionalProperties": try builder.schema(for: Value.self)]
    }
    public static func probeValue(in builder: SchemaBuilder) throws -> Self { [:] }
}

extension JSONValue: SchemaDescribed {
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue { [:] }
    public static func probeValue(in builder: SchemaBuilder) throws -> JSONValue { .null }
}

// MARK: - The recording decoder

private final class ProbeRecorder {
    var properties: [String: JSONValue] = [:]
    var required: [String] = []
    var single: JSONValue?
    var items: JSONValue?
    var isKeyed = false

    var schema: JSONValue {
        if let single { return single }
        if let items { return ["type": "array", "items": items] }
        var object: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { object["required"] = .array(required.map { .string($0) }) }
        return .object(object)
    }

    /// Keys the type asked about with `contains` (so it copes without them) or `decodeNil` (so it takes null).
    var checked: Set<String> = []
    var nullable: Set<String> = []

    func record(_ key: String, _ schema: JSONValue, required isRequired: Bool) {
        if properties[key] == nil, isRequired, !checked.contains(key) { required.append(key) }
        properties[key] = nullable.contains(key) ? SchemaBuilder.nullable(schema) : schema
    }
}

private struct ProbeDecoder: Decoder {
    let builder: SchemaBuilder
    let recorder: ProbeRecorder
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        recorder.isKeyed = true
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { ProbeUnkeyedContainer(decoder: self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleContainer(decoder: self)
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool {
        decoder.recorder.checked.insert(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.recorder.nullable.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        decoder.recorder.record(key.stringValue, try decoder.builder.schema(for: type), required: true)
        return try decoder.builder.value(of: type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let schema = SchemaBuilder.nullable(try decoder.builder.schema(for: type))
        decoder.recorder.record(key.stringValue, schema, required: false)
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decode(type as String.Type, key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decode(type as Double.Type, key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decode(type as UInt16.Type, key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decode(type as UInt32.Type, key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decode(type as UInt64.Type, key)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw SchemaError("nested containers (at '\(key.stringValue)') are not described; use a type")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw SchemaError("nested containers (at '\(key.stringValue)') are not described; use a type")
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { nil }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        decoder.recorder.items = try decoder.builder.schema(for: type)
        currentIndex += 1
        return try decoder.builder.value(of: type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw SchemaError("nested containers in a list are not described; use a type")
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw SchemaError("nested containers in a list are not described; use a type")
    }

    mutating func superDecoder() throws -> any Decoder { decoder }
}

private struct ProbeSingleContainer: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        decoder.recorder.single = try decoder.builder.schema(for: type)
        return try decoder.builder.value(of: type)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try generic(type) }
    func decode(_ type: String.Type) throws -> String { try generic(type) }
    func decode(_ type: Double.Type) throws -> Double { try generic(type) }
    func decode(_ type: Float.Type) throws -> Float { try generic(type) }
    func decode(_ type: Int.Type) throws -> Int { try generic(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try generic(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try generic(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try generic(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try generic(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try generic(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try generic(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try generic(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try generic(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try generic(type) }

    private func generic<T: Decodable>(_ type: T.Type) throws -> T {
        decoder.recorder.single = try decoder.builder.schema(for: type)
        return try decoder.builder.value(of: type)
    }
}
