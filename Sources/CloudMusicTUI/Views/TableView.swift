/// A selectable, scrolling table with an optional header row, for sheets, albums, artists, genres,
/// users and downloads; columns line up whatever the script (CJK, emoji).
///
/// Every row starts with a two-column gutter that holds "▶ " for marked rows (what is playing, what
/// is downloading), so the columns do not move when a mark comes or goes.
public enum TableView {
    /// The rendered rows and the scroll offset that keeps the selection on screen.
    public struct Output: Sendable, Equatable {
        public var lines: [Line]
        /// The index of the first row shown; pass it back in the next render.
        public var scrollOffset: Int

        public init(lines: [Line], scrollOffset: Int) {
            self.lines = lines
            self.scrollOffset = scrollOffset
        }
    }

    /// The mark in the gutter of a marked row.
    public static let marker = "▶ "
    /// Columns the gutter takes before the table's first column.
    public static let gutterWidth = 2

    /// Renders `rows` from `scrollOffset` (moved as needed to show `selected`) into exactly `height`
    /// rows of exactly `width` columns.
    ///
    /// The header (in `.accent`) shows when there is one and `height` is at least 2. The selected row
    /// is `.selected` across the whole width. An empty table shows `emptyMessage`, dim, centred in
    /// the space below the header. Cells are sanitized and cut with an ellipsis to their column.
    public static func render(
        header: [String]?, rows: [[String]], layout: ColumnLayout, selected: Int?, scrollOffset: Int,
        width: Int, height: Int, marked: Set<Int> = [], emptyMessage: String
    ) -> Output {
        let width = max(0, width)
        let height = max(0, height)
        let showHeader = header != nil && height > 1
        let visible = max(0, height - (showHeader ? 1 : 0))
        let offset = SongListView.scrolled(
            offset: scrollOffset, selected: selected, count: rows.count, visible: visible)
        let gutter = min(gutterWidth, width)
        let tableWidth = width - gutter

        var lines: [Line] = []
        if showHeader, let header {
            let cells = header.map(TerminalWidth.sanitized)
            lines.append(
                Line.blank(gutter) + layout.row(cells, total: tableWidth, style: .accent))
        }
        if rows.isEmpty {
            for row in 0..<visible {
                lines.append(
                    row == (visible - 1) / 2
                        ? ViewKit.centred(TerminalWidth.sanitized(emptyMessage), width: width, style: .dim)
                        : Line.blank(width))
            }
        }
        for index in offset..<min(rows.count, offset + visible) {
            let style: TextStyle = index == selected ? .selected : .normal
            // The selection bar stays unbroken: its marker takes the selection style too.
            let mark = StyledSpan(
                marked.contains(index) ? marker : "", style == .selected ? .selected : .accent)
            let cells = rows[index].map(TerminalWidth.sanitized)
            lines.append(
                [mark].fitted(to: gutter, padStyle: style)
                    + layout.row(cells, total: tableWidth, style: style))
        }
        return Output(lines: ViewKit.screen(lines, width: width, height: height), scrollOffset: offset)
    }
}
