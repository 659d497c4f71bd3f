import Foundation
import MusicCore

/// One comment in thread order, with how deep it sits under its parents (0 for top level).
public struct CommentRow: Sendable, Equatable {
    public var comment: Comment
    public var depth: Int

    public init(comment: Comment, depth: Int) {
        self.comment = comment
        self.depth = depth
    }
}

/// A song's (or sheet's) comments as blocks, replies under their parents, with an optional input
/// box at the bottom for writing a comment or a reply.
///
/// A block is a header ("nickname · 3 min ago · ♥ 12"), for a reply whose parent is not in the list
/// a "↪ reply to …" quote, then the content wrapped to the width with @mentions and #topics#
/// styled. Replies are indented 4 columns per level (at most 2 levels) behind a "│" gutter.
public enum CommentsView {
    /// The text being typed; `cursor` counts characters (grapheme clusters) from the start.
    public struct Composer: Sendable, Equatable {
        public var text: String
        /// The nickname of the person replied to, or nil for a new comment.
        public var replyingTo: String?
        public var cursor: Int

        public init(text: String, replyingTo: String? = nil, cursor: Int) {
            self.text = text
            self.replyingTo = replyingTo
            self.cursor = cursor
        }
    }

    /// The rendered rows and the scroll offset that keeps the selected block on screen; the offset is an
    /// index into `threaded(comments)` (the first block shown), to pass back next time.
    public typealias Output = TableView.Output

    /// What an empty list shows.
    public static let emptyMessage = "No comments yet"
    /// The prefix of each reply row, per level of depth.
    public static let replyGutter = "  │ "
    /// The deepest level that gets its own indent; deeper replies line up with it.
    public static let maximumIndentLevels = 2

    /// The comments in reading order: each top-level comment (in the given order) followed by its
    /// replies, oldest first, each reply followed by its own replies.
    ///
    /// A comment whose parent is not in the list is shown at top level (where it appears in the
    /// list); `render` quotes its `parent` above it. Comments caught in a parent cycle also come out
    /// at top level, so every comment appears exactly once.
    public static func threaded(_ comments: [Comment]) -> [CommentRow] {
        let ids = Set(comments.map(\.id))
        var children: [String: [Int]] = [:]
        var roots: [Int] = []
        for (index, comment) in comments.enumerated() {
            if let parentId = comment.parentId, parentId != comment.id, ids.contains(parentId) {
                children[parentId, default: []].append(index)
            } else {
                roots.append(index)
            }
        }
        // Oldest first; a time that does not parse sorts last, ties keep the given order.
        let times = comments.map {
            ISO8601Timestamp.date(from: $0.createdAt)?.timeIntervalSince1970 ?? .infinity
        }
        for key in children.keys {
            children[key]?.sort { (times[$0], $0) < (times[$1], $1) }
        }
        var rows: [CommentRow] = []
        var emitted = Set<Int>()
        func emit(_ index: Int, depth: Int) {
            guard emitted.insert(index).inserted else { return }
            rows.append(CommentRow(comment: comments[index], depth: depth))
            for child in children[comments[index].id] ?? [] { emit(child, depth: depth + 1) }
        }
        for index in roots { emit(index, depth: 0) }
        for index in comments.indices where !emitted.contains(index) { emit(index, depth: 0) }
        return rows
    }

    /// The comments as blocks in exactly `height` rows of exactly `width` columns.
    ///
    /// `selected` and `scrollOffset` index `threaded(comments)`. The first row is `title` (from 2
    /// rows up); the composer, when given, takes the last row, with a rule above it from 6 rows up.
    /// The offset moves as little as possible to show the whole selected block (its top when it is
    /// taller than the pane), and back up when the blocks after it leave the pane half empty.
    /// `now`, `timeZone` and `language` decide the relative times ("3 min ago").
    public static func render(
        comments: [Comment], selected: Int?, scrollOffset: Int, width: Int, height: Int, title: String,
        composer: Composer?, now: Date = Date(), timeZone: TimeZone = .current,
        language: DisplayLanguage = .en
    ) -> Output {
        let width = max(0, width)
        let height = max(0, height)
        let rows = threaded(comments)
        var top: [Line] = []
        var bottom: [Line] = []
        if let composer, height >= 1 {
            if height >= 6 { bottom.append([StyledSpan(String(repeating: "─", count: width), .dim)]) }
            bottom.append(composerLine(composer, width: width))
        }
        if height - bottom.count >= 2 {
            top.append(ViewKit.left(TerminalWidth.sanitized(title), width: width, style: .accent))
        }
        let body = height - top.count - bottom.count

        var blocks: [Int: [Line]] = [:]
        func block(_ index: Int) -> [Line] {
            if let cached = blocks[index] { return cached }
            let lines = Self.block(
                rows[index], selected: index == selected, width: width, now: now, timeZone: timeZone,
                language: language)
            blocks[index] = lines
            return lines
        }
        // Rows taken by blocks `first...last`, a blank row between two blocks.
        func span(_ first: Int, _ last: Int) -> Int {
            var total = 0
            for index in first...last {
                total += block(index).count + (index > first ? 1 : 0)
                if total > body { break }  // enough to know it does not fit
            }
            return total
        }

        var offset = min(max(0, scrollOffset), max(0, rows.count - 1))
        var lines = top
        if rows.isEmpty || body <= 0 {
            for row in 0..<max(0, body) {
                lines.append(
                    row == (body - 1) / 2
                        ? ViewKit.centred(emptyMessage, width: width, style: .dim)
                        : Line.blank(width))
            }
        } else {
            if let selected, rows.indices.contains(selected) {
                if selected < offset { offset = selected }
                while offset < selected, span(offset, selected) > body { offset += 1 }
            }
            // Pull earlier blocks in while everything from there to the end still fits.
            var tail = span(offset, rows.count - 1)
            while offset > 0, tail + 1 + block(offset - 1).count <= body {
                offset -= 1
                tail += 1 + block(offset).count
            }
            var index = offset
            var bodyLines: [Line] = []
            while bodyLines.count < body, index < rows.count {
                if index > offset { bodyLines.append(Line.blank(width)) }
                bodyLines += block(index)
                index += 1
            }
            lines += ViewKit.screen(bodyLines, width: width, height: body)
        }
        lines += bottom
        return Output(lines: ViewKit.screen(lines, width: width, height: height), scrollOffset: offset)
    }

