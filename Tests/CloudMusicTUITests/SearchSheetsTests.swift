import CloudMusicKit
import MusicCore
import Testing

@testable import CloudMusicTUI

/// Search finds public sheets too, in a fourth section.
@Suite struct SearchSheetsTests {
    static let sheets = [
        AppFixture.sheet("sh1", title: "雨天听的歌", songsCount: 12, owner: AppFixture.user("u9", "小雨")),
        AppFixture.sheet("sh2", title: "Rainy days", songsCount: 3),
    ]

    /// Searched for 雨, which found only the sheets.
    static func searched() -> AppState {
        var state = AppFixture.signedIn()
        _ = state.press(.character("/"))
        _ = state.type("雨")
        _ = state.reduce(
            .searchAnswered(
                generation: 1, SearchResults(songs: [], albums: [], artists: []), sheets: Self.sheets))
        return state
    }

    @Test func onlySheetsFoundOpensTheSheetsSectionAndEnterOpensOne() {
        var state = Self.searched()
        #expect(state.search.section == 3)
        _ = state.press(.enter, .down)
        #expect(state.press(.enter) == [.openDetail(.sheet, id: "sh2", title: "Rainy days")])
        #expect(state.screen == .detail)
    }

    @Test func theSheetsSectionShowsTitleOwnerAndSongs() {
        var state = Self.searched()
        let lines = AppView.render(&state, width: 80, height: 24)
        #expect(lines.allSatisfy { $0.width == 80 })
        #expect(lines[2].text.contains("Songs (0) · Albums (0) · Artists (0) · Sheets (2)"))
        let row = lines.first { $0.text.contains("雨天听的歌") }
        #expect(row?.text.contains("小雨") == true)
        #expect(row?.text.hasSuffix("12") == true || row?.text.contains(" 12 ") == true)
    }

    @Test func withoutSheetsTheSwitcherHasThreeSections() {
        let line = SearchView.switcher(
            results: SearchResults(songs: [], albums: [], artists: []), section: 0, width: 80)
        #expect(!line.text.contains("Sheets"))
        let withSheets = SearchView.switcher(
            results: SearchResults(songs: [], albums: [], artists: []), section: 3, width: 80,
            sheets: Self.sheets)
        #expect(withSheets.text.contains("Sheets (2)"))
        #expect(withSheets.contains(StyledSpan("Sheets (2)", .highlight)))
    }
}
