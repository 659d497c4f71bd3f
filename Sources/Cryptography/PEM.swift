import Foundation

extension Crypto {
    /// Standard base64 with padding, on one line (signatures, key bodies).
    public static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// The bytes of standard base64 text with its padding; nil for anything else (white space included).
    public static func unbase64(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }

    /// One block of PEM text (RFC 7468): the label between the dashes and the DER bytes it armours.
    public struct PEMBlock: Sendable, Equatable {
        public var label: String
        public var der: [UInt8]

        public init(label: String, der: [UInt8]) {
            self.label = label
            self.der = der
        }

        /// The block as PEM text, 64 base64 characters a line.
        public var text: String {
            let body = Array(base64(der))
            let lines = stride(from: 0, to: body.count, by: 64).map {
                String(body[$0..<min($0 + 64, body.count)])
            }
            return (["-----BEGIN \(label)-----"] + lines + ["-----END \(label)-----"]).joined(separator: "\n")
                + "\n"
        }

        /// Every block in `text`, in order; none when the text has no BEGIN line.
        ///
        /// Lines outside blocks (OpenSSL's "Bag Attributes", comments) are passed over; a block with RFC 1421
        /// headers that say it is encrypted is `KeyError.encrypted`.
        public static func blocks(in text: String) throws(KeyError) -> [PEMBlock] {
            var blocks: [PEMBlock] = []
            var open: (label: String, body: String)?
            for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
                let line = rawLine.trimmingCharacters(in: .whitespaces)
                guard let current = open else {
                    if let label = armourLabel(line, "BEGIN") { open = (label, "") }
                    continue
                }
                if let label = armourLabel(line, "END") {
                    guard label == current.label else {
                        throw .malformedPEM("its BEGIN \(current.label) line ends with END \(label)")
                    }
                    guard let der = unbase64(current.body), !der.isEmpty else {
                        throw .malformedPEM("the base64 inside its \(label) block is broken")
                    }
                    blocks.append(PEMBlock(label: label, der: der))
                    open = nil
                } else if line.contains(":") {
                    if line.uppercased().contains("ENCRYPTED") { throw .encrypted }
                } else {
                    open?.body += line
                }
            }
            if let current = open { throw .malformedPEM("its BEGIN \(current.label) line has no END line") }
            return blocks
        }

        private static func armourLabel(_ line: String, _ edge: String) -> String? {
            let prefix = "-----\(edge) "
            let suffix = "-----"
            guard line.hasPrefix(prefix), line.hasSuffix(suffix), line.count > prefix.count + suffix.count
            else { return nil }
            return String(line.dropFirst(prefix.count).dropLast(suffix.count))
        }
    }

    /// A key as it was pasted: one PEM block, or the bare base64 of its DER (how Alipay shows keys).
    enum KeyText {
        case block(PEMBlock)
        case bare([UInt8])

        static func read(_ text: String, expecting kind: KeyKind) throws(KeyError) -> KeyText {
            let blocks = try PEMBlock.blocks(in: text)
            if blocks.count > 1 {
                throw .malformedPEM("it holds \(blocks.count) PEM blocks where one \(kind.rawValue) belongs")
            }
            if let block = blocks.first { return .block(block) }
            let compact = String(
                text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
            guard !compact.isEmpty, let der = unbase64(compact) else { throw .notPEM(kind) }
            return .bare(der)
        }
    }
}
