/// How many terminal columns text takes (wcwidth): CJK and most emoji take two, combining marks none.
///
/// Width is measured per grapheme cluster (Swift `Character`), as terminals draw them:
/// - 2: a cluster whose first scalar is East Asian Wide or Fullwidth (the `wideRanges` table below);
///   a cluster whose first scalar has Emoji_Presentation (this covers ZWJ sequences such as 👩‍👩‍👧‍👦 and
///   skin-tone sequences, which start with one); an emoji followed by VS16 (U+FE0F, "❤️", "1️⃣");
///   a pair of regional indicators (a flag, 🇨🇳).
/// - 0: a cluster that starts with a control (Cc), a format character (Cf: ZWJ, ZWSP, bidi marks),
///   a nonspacing or enclosing mark (a lone combining accent), a line or paragraph separator, or a
///   Hangul medial vowel or final consonant (U+1160–U+11FF, U+D7B0–U+D7FF).
/// - 1: everything else, including East Asian Ambiguous characters ("…", "━", "♪"), as wcwidth gives
///   them outside CJK locales; a lone regional indicator; "é" written as e + U+0301 (the mark adds 0).
/// VS15 (U+FE0E) adds nothing and changes nothing, as in wcwidth: "☺︎" is 1, "⌚︎" stays 2.
public enum TerminalWidth {
    /// Where a string sits inside a wider field.
    public enum Alignment: Sendable, Equatable {
        case left, right, center
    }

