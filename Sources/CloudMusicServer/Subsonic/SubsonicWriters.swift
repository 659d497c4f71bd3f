import MusicCore

/// Writes a `SubsonicDocument` as XML: the `subsonic-response` root in the Subsonic namespace, attributes in
/// order, absent values and empty OpenSubsonic fields left out, characters XML 1.0 forbids dropped (tags from
/// files hold them sometimes, and one would make the whole answer unreadable).
struct SubsonicXML {
    private(set) var bytes: [UInt8] = []

    static func write(_ document: SubsonicDocument, envelope: SubsonicEnvelope) -> [UInt8] {
        var writer = SubsonicXML()
        writer.bytes.reserveCapacity(4_096)
        writer.raw(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        writer.raw("\n<subsonic-response xmlns=\"\(SubsonicAPI.namespace)\"")
        for (name, value) in envelope.rootAttributes(failed: document.failed) {
            writer.attribute(name, value)
        }
        if document.payload.isEmpty {
            writer.raw("/>")
        } else {
            writer.raw(">")
            for (name, content) in document.payload { writer.content(name, content) }
            writer.raw("</subsonic-response>")
        }
        return writer.bytes
    }

    private mutating func content(_ name: String, _ content: SubsonicContent) {
        switch content {
        case .one(let element): self.element(name, element)
        case .many(let elements): for element in elements { self.element(name, element) }
        case .values(let values):
            for value in values {
                raw("<\(name)>")
                switch value {
                case .string(let text), .soft(let text): escaped(text, inAttribute: false)
                case .int(let number): bytes.appendDecimal(number)
                case .double(let number): raw(Self.number(number))
                case .bool(let flag): raw(flag ? "true" : "false")
                }
                raw("</\(name)>")
            }
        case .text(let text):
            raw("<\(name)>")
            escaped(text, inAttribute: false)
            raw("</\(name)>")
        }
    }

    private mutating func element(_ name: String, _ element: SubsonicElement) {
        raw("<")
        raw(name)
        for (attributeName, value) in element.attributes { attribute(attributeName, value) }
        if element.text == nil && element.children.isEmpty {
            raw("/>")
            return
        }
        raw(">")
        if let text = element.text { escaped(text, inAttribute: false) }
        for (childName, child) in element.children { content(childName, child) }
        raw("</")
        raw(name)
        raw(">")
    }

    private mutating func attribute(_ name: String, _ value: SubsonicValue) {
        switch value {
        case .string(let text):
            open(name)
            escaped(text, inAttribute: true)
        case .soft(let text):
            guard !text.isEmpty else { return }
            open(name)
            escaped(text, inAttribute: true)
        case .int(let number):
            open(name)
            bytes.appendDecimal(number)
        case .double(let number):
            open(name)
            raw(Self.number(number))
        case .bool(let flag):
            open(name)
            raw(flag ? "true" : "false")
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func open(_ name: String) {
        bytes.append(UInt8(ascii: " "))
        raw(name)
        bytes.append(UInt8(ascii: "="))
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func escaped(_ text: String, inAttribute: Bool) {
        var text = text
        text.withUTF8 { utf8 in
            if !utf8.contains(where: {
                $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0xEF
            }) {
                bytes.append(contentsOf: utf8)
                return
            }
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                switch byte {
                case 0x26: raw("&amp;")
                case 0x3C: raw("&lt;")
                case 0x3E: raw("&gt;")
                case 0x22: raw(inAttribute ? "&quot;" : "\"")
                case 0x09: inAttribute ? raw("&#9;") : bytes.append(byte)
                case 0x0A: inAttribute ? raw("&#10;") : bytes.append(byte)
                case 0x0D: raw("&#13;")
                case 0..<0x20: break  // not allowed in XML 1.0
                case 0xEF
                where index + 2 < utf8.count && utf8[index + 1] == 0xBF
                    && (utf8[index + 2] == 0xBE || utf8[index + 2] == 0xBF):
                    index += 2  // U+FFFE and U+FFFF are not characters
                default: bytes.append(byte)
                }
                index += 1
            }
        }
    }

    /// A decimal without an exponent (xs:double accepts both; people read this one).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// Writes a `SubsonicDocument` as JSON: `{"subsonic-response": {...}}` with typed numbers and booleans, string
/// ids, `value` for element text, arrays for repeated elements (empty ones included), "" for supported
/// OpenSubsonic fields without a value. `callback` wraps it for JSONP.
struct SubsonicJSON {
    private(set) var bytes: [UInt8] = []

    static func write(_ document: SubsonicDocument, envelope: SubsonicEnvelope, callback: String? = nil)
        -> [UInt8]
    {
        var writer = SubsonicJSON()
        writer.bytes.reserveCapacity(4_096)
        if let callback {
            writer.raw(callback)
            writer.raw("(")
        }
        writer.raw("{\"subsonic-response\":{")
        var first = true
        for (name, value) in envelope.rootAttributes(failed: document.failed) {
            writer.attribute(name, value, first: &first)
        }
        for (name, content) in document.payload { writer.member(name, content, first: &first) }
        writer.raw("}}")
        if callback != nil { writer.raw(")") }
        return writer.bytes
    }

    private mutating func member(_ name: String, _ content: SubsonicContent, first: inout Bool) {
        key(name, first: &first)
        switch content {
        case .one(let element): object(element)
        case .many(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                object(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .values(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                scalar(value)
            }
            bytes.append(UInt8(ascii: "]"))
        case .text(let text): string(text)
        }
    }

    private mutating func object(_ element: SubsonicElement) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (name, value) in element.attributes { attribute(name, value, first: &first) }
        if let text = element.text {
            key("value", first: &first)
            string(text)
        }
        for (name, content) in element.children { member(name, content, first: &first) }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func attribute(_ name: String, _ value: SubsonicValue, first: inout Bool) {
        key(name, first: &first)
        scalar(value)
    }

    private mutating func scalar(_ value: SubsonicValue) {
        switch value {
        case .string(let text), .soft(let text): string(text)
        case .int(let number): bytes.appendDecimal(number)
        case .double(let number): raw(SubsonicXML.number(number))
        case .bool(let flag): raw(flag ? "true" : "false")
        }
    }

    private mutating func key(_ name: String, first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) {
                bytes.append(contentsOf: utf8)
                return
            }
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                switch byte {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [
                        0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
                    ])
                // U+2028 and U+2029 are line ends in JavaScript: escaped, so a JSONP answer stays one script.
                case 0xE2
                where index + 2 < utf8.count && utf8[index + 1] == 0x80
                    && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    raw(utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                    index += 2
                default: bytes.append(byte)
                }
                index += 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension [UInt8] {
    /// `String(value)`'s bytes, without making the string (lists write a dozen numbers per item).
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = count
        repeat {
            append(UInt8(truncatingIfNeeded: 48 + magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        self[start...].reverse()
    }
}
