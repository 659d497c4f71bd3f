import CloudMusicTUI
import Testing

@Suite struct TabBarTests {
    static let tabs = ["Home", "Library", "Search", "My Music", "Queue", "Downloads"]

    @Test func numberedTabsWhenTheyFit() {
        let line = TabBar.render(tabs: Self.tabs, current: 1, width: 80)
        #expect(line.width == 80)
        #expect(ViewTest.trimmed(line) == "1 Home  2 Library  3 Search  4 My Music  5 Queue  6 Downloads")
        #expect(line.filter { $0.style == .highlight }.map(\.text) == ["2 Library"])
        #expect(ViewTest.text(in: line, .dim) == "1 3 4 5 6 ")
    }

    @Test func numbersGoFirstThenOnlyTheCurrentTabWithArrows() {
        // Numbered needs 61 columns; names alone 49.
        #expect(TabBar.render(tabs: Self.tabs, current: 1, width: 61).text.hasPrefix("1 Home"))
        let names = TabBar.render(tabs: Self.tabs, current: 1, width: 60)
        #expect(ViewTest.trimmed(names) == "Home  Library  Search  My Music  Queue  Downloads")
        #expect(ViewTest.text(in: names, .highlight) == "Library")
        #expect(TabBar.render(tabs: Self.tabs, current: 1, width: 49).text.hasPrefix("Home  Library"))
        // Then one space apart (44 columns).
        #expect(TabBar.render(tabs: Self.tabs, current: 1, width: 48).text.hasPrefix("Home Library Search"))
        #expect(TabBar.render(tabs: Self.tabs, current: 1, width: 44).text.hasPrefix("Home Library Search"))
        let compact = TabBar.render(tabs: Self.tabs, current: 1, width: 43)
        #expect(compact.text == "‹ Library ›" + String(repeating: " ", count: 32))
        #expect(TabBar.render(tabs: Self.tabs, current: 0, width: 20).text == "  Home ›            ")
        #expect(TabBar.render(tabs: Self.tabs, current: 5, width: 20).text == "‹ Downloads         ")
        #expect(TabBar.render(tabs: Self.tabs, current: 1, width: 6).text == "‹ L… ›")
        #expect(TabBar.render(tabs: Self.tabs, current: 1, width: 3).text == "Li…")
    }

    @Test func wideNamesAndEverySize() {
        let tabs = ["首页", "音乐库", "搜索", "我的音乐", "🎵 队列"]
        let line = TabBar.render(tabs: tabs, current: 2, width: 80)
        #expect(ViewTest.trimmed(line) == "1 首页  2 音乐库  3 搜索  4 我的音乐  5 🎵 队列")
        #expect(TabBar.render(tabs: tabs, current: 3, width: 10).text == "‹ 我的 … ›")
        for width in 0...130 {
            for current in [-1, 0, 3, 9] {
                #expect(
                    TabBar.render(tabs: tabs + [ViewTest.messy], current: current, width: width).width
                        == width)
                #expect(TabBar.render(tabs: Self.tabs, current: current, width: width).width == width)
            }
            #expect(TabBar.render(tabs: [], current: 0, width: width).width == width)
        }
    }
}
