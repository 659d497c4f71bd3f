import CloudMusicTUI
import MusicCore
import Testing

/// Helpers the view tests share.
enum ViewTest {
    /// Sizes every view is rendered at: the tiny, the odd, the usual and the huge.
    static let sizes: [(width: Int, height: Int)] = [
        (1, 1), (1, 0), (2, 3), (5, 2), (7, 3), (13, 4), (20, 5), (33, 9), (40, 8), (80, 24), (99, 30),
        (100, 30), (120, 40), (200, 60),
    ]

    /// Text with wide, zero-width and control characters, as servers send it.
    static let messy = "一时失志\u{7} 👩‍👩‍👧‍👦 e\u{301}\tＡ\n🇨🇳 word"

    static func expectShape(
        _ lines: [Line], width: Int, height: Int, _ what: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(lines.count == height, "\(what) \(width)x\(height)", sourceLocation: sourceLocation)
        for line in lines {
            #expect(
                line.width == width, "\(what) \(width)x\(height): \(line.text)",
                sourceLocation: sourceLocation)
            #expect(
                !line.text.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "\(what): control character in \(line.text)", sourceLocation: sourceLocation)
        }
    }

    /// The column at which `needle` starts in `line`, in terminal columns.
    static func column(of needle: String, in line: Line) -> Int? {
        let text = line.text
        guard let range = text.range(of: needle) else { return nil }
        return TerminalWidth.width(of: text[..<range.lowerBound])
    }

    /// The text of the spans of `line` drawn in `style`, joined.
    static func text(in line: Line, _ style: TextStyle) -> String {
        line.filter { $0.style == style }.map(\.text).joined()
    }

    static func isBlank(_ line: Line) -> Bool { line.text.allSatisfy { $0 == " " } }

    static func trimmed(_ line: Line) -> String {
        var text = line.text
        while text.last == " " { text.removeLast() }
        return text
    }
}

@Suite struct TableViewTests {
    static let layout = ColumnLayout(
        [
            .init(.flexible(minimum: 8, weight: 3)), .init(.flexible(minimum: 6, weight: 2)),
            .init(.fixed(5), alignment: .right),
        ], gap: 2)
    static let rows = [
        ["Yesterday", "The Beatles", "2:05"],
        ["一时失志不免怨叹", "叶启田", "4:05"],
        ["👩‍👩‍👧‍👦 Family 🇨🇳", "👍🏽", "1:00"],
        [ViewTest.messy, ViewTest.messy, "0:01"],
    ]

    func render(
        rows: [[String]] = Self.rows, selected: Int? = nil, offset: Int = 0, width: Int = 60, height: Int = 8,
        marked: Set<Int> = []
    ) -> TableView.Output {
        TableView.render(
            header: ["Title", "Artist", "Time"], rows: rows, layout: Self.layout, selected: selected,
            scrollOffset: offset, width: width, height: height, marked: marked, emptyMessage: "Nothing here")
    }

    @Test func everySizeIsExact() {
        for (width, height) in ViewTest.sizes {
            for rows in [Self.rows, []] {
                let output = render(rows: rows, selected: 2, width: width, height: height, marked: [1])
                ViewTest.expectShape(output.lines, width: width, height: height, "table")
            }
        }
    }

    @Test func columnsLineUpAfterWideTitles() {
        let output = render(width: 60)
        let artist = ViewTest.column(of: "Artist", in: output.lines[0])!
        let time = ViewTest.column(of: "Time", in: output.lines[0])!
        #expect(ViewTest.column(of: "Title", in: output.lines[0]) == 2)
        #expect(ViewTest.column(of: "The Beatles", in: output.lines[1]) == artist)
        #expect(ViewTest.column(of: "叶启田", in: output.lines[2]) == artist)
        #expect(ViewTest.column(of: "👍🏽", in: output.lines[3]) == artist)
        #expect(ViewTest.column(of: "2:05", in: output.lines[1]) == time)  // right-aligned, like the header
        #expect(ViewTest.column(of: "4:05", in: output.lines[2]) == time)
        #expect(ViewTest.column(of: "1:00", in: output.lines[3]) == time)
        #expect(ViewTest.column(of: "0:01", in: output.lines[4]) == time)
    }

    @Test func narrowCellsAreCutAtCharacterBoundaries() {
        let layout = ColumnLayout([.init(.flexible(minimum: 1, weight: 1))])
        let output = TableView.render(
            header: nil, rows: [["一时失志不免怨叹"], ["👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦"]], layout: layout, selected: nil, scrollOffset: 0,
            width: 12, height: 2, emptyMessage: "")
        // 10 columns for the cell: four CJK characters, a space where the fifth does not fit, "…".
        #expect(output.lines[0].text == "  一时失志 …")
        #expect(output.lines[1].text == "  👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦    ")
        let cut = TableView.render(
            header: nil, rows: [["👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦"]], layout: layout, selected: nil, scrollOffset: 0, width: 7,
            height: 1, emptyMessage: "")
        #expect(cut.lines[0].text == "  👩‍👩‍👧‍👦👩‍👩‍👧‍👦…")
    }

    @Test func selectionSpansTheRowAndMarksShow() {
        let output = render(selected: 1, marked: [0, 1])
        #expect(output.lines[2].allSatisfy { $0.style == .selected })
        #expect(output.lines[2].text.hasPrefix("▶ 一时失志不免怨叹"))
        #expect(output.lines[1].first == StyledSpan("▶ ", .accent))
        #expect(output.lines[3].text.hasPrefix("  👩‍👩‍👧‍👦 Family"))
        #expect(output.lines[0].allSatisfy { $0.style == .accent || $0.text.allSatisfy { $0 == " " } })
        #expect(!output.lines[1].contains { $0.style == .selected })
    }

    @Test func scrollingKeepsTheSelectionVisible() {
        let many = (0..<20).map { ["Song \($0)", "Artist", "1:00"] }
        let down = render(rows: many, selected: 12, offset: 0, height: 6)
        #expect(down.scrollOffset == 8)
        #expect(down.lines[5].text.hasPrefix("  Song 12 "))
        let up = render(rows: many, selected: 3, offset: down.scrollOffset, height: 6)
        #expect(up.scrollOffset == 3)
        #expect(up.lines[1].text.hasPrefix("  Song 3 "))
        let clamped = render(rows: many, selected: nil, offset: 50, height: 6)
        #expect(clamped.scrollOffset == 15)
        #expect(clamped.lines[5].text.hasPrefix("  Song 19 "))
    }

    @Test func emptyTableShowsTheMessageCentredAndDim() {
        let output = render(rows: [], width: 30, height: 5)
        #expect(output.lines[2] == [StyledSpan("         Nothing here         ", .dim)])
        #expect([1, 3, 4].allSatisfy { ViewTest.isBlank(output.lines[$0]) })
    }
}
