import Foundation
import MusicCore

/// The inbox: a row of kinds with their unread counts, then one row per notification, newest first: a dot
/// for unread ones, who did what, the words of the comment it is about, and when.
public enum NotificationsView {
    public typealias Output = TableView.Output

    /// "Bob replied to your comment", "Bob followed you", …; a kind this client does not know reads plainly.
    public static func sentence(for item: NotificationItem) -> String {
        let who = TerminalWidth.sanitized(item.actor.nickname)
        switch item.kind {
        case "reply": return "\(who) replied to your comment"
        case "mention": return "\(who) mentioned you"
        case "like": return "\(who) liked your comment"
        case "follow": return "\(who) followed you"
        case "comment":
            if item.comment?.sheetId != nil { return "\(who) commented on your sheet" }
            if item.comment?.feedId != nil || item.feedId != nil { return "\(who) commented on your moment" }
            return "\(who) commented"
        default: return "\(who): \(TerminalWidth.sanitized(item.kind))"
        }
    }

    /// "All 3 · Replies 1 · Mentions · …": the current one highlighted, unread counts in the accent colour;
    /// without the counts' words, then only the current one, when narrower.
    public static func kinds(titles: [String], unread: [Int], current: Int, width: Int) -> Line {
        for full in [true, false] {
            var spans: Line = []
            for (index, title) in titles.enumerated() {
                if index > 0 { spans.append(StyledSpan(full ? " · " : " ", .dim)) }
                spans.append(StyledSpan(title, index == current ? .highlight : .normal))
                if unread[index] > 0 { spans.append(StyledSpan(" \(badge(unread[index]))", .accent)) }
            }
            if spans.width <= width { return spans.fitted(to: width) }
        }
        let count = unread[current] > 0 ? " \(badge(unread[current]))" : ""
        return [
            StyledSpan("‹ \(titles[current])", .highlight), StyledSpan(count, .accent),
            StyledSpan(" ›", .dim),
        ]
        .fitted(to: width)
    }

    /// A count for a badge: "3", "99+".
    public static func badge(_ count: Int) -> String { count > 99 ? "99+" : String(count) }

    /// The screen in exactly `height` rows of exactly `width` columns: the kinds, then the list.
    public static func render(
        items: [NotificationItem], tabTitles: [String], unread: [Int], tab: Int, selected: Int?,
        scrollOffset: Int, empty: String, width: Int, height: Int, now: Date = Date(),
        timeZone: TimeZone = .current, language: DisplayLanguage = .en
    ) -> Output {
        let width = max(0, width)
        let height = max(0, height)
        var lines: [Line] = []
        if height >= 1 { lines.append(kinds(titles: tabTitles, unread: unread, current: tab, width: width)) }
        let rest = max(0, height - lines.count)
        let wide = width >= 60
        let layout = ColumnLayout(
            [.init(.fixed(1)), .init(.flexible(minimum: 10, weight: 3))]
                + (wide ? [.init(.flexible(minimum: 8, weight: 3))] : []) + [
                    .init(.fixed(11), alignment: .right)
                ],
            gap: 1)
        let rows = items.map { item -> [String] in
            let time =
                ISO8601Timestamp.date(from: item.createdAt).map {
                    DisplayFormat.relativeTime($0, now: now, timeZone: timeZone, language: language)
                } ?? ""
            let quote = item.comment.map { $0.content.isEmpty ? "" : "“\($0.content)”" } ?? ""
            let cells = [item.read ? " " : "●", sentence(for: item)]
            return cells + (wide ? [quote] : []) + [time]
        }
        let table = TableView.render(
            header: nil, rows: rows, layout: layout, selected: selected, scrollOffset: scrollOffset,
            width: width,
            height: rest, emptyMessage: empty)
        lines += table.lines
        return Output(
            lines: ViewKit.screen(lines, width: width, height: height), scrollOffset: table.scrollOffset)
    }
}

/// The conversations: who, their last message, when, and how many are unread.
public enum ConversationsView {
    public typealias Output = TableView.Output

    public static func render(
        conversations: [Conversation], me: String?, selected: Int?, scrollOffset: Int, title: String,
        status: String?, empty: String, width: Int, height: Int, now: Date = Date(),
        timeZone: TimeZone = .current,
        language: DisplayLanguage = .en
    ) -> Output {
        let width = max(0, width)
        let height = max(0, height)
        var lines: [Line] = []
        if height >= 2 { lines.append(ChatView.titleRow(title, status: status, width: width)) }
        let wide = width >= 50
        let layout = ColumnLayout(
            [.init(.flexible(minimum: 8, weight: 1)), .init(.flexible(minimum: 8, weight: 3))]
                + (wide ? [.init(.fixed(11), alignment: .right)] : []) + [
                    .init(.fixed(5), alignment: .right)
                ],
            gap: 2)
        let rows = conversations.map { conversation -> [String] in
            var last =
                conversation.lastMessage.map { message in
                    (message.sender.id == me ? "You: " : "") + AppState.preview(message)
                } ?? ""
            last = last.replacingOccurrences(of: "\n", with: " ")
            let time =
                ISO8601Timestamp.date(from: conversation.updatedAt).map {
                    DisplayFormat.relativeTime($0, now: now, timeZone: timeZone, language: language)
                } ?? ""
            let unread =
                conversation.unreadCount > 0 ? "● \(NotificationsView.badge(conversation.unreadCount))" : ""
            return [conversation.user.nickname, last] + (wide ? [time] : []) + [unread]
        }
        let table = TableView.render(
            header: height >= 4 ? ["Who", "Last message"] + (wide ? ["When"] : []) + ["New"] : nil,
            rows: rows,
            layout: layout, selected: selected, scrollOffset: scrollOffset, width: width,
            height: max(0, height - lines.count), emptyMessage: empty)
        lines += table.lines
        return Output(
            lines: ViewKit.screen(lines, width: width, height: height), scrollOffset: table.scrollOffset)
    }
}
