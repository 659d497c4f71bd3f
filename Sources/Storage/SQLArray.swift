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
        switch elements {
        case .integers(let values):
            return "[" + values.map(String.init).joined(separator: ",") + "]"
        case .strings(let values):
            var text = "["
            for (i, value) in values.enumerated() {
                if i > 0 { text += "," }
                Self.appendJSONString(value, to: &text)
            }
            return text + "]"
        }
    }

    private static func appendJSONString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                text +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
