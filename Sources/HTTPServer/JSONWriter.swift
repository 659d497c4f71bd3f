/// A type that writes its own JSON, for hot lists where JSONEncoder's value tree and key sorting cost
/// more than the rest of the request. The bytes must equal JSONEncoder's with `.sortedKeys` and
/// `.withoutEscapingSlashes` (a test in the server holds each writer to that), so writers list their
/// keys in sorted order and leave out nil values.
public protocol JSONWritable: Encodable {
    func writeJSON(to json: inout JSONWriter)
}

/// Appends JSON to a byte buffer: objects are written key by key, in the order given.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    public init(capacity: Int = 1_024) { bytes.reserveCapacity(capacity) }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func array<S: Sequence>(_ items: S, _ write: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
        for item in items { write(&self, item) }
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// A key inside `object`; the value written next belongs to it.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        // The value follows the colon directly.
        pendingValue = true
    }

    private var pendingValue = false

    public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: Array("null".utf8))
    }

    public mutating func value<T: JSONWritable>(_ value: T) { value.writeJSON(to: &self) }

    /// Writes `key` and `value` only when `value` is not nil, as JSONEncoder does.
    public mutating func optional<T>(_ name: StaticString, _ value: T?, _ write: (inout JSONWriter, T) -> Void) {
        guard let value else { return }
        key(name)
        write(&self, value)
    }

    /// A comma before every element of an object or array but the first; nothing right after a key.
    private mutating func separate() {
        if pendingValue {
            pendingValue = false
            needsComma[needsComma.count - 1] = true
            return
        }
        guard !needsComma.isEmpty else { return }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }
}
