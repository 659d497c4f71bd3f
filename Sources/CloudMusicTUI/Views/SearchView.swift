import MusicCore

/// The search screen: the query input, a switcher between songs, albums, artists and (when given)
/// sheets, a status row and the results of the current section.
public enum SearchView {
    /// The rendered rows and the list's scroll offset.
    public typealias Output = TableView.Output

    /// The sections in switcher order; `render`'s `section` is an index into this. "Sheets" shows only
    /// when sheets are given, "People" only when people are given too.
    public static let sections = ["Songs", "Albums", "Artists", "Sheets", "People"]

    /// The screen in exactly `height` rows of exactly `width` columns.
    ///
    /// Row 1 is "/ query▏" (scrolled to keep `cursor`, in characters, visible); row 2 the switcher
    /// (from 2 rows up); then `status`, dim (from 4 rows up); the rest is the list of `section`
    /// (0 songs, 1 albums, 2 artists), whose `selected` and `scrollOffset` it uses. No results yet
    /// leaves the list blank.
    public static func render(
        query: String, cursor: Int, results: SearchResults?, section: Int, selected: Int?, scrollOffset: Int,
        status: String?, width: Int, height: Int, sheets: [Sheet]? = nil, users: [User]? = nil
    ) -> Output {
        let width = max(0, width)
        let height = max(0, height)
        let users = sheets == nil ? nil : users
        let section = min(max(0, section), 2 + (sheets == nil ? 0 : 1) + (users == nil ? 0 : 1))
        var lines: [Line] = []
        if height >= 1 {
            lines.append(
                ViewKit.input(prompt: "/ ", promptStyle: .accent, text: query, cursor: cursor, width: width))
        }
        if height >= 2 {
            lines.append(
                switcher(results: results, section: section, width: width, sheets: sheets, users: users))
        }
        if height >= 4, let status {
            lines.append(ViewKit.left(TerminalWidth.sanitized(status), width: width, style: .dim))
        }
        let listHeight = height - lines.count
        var offset = 0
        if let results, listHeight > 0 {
            let list = self.list(
                results, sheets: sheets ?? [], users: users ?? [], section: section, selected: selected,
                scrollOffset: scrollOffset,
                width: width, height: listHeight)
            lines += list.lines
            offset = list.scrollOffset
        }
        return Output(lines: ViewKit.screen(lines, width: width, height: height), scrollOffset: offset)
    }

    /// "Songs (12) · Albums (3) · Artists (1)", the current one highlighted; without the counts,
    /// then only the current one, when narrower.
    public static func switcher(
        results: SearchResults?, section: Int, width: Int, sheets: [Sheet]? = nil, users: [User]? = nil
    ) -> Line {
        var counts = [results?.songs.count, results?.albums.count, results?.artists.count]
        if let sheets {
            counts.append(results == nil ? nil : sheets.count)
            if let users { counts.append(results == nil ? nil : users.count) }
        }
        for withCounts in [true, false] {
            var spans: Line = []
            for (index, name) in sections.prefix(counts.count).enumerated() {
                if index > 0 { spans.append(StyledSpan(" · ", .dim)) }
                let label = withCounts ? counts[index].map { "\(name) (\($0))" } ?? name : name
                spans.append(StyledSpan(label, index == section ? .highlight : .normal))
            }
            if spans.width <= width { return spans.fitted(to: width) }
        }
        let label = counts[section].map { "\(sections[section]) (\($0))" } ?? sections[section]
        return ViewKit.left(label, width: width, style: .highlight)
    }

    private static func list(
        _ results: SearchResults, sheets: [Sheet], users: [User], section: Int, selected: Int?,
        scrollOffset: Int,
        width: Int,
        height: Int
    ) -> Output {
        switch section {
        case 0:
            let list = SongListView.render(
                songs: results.songs.map(SongRow.init(song:)), selected: selected, scrollOffset: scrollOffset,
                width: width, height: height)
            return Output(lines: list.lines, scrollOffset: list.scrollOffset)
        case 1:
            let wide = width >= 50
            let layout = ColumnLayout(
                wide
                    ? [
                        .init(.flexible(minimum: 8, weight: 3)), .init(.flexible(minimum: 6, weight: 2)),
                        .init(.fixed(4), alignment: .right), .init(.fixed(5), alignment: .right),
                    ]
                    : [.init(.flexible(minimum: 6, weight: 3)), .init(.flexible(minimum: 4, weight: 2))],
                gap: 2)
            let rows = results.albums.map { album -> [String] in
                let cells = [album.title, album.artist?.name ?? ""]
                return wide ? cells + [album.year.map(String.init) ?? "", String(album.songsCount)] : cells
            }
            let header = wide ? ["Album", "Artist", "Year", "Songs"] : ["Album", "Artist"]
            return TableView.render(
                header: header, rows: rows, layout: layout, selected: selected, scrollOffset: scrollOffset,
                width: width, height: height, emptyMessage: "No albums")
        case 2:
            let wide = width >= 40
            let layout = ColumnLayout(
                [.init(.flexible(minimum: 8, weight: 1))]
                    + (wide
                        ? [.init(.fixed(6), alignment: .right), .init(.fixed(6), alignment: .right)] : []),
                gap: 2)
            let rows = results.artists.map { artist -> [String] in
                wide ? [artist.name, String(artist.albumsCount), String(artist.songsCount)] : [artist.name]
            }
            return TableView.render(
                header: wide ? ["Artist", "Albums", "Songs"] : ["Artist"], rows: rows, layout: layout,
                selected: selected, scrollOffset: scrollOffset, width: width, height: height,
                emptyMessage: "No artists")
        case 4:
            let wide = width >= 40
            let layout = ColumnLayout(
                [.init(.flexible(minimum: 8, weight: 3))]
                    + (wide
                        ? [.init(.fixed(9), alignment: .right), .init(.fixed(9), alignment: .right)] : []),
                gap: 2)
            let rows = users.map { user -> [String] in
                let name = user.following == true ? "\(user.nickname) · following" : user.nickname
                return wide ? [name, String(user.followersCount), String(user.followingsCount)] : [name]
            }
            return TableView.render(
                header: wide ? ["Person", "Followers", "Following"] : ["Person"], rows: rows, layout: layout,
                selected: selected, scrollOffset: scrollOffset, width: width, height: height,
                emptyMessage: "No people")
        default:
            let wide = width >= 40
            let layout = ColumnLayout(
                [.init(.flexible(minimum: 8, weight: 3))]
                    + (wide
                        ? [.init(.flexible(minimum: 6, weight: 1)), .init(.fixed(6), alignment: .right)]
                        : []),
                gap: 2)
            let rows = sheets.map { sheet -> [String] in
                wide ? [sheet.title, sheet.user.nickname, String(sheet.songsCount)] : [sheet.title]
            }
            return TableView.render(
                header: wide ? ["Sheet", "By", "Songs"] : ["Sheet"], rows: rows, layout: layout,
                selected: selected, scrollOffset: scrollOffset, width: width, height: height,
                emptyMessage: "No sheets")
        }
    }
}