    /// The columns `character` takes in a terminal: 0, 1 or 2.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F {
            // ASCII; "\r\n" is one cluster starting with a control; "1️⃣" is a keycap emoji.
            if first.value < 0x20 { return 0 }
            return scalars.contains("\u{FE0F}") ? 2 : 1
        }
        let properties = first.properties
        if isRegionalIndicator(first) {
            return scalars.dropFirst().contains(where: isRegionalIndicator) ? 2 : 1
        }
        if properties.isEmojiPresentation { return 2 }
        if properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        if isWide(first.value) { return 2 }
        if isZeroWidth(first) { return 0 }
        return 1
    }

    /// The columns `text` takes: the sum of its characters' widths.
    public static func width<S: StringProtocol>(of text: S) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    /// `text` with controls removed and tabs and line breaks turned into spaces, so it is safe to draw.
    public static func sanitized(_ text: String) -> String {
        var clean = false
        for scalar in text.unicodeScalars where scalar.properties.generalCategory == .control {
            clean = true
            break
        }
        guard clean else { return text }
        var result = ""
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if let first = character.unicodeScalars.first,
                first.properties.generalCategory == .control
            {
                continue
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `text` cut to at most `columns`, never inside a character, ending in `ellipsis` when it was cut.
    ///
    /// Text that fits comes back unchanged. Cut text is exactly `columns` wide: when a wide character
    /// does not fit in the last column, a space takes its place. When even the ellipsis does not fit,
    /// the text is cut without it.
    public static func truncate(_ text: String, to columns: Int, ellipsis: String = "…") -> String {
        let columns = max(0, columns)
        let total = width(of: text)
        if total <= columns { return text }
        let ellipsisWidth = width(of: ellipsis)
        let useEllipsis = ellipsisWidth <= columns && columns > 0
        let budget = useEllipsis ? columns - ellipsisWidth : columns
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = width(of: character)
            if used + characterWidth > budget { break }
            result.append(character)
            used += characterWidth
        }
        // A combining mark or ZWJ left at the end would join the ellipsis; the loop never splits a
        // Character, so the prefix is whole clusters already.
        if used < budget { result += String(repeating: " ", count: budget - used) }
        if useEllipsis { result += ellipsis }
        return result
    }

    /// `text` padded with spaces to exactly `columns`, aligned; cut with `ellipsis` when it is wider.
    public static func pad(
        _ text: String, to columns: Int, alignment: Alignment = .left, ellipsis: String = "…"
    ) -> String {
        let columns = max(0, columns)
        let fitted = truncate(text, to: columns, ellipsis: ellipsis)
        let gap = columns - width(of: fitted)
        guard gap > 0 else { return fitted }
        switch alignment {
        case .left:
            return fitted + String(repeating: " ", count: gap)
        case .right:
            return String(repeating: " ", count: gap) + fitted
        case .center:
            let left = gap / 2
            return String(repeating: " ", count: left) + fitted
                + String(repeating: " ", count: gap - left)
        }
    }

    /// Splits `text` into rows of at most `columns`, breaking after a space when a row has one.
    ///
    /// Returns ranges of character offsets into `Array(text)`; spaces at a break belong to no row.
    /// A character wider than `columns` gets a row of its own (the caller pads or cuts it).
    public static func wrapRanges(_ characters: [Character], to columns: Int) -> [Range<Int>] {
        let columns = max(1, columns)
        var rows: [Range<Int>] = []
        var start = 0
        while start < characters.count {
            var used = 0
            var end = start
            var lastSpaceEnd: Int?
            while end < characters.count {
                let characterWidth = width(of: characters[end])
                if used + characterWidth > columns, end > start { break }
                used += characterWidth
                if characters[end] == " " { lastSpaceEnd = end + 1 }
                end += 1
            }
            if end < characters.count, let breakAt = lastSpaceEnd, breakAt > start,
                characters[end] != " "
            {
                end = breakAt
            }
            var rowEnd = end
            while rowEnd > start, characters[rowEnd - 1] == " " { rowEnd -= 1 }
            rows.append(start..<rowEnd)
            start = end
            while start < characters.count, characters[start] == " " { start += 1 }
        }
        return rows.isEmpty ? [0..<0] : rows
    }

    /// `text` split into rows of at most `columns` (see `wrapRanges`).
    public static func wrap(_ text: String, to columns: Int) -> [String] {
        let characters = Array(text)
        return wrapRanges(characters, to: columns).map { String(characters[$0]) }
    }

    // MARK: - Tables

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0xAD { return false }  // soft hyphen: wcwidth gives it 1
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }

    /// Whether `value` is East Asian Wide (W) or Fullwidth (F) in Unicode's EastAsianWidth.txt.
    ///
    /// Emoji with Emoji_Presentation are found by their property, so the symbol blocks here hold only
    /// the wide characters that are not emoji. Ranges, sorted:
    /// Hangul Jamo initials; angle brackets 〈〉; CJK Radicals, Kangxi, Ideographic Description and CJK
    /// Symbols and Punctuation (to U+303E); Hiragana, Katakana, Bopomofo, Hangul Compatibility Jamo,
    /// Kanbun, CJK Strokes, Enclosed CJK and CJK Compatibility (U+3041–U+33FF); CJK Extension A;
    /// CJK Unified Ideographs; Yi; Hangul Jamo Extended-A; Hangul Syllables; CJK Compatibility
    /// Ideographs; vertical forms, CJK Compatibility Forms and Small Form Variants; Fullwidth Forms
    /// (U+FF01–U+FF60, U+FFE0–U+FFE6); ideographic symbols, Tangut, Khitan, Nushu and Kana
    /// Supplement/Extended; Enclosed Ideographic Supplement; planes 2 and 3 (CJK Extensions B and on).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,
        0x2329...0x232A,
        0x2E80...0x303E,
        0x3041...0x33FF,
        0x3400...0x4DBF,
        0x4E00...0x9FFF,
        0xA000...0xA4CF,
        0xA960...0xA97F,
        0xAC00...0xD7A3,
        0xF900...0xFAFF,
        0xFE10...0xFE19,
        0xFE30...0xFE6F,
        0xFF01...0xFF60,
        0xFFE0...0xFFE6,
        0x16FE0...0x16FE4,
        0x17000...0x18CFF,
        0x1AFF0...0x1B2FF,
        0x1F200...0x1F2FF,
        0x20000...0x2FFFD,
        0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
