/// A type that writes its own JSON, for hot lists where JSONEncoder's value tree and key sorting cost
/// more than the rest of the request. The bytes must equal JSONEncoder's with `.sortedKeys` and
/// `.withoutEscapingSlashes` (a test in the server holds each writer to that), so writers list their
/// keys in sorted order and leave out nil values.
public protocol JSONWritable: Encodable {
    func writeJSON(to json: inout JSONWriter)
    /// About how many bytes the JSON takes, so the buffer is allocated once.
    var jsonSizeHint: Int { get }
}

extension JSONWritable {
    public var jsonSizeHint: Int { 1_024 }
}

/// Appends JSON to a byte buffer: objects are written key by key, in the order given.
public struct JSONWriter {
    // Inlinable, so that callers in other modules get the generic methods specialized.
    public var bytes: [UInt8] = []
    /// Whether the next element of the current object or array needs a comma before it.
    @usableFromInline var needsComma = false

    @inlinable public init(capacity: Int = 1_024) { bytes.reserveCapacity(capacity) }

    @inlinable public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    @inlinable public mutating func array<S: Sequence>(
        _ items: S, _ write: (inout JSONWriter, S.Element) -> Void
    ) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for item in items { write(&self, item) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key inside `object`; the value written next belongs to it.
    @inlinable public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        // The value follows the colon directly.
        needsComma = false
    }

    @inlinable public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Most text needs no escapes: copy it whole.
            if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @usableFromInline mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [
                0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
            ])
        default: bytes.append(byte)
        }
    }

    @inlinable public mutating func int(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// A finite number as JSONEncoder writes it: Swift's shortest form, without a trailing ".0".
    public mutating func double(_ value: Double) {
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    @inlinable public mutating func bool(_ value: Bool) {
        separate()
        let text: StaticString = value ? "true" : "false"
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inlinable public mutating func null() {
        separate()
        ("null" as StaticString).withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inlinable public mutating func value<T: JSONWritable>(_ value: T) { value.writeJSON(to: &self) }

    /// Writes `key` and `value` only when `value` is not nil, as JSONEncoder does.
    @inlinable public mutating func optional<T>(
        _ name: StaticString, _ value: T?, _ write: (inout JSONWriter, T) -> Void
    ) {
        guard let value else { return }
        key(name)
        write(&self, value)
    }

    /// A comma before every element of an object or array but the first; nothing right after a key.
    @usableFromInline mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }
}
