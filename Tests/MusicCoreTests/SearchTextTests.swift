import MusicCore
import Testing

@Suite struct SearchTextTests {
    @Test func cjkCharactersBecomeTokens() {
        #expect(SearchText.indexText("一时失志") == " 一 时 失 志")
        #expect(SearchText.indexText("Jay周杰伦 Live") == "Jay 周 杰 伦 Live")
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
}
