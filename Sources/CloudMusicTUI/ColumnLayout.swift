/// Table columns that line up whatever the text (CJK, emoji): fixed columns keep their width, flexible
/// ones share what is left by weight.
public struct ColumnLayout: Sendable, Equatable {
    /// How wide one column is.
    public enum Size: Sendable, Equatable {
        /// Exactly this many columns.
        case fixed(Int)
        /// A share of the remaining columns proportional to `weight`, never below `minimum`.
        case flexible(minimum: Int, weight: Int)
    }

    public struct Column: Sendable, Equatable {
        public var size: Size
        public var alignment: TerminalWidth.Alignment

        public init(_ size: Size, alignment: TerminalWidth.Alignment = .left) {
            self.size = size
            self.alignment = alignment
        }
    }

    public var columns: [Column]
    /// Spaces between two columns.
    public var gap: Int

    public init(_ columns: [Column], gap: Int = 1) {
        self.columns = columns
        self.gap = gap
    }

    /// The width of each column in a row of `total` columns.
    ///
    /// Flexible columns get at least their minimum even when that makes the row wider than `total`;
    /// `row` cuts the row to `total` then.
    public func widths(total: Int) -> [Int] {
        let gaps = max(0, columns.count - 1) * gap
        var fixed = 0
        var weights = 0
        for column in columns {
            switch column.size {
            case .fixed(let width): fixed += max(0, width)
            case .flexible(let minimum, let weight):
                fixed += max(0, minimum)
                weights += max(0, weight)
            }
        }
        var spare = max(0, total - gaps - fixed)
        var result: [Int] = []
        var weightsLeft = weights
        for column in columns {
            switch column.size {
            case .fixed(let width):
                result.append(max(0, width))
            case .flexible(let minimum, let weight):
                // The last flexible column takes the remainder, so the row is exactly `total`.
                let share = weightsLeft > 0 ? spare * max(0, weight) / weightsLeft : 0
                weightsLeft -= max(0, weight)
                spare -= share
                result.append(max(0, minimum) + share)
            }
        }
        return result
    }

    /// One row: each cell padded or cut (with an ellipsis) to its column, exactly `total` columns wide.
    public func row(_ cells: [String], total: Int, style: TextStyle = .normal) -> Line {
        row(cells.map { [StyledSpan($0, style)] }, total: total, padStyle: style)
    }

    /// One row of styled cells, each cut or padded to its column; exactly `total` columns wide.
    public func row(_ cells: [Line], total: Int, padStyle: TextStyle = .normal) -> Line {
        let widths = widths(total: total)
        var line: Line = []
        for (index, column) in columns.enumerated() {
            if index > 0 { line.append(StyledSpan(String(repeating: " ", count: gap), padStyle)) }
            let cell = index < cells.count ? cells[index] : []
            line += fit(cell, to: widths[index], alignment: column.alignment, padStyle: padStyle)
        }
        return line.fitted(to: total, padStyle: padStyle)
    }

    /// A styled cell cut with an ellipsis or padded to `width`.
    private func fit(_ cell: Line, to width: Int, alignment: TerminalWidth.Alignment, padStyle: TextStyle)
        -> Line
    {
        let cellWidth = cell.width
        if cellWidth > width {
            // Cut the text as a whole, then give the cut text back the styles of its first span.
            let cut = TerminalWidth.truncate(cell.text, to: width)
            return [StyledSpan(cut, cell.first?.style ?? padStyle)]
        }
        let gap = width - cellWidth
        let left: Int
        switch alignment {
        case .left: left = 0
        case .right: left = gap
        case .center: left = gap / 2
        }
        return [StyledSpan(String(repeating: " ", count: left), padStyle)] + cell
            + [StyledSpan(String(repeating: " ", count: gap - left), padStyle)]
    }
}
