/// The row of screen tabs ("1 Home  2 Library  3 Search …"), the current one highlighted.
public enum TabBar {
    /// Spaces between two tabs.
    public static let gap = 2

    /// The tabs in exactly `width` columns.
    ///
    /// Numbered labels ("1 Home") when they all fit, else the names alone, else the names one space
    /// apart, else only the current name between arrows ("‹ Library ›") that show whether there are tabs
    /// to either side. The current tab is `.highlight`, the numbers of the others `.dim`. A tab's badge
    /// (an unread count: `badges[index]`, when not nil) follows its name in `.accent`; with only the
    /// current name shown, the other tabs' badges follow the arrows.
    public static func render(tabs: [String], current: Int, width: Int, badges: [String?] = []) -> Line {
        let width = max(0, width)
        guard !tabs.isEmpty else { return Line.blank(width) }
        let current = min(max(0, current), tabs.count - 1)
        let names = tabs.map(TerminalWidth.sanitized)
        let badges = names.indices.map { index in
            badges.indices.contains(index) ? badges[index].map(TerminalWidth.sanitized) : nil
        }

        for (numbered, gap) in [(true, gap), (false, gap), (false, 1)] {
            var spans: Line = []
            for (index, name) in names.enumerated() {
                if index > 0 { spans.append(StyledSpan(String(repeating: " ", count: gap))) }
                if index == current {
                    spans.append(StyledSpan(numbered ? "\(index + 1) \(name)" : name, .highlight))
                } else {
                    if numbered { spans.append(StyledSpan("\(index + 1) ", .dim)) }
                    spans.append(StyledSpan(name, .normal))
                }
                if let badge = badges[index] { spans.append(StyledSpan(" " + badge, .accent)) }
            }
            if spans.width <= width { return spans.fitted(to: width) }
        }

        let leftArrow = current > 0 ? "‹ " : "  "
        let rightArrow = current < tabs.count - 1 ? " ›" : "  "
        guard width >= 5 else {
            return [StyledSpan(TerminalWidth.truncate(names[current], to: width), .highlight)].fitted(
                to: width)
        }
        // What waits on the other tabs, after the arrows, as room allows.
        var others = ""
        for (index, badge) in badges.enumerated() where index != current {
            if let badge { others += " \(names[index].prefix(1))\(badge)" }
        }
        let ownBadge = badges[current].map { " " + $0 } ?? ""
        let room = width - 4 - TerminalWidth.width(of: ownBadge)
        if !others.isEmpty, TerminalWidth.width(of: names[current]) + TerminalWidth.width(of: others) <= room
        {
            return [
                StyledSpan(leftArrow, .dim), StyledSpan(names[current], .highlight),
                StyledSpan(ownBadge, .accent),
                StyledSpan(rightArrow, .dim), StyledSpan(others, .accent),
            ].fitted(to: width)
        }
        let name = TerminalWidth.truncate(names[current], to: max(1, room))
        return [
            StyledSpan(leftArrow, .dim), StyledSpan(name, .highlight), StyledSpan(ownBadge, .accent),
            StyledSpan(rightArrow, .dim),
        ].fitted(to: width)
    }
}
