/// Fields a PATCH may leave out (keep), send as null (clear) or send with a value (set): `String??`, where the
/// outer nil is "left out".
extension KeyedDecodingContainer {
    func decodeClearable(_ key: Key) throws -> String?? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) { return .some(nil) }
        return .some(try decode(String.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    mutating func encodeClearable(_ value: String??, forKey key: Key) throws {
        guard let value else { return }
        if let text = value { try encode(text, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
