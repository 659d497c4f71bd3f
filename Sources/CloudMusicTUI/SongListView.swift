import MusicCore

/// What one row of a song list shows.
public struct SongRow: Sendable, Equatable {
    public var title: String
    public var artist: String
    public var album: String
    /// Milliseconds, as `Song.duration`.
    public var duration: Int

    public init(title: String, artist: String, album: String, duration: Int) {
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
    }

    /// The row of `song`: its artists joined with " / " (or its singer), its album's title.
    public init(song: Song) {
        let artist = song.artistNames ?? song.singer?.nickname ?? ""
        self.init(title: song.title, artist: artist, album: song.album?.title ?? "", duration: song.duration)
    }
}

/// A scrolling table of songs: number, title, artist, album and duration, in columns that line up
/// with CJK and emoji titles.
public enum SongListView {
    /// The rendered rows and the scroll offset that keeps the selection on screen.
    public struct Output: Sendable, Equatable {
        public var lines: [Line]
        /// The index of the first song shown; pass it back in the next render.
        public var scrollOffset: Int
    }

    /// Renders `songs` from `scrollOffset` (moved as needed to show `selected`) into exactly `height`
    /// rows of exactly `width` columns; the first row is a header when `header` is true.
    ///
    /// Narrow panes drop the album (below 60 columns), then the artist (below 36).
    public static func render(
        songs: [SongRow], selected: Int?, scrollOffset: Int, width: Int, height: Int, header: Bool = true
    ) -> Output {
        let width = max(0, width)
        let height = max(0, height)
        let showHeader = header && height > 1
        let visible = max(0, height - (showHeader ? 1 : 0))
        let offset = scrolled(
            offset: scrollOffset, selected: selected, count: songs.count, visible: visible)
        let longest = songs.lazy.map { DisplayFormat.duration(milliseconds: $0.duration).count }.max() ?? 4
        let layout = layout(width: width, count: songs.count, durationWidth: max(4, longest))

        var lines: [Line] = []
        if showHeader {
            let titles = ["#", "Title", "Artist", "Album", "Time"]
            lines.append(layout.row(cells(titles, width: width), total: width, style: .accent))
        }
        if songs.isEmpty, visible > 0 {
            lines.append([StyledSpan(TerminalWidth.pad("No songs", to: width, alignment: .center), .dim)])
        }
        for index in offset..<min(songs.count, offset + visible) {
            let song = songs[index]
            let values = [
                String(index + 1), TerminalWidth.sanitized(song.title), TerminalWidth.sanitized(song.artist),
                TerminalWidth.sanitized(song.album), DisplayFormat.duration(milliseconds: song.duration),
            ]
            let style: TextStyle = index == selected ? .selected : .normal
            var line = layout.row(cells(values, width: width), total: width, style: style)
            if style == .normal, let first = line.first {
                // The number is dimmed so the titles stand out.
                line[0] = StyledSpan(first.text, .dim)
            }
            lines.append(line)
        }
        while lines.count < height { lines.append(Line.blank(width)) }
        return Output(lines: lines.map { $0.fitted(to: width) }, scrollOffset: offset)
    }

    /// The offset that keeps `selected` within `visible` rows, moving as little as possible.
    public static func scrolled(offset: Int, selected: Int?, count: Int, visible: Int) -> Int {
        guard visible > 0, count > 0 else { return 0 }
        var offset = min(max(0, offset), max(0, count - visible))
        if let selected, selected >= 0, selected < count {
            if selected < offset { offset = selected }
            if selected >= offset + visible { offset = selected - visible + 1 }
        }
        return offset
    }

    private static func layout(width: Int, count: Int, durationWidth: Int) -> ColumnLayout {
        let numberWidth = max(2, String(max(1, count)).count)
        var columns: [ColumnLayout.Column] = [
            .init(.fixed(numberWidth), alignment: .right),
            .init(.flexible(minimum: 8, weight: 4)),
        ]
        if width >= 36 { columns.append(.init(.flexible(minimum: 6, weight: 2))) }
        if width >= 60 { columns.append(.init(.flexible(minimum: 6, weight: 2))) }
        columns.append(.init(.fixed(durationWidth), alignment: .right))
        return ColumnLayout(columns, gap: 2)
    }

    /// The five values cut down to the columns this width shows (number, title, [artist], [album], time).
    private static func cells(_ values: [String], width: Int) -> [String] {
        var result = [values[0], values[1]]
        if width >= 36 { result.append(values[2]) }
        if width >= 60 { result.append(values[3]) }
        result.append(values[4])
        return result
    }
}
