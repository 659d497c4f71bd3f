import MusicCore

/// The synced lyrics pane: the current line centred and highlighted, the lines around it dimmed, and
/// for word-timed lyrics (KSC, enhanced LRC) the current line filling in word by word as it is sung.
public enum LyricsView {
    /// What the pane shows when there is no lyric or it has no lines.
    public static let noLyrics = "No lyrics"
    /// What an empty current line (an instrumental gap) shows.
    public static let instrumental = "♪"

    /// The pane at `milliseconds` into the song: exactly `height` rows of exactly `width` columns.
    public static func render(lyric: Lyric?, milliseconds: Int, width: Int, height: Int) -> [Line] {
        render(lyric: lyric, position: lyric?.position(at: milliseconds), width: width, height: height)
    }

    /// The pane at `position` (from `Lyric.position(at:)` or `LyricSync`); nil is before the first line.
    ///
    /// Before the first line, the first line sits in the centre, dimmed, as what comes next. A line
    /// wider than the pane wraps (after a space when it has one, never inside a character).
    public static func render(lyric: Lyric?, position: LyricPosition?, width: Int, height: Int) -> [Line] {
        let width = max(0, width)
        let height = max(0, height)
        guard height > 0 else { return [] }
        guard let lyric, !lyric.lines.isEmpty else {
            return placeholder(noLyrics, width: width, height: height)
        }
        let anchor = min(max(0, position?.lineIndex ?? 0), lyric.lines.count - 1)
        let isCurrent = position != nil

        let currentRows = rows(
            of: lyric.lines[anchor], position: isCurrent ? position : nil, width: width,
            baseStyle: isCurrent ? .highlight : .dim)
        var screen: [Line] = []
        // The current line's rows start so that their middle is the pane's middle row.
        let middle = (height - 1) / 2
        let top = max(0, middle - (currentRows.count - 1) / 2)

        var above: [Line] = []
        var index = anchor - 1
        while above.count < top, index >= 0 {
            let lineRows = rows(of: lyric.lines[index], position: nil, width: width, baseStyle: .dim)
            above.insert(contentsOf: lineRows, at: 0)
            index -= 1
        }
        if above.count > top { above.removeFirst(above.count - top) }
        screen += Array(repeating: Line.blank(width), count: top - above.count)
        screen += above
        screen += currentRows
        index = anchor + 1
        while screen.count < height, index < lyric.lines.count {
            screen += rows(of: lyric.lines[index], position: nil, width: width, baseStyle: .dim)
            index += 1
        }
        if screen.count > height { screen.removeLast(screen.count - height) }
        while screen.count < height { screen.append(Line.blank(width)) }
        return screen
    }

    /// How many columns of `word` are sung at `progress` (0...1), rounded to a character boundary.
    ///
    /// A character counts as sung once the fill passes its middle, so a single CJK character (one
    /// KSC word) turns at half its duration; a Latin word fills letter by letter.
    public static func sungCharacters(of word: String, progress: Double) -> Int {
        let total = TerminalWidth.width(of: word)
        let filled = Double(total) * min(1, max(0, progress))
        var count = 0
        var start = 0
        for character in word {
            let characterWidth = TerminalWidth.width(of: character)
            if filled < Double(start) + Double(characterWidth) / 2
                || (characterWidth == 0 && filled <= Double(start))
            {
                break
            }
            count += 1
            start += characterWidth
        }
        return count
    }

    // MARK: - Rows

    private static func placeholder(_ text: String, width: Int, height: Int) -> [Line] {
        var screen = Array(repeating: Line.blank(width), count: height)
        screen[(height - 1) / 2] = [StyledSpan(TerminalWidth.pad(text, to: width, alignment: .center), .dim)]
            .fitted(to: width)
        return screen
    }

    /// The rows of one lyric line, each centred; `position` given for the current line.
    private static func rows(of line: LyricLine, position: LyricPosition?, width: Int, baseStyle: TextStyle)
        -> [Line]
    {
        let text = TerminalWidth.sanitized(line.text)
        if text.allSatisfy({ $0 == " " }) {
            // An instrumental gap: blank around the current line, a note when it is the current one.
            let shown = position != nil ? instrumental : ""
            return [
                [StyledSpan(TerminalWidth.pad(shown, to: width, alignment: .center), baseStyle)]
                    .fitted(to: width)
            ]
        }
        let characters = Array(text)
        let sung = position.flatMap { sungCount(line: line, text: characters, position: $0) }
        return TerminalWidth.wrapRanges(characters, to: width).map { range in
            let rowText = String(characters[range])
            let rowWidth = TerminalWidth.width(of: rowText)
            let left = max(0, (width - rowWidth) / 2)
            var spans: Line = [StyledSpan(String(repeating: " ", count: left))]
            if let sung {
                let split = min(max(sung, range.lowerBound), range.upperBound)
                spans.append(StyledSpan(String(characters[range.lowerBound..<split]), .karaokeSung))
                spans.append(StyledSpan(String(characters[split..<range.upperBound]), .karaokeUnsung))
            } else {
                spans.append(StyledSpan(rowText, baseStyle))
            }
            return spans.fitted(to: width)
        }
    }

    /// How many characters of the current line's text are sung; nil when the line is not word-timed.
    private static func sungCount(line: LyricLine, text: [Character], position: LyricPosition) -> Int? {
        guard !line.words.isEmpty else { return nil }
        guard let wordIndex = position.wordIndex, wordIndex < line.words.count else {
            // Before the first word: nothing sung; after the line's end: everything.
            return position.lineProgress >= 1 && line.end > line.start ? text.count : 0
        }
        var count = 0
        for word in line.words[..<wordIndex] {
            count += TerminalWidth.sanitized(word.text).count
        }
        count += sungCharacters(
            of: TerminalWidth.sanitized(line.words[wordIndex].text), progress: position.wordProgress)
        return min(count, text.count)
    }
}
