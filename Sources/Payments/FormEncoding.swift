import Cryptography

/// `application/x-www-form-urlencoded`: how Alipay (and our sandbox) posts notifications and takes requests.
enum FormEncoding {
    /// The pairs of a form body in their order; nil when a percent escape or the UTF-8 behind it is broken.
    static func decode(_ body: [UInt8]) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for field in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = field.split(
                separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(parts[0]), let value = parts.count == 2 ? unescape(parts[1]) : ""
            else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// The pairs as a form body, every byte but the unreserved ones (RFC 3986) percent-escaped.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default: out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < field.endIndex,
                    let escaped = Crypto.unhex(
                        String(decoding: field[(index + 1)...(index + 2)], as: UTF8.self))
                else { return nil }
                bytes += escaped
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension ProviderMessage {
    /// A form body from pairs a web server already decoded (Alipay signs the decoded pairs, so encoding them
    /// again keeps the signature).
    public static func formBody(_ pairs: [(String, String)]) -> [UInt8] {
        Array(FormEncoding.encode(pairs).utf8)
    }
}
