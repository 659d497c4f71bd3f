/// Parses LRC and KSC lyrics into a `Lyric`; never fails, bad source lines go to `Lyric.issues`.
public enum LyricParser {
    /// Parses `text` as `format`.
    public static func parse(_ text: String, format: LyricFormat) -> Lyric {
        switch format {
        case .lrc: return parseLRC(text)
        case .ksc: return parseKSC(text)
        }
    }

    /// Parses LRC, including enhanced LRC word times (`<mm:ss.xx>`).
    ///
    /// Lines without word times last until the next later line starts; the last line lasts
    /// `defaultLastLineDuration`. An unclosed last word lasts until its line ends, or
    /// `defaultLastWordDuration` on the last line. `[offset:+n]` makes lyrics appear n ms earlier.
    public static func parseLRC(_ text: String) -> Lyric {
        LRCParser.parse(text)
    }

    /// Parses a KSC karaoke script (`karaoke.add(...)` and `karaoke.tag(...)` lines).
    ///
    /// Each CJK (or other non-alphabetic-script) character is a word, a run of Latin, Greek or
    /// Cyrillic letters and digits is a word, and `[...]` is a word; spaces belong to the word before
    /// them, and adjacent `[a][b]` words are shown with a space between them.
    public static func parseKSC(_ text: String) -> Lyric {
        KSCParser.parse(text)
    }

    /// The lyric format of a song with this `style`: 10 is KSC, anything else LRC (the apps' rule).
    public static func format(forSongStyle style: Int) -> LyricFormat {
        style == 10 ? .ksc : .lrc
    }

    /// KSC when the text contains a `karaoke.add(` call (any case, spaces allowed before `(`), else LRC.
    public static func detectFormat(_ text: String) -> LyricFormat {
        let needle = Array("karaoke.add".utf8)
        let bytes = Array(text.utf8)
        var index = 0
        while index + needle.count <= bytes.count {
            var matches = true
            for offset in 0..<needle.count where lowerASCII(bytes[index + offset]) != needle[offset] {
                matches = false
                break
            }
            if matches {
                var after = index + needle.count
                while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: "(") { return .ksc }
            }
            index += 1
        }
        return .lrc
    }

    /// How long the last LRC line lasts when it has no word times.
    public static let defaultLastLineDuration = 5000
    /// How long an unclosed last word of the last LRC line lasts.
    public static let defaultLastWordDuration = 1000
}

private func lowerASCII(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
}

// MARK: - Shared helpers

/// Source lines (1-based numbers) with a leading BOM removed and any line ending (LF, CR, CRLF) accepted.
func sourceLines(_ text: String) -> [(number: Int, content: Substring)] {
    var body = Substring(text)
    if body.unicodeScalars.first == "\u{FEFF}" {
        body = Substring(body.unicodeScalars.dropFirst())
    }
    var result: [(number: Int, content: Substring)] = []
    for (offset, line) in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        .enumerated()
    {
        result.append((offset + 1, trimmed(line)))
    }
    return result
}

func trimmed<S: StringProtocol>(_ text: S) -> Substring where S.SubSequence == Substring {
    var slice = text[...]
    while let first = slice.first, first.isWhitespace || first == "\u{FEFF}" { slice = slice.dropFirst() }
    while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
    return slice
}

func trimmed(_ characters: ArraySlice<Character>) -> ArraySlice<Character> {
    var slice = characters
    while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
    while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
    return slice
}

/// The value of 1 to `maxDigits` ASCII digits, or nil.
func decimal<C: Collection>(_ characters: C, maxDigits: Int) -> Int? where C.Element == Character {
    guard !characters.isEmpty, characters.count <= maxDigits else { return nil }
    var value = 0
    for character in characters {
        guard let ascii = character.asciiValue, ascii >= 48, ascii <= 57 else { return nil }
        value = value * 10 + Int(ascii - 48)
    }
    return value
}

/// Milliseconds of a decimal fraction of a second written with any number of digits (`5`, `50`, `500`).
private func fractionMilliseconds(_ characters: ArraySlice<Character>) -> Int? {
    guard decimal(characters, maxDigits: 9) != nil else { return nil }
    var digits = Array(characters.prefix(3))
    while digits.count < 3 { digits.append("0") }
    return decimal(digits, maxDigits: 3)
}

/// `ss` or `ss.fff` as milliseconds; seconds must be 1 or 2 digits below 60.
private func secondsMilliseconds(_ characters: ArraySlice<Character>) -> Int? {
    let parts = characters.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 1 || parts.count == 2,
        let seconds = decimal(parts[0], maxDigits: 2), seconds < 60
    else { return nil }
    guard parts.count == 2 else { return seconds * 1000 }
    guard let fraction = fractionMilliseconds(parts[1]) else { return nil }
    return seconds * 1000 + fraction
}

/// A clock time in milliseconds: `m:ss`, `m:ss.fff`, `h:mm:ss[.fff]`, and with `colonFraction`,
/// `m:ss:ff` (where `ff` is a decimal fraction like after a dot) instead of `h:mm:ss`.
func clockMilliseconds(_ text: ArraySlice<Character>, colonFraction: Bool) -> Int? {
    let parts = trimmed(text).split(separator: ":", omittingEmptySubsequences: false)
    switch parts.count {
    case 2:
        guard let minutes = decimal(parts[0], maxDigits: 6), let rest = secondsMilliseconds(parts[1])
        else { return nil }
        return minutes * 60_000 + rest
    case 3 where colonFraction && !parts[2].contains("."):
        guard let minutes = decimal(parts[0], maxDigits: 6),
            let seconds = decimal(parts[1], maxDigits: 2), seconds < 60,
            let fraction = fractionMilliseconds(parts[2])
        else { return nil }
        return minutes * 60_000 + seconds * 1000 + fraction
    case 3:
        guard let hours = decimal(parts[0], maxDigits: 4),
            let minutes = decimal(parts[1], maxDigits: 2), minutes < 60,
            let rest = secondsMilliseconds(parts[2])
        else { return nil }
        return hours * 3_600_000 + minutes * 60_000 + rest
    default:
        return nil
    }
}
