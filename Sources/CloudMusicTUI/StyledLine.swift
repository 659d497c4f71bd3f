/// What a piece of text means on screen; the ncurses shell maps each role to colours and attributes
/// (and to bold, dim or reverse video on terminals without colour).
public enum TextStyle: String, Sendable, Equatable, Hashable, CaseIterable {
    case normal
    case dim
    /// The current lyric line, a focused value.
    case highlight
    /// Titles, headings, the play-state glyph.
    case accent
    /// The part of the current karaoke line already sung.
    case karaokeSung
    /// The part of the current karaoke line still to sing.
    case karaokeUnsung
    /// The selected row of a list.
    case selected
    /// The played part of a progress bar.
    case progressFilled
    /// The part of a progress bar still to play.
    case progressEmpty
    case error
    /// An @mention of a person in a comment.
    case mention
    /// A #topic# in a comment.
    case topic
}

/// A run of text drawn in one style.
public struct StyledSpan: Sendable, Equatable {
    public var text: String
    public var style: TextStyle

    public init(_ text: String, _ style: TextStyle = .normal) {
        self.text = text
        self.style = style
    }
}

/// One screen row: spans drawn left to right.
public typealias Line = [StyledSpan]

extension Array where Element == StyledSpan {
    /// The row's text without styles.
    public var text: String { map(\.text).joined() }

    /// The columns the row takes.
    public var width: Int { reduce(0) { $0 + TerminalWidth.width(of: $1.text) } }

    /// A row of `width` spaces.
    public static func blank(_ width: Int, style: TextStyle = .normal) -> Line {
        [StyledSpan(String(repeating: " ", count: Swift.max(0, width)), style)]
    }

    /// This row cut or padded (with `style` spaces on the right) to exactly `columns`.
    ///
    /// A span that does not fit is cut at a character boundary, with no ellipsis; later spans are
    /// dropped. Empty spans are removed.
    public func fitted(to columns: Int, padStyle: TextStyle = .normal) -> Line {
        var result: Line = []
        var used = 0
        for span in self where !span.text.isEmpty {
            let spanWidth = TerminalWidth.width(of: span.text)
            if used + spanWidth <= columns {
                result.append(span)
                used += spanWidth
                continue
            }
            let room = columns - used
            if room > 0 {
                let cut = TerminalWidth.truncate(span.text, to: room, ellipsis: "")
                result.append(StyledSpan(cut, span.style))
                used += TerminalWidth.width(of: cut)
            }
            break
        }
        if used < columns {
            result.append(StyledSpan(String(repeating: " ", count: columns - used), padStyle))
        }
        return result.merged()
    }

    /// Adjacent spans of the same style joined into one.
    public func merged() -> Line {
        var result: Line = []
        for span in self where !span.text.isEmpty {
            if let last = result.last, last.style == span.style {
                result[result.count - 1].text += span.text
            } else {
                result.append(span)
            }
        }
        return result
    }
}
