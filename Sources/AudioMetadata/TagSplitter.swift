import Foundation

/// Splits one tag value that names several artists or genres into separate names.
///
/// Artist separators: `;` `；` `/` `、` `，` and the words ` feat. ` ` feat ` ` ft. ` ` featuring `
/// ` & ` ` x ` ` × ` (words match in any letter case, except ` x `, which must be lower case because
/// a capital X is usually part of a name, as in "Lil Nas X"); "(feat. B)" and "[feat. B]" also
/// split. Two rules keep band names whole: a name in `artistExceptions` (matched in any case) is
/// never split, and " & " followed by "the " is not a separator ("Nick Cave & the Bad Seeds").
/// ASCII commas do not split artists ("Tyler, The Creator"). Genre separators: `;` `；` `/` `,`
/// `，` `、` `|`, except inside a name in `genreExceptions`. Parts are trimmed, empty parts dropped,
/// repeats (ignoring case) dropped keeping the first; CJK text is kept exactly.
public enum TagSplitter {
    /// Names that contain a separator but are one artist.
    public static let artistExceptions: [String] = [
        "AC/DC", "M/A/R/R/S", "Au/Ra", "Simon & Garfunkel", "Earth, Wind & Fire", "Hall & Oates",
        "Daryl Hall & John Oates", "Mumford & Sons", "Belle & Sebastian", "Iron & Wine",
        "Crosby, Stills, Nash & Young", "Crosby, Stills & Nash", "Sam & Dave", "Brooks & Dunn",
        "Above & Beyond", "Chase & Status", "Angus & Julia Stone", "Ashford & Simpson",
        "Love & Rockets", "Matt & Kim", "Eric B. & Rakim", "Jon & Vangelis", "Chad & Jeremy",
        "Big & Rich", "Seals & Crofts", "Loggins & Messina", "Zager & Evans", "Captain & Tennille",
        "Florence & the Machine", "Marina & the Diamonds",
    ]

    /// Genre names that contain a separator but are one genre.
    public static let genreExceptions: [String] = ["Hip-Hop/Rap", "Hip Hop/Rap", "R&B/Soul", "Rap/Hip-Hop"]

    private static let artistSymbols = [";", "；", "/", "、", "，"]
    private static let artistWords = [" feat. ", " feat ", " ft. ", " featuring ", " & ", " × "]
    private static let featOpeners = ["(feat. ", "[feat. ", "(ft. ", "[ft. ", "(featuring ", "[featuring "]

    /// The artists named in one tag value, in order.
    public static func splitArtists(_ s: String) -> [String] {
        // Most values name one artist: without any separator there is nothing to split, and the case-
        // insensitive searches below (a third of a scan's string work) are skipped.
        mayNameSeveralArtists(s) ? splitArtistsInFull(s) : single(s)
    }

    /// `splitArtists` without the shortcut for one name.
    static func splitArtistsInFull(_ s: String) -> [String] {
        var (text, saved) = protect(s, names: artistExceptions)
        // "A (feat. B)" -> "A;B"
        for opener in featOpeners {
            while let r = text.range(of: opener, options: .caseInsensitive) {
                let close: Character = opener.first == "(" ? ")" : "]"
                var tail = String(text[r.upperBound...])
                if let c = tail.firstIndex(of: close) { tail.remove(at: c) }
                text = text[..<r.lowerBound] + "\u{E002}" + tail
            }
        }
        // " & the " is part of a band name.
        text = text.replacingOccurrences(of: " & the ", with: " \u{E003} the ", options: .caseInsensitive)
        for symbol in artistSymbols { text = text.replacingOccurrences(of: symbol, with: "\u{E002}") }
        for word in artistWords {
            text = text.replacingOccurrences(of: word, with: "\u{E002}", options: .caseInsensitive)
        }
        text = text.replacingOccurrences(of: " x ", with: "\u{E002}")
        text = text.replacingOccurrences(of: "\u{E003}", with: "&")
        return finish(text, saved: saved)
    }

    /// The genres named in one tag value, in order.
    public static func splitGenres(_ s: String) -> [String] {
        s.unicodeScalars.contains { genreSeparators.contains($0) || isPlaceholder($0) }
            ? splitGenresInFull(s) : single(s)
    }

    /// `splitGenres` without the shortcut for one name.
    static func splitGenresInFull(_ s: String) -> [String] {
        var (text, saved) = protect(s, names: genreExceptions)
        for symbol in [";", "；", "/", ",", "，", "、", "|"] {
            text = text.replacingOccurrences(of: symbol, with: "\u{E002}")
        }
        return finish(text, saved: saved)
    }

    private static let artistSeparators: Set<Unicode.Scalar> = [";", "；", "/", "、", "，", "&", "×"]
    private static let genreSeparators: Set<Unicode.Scalar> = [";", "；", "/", ",", "，", "、", "|"]

    /// False when `s` has none of the separators of `splitArtists`: no separator character, no "feat" or
    /// "ft." in any case, no " x ", and none of the characters the slow path treats specially (its
    /// placeholders, and the ligatures a case-insensitive search may fold to "f"). True may be wrong (the
    /// slow path then finds nothing to split); false never is.
    static func mayNameSeveralArtists(_ s: String) -> Bool {
        // The last three scalars, ASCII letters lowered, to find "feat", "ft." and " x " in one pass.
        var window: (Unicode.Scalar, Unicode.Scalar, Unicode.Scalar) = ("\0", "\0", "\0")
        for scalar in s.unicodeScalars {
            if artistSeparators.contains(scalar) || isPlaceholder(scalar)
                || (0xFB00...0xFB06).contains(scalar.value)
            {
                return true
            }
            let lowered = (65...90).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value) + 32) : scalar
            if (window.1, window.2, lowered) == ("f", "t", ".")
                || (window.0, window.1, window.2, lowered) == ("f", "e", "a", "t")
                || (window.1, window.2, lowered) == (" ", "x", " ")
            {
                return true
            }
            window = (window.1, window.2, lowered)
        }
        return false
    }

    /// The private-use characters `protect` and the splitters use as placeholders.
    private static func isPlaceholder(_ scalar: Unicode.Scalar) -> Bool {
        (0xE000...0xE003).contains(scalar.value)
    }

    /// A value that names one artist or genre: trimmed, or nothing when it is blank.
    private static func single(_ s: String) -> [String] {
        let trimmed = AudioFileReader.trimmed(s)
        return trimmed.isEmpty ? [] : [trimmed]
    }

    /// Replaces each exception found in `s` with a private-use placeholder.
    private static func protect(_ s: String, names: [String]) -> (String, [String]) {
        var text = s
        var saved: [String] = []
        for name in names {
            while let r = text.range(of: name, options: .caseInsensitive) {
                text.replaceSubrange(r, with: "\u{E000}\(saved.count)\u{E001}")
                saved.append(
                    String(
                        s[s.startIndex...].range(of: name, options: .caseInsensitive).map { s[$0] }
                            ?? Substring(name)))
            }
        }
        return (text, saved)
    }

    private static func finish(_ text: String, saved: [String]) -> [String] {
        var parts: [String] = []
        var seen: Set<String> = []
        for piece in text.split(separator: "\u{E002}") {
            var part = String(piece)
            for (i, name) in saved.enumerated().reversed() {
                part = part.replacingOccurrences(of: "\u{E000}\(i)\u{E001}", with: name)
            }
            part = part.trimmingCharacters(in: .whitespacesAndNewlines)
            if !part.isEmpty, seen.insert(part.lowercased()).inserted { parts.append(part) }
        }
        return parts
    }
}
