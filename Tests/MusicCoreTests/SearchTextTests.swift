import MusicCore
import Testing

@Suite struct SearchTextTests {
    @Test func cjkCharactersBecomeTokens() {
        #expect(SearchText.indexText("一时失志") == " 一 时 失 志 yishishizhi yssz")
        #expect(SearchText.indexText("Jay周杰伦 Live") == "Jay 周 杰 伦 Live zhoujielun zjl")
        #expect(SearchText.indexText("plain words") == "plain words")
    }

    @Test func queries() {
        #expect(SearchText.matchQuery("bea") == "\"bea\"*")
        #expect(SearchText.matchQuery("林晓") == "\"林 晓\"")
        #expect(SearchText.matchQuery("林") == "\"林\"")
        #expect(SearchText.matchQuery("Jay 周杰") == "\"Jay\"* \"周 杰\"")
        #expect(SearchText.matchQuery("AC/DC") == "\"AC\"* \"DC\"*")
        #expect(SearchText.matchQuery("ドラえもん") == "\"ド ラ え も ん\"")
    }

    /// A person is still typing the last word only: the ones before it must match whole.
    @Test func wholeWordsBeforeTheLast() {
        #expect(SearchText.matchQuery("bea", wholeWordsBeforeLast: true) == "\"bea\"*")
        #expect(
            SearchText.matchQuery("Morning Quiet So", wholeWordsBeforeLast: true)
                == "\"Morning\" \"Quiet\" \"So\"*")
        #expect(SearchText.matchQuery("Jay 周杰", wholeWordsBeforeLast: true) == "\"Jay\" \"周 杰\"")
        #expect(SearchText.matchQuery("周杰 Jay", wholeWordsBeforeLast: true) == "\"周 杰\" \"Jay\"*")
        #expect(SearchText.matchQuery("Album 5367 -._~", wholeWordsBeforeLast: true) == "\"Album\" \"5367\"*")
        #expect(SearchText.hasWordBeforeLast("Morning Qu"))
        #expect(SearchText.hasWordBeforeLast("Jay 周杰"))
        #expect(!SearchText.hasWordBeforeLast("Morning"))
        #expect(!SearchText.hasWordBeforeLast("周杰 Jay"))
        #expect(!SearchText.hasWordBeforeLast("之歌 58557"))
    }

    @Test func nothingSearchableIsNil() {
        #expect(SearchText.matchQuery("") == nil)
        #expect(SearchText.matchQuery("  \"*()^ ") == nil)
        #expect(SearchText.matchQuery("🎵") == nil)
    }

    @Test func injectionIsNeutralised() {
        // FTS5 syntax characters never reach the query unquoted.
        let query = SearchText.matchQuery("a\" OR title:* NEAR(b")!
        #expect(query == "\"a\"* \"OR\"* \"title\"* \"NEAR\"* \"b\"*")
    }

    @Test func termsAreCapped() {
        let query = SearchText.matchQuery((1...20).map { "w\($0)" }.joined(separator: " "))!
        #expect(query.split(separator: " ").count == 8)
    }

    /// Pinyin from the generated Unihan table: one toneless reading per character, ü as v.
    @Test func pinyin() {
        #expect(
            Pinyin.syllable("周") == "zhou" && Pinyin.syllable("杰") == "jie" && Pinyin.syllable("伦") == "lun")
        #expect(Pinyin.syllable("绿") == "lv" && Pinyin.syllable("女") == "nv")
        #expect(Pinyin.syllable("a") == nil && Pinyin.syllable("あ") == nil && Pinyin.syllable("한") == nil)
        #expect(Pinyin.romanized("周杰伦") == "zhou jie lun")
        #expect(Pinyin.romanized("Jay 周杰伦 Live!") == "jay zhou jie lun live!")
        #expect(Pinyin.romanized("Abba") == nil)
        #expect(Pinyin.searchWords("周杰伦 - 晴天") == ["zhoujielun", "zjl", "qingtian", "qt"])
        #expect(Pinyin.searchWords("雨") == ["yu"], "one character: no initials of its own")
        #expect(Pinyin.searchWords("no chinese") == [])
    }
}
