import MusicCore

/// The news screen: the channels with their unread counts, a channel's articles newest first (unread ones
/// marked "•"), or an article as text with its title, source and date above it.
public enum NewsView {
    public static let emptyChannels = "No channels yet: an administrator adds them"
    public static let emptyArticles = "No articles in this channel yet"

    /// The channels in exactly `height` rows of exactly `width` columns.
    public static func channels(
        _ channels: [NewsChannel], selected: Int, scrollOffset: Int, width: Int, height: Int
    ) -> TableView.Output {
        let columns: [ColumnLayout.Column] = [
            .init(.flexible(minimum: 8, weight: 3)), .init(.fixed(8)), .init(.fixed(6), alignment: .right),
        ]
        let rows = channels.map { channel -> [String] in
            [
                channel.title, channel.personal ? "mine" : "",
                channel.unreadCount >= NewsAPI.maxUnreadCount ? "999+" : String(channel.unreadCount),
            ]
        }
        return TableView.render(
            header: ["Channel", "", "Unread"], rows: rows, layout: ColumnLayout(columns, gap: 2),
            selected: selected, scrollOffset: scrollOffset, width: width, height: height,
            emptyMessage: emptyChannels)
    }

    /// A channel's title line, then its articles.
    public static func articles(
        of channel: NewsChannel, _ articles: [NewsArticle], selected: Int, scrollOffset: Int, width: Int,
        height: Int
    ) -> TableView.Output {
        let about = "\(channel.title) · \(channel.unreadCount) unread"
        let top = ViewKit.left(TerminalWidth.sanitized(about), width: width, style: .accent)
        let wide = width >= 70
        var columns: [ColumnLayout.Column] = [.init(.fixed(1)), .init(.flexible(minimum: 8, weight: 4))]
        var header = ["", "Article"]
        if wide {
            columns.append(.init(.flexible(minimum: 6, weight: 1)))
            header.append("Source")
        }
        columns.append(.init(.fixed(10)))
        header.append("Date")
        let rows = articles.map { article -> [String] in
            var cells = [article.read ? "" : "•", article.title]
            if wide { cells.append(article.sourceTitle) }
            cells.append(String(article.publishedAt.prefix(10)))
            return cells
        }
        let table = TableView.render(
            header: header, rows: rows, layout: ColumnLayout(columns, gap: 2), selected: selected,
            scrollOffset: scrollOffset, width: width, height: max(0, height - 1), emptyMessage: emptyArticles)
        return TableView.Output(
            lines: ViewKit.screen([top] + table.lines, width: width, height: height),
            scrollOffset: table.scrollOffset)
    }

    /// An article as text from row `scrollOffset` (clamped so the end reaches at most the bottom); answers
    /// the rows and the offset used.
    public static func article(
        _ article: NewsArticleDetail, text: String, scrollOffset: Int, width: Int, height: Int
    ) -> (lines: [Line], scrollOffset: Int) {
        let width = max(0, width)
        let columns = max(1, min(width, 100))
        var rows: [Line] = TerminalWidth.wrap(TerminalWidth.sanitized(article.title), to: columns).map {
            ViewKit.left($0, width: width, style: .accent)
        }
        let about = [article.sourceTitle, article.author, String(article.publishedAt.prefix(16))]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
        rows.append(ViewKit.left(TerminalWidth.sanitized(about), width: width, style: .dim))
        rows.append(Line.blank(width))
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = TerminalWidth.sanitized(String(paragraph))
            if line.isEmpty {
                rows.append(Line.blank(width))
                continue
            }
            for part in TerminalWidth.wrap(line, to: columns) {
                rows.append(ViewKit.left(part, width: width, style: .normal))
            }
        }
        if !article.videos.isEmpty {
            rows.append(Line.blank(width))
            for video in article.videos {
                rows.append(
                    ViewKit.left(TerminalWidth.sanitized("Video: \(video.url)"), width: width, style: .dim))
            }
        }
        if let url = article.url {
            rows.append(Line.blank(width))
            rows.append(ViewKit.left(TerminalWidth.sanitized("Original: \(url)"), width: width, style: .dim))
        }
        let offset = min(max(0, scrollOffset), max(0, rows.count - height))
        return (ViewKit.screen(Array(rows.dropFirst(offset)), width: width, height: height), offset)
    }
}
