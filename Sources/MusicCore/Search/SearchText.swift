/// Turns catalog text and what people type into full-text index text and queries.
///
/// The index tokenizes on word boundaries (FTS5 `unicode61`). CJK text has no spaces, so each CJK
/// character is stored as its own token; a query's CJK run then becomes a phrase of adjacent
/// characters, which finds any substring of any length (one character included, which a trigram
/// index cannot). Latin words match by prefix.
public enum SearchText {
    /// Index text: CJK characters separated by spaces, everything else as written.
    public static func indexText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        var previousWasCJK = false
        for scalar in text.unicodeScalars {
            if isCJK(scalar) {
                result.append(" ")
                result.unicodeScalars.append(scalar)
                previousWasCJK = true
            } else {
                if previousWasCJK && !scalar.properties.isWhitespace { result.append(" ") }
                result.unicodeScalars.append(scalar)
                previousWasCJK = false
            }
        }
        return result
    }

    /// An FTS5 MATCH expression for what a person typed, or nil when it has nothing searchable.
    ///
    /// Every word must match: Latin words by prefix, CJK runs as exact substrings.
    public static func matchQuery(_ typed: String, maxTerms: Int = 8) -> String? {
        var terms: [String] = []
        var word = ""
        var cjkRun: [String] = []
        func flushWord() {
            if !word.isEmpty { terms.append("\"\(word)\"*") }
            word = ""
        }
        func flushRun() {
            if !cjkRun.isEmpty { terms.append("\"" + cjkRun.joined(separator: " ") + "\"") }
            cjkRun = []
        }
        for scalar in typed.unicodeScalars {
            if isCJK(scalar) {
                flushWord()
                cjkRun.append(String(scalar))
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                flushRun()
                word.unicodeScalars.append(scalar)
            } else {
                flushWord()
                flushRun()
            }
        }
        flushWord()
        flushRun()
        guard !terms.isEmpty else { return nil }
        return terms.prefix(maxTerms).joined(separator: " ")
    }

    /// Han, kana, Hangul and their punctuation-free neighbours: scripts written without spaces.
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF,  // Hiragana, Katakana
            0x3400...0x4DBF,  // CJK Extension A
            0x4E00...0x9FFF,  // CJK Unified Ideographs
            0xAC00...0xD7AF,  // Hangul syllables
            0x1100...0x11FF,  // Hangul Jamo
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0x20000...0x2FA1F:  // CJK Extensions B-F and supplements
            return true
        default:
            return false
        }
    }
}