    /// The input row: "Reply to X: text▏" or "Comment: text▏", scrolled to keep the cursor visible.
    public static func composerLine(_ composer: Composer, width: Int) -> Line {
        let prompt = composer.replyingTo.map { "Reply to \(TerminalWidth.sanitized($0)): " } ?? "Comment: "
        return ViewKit.input(
            prompt: prompt, promptStyle: .accent, text: composer.text, cursor: composer.cursor, width: width)
    }

    /// The styles of `comment.content`, one per character: `.mention`, `.topic` or `.normal`.
    ///
    /// Uses the comment's own ranges; when it has none, the ranges `RichTextParser` finds.
    static func styledCharacters(of content: String, mentions: [TextRange], topics: [TextRange])
        -> [(Character, TextStyle)]
    {
        var mentionRanges = mentions
        var topicRanges = topics
        if mentionRanges.isEmpty && topicRanges.isEmpty {
            let parsed = RichTextParser.parse(content)
            mentionRanges = parsed.mentions.map(\.range)
            topicRanges = parsed.topics.map(\.range)
        }
        let styled =
            mentionRanges.compactMap { $0.range(in: content) }.map { ($0, TextStyle.mention) }
            + topicRanges.compactMap { $0.range(in: content) }.map { ($0, TextStyle.topic) }
        var result: [(Character, TextStyle)] = []
        var index = content.startIndex
        while index < content.endIndex {
            let character = content[index]
            let style = styled.first { $0.0.contains(index) }?.1 ?? .normal
            // Sanitized per character, so the ranges (made for the raw text) still line up.
            if character.isNewline || character == "\t" {
                result.append((" ", style))
            } else if TerminalWidth.sanitized(String(character)).isEmpty == false {
                result.append((character, style))
            }
            index = content.index(after: index)
        }
        return result
    }

    // MARK: - Blocks

    private static func block(
        _ row: CommentRow, selected: Bool, width: Int, now: Date, timeZone: TimeZone,
        language: DisplayLanguage
    ) -> [Line] {
        let comment = row.comment
        // Fewer indent levels when the text would get under 12 columns.
        var levels = min(row.depth, maximumIndentLevels)
        while levels > 0, width - levels * TerminalWidth.width(of: replyGutter) < 12 { levels -= 1 }
        let prefixText = String(repeating: replyGutter, count: levels)
        let prefix: Line = prefixText.isEmpty ? [] : [StyledSpan(prefixText, .dim)]
        let inner = max(1, width - TerminalWidth.width(of: prefixText))

        var lines: [Line] = [
            prefix
                + header(
                    comment, selected: selected, width: inner, now: now, timeZone: timeZone,
                    language: language)
        ]
        if row.depth == 0, comment.parentId != nil, let parent = comment.parent {
            let quote =
                "↪ reply to \(TerminalWidth.sanitized(parent.user.nickname)): "
                + TerminalWidth.sanitized(parent.content)
            lines.append(prefix + ViewKit.left(quote, width: inner, style: .dim))
        }
        let characters = styledCharacters(
            of: comment.content, mentions: comment.mentions.map(\.range), topics: comment.topics.map(\.range))
        let plain = characters.map(\.0)
        if !plain.allSatisfy({ $0 == " " }) {
            for range in TerminalWidth.wrapRanges(plain, to: inner) {
                var spans: Line = []
                for (character, style) in characters[range] {
                    spans.append(StyledSpan(String(character), style))
                }
                lines.append(prefix + spans.merged().fitted(to: inner))
            }
        }
        return lines.map { $0.fitted(to: width) }
    }

    /// "nickname · 3 min ago · ♥ 12" in `width` columns; `.selected` across the row when selected.
    private static func header(
        _ comment: Comment, selected: Bool, width: Int, now: Date, timeZone: TimeZone,
        language: DisplayLanguage
    ) -> Line {
        let time = ISO8601Timestamp.date(from: comment.createdAt).map {
            DisplayFormat.relativeTime($0, now: now, timeZone: timeZone, language: language)
        }
        var tail = time.map { " · \($0)" } ?? ""
        tail += " · "
        let likes = " " + DisplayFormat.count(comment.likesCount, language: language)
        let tailWidth = TerminalWidth.width(of: tail) + 1 + TerminalWidth.width(of: likes)
        // The nickname gives way to the time and likes, down to 8 columns.
        let nickname = TerminalWidth.truncate(
            TerminalWidth.sanitized(comment.user.nickname), to: max(8, width - tailWidth))
        let liked = comment.likeId != nil
        let spans: Line = [
            StyledSpan(nickname, selected ? .selected : .accent),
            StyledSpan(tail, selected ? .selected : .dim),
            // A heart I gave stays in the accent colour, on the selection bar too.
            StyledSpan("♥", liked ? .accent : (selected ? .selected : .dim)),
            StyledSpan(likes, selected ? .selected : .dim),
        ]
        return spans.fitted(to: width, padStyle: selected ? .selected : .normal)
    }
}
