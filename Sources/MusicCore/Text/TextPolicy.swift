import Foundation

/// The one policy for text people write and others read: messages, comments, moments, nicknames, sheet titles,
/// descriptions and tags, profile fields, device and app password names, report reasons, and what
/// administrators write (ads, terms, video titles, release notes).
///
/// Text is trimmed and kept as written (no normalisation: what was typed is what is shown), with `\r\n` as `\n`. Its length is counted three ways, because each
/// protects something else: characters as people see them (graphemes, the limit a person is told), Unicode
/// scalars (at most 4 per character: what search, rich text and the clients walk), and UTF-8 bytes (at most 8
/// per character: what is stored and sent); and no one character may stack more than 16 scalars (a single
/// "character" of 150,000 accents is a way around a grapheme limit). Refused everywhere the same way:
/// control characters (line breaks only where a field takes several lines; tabs nowhere), text-direction controls
/// (`invoice_\u{202E}gpj.exe` posing as `invoice_exe.jpg`), and invisible characters (zero-width spaces, soft
/// hyphens, byte-order marks, Hangul fillers, private-use and unassigned code points), except the joiners and
/// tags inside an emoji or a word that need them.
public enum TextPolicy {
    /// Whether a field takes line breaks.
    public enum Lines: Sendable {
        case one, many
    }

    public static let scalarsPerCharacter = 4
    public static let bytesPerCharacter = 8
    public static let scalarsInOneCharacter = 16

    /// `value` as it is kept (trimmed), nil when nothing is left; throws a refusal that names `field`
    /// ("A comment", "The title": a word of `ChineseText.words` too) and says what to change.
    public static func check(_ value: String?, field: String, limit: Int, lines: Lines = .one) throws
        -> String?
    {
        guard let value else { return nil }
        let text = value.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(
            in: .whitespacesAndNewlines)
        if text.isEmpty { return nil }
        let characters = text.count
        guard characters <= limit else {
            throw ServiceError.invalid(
                "\(word: field) can be at most \(limit) characters; this one has \(characters).")
        }
        guard text.unicodeScalars.count <= limit * scalarsPerCharacter,
            text.utf8.count <= limit * bytesPerCharacter
        else {
            throw ServiceError.invalid(
                "\(word: field) is too long: it can be at most \(limit) characters, and these are made of too many parts (accents or joined emoji). Shorten it."
            )
        }
        for character in text {
            let scalars = character.unicodeScalars
            guard scalars.count <= scalarsInOneCharacter else {
                throw ServiceError.invalid(
                    "\(word: field) has a character with too many accents or marks stacked on it. Remove them."
                )
            }
            for (index, scalar) in scalars.enumerated() {
                switch refusal(scalar, first: index == 0, base: scalars.first!, lines: lines) {
                case nil: continue
                case .direction?:
                    throw ServiceError.invalid(
                        "\(word: field) cannot contain text-direction control characters.")
                case .control? where lines == .one:
                    throw ServiceError.invalid(
                        "\(word: field) cannot contain line breaks, tabs or other control characters.")
                case .control?:
                    throw ServiceError.invalid(
                        "\(word: field) cannot contain tabs or control characters other than line breaks.")
                case .invisible?:
                    throw ServiceError.invalid(
                        "\(word: field) cannot contain invisible characters (such as zero-width spaces). Remove them."
                    )
                }
            }
        }
        return text
    }

    private enum Refusal { case direction, control, invisible }

    /// Why `scalar` may not be in written text, if it may not; `first` when it starts its character, whose
    /// first scalar is `base`.
    private static func refusal(_ scalar: Unicode.Scalar, first: Bool, base: Unicode.Scalar, lines: Lines)
        -> Refusal?
    {
        let value = scalar.value
        // Bidirectional marks, embeddings, overrides and isolates let text pose as other text.
        if value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
        {
            return .direction
        }
        switch scalar.properties.generalCategory {
        case .control:
            return lines == .many && scalar == "\n" ? nil : .control
        case .lineSeparator, .paragraphSeparator:
            return .control
        case .surrogate, .privateUse, .unassigned:
            return .invisible
        case .format:
            // Joiners inside a word or an emoji (Persian and Indic scripts need ZWNJ, emoji ZWJ), and the tags
            // of a subdivision flag; never on their own.
            let joins = !first && !base.properties.isWhitespace
            if joins && (value == 0x200C || value == 0x200D) { return nil }
            if joins && base.properties.isEmoji && (0xE0020...0xE007F).contains(value) { return nil }
            return .invisible
        default:
            // Hangul fillers and other blank letters; variation selectors and combining marks join a character.
            if scalar.properties.isDefaultIgnorableCodePoint
                && scalar.properties.generalCategory != .nonspacingMark
            {
                return .invisible
            }
            return nil
        }
    }
}

/// One kind of text people write, declared once for the contract (its bound in the document, checked before a
/// handler runs) and for the feature that keeps it (trimmed by the same rule): what refusals call it, how many
/// characters it may have, and whether it takes line breaks.
public struct WrittenText: Sendable {
    /// How refusals name it ("The title"): a word of `ChineseText.words` too.
    public let field: String
    public let limit: Int
    public let lines: TextPolicy.Lines

    public init(field: String, limit: Int, lines: TextPolicy.Lines = .one) {
        self.field = field
        self.limit = limit
        self.lines = lines
    }

    /// `value` as it is kept (trimmed), nil when nothing is left; throws `TextPolicy`'s refusal.
    public func check(_ value: String?) throws -> String? {
        try TextPolicy.check(value, field: field, limit: limit, lines: lines)
    }
}
