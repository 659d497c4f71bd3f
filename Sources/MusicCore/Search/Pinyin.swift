/// Mandarin readings of Chinese characters, for finding and ordering Chinese names the way Chinese users
/// look for them: 周杰伦 by `zhoujielun` or by its initials `zjl`, and under "Z" in an index.
///
/// One reading per character (Unihan's first kMandarin), without tones, ü as v. The table is generated
/// (`scripts/generate-pinyin`, `PinyinTable.swift`).
public enum Pinyin {
    /// The reading of a Chinese character, such as "zhou" for 周; nil for anything else.
    public static func syllable(_ scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        for block in blocks where value >= block.start {
            let offset = Int(value - block.start) * 2
            guard offset + 1 < block.codes.utf8CodeUnitCount else { continue }
            let number = block.codes.withUTF8Buffer { codes in
                digit(codes[offset]) * 64 + digit(codes[offset + 1])
            }
            return number == 0 ? nil : syllables[number - 1]
        }
        return nil
    }

    /// The text with each Chinese character as its syllable between spaces, other letters lower-cased, for
    /// ordering: "周杰伦" is "zhou jie lun", "Jay 周" "jay zhou". Nil when it has no Chinese character.
    public static func romanized(_ text: String) -> String? {
        var result = ""
        var found = false
        var previousWasSyllable = false
        for scalar in text.unicodeScalars {
            if let syllable = syllable(scalar) {
                if !result.isEmpty && result.last != " " { result.append(" ") }
                result += syllable
                found = true
                previousWasSyllable = true
            } else {
                if previousWasSyllable && !scalar.properties.isWhitespace { result.append(" ") }
                result.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                previousWasSyllable = false
            }
        }
        return found ? result : nil
    }

    /// Search words for each run of Chinese characters in `text`: the run's syllables joined and their
    /// initials ("zhoujielun", "zjl" for 周杰伦); empty when there is none.
    public static func searchWords(_ text: String) -> [String] {
        var words: [String] = []
        var full = ""
        var initials = ""
        func flush() {
            if !full.isEmpty {
                words.append(full)
                if initials.count > 1 { words.append(initials) }
            }
            full = ""
            initials = ""
        }
        for scalar in text.unicodeScalars {
            if let syllable = syllable(scalar) {
                full += syllable
                initials.append(syllable.first!)
            } else if !SearchText.isCJK(scalar) || !full.isEmpty {
                flush()
            }
        }
        flush()
        return words
    }

    private static let syllables: [String] = syllableList.split(separator: " ").map(String.init)

    private static func digit(_ byte: UInt8) -> Int {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x5A: Int(byte - 0x41) + 10
        case 0x61...0x7A: Int(byte - 0x61) + 36
        case 0x2B: 62
        default: 63
        }
    }
}
