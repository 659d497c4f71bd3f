/// Rewrites HTML's named entities (`&nbsp;`, `&eacute;`), which XML does not define but feeds often use, into
/// character references (`&#160;`) before libxml2 reads the bytes, so it can stay in its strictest mode.
///
/// Works on the bytes of any ASCII-compatible encoding (UTF-8, Latin-1, GBK, Big5, Shift_JIS never use the
/// byte of `&` inside a character); a UTF-16 or UTF-32 document is passed through as it is. Inside CDATA the
/// rewrite changes nothing an HTML reader would see. Unknown names are left for libxml2 to refuse.
struct EntityRewriter {
    /// An `&` and what followed it when a chunk ended before its `;`.
    private var pending: [UInt8] = []
    private var decided = false
    private var enabled = true
    private static let longestName = 32
    private static let predefined = Set(["amp", "lt", "gt", "quot", "apos"].map { Array($0.utf8) })

    mutating func rewrite(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        if !decided, !input.isEmpty {
            decided = true
            let first = Array(input.prefix(4))
            // A byte-order mark of UTF-16 or UTF-32, or a `<` with a zero byte beside it.
            enabled =
                !(first.starts(with: [0xFE, 0xFF]) || first.starts(with: [0xFF, 0xFE])
                || first.starts(with: [0, 0])
                || (first.count >= 2 && (first[0] == 0 || first[1] == 0)))
        }
        guard enabled else {
            output.append(contentsOf: input)
            return
        }
        if pending.isEmpty {
            scan(input, into: &output, final: false)
        } else {
            let joined = pending + Array(input)
            pending = []
            joined.withUnsafeBytes { scan($0, into: &output, final: false) }
        }
    }

    mutating func flush(into output: inout [UInt8]) {
        guard !pending.isEmpty else { return }
        let rest = pending
        pending = []
        rest.withUnsafeBytes { scan($0, into: &output, final: true) }
    }

    private mutating func scan(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], final: Bool) {
        let bytes = input.bindMemory(to: UInt8.self)
        var index = 0
        while index < bytes.count {
            guard let ampersand = bytes[index...].firstIndex(of: UInt8(ascii: "&")) else {
                output.append(contentsOf: bytes[index...])
                return
            }
            output.append(contentsOf: bytes[index..<ampersand])
            // The name: letters and digits up to `;`.
            var end = ampersand + 1
            while end < bytes.count, end - ampersand <= Self.longestName, Self.isNameByte(bytes[end]) {
                end += 1
            }
            if end == bytes.count, !final, end - ampersand <= Self.longestName {
                pending = Array(bytes[ampersand...])
                return
            }
            let name = Array(bytes[(ampersand + 1)..<end])
            if end < bytes.count, bytes[end] == UInt8(ascii: ";"), let first = name.first,
                Self.isLetter(first),
                !Self.predefined.contains(name), let scalar = Self.lookUp(name)
            {
                output.append(contentsOf: Array("&#\(scalar);".utf8))
                index = end + 1
            } else {
                output.append(UInt8(ascii: "&"))
                index = ampersand + 1
            }
        }
    }

    private static func lookUp(_ name: [UInt8]) -> UInt32? {
        (name + [0]).withUnsafeBufferPointer { LibXML.htmlEntity($0.baseAddress!) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
