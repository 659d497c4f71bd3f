import CloudMusicTUI
import Testing

@Suite struct HomeViewTests {
    static let sections = [
        HomeView.Section(title: "Recommended sheets", items: (0..<10).map { "Sheet \($0)" }),
        HomeView.Section(title: "New songs", items: ["晴天 - 周杰伦", "Yesterday"]),
        HomeView.Section(title: "Recently played", items: (0..<5).map { "Played \($0)" }),
    ]

    @Test func sectionsShareTheHeightAndScrollToTheSelection() {
        // Wants 11, 3 and 6 rows of 12: 2 each, then one each in turn: 5, 3, 4.
        let screen = HomeView.render(
            sections: Self.sections, selectedSection: 0, selectedItem: 7, width: 40, height: 12)
        ViewTest.expectShape(screen, width: 40, height: 12)
        #expect(
            screen.map(ViewTest.trimmed) == [
                "Recommended sheets", "  Sheet 4", "  Sheet 5", "  Sheet 6", "  Sheet 7",
                "New songs", "  晴天 - 周杰伦", "  Yesterday",
                "Recently played", "  Played 0", "  Played 1", "  Played 2",
            ])
        #expect(screen[4].allSatisfy { $0.style == .selected })
        #expect(screen[0] == [StyledSpan(TerminalWidth.pad("Recommended sheets", to: 40), .accent)])
        #expect(
            screen.enumerated().allSatisfy {
                $0.offset == 4 || !$0.element.contains { $0.style == .selected }
            })
        let other = HomeView.render(
            sections: Self.sections, selectedSection: 2, selectedItem: 4, width: 40, height: 12)
        #expect(
            other.map(ViewTest.trimmed)[8...] == [
                "Recently played", "  Played 2", "  Played 3", "  Played 4",
            ])
        #expect(other[1].text.hasPrefix("  Sheet 0"))
    }

    @Test func roomToSpareSeparatesSectionsAndTinyScreensShowTheSelectedOne() {
        let tall = HomeView.render(
            sections: Self.sections, selectedSection: 1, selectedItem: 1, width: 30, height: 30)
        #expect(ViewTest.trimmed(tall[10]) == "  Sheet 9")
        #expect(ViewTest.isBlank(tall[11]))
        #expect(ViewTest.trimmed(tall[12]) == "New songs")
        #expect(tall[14].allSatisfy { $0.style == .selected })
        #expect(ViewTest.trimmed(tall[16]) == "Recently played")
        let tiny = HomeView.render(
            sections: Self.sections, selectedSection: 2, selectedItem: 3, width: 30, height: 3)
        #expect(tiny.map(ViewTest.trimmed) == ["Recently played", "  Played 2", "  Played 3"])
        let empty = HomeView.render(
            sections: [.init(title: "New songs", items: [])], selectedSection: 0, selectedItem: nil,
            width: 30, height: 3)
        #expect(empty.map(ViewTest.trimmed) == ["New songs", "  Nothing here yet", ""])
    }

    @Test func everySizeIsExact() {
        let messy =
            Self.sections + [
                HomeView.Section(title: ViewTest.messy, items: [ViewTest.messy, "", "一二三四五六七八九十"])
            ]
        for (width, height) in ViewTest.sizes {
            for (section, item) in [(0, 9), (3, 0), (1, nil), (9, 99)] as [(Int, Int?)] {
                ViewTest.expectShape(
                    HomeView.render(
                        sections: messy, selectedSection: section, selectedItem: item, width: width,
                        height: height),
                    width: width, height: height, "home")
            }
            ViewTest.expectShape(
                HomeView.render(
                    sections: [], selectedSection: 0, selectedItem: nil, width: width, height: height),
                width: width, height: height, "home")
        }
    }
}
