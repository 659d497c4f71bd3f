import CloudMusicKit
import MusicCore

/// The podcast screen: the podcasts (mine marked "✓" and listed first) or one podcast's episodes, newest
/// first, with the place reached in each ("40%", "done"), their likes ("♥3" when I like one) and the playing
/// one marked "▶"; or one episode's comments (drawn by `CommentsView`).
public enum PodcastsView {
    public static let emptyPodcasts = "No podcasts yet: an administrator adds them"
    public static let emptyEpisodes = "No episodes yet"

    /// The list of podcasts in exactly `height` rows of exactly `width` columns.
    public static func podcasts(
        _ podcasts: [Podcast], selected: Int, scrollOffset: Int, width: Int, height: Int
    ) -> TableView.Output {
        let wide = width >= 60
        var columns: [ColumnLayout.Column] = [.init(.fixed(1)), .init(.flexible(minimum: 8, weight: 3))]
        var header = ["", "Podcast"]
        if wide {
            columns.append(.init(.flexible(minimum: 6, weight: 2)))
            header.append("Author")
        }
        columns.append(.init(.fixed(8), alignment: .right))
        header.append("Episodes")
        let rows = podcasts.map { podcast -> [String] in
            var cells = [podcast.subscribed == true ? "✓" : "", podcast.title]
            if wide { cells.append(podcast.author ?? "") }
            cells.append(String(podcast.episodesCount))
            return cells
        }
        return TableView.render(
            header: header, rows: rows, layout: ColumnLayout(columns, gap: 2), selected: selected,
            scrollOffset: scrollOffset, width: width, height: height, emptyMessage: emptyPodcasts)
    }

    /// A podcast's title line (with whether I subscribe and the speed), then its episodes.
    public static func episodes(
        of podcast: Podcast, _ episodes: [PodcastEpisode], playingID: String?, speed: Double, selected: Int,
        scrollOffset: Int, width: Int, height: Int
    ) -> TableView.Output {
        let about = [
            podcast.title, podcast.author, podcast.subscribed == true ? "subscribed" : nil,
            "speed \(label(speed))",
        ].compactMap { $0 }.joined(separator: " · ")
        let top = ViewKit.left(TerminalWidth.sanitized(about), width: width, style: .accent)
        let wide = width >= 60
        var columns: [ColumnLayout.Column] = [.init(.flexible(minimum: 8, weight: 4))]
        var header = ["Episode"]
        if wide {
            columns.append(.init(.fixed(10)))
            header.append("Date")
        }
        columns += [
            .init(.fixed(5), alignment: .right), .init(.fixed(8), alignment: .right),
            .init(.fixed(5), alignment: .right),
        ]
        header += ["Likes", "Length", "Heard"]
        let rows = episodes.map { episode -> [String] in
            var cells = [episode.title]
            if wide { cells.append(String((episode.publishedAt ?? "").prefix(10))) }
            cells.append(PodcastsState.likesText(episode))
            cells.append(episode.duration.map { DisplayFormat.duration(seconds: Double($0)) } ?? "")
            cells.append(PodcastsState.progressText(episode))
            return cells
        }
        let marked = Set(episodes.indices.filter { EpisodeSong.id(episodes[$0].id) == playingID })
        let table = TableView.render(
            header: header, rows: rows, layout: ColumnLayout(columns, gap: 2), selected: selected,
            scrollOffset: scrollOffset, width: width, height: max(0, height - 1), marked: marked,
            emptyMessage: emptyEpisodes)
        return TableView.Output(
            lines: ViewKit.screen([top] + table.lines, width: width, height: height),
            scrollOffset: table.scrollOffset)
    }

    /// "Comments · <episode> · 12" (the count once known).
    public static func commentsTitle(_ comments: EpisodeComments) -> String {
        ["Comments", comments.title, comments.total.map(String.init)].compactMap { $0 }.joined(
            separator: " · ")
    }

    /// "1.5×", "1×".
    public static func label(_ speed: Double) -> String {
        let text = speed == speed.rounded() ? String(Int(speed)) : String(speed)
        return text + "×"
    }
}
