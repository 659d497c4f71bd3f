import Foundation
import MusicCore

/// One conversation: a title row, the messages oldest first with the newest at the bottom, and the input
/// row for the next message.
///
/// Each message is a header ("Bob · 3 min ago", or "You · …" in another colour) and its content, indented
/// two columns and wrapped to the width: text, or what it shares ("♪ title - artist"). A selected message
/// has its header on the selection bar. With no selection the newest messages show; the view keeps the
/// row it scrolled to otherwise, moving only as far as needed to show the selected message.
public enum ChatView {
    public struct Composer: Sendable, Equatable {
        public var text: String
        public var cursor: Int
        /// Whether keys type into it (else it shows dim, without a cursor).
        public var active: Bool

        public init(text: String, cursor: Int, active: Bool) {
            self.text = text
            self.cursor = cursor
            self.active = active
        }
    }

    /// The rendered rows and the first message row shown (pass it back next time).
    public typealias Output = TableView.Output

    /// The chat in exactly `height` rows of exactly `width` columns.
    ///
    /// Row 1 is `title` with `status` on the right (from 3 rows up); the last row the composer, with a
    /// rule above it (from 6 rows up); the messages fill the rest. `me` is the signed-in person's id.
    public static func render(
        title: String, status: String?, messages: [Message], me: String?, selected: Int?, scrollOffset: Int,
        peerReadThrough: String? = nil, hasOlder: Bool = false, composer: Composer,
        empty: String = "No messages yet: write the first one below", width: Int, height: Int,
        now: Date = Date(), timeZone: TimeZone = .current, language: DisplayLanguage = .en
    ) -> Output {
        let width = max(0, width)
        let height = max(0, height)
        var top: [Line] = []
        var bottom: [Line] = []
        if height >= 1 {
            if height >= 6 { bottom.append([StyledSpan(String(repeating: "─", count: width), .dim)]) }
            let prompt = composer.active ? "Message: " : "Message (w to write): "
            bottom.append(
                ViewKit.input(
                    prompt: prompt, promptStyle: composer.active ? .accent : .dim, text: composer.text,
                    cursor: composer.cursor, width: width, textStyle: composer.active ? .normal : .dim,
                    showCursor: composer.active))
        }
        if height - bottom.count >= 3 { top.append(titleRow(title, status: status, width: width)) }
        let body = max(0, height - top.count - bottom.count)

        // Every message's rows, and where each message starts.
        var rows: [Line] = []
        var starts: [Int] = []
        let lastMine = messages.lastIndex { $0.sender.id == me }
        for (index, message) in messages.enumerated() {
            starts.append(rows.count)
            let seen =
                index == lastMine && peerReadThrough.map { number($0) >= number(message.id) } == true
            rows += block(
                message, mine: message.sender.id == me, selected: index == selected, seen: seen, width: width,
                now: now, timeZone: timeZone, language: language)
        }
        if hasOlder, !messages.isEmpty {
            rows.insert(ViewKit.centred("↑ older messages", width: width, style: .dim), at: 0)
            starts = starts.map { $0 + 1 }
        }

        var offset: Int
        if let selected, starts.indices.contains(selected) {
            let start = selected == 0 && hasOlder ? 0 : starts[selected]
            let end = selected + 1 < starts.count ? starts[selected + 1] : rows.count
            offset = min(max(0, scrollOffset), max(0, rows.count - body))
            if start < offset { offset = start }
            if end > offset + body { offset = min(start, end - body) }
        } else {
            offset = max(0, rows.count - body)
        }
        var lines = top
        if messages.isEmpty {
            for row in 0..<body {
                lines.append(
                    row == (body - 1) / 2
                        ? ViewKit.centred(empty, width: width, style: .dim) : Line.blank(width))
            }
        } else {
            // Few messages sit at the bottom, next to the input, as in every chat.
            let shown = Array(rows.dropFirst(offset).prefix(body))
            lines += Array(repeating: Line.blank(width), count: body - shown.count) + shown
        }
        lines += bottom
        return Output(lines: ViewKit.screen(lines, width: width, height: height), scrollOffset: offset)
    }

    static func titleRow(_ title: String, status: String?, width: Int) -> Line {
        let status = status.map { "  " + TerminalWidth.sanitized($0) } ?? ""
        let statusWidth = min(TerminalWidth.width(of: status), max(0, width - 8))
        let name = TerminalWidth.truncate(TerminalWidth.sanitized(title), to: max(0, width - statusWidth))
        let gap = max(0, width - TerminalWidth.width(of: name) - statusWidth)
        return [
            StyledSpan(name, .accent), StyledSpan(String(repeating: " ", count: gap)),
            StyledSpan(TerminalWidth.truncate(status, to: statusWidth), .dim),
        ].fitted(to: width)
    }

    /// The rows of one message.
    static func block(
        _ message: Message, mine: Bool, selected: Bool, seen: Bool, width: Int, now: Date, timeZone: TimeZone,
        language: DisplayLanguage
    ) -> [Line] {
        let time = ISO8601Timestamp.date(from: message.createdAt).map {
            DisplayFormat.relativeTime($0, now: now, timeZone: timeZone, language: language)
        }
        let name = mine ? "You" : TerminalWidth.sanitized(message.sender.nickname)
        var tail = time.map { " · \($0)" } ?? ""
        if seen { tail += " · seen" }
        let header: Line = [
            StyledSpan(name, selected ? .selected : (mine ? .highlight : .accent)),
            StyledSpan(tail, selected ? .selected : .dim),
        ]
        var lines = [header.fitted(to: width, padStyle: selected ? .selected : .normal)]
        let indent = width > 6 ? 2 : 0
        let inner = max(1, width - indent)
        let pad = Line.blank(indent)
        switch message.kind {
        case .text:
            let characters = Array(TerminalWidth.sanitized(message.content ?? ""))
            for range in TerminalWidth.wrapRanges(characters, to: inner) {
                lines.append(pad + [StyledSpan(String(characters[range]))].fitted(to: inner))
            }
        default:
            let text: String
            switch message.kind {
            case .song:
                text =
                    message.song.map { song in
                        "♪ " + (song.artistNames.map { "\(song.title) - \($0)" } ?? song.title)
                    } ?? "♪ a song no longer in the library"
            case .sheet:
                text =
                    message.sheet.map { "☰ \($0.title) · \($0.songsCount) songs" }
                    ?? "☰ a sheet no longer shared"
            case .video:
                text = message.video.map { "▶ \($0.title)" } ?? "▶ a video no longer in the library"
            default:
                text = "[picture]"
            }
            lines.append(pad + ViewKit.left(TerminalWidth.sanitized(text), width: inner, style: .highlight))
        }
        return lines.map { $0.fitted(to: width) }
    }

    static func number(_ id: String) -> Int64 { ID<Message>(id)?.rawValue ?? 0 }
}
