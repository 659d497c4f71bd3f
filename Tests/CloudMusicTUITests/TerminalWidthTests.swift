import CloudMusicTUI
import Testing

@Suite struct TerminalWidthTests {
    @Test(
        arguments: [
            ("a", 1), (" ", 1), ("~", 1),
            ("中", 2), ("一", 2), ("𠀀", 2),  // CJK, Extension B
            ("あ", 2), ("ア", 2), ("한", 2),  // kana, Hangul syllable
            ("Ａ", 2), ("！", 2), ("。", 2), ("「", 2),  // fullwidth, CJK punctuation
            ("ｱ", 1),  // halfwidth katakana
            ("😀", 2), ("🎵", 2),
            ("👩‍👩‍👧‍👦", 2),  // ZWJ family
            ("🇨🇳", 2), ("🇨", 1),  // flag, lone regional indicator
            ("👍🏽", 2), ("🏽", 2),  // skin tone
            ("❤️", 2), ("❤", 1), ("1️⃣", 2),  // VS16
            ("☺︎", 1), ("⌚︎", 2),  // VS15 adds nothing
            ("e\u{301}", 1), ("é", 1), ("\u{301}", 0),  // combining
            ("\u{200D}", 0), ("\u{200B}", 0), ("\u{FE0F}", 0),  // ZWJ, ZWSP, lone VS16
            ("\u{7}", 0), ("\r\n", 0), ("\u{85}", 0),  // controls
            ("\u{1100}\u{1161}", 2),  // Hangul jamo L+V
            ("…", 1), ("♪", 1), ("━", 1),  // ambiguous: narrow
        ] as [(String, Int)])
    func characterWidths(text: String, expected: Int) {
        #expect(text.count == 1)
        #expect(
            TerminalWidth.width(of: Character(text)) == expected,
            "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func stringWidths() {
        #expect(TerminalWidth.width(of: "Hello") == 5)
        #expect(TerminalWidth.width(of: "一时失志不免怨叹") == 16)
        #expect(TerminalWidth.width(of: "Jay 周杰伦 🎵") == 4 + 6 + 1 + 2)
        #expect(TerminalWidth.width(of: "👩‍👩‍👧‍👦🇨🇳👍🏽") == 6)
        #expect(TerminalWidth.width(of: "Cafe\u{301}") == 4)
        #expect(TerminalWidth.width(of: "") == 0)
    }

    @Test func truncateKeepsShortText() {
        #expect(TerminalWidth.truncate("abc", to: 3) == "abc")
        #expect(TerminalWidth.truncate("中文", to: 10) == "中文")
    }

    @Test func truncateAddsEllipsis() {
        #expect(TerminalWidth.truncate("abcdef", to: 4) == "abc…")
        #expect(TerminalWidth.truncate("abcdef", to: 0) == "")
        #expect(TerminalWidth.truncate("abcdef", to: 1) == "…")
        #expect(TerminalWidth.truncate("abcdef", to: 4, ellipsis: "") == "abcd")
    }

    @Test func truncateNeverSplitsAWideCharacter() {
        // 中文字 is 6 columns; 4 columns leave 3 before the ellipsis: 中 and a space.
        #expect(TerminalWidth.truncate("中文字", to: 4) == "中 …")
        #expect(TerminalWidth.truncate("中文字", to: 5) == "中文…")
        #expect(TerminalWidth.truncate("中文字", to: 3, ellipsis: "") == "中 ")
        #expect(TerminalWidth.truncate("👩‍👩‍👧‍👦👩‍👩‍👧‍👦", to: 3) == "👩‍👩‍👧‍👦…")
        #expect(TerminalWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
    }

    @Test func padAligns() {
        #expect(TerminalWidth.pad("中", to: 5) == "中   ")
        #expect(TerminalWidth.pad("中", to: 5, alignment: .right) == "   中")
        #expect(TerminalWidth.pad("中", to: 5, alignment: .center) == " 中  ")
        #expect(TerminalWidth.pad("abcdef", to: 4) == "abc…")
    }

    @Test func sanitizedRemovesControls() {
        #expect(TerminalWidth.sanitized("a\tb\nc\u{7}d") == "a b cd")
        #expect(TerminalWidth.sanitized("中文") == "中文")
    }

    @Test func wrapBreaksAtSpacesAndNeverInsideCharacters() {
        #expect(TerminalWidth.wrap("hello big world", to: 9) == ["hello big", "world"])
        #expect(TerminalWidth.wrap("一时失志不免怨叹", to: 5) == ["一时", "失志", "不免", "怨叹"])
        #expect(TerminalWidth.wrap("abcdefgh", to: 3) == ["abc", "def", "gh"])
        #expect(TerminalWidth.wrap("", to: 3) == [""])
        #expect(TerminalWidth.wrap("中", to: 1) == ["中"])
    }

    /// Random strings mixing every kind of width: cut or padded, the result is exactly as wide as asked.
    @Test func truncateAndPadAreExactOnRandomText() {
        let pieces: [String] = [
            "a", "Z", " ", "中", "あ", "한", "Ａ", "。", "😀", "👩‍👩‍👧‍👦", "🇨🇳", "👍🏽", "❤️", "e\u{301}",
            "\u{200B}", "…", "ｱ", "1️⃣", "x\u{20DD}",
        ]
        var generator = SplitMix(seed: 7)
        for _ in 0..<2000 {
            let length = Int(generator.next() % 20)
            var text = ""
            for _ in 0..<length { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let columns = Int(generator.next() % 24)
            let alignment: TerminalWidth.Alignment = [.left, .right, .center][Int(generator.next() % 3)]
            let padded = TerminalWidth.pad(text, to: columns, alignment: alignment)
            #expect(TerminalWidth.width(of: padded) == columns, "\(text) to \(columns)")
            let cut = TerminalWidth.truncate(text, to: columns)
            #expect(TerminalWidth.width(of: cut) <= columns)
            if TerminalWidth.width(of: text) > columns {
                #expect(TerminalWidth.width(of: cut) == columns)
                // Every character of the cut text (but the ellipsis and pad) is a whole character of the source.
                let kept = Array(cut.filter { $0 != "…" && $0 != " " })
                let source = Array(text.filter { $0 != "…" && $0 != " " })
                #expect(Array(source.prefix(kept.count)) == kept, "\(text) to \(columns)")
            } else {
                #expect(cut == text)
            }
            for row in TerminalWidth.wrap(text, to: max(2, columns)) {
                #expect(TerminalWidth.width(of: row) <= max(2, columns))
            }
        }
    }
}

/// A small deterministic generator, so a failure repeats.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
