/// The login and register forms: labelled fields in a centred box, a message and a hint below.
public enum FormView {
    /// One input of a form.
    public struct Field: Sendable, Equatable {
        public var label: String
        public var value: String
        /// Shown as one "•" per character (passwords).
        public var secret: Bool

        public init(label: String, value: String, secret: Bool = false) {
            self.label = label
            self.value = value
            self.secret = secret
        }
    }

    /// The widest the box gets.
    public static let maximumBoxWidth = 60
    /// The mark before the focused field.
    public static let focusMarker = "› "
    /// What a secret value shows per character.
    public static let secretCharacter: Character = "•"

    /// The form in exactly `height` rows of exactly `width` columns.
    ///
    /// Boxed (┌─ Title ─┐ … └─┘, centred) when there is room: at least 20 columns and every row of
    /// the box plus the hint. Otherwise the title, fields, message and hint as plain rows, dropping
    /// the hint, then the title, then the message, and keeping the focused field on screen. The
    /// focused field has the marker and the cursor at the end of its value, scrolled to show it.
    public static func render(
        title: String, fields: [Field], focused: Int, message: String?, messageIsError: Bool, hint: String,
        width: Int, height: Int
    ) -> [Line] {
        let width = max(0, width)
        let height = max(0, height)
        let messageStyle: TextStyle = messageIsError ? .error : .dim
        let title = TerminalWidth.sanitized(title)
        let message = message.map(TerminalWidth.sanitized).flatMap { $0.isEmpty ? nil : $0 }

        let boxWidth = min(width, maximumBoxWidth)
        let inner = boxWidth - 4
        var content: [Line] = [Line.blank(inner)]
        content += fieldLines(fields, focused: focused, width: inner)
        content.append(Line.blank(inner))
        if let message {
            content += TerminalWidth.wrap(message, to: max(1, inner)).prefix(3).map {
                ViewKit.left($0, width: inner, style: messageStyle)
            }
        }
        let boxHeight = content.count + 2
        if boxWidth >= 20, boxHeight + 1 <= height {
            let margin = Line.blank((width - boxWidth) / 2)
            var box: [Line] = [margin + topBorder(title, width: boxWidth)]
            for line in content {
                box.append(margin + [StyledSpan("│ ", .dim)] + line + [StyledSpan(" │", .dim)])
            }
            box.append(margin + [StyledSpan("└" + String(repeating: "─", count: boxWidth - 2) + "┘", .dim)])
            box.append(ViewKit.centred(TerminalWidth.sanitized(hint), width: width, style: .dim))
            let topMargin = (height - box.count) / 2
            return ViewKit.screen(
                Array(repeating: Line.blank(width), count: topMargin) + box, width: width, height: height)
        }

        // No room for the box: plain rows, the focused field always among them.
        var rows = fieldLines(fields, focused: focused, width: width)
        var focusedRow = min(max(0, focused), max(0, fields.count - 1))
        if let message, rows.count < height {
            rows.append(ViewKit.left(message, width: width, style: messageStyle))
        }
        if rows.count < height {
            rows.insert(ViewKit.left(title, width: width, style: .accent), at: 0)
            focusedRow += 1
        }
        if rows.count < height {
            rows.append(ViewKit.left(TerminalWidth.sanitized(hint), width: width, style: .dim))
        }
        let first = min(max(0, focusedRow - (height - 1) / 2), max(0, rows.count - height))
        return ViewKit.screen(Array(rows.dropFirst(first)), width: width, height: height)
    }

    /// `value` as shown: one `secretCharacter` per character when `secret`.
    public static func shown(_ field: Field) -> String {
        let value = TerminalWidth.sanitized(field.value)
        return field.secret ? String(repeating: secretCharacter, count: value.count) : value
    }

    private static func fieldLines(_ fields: [Field], focused: Int, width: Int) -> [Line] {
        let labels = fields.map { TerminalWidth.sanitized($0.label) }
        let labelWidth = min(labels.map { TerminalWidth.width(of: $0) }.max() ?? 0, max(0, width / 3))
        return fields.enumerated().map { index, field in
            let isFocused = index == focused
            let marker = StyledSpan(isFocused ? focusMarker : "  ", .accent)
            let label = StyledSpan(
                TerminalWidth.pad(labels[index], to: labelWidth) + " ", isFocused ? .accent : .normal)
            let valueWidth = max(0, width - 2 - labelWidth - 1)
            let text = shown(field)
            let value: Line =
                isFocused
                ? ViewKit.input(
                    prompt: "", promptStyle: .normal, text: text, cursor: text.count, width: valueWidth,
                    textStyle: .highlight)
                : ViewKit.left(text, width: valueWidth, style: .normal)
            return ([marker, label] + value).fitted(to: width)
        }
    }

    /// "┌─ Title ──────┐" exactly `width` (at least 2) columns.
    private static func topBorder(_ title: String, width: Int) -> Line {
        let room = width - 6  // "┌─ " and " ─┐" around the title
        let shown = room > 0 ? TerminalWidth.truncate(title, to: room) : ""
        guard !shown.isEmpty else {
            return [StyledSpan("┌" + String(repeating: "─", count: max(0, width - 2)) + "┐", .dim)]
        }
        let rest = width - 4 - TerminalWidth.width(of: shown) - 1
        return [
            StyledSpan("┌─ ", .dim), StyledSpan(shown, .accent),
            StyledSpan(" " + String(repeating: "─", count: max(0, rest)) + "┐", .dim),
        ]
    }
}
