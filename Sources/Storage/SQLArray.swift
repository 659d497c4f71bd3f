import Foundation

/// A list of ids or words bound as one parameter: SQLite reads it as JSON text (`json_each(?)`), PostgreSQL as
/// an array (`= ANY(?)`). `Dialect.anyOf` and `Dialect.listRows` write the SQL around it.
public struct SQLArray: SQLBindable, Equatable {
    public enum Elements: Sendable, Equatable {
        case integers([Int64])
        case strings([String])
    }

    public let elements: Elements

    public init(_ integers: [Int64]) { elements = .integers(integers) }
    public init(_ integers: [Int]) { elements = .integers(integers.map(Int64.init)) }
    public init(_ strings: [String]) { elements = .strings(strings) }

    public var count: Int {
        switch elements {
        case .integers(let values): values.count
        case .strings(let values): values.count
        }
    }

    /// The JSON text SQLite's `json_each` reads.
    public var sqlValue: SQLValue { .text(json) }

    public var json: String {
        let encoded: Data?
        switch elements {
        case .integers(let values): encoded = try? JSONEncoder().encode(values)
        case .strings(let values): encoded = try? JSONEncoder().encode(values)
        }
        // Arrays of integers and strings always encode.
        return String(decoding: encoded ?? Data("[]".utf8), as: UTF8.self)
    }
}
