import Foundation

/// Finds which field of a valid JSON body does not fit `T`, when JSONDecoder only says "not valid JSON"
/// (Foundation on Linux says so for `{"position": 1.5}` into an `Int`).
///
/// Decodes again from JSONSerialization's values with a decoder that reports the path and the type.
func diagnoseDecoding<T: Decodable>(_ type: T.Type, _ data: Data) -> DecodingError? {
    guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
        return nil
    }
    do {
        _ = try T(from: ValueDecoder(value: object, codingPath: []))
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        return nil
    }
}

private struct ValueDecoder: Decoder {
    let value: Any
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let object = value as? [String: Any] else {
            throw mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(ValueKeyed<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let array = value as? [Any] else { throw mismatch([Any].self, value, codingPath) }
        return ValueUnkeyed(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueSingle(value: value, codingPath: codingPath)
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private func mismatch(_ type: Any.Type, _ value: Any, _ path: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: path, debugDescription: "found \(value)"))
}

/// `value` as `T` when it is one, the way JSON means it: numbers must fit exactly, null is not a value.
private func convert<T>(_ value: Any, to type: T.Type, _ path: [any CodingKey]) throws -> T {
    if value is NSNull {
        throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "null"))
    }
    switch type {
    case is String.Type:
        if let s = value as? String { return s as! T }
    case is Bool.Type:
        if let b = value as? Bool, !(value is String) { return b as! T }
    case is Double.Type, is Float.Type:
        if let n = value as? NSNumber, !(value is String) {
            return (type == Float.self ? Float(n.doubleValue) as Any : n.doubleValue as Any) as! T
        }
    default:
        // Whole numbers: only when the JSON number is integral and in range.
        if let n = value as? NSNumber, !(value is String), n.doubleValue == n.doubleValue.rounded(),
            abs(n.doubleValue) < 9.0e18
        {
            let whole = Int64(n.doubleValue)
            switch type {
            case is Int.Type: return Int(whole) as! T
            case is Int64.Type: return whole as! T
            case is Int32.Type: if let v = Int32(exactly: whole) { return v as! T }
            case is UInt.Type: if let v = UInt(exactly: whole) { return v as! T }
            case is UInt64.Type: if let v = UInt64(exactly: whole) { return v as! T }
            case is UInt32.Type: if let v = UInt32(exactly: whole) { return v as! T }
            case is Int16.Type: if let v = Int16(exactly: whole) { return v as! T }
            case is UInt16.Type: if let v = UInt16(exactly: whole) { return v as! T }
            case is Int8.Type: if let v = Int8(exactly: whole) { return v as! T }
            case is UInt8.Type: if let v = UInt8(exactly: whole) { return v as! T }
            default: break
            }
        }
    }
    throw mismatch(type, value, path)
}

private struct ValueKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: Any]
    let codingPath: [any CodingKey]
    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { object[key.stringValue] is NSNull }

    private func value(_ key: Key) throws -> Any {
        guard let v = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return v
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let path = codingPath + [key]
        let v = try value(key)
        switch type {
        case is String.Type, is Bool.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type,
            is Int32.Type,
            is Int16.Type, is Int8.Type, is UInt.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type,
            is UInt8.Type:
            return try convert(v, to: type, path)
        default:
            return try T(from: ValueDecoder(value: v, codingPath: path))
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try convert(try value(key), to: type, codingPath + [key])
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try convert(try value(key), to: type, codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: object, codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: try value(key), codingPath: codingPath + [key])
    }
}

private struct ValueUnkeyed: UnkeyedDecodingContainer {
    let array: [Any]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private mutating func next() throws -> (Any, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "end"))
        }
        defer { currentIndex += 1 }
        return (array[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, array[currentIndex] is NSNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (v, path) = try next()
        switch type {
        case is String.Type, is Bool.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type,
            is Int32.Type,
            is Int16.Type, is Int8.Type, is UInt.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type,
            is UInt8.Type:
            return try convert(v, to: type, path)
        default:
            return try T(from: ValueDecoder(value: v, codingPath: path))
        }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let (v, path) = try next()
        return try convert(v, to: type, path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (v, path) = try next()
        return try ValueDecoder(value: v, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (v, path) = try next()
        return try ValueDecoder(value: v, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (v, path) = try next()
        return ValueDecoder(value: v, codingPath: path)
    }
}

private struct ValueSingle: SingleValueDecodingContainer {
    let value: Any
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value is NSNull }

    func decode(_ type: Bool.Type) throws -> Bool { try convert(value, to: type, codingPath) }
    func decode(_ type: String.Type) throws -> String { try convert(value, to: type, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try convert(value, to: type, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try convert(value, to: type, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try convert(value, to: type, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try convert(value, to: type, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try convert(value, to: type, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert(value, to: type, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert(value, to: type, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try convert(value, to: type, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try convert(value, to: type, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try convert(value, to: type, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try convert(value, to: type, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try convert(value, to: type, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type, is Bool.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type,
            is Int32.Type,
            is Int16.Type, is Int8.Type, is UInt.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type,
            is UInt8.Type:
            return try convert(value, to: type, codingPath)
        default:
            return try T(from: ValueDecoder(value: value, codingPath: codingPath))
        }
    }
}
