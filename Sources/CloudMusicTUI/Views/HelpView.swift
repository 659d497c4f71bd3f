/// The key bindings screen: entries grouped under section headings, keys in an aligned column, in
/// two columns side by side on wide terminals.
public enum HelpView {
    /// One binding: the keys ("j / ↓"), what they do, and the section it belongs to ("Lists").
    public struct Entry: Sendable, Equatable {
        public var keys: String
        public var action: String
        public var section: String

        public init(keys: String, action: String, section: String) {
            self.keys = keys
            self.action = action
            self.section = section
        }
    }

    /// From this many columns up the sections are laid out in two columns.
    public static let twoColumnWidth = 100
    /// Spaces between the two columns.
    public static let columnGap = 4

    /// The help in exactly `height` rows of exactly `width` columns, from row `scrollOffset`
    /// (clamped so the last row of help is at most at the bottom).
    ///
    /// Sections come in the order they first appear in `entries`, with a blank row between two.
    /// The keys column is as wide as the widest key label (at most half a column).
    public static func render(entries: [Entry], scrollOffset: Int, width: Int, height: Int) -> [Line] {
        let width = max(0, width)
        let height = max(0, height)
        var order: [String] = []
        var groups: [String: [Entry]] = [:]
        for entry in entries {
            if groups[entry.section] == nil { order.append(entry.section) }
            groups[entry.section, default: []].append(entry)
        }
        let twoColumns = width >= twoColumnWidth && order.count > 1
        let leftWidth = twoColumns ? (width - columnGap) / 2 : width
        let rightWidth = width - columnGap - leftWidth
        let widest = entries.map { TerminalWidth.width(of: TerminalWidth.sanitized($0.keys)) }.max() ?? 0
        let keysWidth = min(widest, max(1, leftWidth / 2))

        func lines(_ sections: ArraySlice<String>, width: Int) -> [Line] {
            var result: [Line] = []
            for section in sections {
                if !result.isEmpty { result.append(Line.blank(width)) }
                result.append(ViewKit.left(TerminalWidth.sanitized(section), width: width, style: .accent))
                for entry in groups[section] ?? [] {
                    let keys = TerminalWidth.pad(TerminalWidth.sanitized(entry.keys), to: keysWidth)
                    result.append(
                        [
                            StyledSpan("  "), StyledSpan(keys, .highlight), StyledSpan("  "),
                            StyledSpan(TerminalWidth.sanitized(entry.action)),
                        ].fitted(to: width))
                }
            }
            return result
        }

        var rows: [Line]
        if twoColumns {
            // Whole sections per column, split where the taller column is shortest.
            let sizes = order.map { (groups[$0]?.count ?? 0) + 1 }
            var best = 1
            var bestHeight = Int.max
            for split in 1..<order.count {
                let left = sizes[..<split].reduce(0, +) + split - 1
                let right = sizes[split...].reduce(0, +) + (order.count - split) - 1
                if max(left, right) < bestHeight {
                    bestHeight = max(left, right)
                    best = split
                }
            }
            let left = lines(order[..<best], width: leftWidth)
            let right = lines(order[best...], width: rightWidth)
            rows = []
            for index in 0..<max(left.count, right.count) {
                let leftRow = index < left.count ? left[index] : Line.blank(leftWidth)
                let rightRow = index < right.count ? right[index] : Line.blank(rightWidth)
                rows.append(leftRow + Line.blank(columnGap) + rightRow)
            }
        } else {
            rows = lines(order[...], width: width)
        }
        let offset = min(max(0, scrollOffset), max(0, rows.count - height))
        return ViewKit.screen(Array(rows.dropFirst(offset)), width: width, height: height)
    }
}
