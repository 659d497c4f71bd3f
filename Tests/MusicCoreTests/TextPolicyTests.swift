import MusicCore
import Testing

private func refusal(_ text: String, limit: Int = 2_000, lines: TextPolicy.Lines = .many) -> String? {
    do {
        _ = try TextPolicy.check(text, field: "A message", limit: limit, lines: lines)
        return nil
    } catch let error as ServiceError {
        return error.message
    } catch {
        return "\(error)"
    }
}

@Suite struct TextPolicyTests {
    @Test func oneCharacterOfManyCodePointsIsRefused() {
        // One grapheme cluster: a letter with 150,000 combining accents (300 KB).
        let stacked = "e" + String(repeating: "\u{0301}", count: 150_000)
        #expect(stacked.count == 1)
        #expect(refusal(stacked)?.hasPrefix("A message is too long") == true)
        // Seventeen marks on one letter is past any real script.
        #expect(refusal("e" + String(repeating: "\u{0300}", count: 17))?.contains("stacked") == true)
    }

    @Test func lengthIsCountedInCharactersCodePointsAndBytes() {
        #expect(refusal(String(repeating: "字", count: 2_000)) == nil)
        #expect(
            refusal(String(repeating: "字", count: 2_001))
                == "A message can be at most 2000 characters; this one has 2001.")
        // 2,000 family emoji: 2,000 characters, but 14,000 code points.
        #expect(refusal(String(repeating: "👨‍👩‍👧‍👦", count: 2_000))?.hasPrefix("A message is too long") == true)
        #expect(refusal(String(repeating: "👨‍👩‍👧‍👦", count: 100)) == nil)
        // Flags (two scalars, eight bytes) and emoji with a variation selector fit the byte budget.
        #expect(refusal(String(repeating: "🇨🇳", count: 2_000)) == nil)
        #expect(refusal(String(repeating: "❤️", count: 2_000)) == nil)
    }

    @Test(arguments: [
        ("invoice_\u{202E}gpj.exe", "text-direction"), ("a\u{2066}b\u{2069}", "text-direction"),
        ("left\u{200F}mark", "text-direction"), ("arabic\u{061C}mark", "text-direction"),
        ("zero\u{200B}width", "invisible"), ("soft\u{00AD}hyphen", "invisible"), ("\u{FEFF}bom", "invisible"),
        ("ㅤ\u{3164}filler", "invisible"), ("private\u{E000}use", "invisible"),
        ("lonely \u{200D} joiner", "invisible"),
        ("bell\u{7}", "control"), ("tab\there", "control"), ("nul\u{0}", "control"),
        ("line\u{2028}separator", "control"),
    ])
    func trickCharactersAreRefusedTheSameWayEverywhere(_ text: String, _ reason: String) {
        #expect(refusal(text)?.contains(reason) == true, "\(text.unicodeScalars.map { $0.value })")
        #expect(refusal(text, limit: 32, lines: .one)?.contains(reason) == true)
    }

    @Test func whatPeopleReallyWriteIsKept() throws {
        for text in [
            "晴天 🌤", "👨‍👩‍👧‍👦 family", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland", "می‌خواهم", "क्षत्रिय", "한국어", "Ünïcödé", "a b\nc",
            "👍🏽", "1️⃣", "Ｆｕｌｌ", "\u{3000}ideographic space inside\u{3000}and",
        ] {
            #expect(refusal(text) == nil, "\(text)")
        }
        // Kept as written: no normalisation.
        let kept = try TextPolicy.check("  e\u{301}  ", field: "A name", limit: 10) ?? ""
        #expect(Array(kept.unicodeScalars) == ["e", "\u{301}"])
        #expect(try TextPolicy.check("one\r\ntwo", field: "A text", limit: 10, lines: .many) == "one\ntwo")
        #expect(try TextPolicy.check(" \n ", field: "A text", limit: 10, lines: .many) == nil)
        #expect(try TextPolicy.check(nil, field: "A text", limit: 10) == nil)
        #expect(refusal("one\ntwo", limit: 32, lines: .one)?.contains("line breaks") == true)
    }
}
