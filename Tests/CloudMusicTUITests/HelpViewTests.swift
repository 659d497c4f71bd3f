import CloudMusicTUI
import Testing

@Suite struct HelpViewTests {
    typealias Entry = HelpView.Entry
    static let entries = [
        Entry(keys: "Space", action: "Play / pause", section: "Playback"),
        Entry(keys: "j / ↓", action: "Move down", section: "Lists"),
        Entry(keys: "n", action: "Next song", section: "Playback"),
        Entry(keys: "q", action: "Quit", section: "Global"),
        Entry(keys: "k / ↑", action: "Move up", section: "Lists"),
        Entry(keys: "Ctrl-L", action: "Redraw", section: "Global"),
    ]

    @Test func groupedBySectionWithAlignedKeys() {
        let screen = HelpView.render(entries: Self.entries, scrollOffset: 0, width: 60, height: 12)
        ViewTest.expectShape(screen, width: 60, height: 12)
        #expect(
            screen.map(ViewTest.trimmed) == [
                "Playback", "  Space   Play / pause", "  n       Next song", "",
                "Lists", "  j / ↓   Move down", "  k / ↑   Move up", "",
                "Global", "  q       Quit", "  Ctrl-L  Redraw", "",
            ])
        #expect(screen[0] == [StyledSpan(TerminalWidth.pad("Playback", to: 60), .accent)])
        #expect(screen[10].contains(StyledSpan("Ctrl-L", .highlight)))
        #expect(screen[9].contains(StyledSpan("q     ", .highlight)))
    }

    @Test func twoColumnsFrom100Columns() {
        let wide = HelpView.render(entries: Self.entries, scrollOffset: 0, width: 120, height: 8)
        ViewTest.expectShape(wide, width: 120, height: 8)
        // Columns of 58, 4 apart: Playback on the left, Lists and Global on the right.
        #expect(ViewTest.column(of: "Playback", in: wide[0]) == 0)
        #expect(ViewTest.column(of: "Lists", in: wide[0]) == 62)
        #expect(ViewTest.column(of: "Move down", in: wide[1]) == 72)
        #expect(ViewTest.column(of: "Play / pause", in: wide[1]) == 10)
        #expect(ViewTest.column(of: "Global", in: wide[4]) == 62)
        #expect(wide[4].text.hasPrefix(String(repeating: " ", count: 62)))
        let narrow = HelpView.render(entries: Self.entries, scrollOffset: 0, width: 99, height: 12)
        #expect(ViewTest.trimmed(narrow[4]) == "Lists")
    }

    @Test func scrollingIsClamped() {
        let screen = HelpView.render(entries: Self.entries, scrollOffset: 4, width: 40, height: 3)
        #expect(screen.map(ViewTest.trimmed) == ["Lists", "  j / ↓   Move down", "  k / ↑   Move up"])
        let past = HelpView.render(entries: Self.entries, scrollOffset: 100, width: 40, height: 5)
        #expect(past.map(ViewTest.trimmed).first == "  k / ↑   Move up")
        #expect(past.map(ViewTest.trimmed).last == "  Ctrl-L  Redraw")
    }

    @Test func everySizeIsExact() {
        let messy = Self.entries + [Entry(keys: ViewTest.messy, action: ViewTest.messy, section: "快捷键 🎹")]
        for (width, height) in ViewTest.sizes {
            for offset in [0, 3, 99] {
                ViewTest.expectShape(
                    HelpView.render(entries: messy, scrollOffset: offset, width: width, height: height),
                    width: width, height: height, "help")
            }
            ViewTest.expectShape(
                HelpView.render(entries: [], scrollOffset: 0, width: width, height: height), width: width,
                height: height, "help")
        }
    }
}
