import Foundation

/// Providers' JSON: decoded with its snake_case keys, the exact bytes of a member (what Alipay signs in its
/// answers), and compact text of our own with sorted keys (request bodies, signed as sent).
enum ProviderJSON {
    /// The exact text of the value of the top-level member `name` of a JSON object; nil when there is none or
    /// the text is not an object.
    static func member(_ name: String, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var scanner = Scanner(bytes: bytes)
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        let wanted = Array(name.utf8)
        while true {
            if scanner.take(UInt8(ascii: "}")) { return nil }
            guard let key = scanner.string(), scanner.take(UInt8(ascii: ":")), let value = scanner.value()
            else {
                return nil
            }
            // A key written with escapes never matches: the names Alipay signs have none.
            if bytes[key.lowerBound + 1..<key.upperBound - 1].elementsEqual(wanted) { return bytes[value] }
            guard scanner.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// Compact JSON text of `value` with snake_case keys (the providers' `out_trade_no` from our `outTradeNo`),
    /// sorted, and unescaped slashes.
    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Our request bodies are strings, numbers and nested structs of them: encoding cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    /// The `Decodable` in a provider's JSON (snake_case keys), or a refusal that names the field at fault.
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], what: String)
        throws(PaymentRefusal) -> Value
    {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .malformed("its \(what) has no \(fieldPath(context.codingPath + [key]))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .malformed("its \(what) has a mistyped \(fieldPath(context.codingPath))")
        } catch {
            throw .malformed("its \(what) is not JSON")
        }
    }

    /// A coding path in the provider's own spelling: `amount.out_trade_no`, not `amount.outTradeNo`.
    private static func fieldPath(_ path: [any CodingKey]) -> String {
        path.map { key in
            key.stringValue.reduce(into: "") { out, character in
                out += character.isUppercase ? "_" + character.lowercased() : String(character)
            }
        }.joined(separator: ".")
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// Consumes `byte` (after white space) if it comes next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The range of a string, its quotes included.
        mutating func string() -> Range<Int>? {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<index
                default: index += 1
                }
            }
            return nil
        }

        /// The range of any value: a string, an object or array (nesting followed), or a bare word or number.
        mutating func value() -> Range<Int>? {
            skipSpace()
            guard index < bytes.count else { return nil }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return nil }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return start..<index
                        }
                    default: break
                    }
                    index += 1
                }
                return nil
            default:
                while index < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09]
                        .contains(bytes[index])
                {
                    index += 1
                }
                return index > start ? start..<index : nil
            }
        }
    }
}
