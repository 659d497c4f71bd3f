/// Turns catalog text and what people type into full-text index text and queries.
///
/// The index tokenizes on word boundaries (FTS5 `unicode61`). CJK text has no spaces, so each CJK
/// character is stored as its own token; a query's CJK run then becomes a phrase of adjacent
/// characters, which finds any substring of any length (one character included, which a trigram
/// index cannot). Latin words match by prefix.
public enum SearchText {
    /// What `indexText` writes changed (2: the pinyin words of Chinese text): rows written by an older one
    /// are written again by the next library scan.
    public static let version = 2

    /// Index text: CJK characters separated by spaces, everything else as written, then the pinyin of each
    /// run of Chinese characters, whole and as initials ("周杰伦" also as "zhoujielun zjl").
    public static func indexText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        var previousWasCJK = false
        var sawCJK = false
        for scalar in text.unicodeScalars {
            if isCJK(scalar) {
                result.append(" ")
                result.unicodeScalars.append(scalar)
                previousWasCJK = true
                sawCJK = true
            } else {
                if previousWasCJK && !scalar.properties.isWhitespace { result.append(" ") }
                result.unicodeScalars.append(scalar)
                previousWasCJK = false
            }
        }
        if sawCJK {
            let words = Pinyin.searchWords(text)
            if !words.isEmpty { result += " " + words.joined(separator: " ") }
        }
        return result
    }

    /// An FTS5 MATCH expression for what a person typed, or nil when it has nothing searchable.
    ///
    /// Every word must match: Latin words by prefix, CJK runs as exact substrings. With
    /// `wholeWordsBeforeLast`, only the last word is a prefix (the one a person is still typing); the
    /// words before it must match whole, which lets the index skip through their rows instead of
    /// merging every word they start (a long prefix such as "Morning"* merges them all).
    public static func matchQuery(_ typed: String, maxTerms: Int = 8, wholeWordsBeforeLast: Bool = false)
        -> String?
    {
        let terms = self.terms(typed, maxTerms: maxTerms)
        guard !terms.isEmpty else { return nil }
        return terms.enumerated().map { index, term in
            switch term {
            case .cjk(let run): "\"" + run + "\""
            case .word(let word):
                wholeWordsBeforeLast && index < terms.count - 1 ? "\"\(word)\"" : "\"\(word)\"*"
            }
        }.joined(separator: " ")
    }

    /// Whether `matchQuery` with `wholeWordsBeforeLast` asks for less than without it (a Latin word
    /// before the last term), so a search that found nothing with whole words may try prefixes.
    public static func hasWordBeforeLast(_ typed: String, maxTerms: Int = 8) -> Bool {
        terms(typed, maxTerms: maxTerms).dropLast().contains {
            if case .word = $0 { return true }
            return false
        }
    }

    private enum Term {
        /// Letters and digits, as typed.
        case word(String)
        /// CJK characters separated by spaces, as `indexText` stores them.
        case cjk(String)
    }

    /// What `matchQuery` searches for, in order: Latin words and CJK runs, at most `maxTerms`.
    private static func terms(_ typed: String, maxTerms: Int) -> [Term] {
        var terms: [Term] = []
        var word = ""
        var cjkRun: [String] = []
        func flushWord() {
            if !word.isEmpty { terms.append(.word(word)) }
            word = ""
        }
        func flushRun() {
            if !cjkRun.isEmpty { terms.append(.cjk(cjkRun.joined(separator: " "))) }
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
        return Array(terms.prefix(maxTerms))
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
