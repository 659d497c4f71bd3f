/// The home screen: sections ("Recommended sheets", "New songs", "Recently played") one under the
/// other, each a heading and its items, the selected item highlighted.
public enum HomeView {
    /// One section: a heading and the items' labels.
    public struct Section: Sendable, Equatable {
        public var title: String
        public var items: [String]

        public init(title: String, items: [String]) {
            self.title = title
            self.items = items
        }
    }

    /// What a section without items shows under its heading.
    public static let emptyItems = "Nothing here yet"

    /// The sections in exactly `height` rows of exactly `width` columns.
    ///
    /// Each section shown gets a fair share of the rows: at least its heading and one item, then
    /// one more row each in turn until it shows all its items or the rows run out; rows left over
    /// go to a blank row between sections. When there are fewer than two rows per section, the
    /// sections around `selectedSection` are shown. A section shorter than its items scrolls so
    /// the selected item is visible.
    public static func render(
        sections: [Section], selectedSection: Int, selectedItem: Int?, width: Int, height: Int
    ) -> [Line] {
        let width = max(0, width)
        let height = max(0, height)
        guard !sections.isEmpty, height > 0 else { return ViewKit.screen([], width: width, height: height) }
        let selectedSection = min(max(0, selectedSection), sections.count - 1)
        let count = min(sections.count, max(1, height / 2))
        let first = min(max(0, selectedSection - (count - 1) / 2), sections.count - count)
        let shown = Array(first..<first + count)
        let heights = shares(wants: shown.map { 1 + max(1, sections[$0].items.count) }, height: height)
        let spare = height - heights.reduce(0, +)
        let separated = spare >= count - 1

        var lines: [Line] = []
        for (position, index) in shown.enumerated() {
            if position > 0, separated { lines.append(Line.blank(width)) }
            let section = sections[index]
            let rows = heights[position]
            lines.append(ViewKit.left(TerminalWidth.sanitized(section.title), width: width, style: .accent))
            let visible = rows - 1
            guard visible > 0 else { continue }
            if section.items.isEmpty {
                lines.append(ViewKit.left("  " + emptyItems, width: width, style: .dim))
                continue
            }
            let selected = index == selectedSection ? selectedItem : nil
            let offset = SongListView.scrolled(
                offset: 0, selected: selected, count: section.items.count, visible: visible)
            for item in offset..<min(section.items.count, offset + visible) {
                let style: TextStyle = item == selected ? .selected : .normal
                lines.append(
                    ViewKit.left(
                        "  " + TerminalWidth.sanitized(section.items[item]), width: width, style: style))
            }
        }
        return ViewKit.screen(lines, width: width, height: height)
    }

    /// Rows per section: each at least 2 (or what there is), then one more each in turn while a
    /// section wants more and rows are left.
    private static func shares(wants: [Int], height: Int) -> [Int] {
        var result = Array(repeating: 0, count: wants.count)
        var left = height
        for index in wants.indices {
            let given = min(2, wants[index], left)
            result[index] = given
            left -= given
        }
        var grew = true
        while left > 0, grew {
            grew = false
            for index in wants.indices where left > 0 && result[index] < wants[index] {
                result[index] += 1
                left -= 1
                grew = true
            }
        }
        return result
    }
}
