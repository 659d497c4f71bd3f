/// Pieces every view shares: centred rows, exact-size screens and a one-row text input.
enum ViewKit {
    /// The glyph drawn at an input's cursor; one column wide.
    static let cursor = "▏"

    /// `text` centred in exactly `width` columns (cut with an ellipsis when wider).
    static func centred(_ text: String, width: Int, style: TextStyle) -> Line {
        let width = max(0, width)
        return [StyledSpan(TerminalWidth.pad(text, to: width, alignment: .center), style)].fitted(to: width)
    }

    /// `text` cut with an ellipsis or padded on the right to exactly `width` columns.
    static func left(_ text: String, width: Int, style: TextStyle) -> Line {
        let width = max(0, width)
        return [StyledSpan(TerminalWidth.pad(text, to: width), style)].fitted(to: width)
    }

    /// `lines` fitted to `width` and cut or padded with blank rows to exactly `height` rows.
    static func screen(_ lines: [Line], width: Int, height: Int) -> [Line] {
        let width = max(0, width)
        let height = max(0, height)
        var result = lines.prefix(height).map { $0.fitted(to: width) }
        while result.count < height { result.append(Line.blank(width)) }
        return result
    }

    /// A one-row input: `prompt`, then `text` with the cursor after `cursor` characters, scrolled
    /// sideways so the cursor always shows; exactly `width` columns.
    ///
    /// The prompt gives way (is cut) before the field gets narrower than 8 columns. When the text
    /// is scrolled, a dim "…" marks the hidden start.
    static func input(
        prompt: String, promptStyle: TextStyle, text: String, cursor: Int, width: Int,
        textStyle: TextStyle = .normal, showCursor: Bool = true
    ) -> Line {
        let width = max(0, width)
        var promptText = TerminalWidth.sanitized(prompt)
        let minimumField = min(width, 8)
        if TerminalWidth.width(of: promptText) > width - minimumField {
            promptText = TerminalWidth.truncate(promptText, to: width - minimumField)
        }
        let field = width - TerminalWidth.width(of: promptText)
        let characters = Array(TerminalWidth.sanitized(text))
        let cursor = min(max(0, cursor), characters.count)
        let cursorWidth = showCursor ? 1 : 0

        var start = 0
        if TerminalWidth.width(of: String(characters[0..<cursor])) + cursorWidth > field {
            // Scroll so the cursor sits at the right edge, after a one-column "…" when there is room.
            let ellipsisWidth = field >= 3 ? 1 : 0
            var used = cursorWidth + ellipsisWidth
            start = cursor
            while start > 0, used + TerminalWidth.width(of: characters[start - 1]) <= field {
                used += TerminalWidth.width(of: characters[start - 1])
                start -= 1
            }
        }
        var spans: Line = [StyledSpan(promptText, promptStyle)]
        if start > 0, field >= 3 { spans.append(StyledSpan("…", .dim)) }
        spans.append(StyledSpan(String(characters[start..<cursor]), textStyle))
        if showCursor { spans.append(StyledSpan(Self.cursor, .accent)) }
        spans.append(StyledSpan(String(characters[cursor...]), textStyle))
        return spans.fitted(to: width)
    }
}
