import Foundation

/// Values kept in SQLite as JSON text (tags, resolved mentions, id lists bound for `json_each`).
enum JSONColumn {
    static func text<T: Encodable>(_ value: T) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
