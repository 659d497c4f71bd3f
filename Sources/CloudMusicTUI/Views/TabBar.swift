/// The row of screen tabs ("1 Home  2 Library  3 Search …"), the current one highlighted.
public enum TabBar {
    /// Spaces between two tabs.
    public static let gap = 2

    /// The tabs in exactly `width` columns.
    ///
    /// Numbered labels ("1 Home") when they all fit, else the names alone, else only the current
    /// name between arrows ("‹ Library ›") that show whether there are tabs to either side. The
    /// current tab is `.highlight`, the numbers of the others `.dim`.
    public static func render(tabs: [String], current: Int, width: Int) -> Line {
        let width = max(0, width)
        guard !tabs.isEmpty else { return Line.blank(width) }
        let current = min(max(0, current), tabs.count - 1)
        let names = tabs.map(TerminalWidth.sanitized)

        for numbered in [true, false] {
            var spans: Line = []
            for (index, name) in names.enumerated() {
                if index > 0 { spans.append(StyledSpan(String(repeating: " ", count: gap))) }
                if index == current {
                    spans.append(StyledSpan(numbered ? "\(index + 1) \(name)" : name, .highlight))
                } else {
                    if numbered { spans.append(StyledSpan("\(index + 1) ", .dim)) }
                    spans.append(StyledSpan(name, .normal))
                }
            }
            if spans.width <= width { return spans.fitted(to: width) }
        }

        let leftArrow = current > 0 ? "‹ " : "  "
        let rightArrow = current < tabs.count - 1 ? " ›" : "  "
        guard width >= 5 else {
            return [StyledSpan(TerminalWidth.truncate(names[current], to: width), .highlight)].fitted(
                to: width)
        }
        let name = TerminalWidth.truncate(names[current], to: width - 4)
        return [
            StyledSpan(leftArrow, .dim), StyledSpan(name, .highlight), StyledSpan(rightArrow, .dim),
        ].fitted(to: width)
    }
}
