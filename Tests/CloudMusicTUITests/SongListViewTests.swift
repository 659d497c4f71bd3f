import CloudMusicTUI
import MusicCore
import Testing

@Suite struct SongListViewTests {
    static let songs: [SongRow] = [
        SongRow(title: "Yesterday", artist: "The Beatles", album: "Help!", duration: 125_000),
        SongRow(title: "一时失志不免怨叹", artist: "叶启田", album: "爱拼才会赢", duration: 245_000),
        SongRow(title: "さくら 🌸", artist: "森山直太朗", album: "さくら", duration: 301_000),
        SongRow(title: "사랑해요", artist: "IU", album: "Palette", duration: 200_000),
        SongRow(title: "Ｆｕｌｌｗｉｄｔｈ", artist: "Ａ", album: "Café\u{301}", duration: 59_000),
        SongRow(title: "👩‍👩‍👧‍👦 Family 🇨🇳", artist: "👍🏽", album: "", duration: 3_723_000),
    ]

    /// The column at which `needle` starts in `line` (counted in terminal columns).
    func column(of needle: String, in line: Line) -> Int? {
        let text = line.text
        guard let range = text.range(of: needle) else { return nil }
        return TerminalWidth.width(of: text[..<range.lowerBound])
    }

    @Test(arguments: [80, 120, 200])
    func columnsLineUpWithMixedScripts(width: Int) {
        let output = SongListView.render(
            songs: Self.songs, selected: 1, scrollOffset: 0, width: width, height: 10)
        #expect(output.lines.count == 10)
        for line in output.lines { #expect(line.width == width, "\(line.text)") }
        let header = output.lines[0]
        let artistColumn = column(of: "Artist", in: header)!
        let albumColumn = column(of: "Album", in: header)!
        #expect(column(of: "Title", in: header) == 4)
        #expect(column(of: "The Beatles", in: output.lines[1]) == artistColumn)
        #expect(column(of: "叶启田", in: output.lines[2]) == artistColumn)
        #expect(column(of: "森山直太朗", in: output.lines[3]) == artistColumn)
        #expect(column(of: "IU", in: output.lines[4]) == artistColumn)
        #expect(column(of: "Ａ", in: output.lines[5]) == artistColumn)
        #expect(column(of: "👍🏽", in: output.lines[6]) == artistColumn)
        #expect(column(of: "Help!", in: output.lines[1]) == albumColumn)
        #expect(column(of: "爱拼才会赢", in: output.lines[2]) == albumColumn)
        for row in 1...6 { #expect(column(of: Self.songs[row - 1].title, in: output.lines[row]) == 4) }
        // Durations are right-aligned at the last column; an hour-long song widens the column.
        #expect(output.lines[1].text.hasSuffix("   2:05"))
        #expect(output.lines[6].text.hasSuffix("1:02:03"))
        #expect(output.lines[7...].allSatisfy { $0.text.allSatisfy { $0 == " " } })
    }

    @Test func selectedRowIsStyled() {
        let output = SongListView.render(
            songs: Self.songs, selected: 2, scrollOffset: 0, width: 80, height: 8)
        #expect(output.lines[3].allSatisfy { $0.style == .selected })
        #expect(!output.lines[2].contains { $0.style == .selected })
        #expect(output.lines[0].allSatisfy { $0.style == .accent })
    }

    @Test func narrowListsTruncateWithoutSplittingAndDropColumns() {
        for width in [20, 30, 36, 45, 59, 60] {
            let output = SongListView.render(
                songs: Self.songs, selected: nil, scrollOffset: 0, width: width, height: 7)
            for line in output.lines { #expect(line.width == width, "\(width): \(line.text)") }
            #expect(output.lines[0].text.contains("Artist") == (width >= 36))
            #expect(output.lines[0].text.contains("Album") == (width >= 60))
        }
        let narrow = SongListView.render(
            songs: Self.songs, selected: nil, scrollOffset: 0, width: 24, height: 7)
        #expect(narrow.lines[2].text.contains("…"))
    }

    @Test func scrollingKeepsTheSelectionVisible() {
        let many = (0..<100).map { SongRow(title: "歌 \($0)", artist: "A", album: "B", duration: 1000 * $0) }
        // 10 rows: a header and 9 songs.
        var output = SongListView.render(songs: many, selected: 0, scrollOffset: 0, width: 80, height: 10)
        #expect(output.scrollOffset == 0)
        output = SongListView.render(
            songs: many, selected: 9, scrollOffset: output.scrollOffset, width: 80, height: 10)
        #expect(output.scrollOffset == 1)
        #expect(output.lines[9].allSatisfy { $0.style == .selected })
        #expect(output.lines[9].text.contains("歌 9"))
        output = SongListView.render(
            songs: many, selected: 5, scrollOffset: output.scrollOffset, width: 80, height: 10)
        #expect(output.scrollOffset == 1)
        output = SongListView.render(
            songs: many, selected: 0, scrollOffset: output.scrollOffset, width: 80, height: 10)
        #expect(output.scrollOffset == 0)
        output = SongListView.render(songs: many, selected: 99, scrollOffset: 0, width: 80, height: 10)
        #expect(output.scrollOffset == 91)
        #expect(output.lines[9].text.contains("歌 99"))
        // An offset past the end is pulled back so the pane stays full.
        output = SongListView.render(songs: many, selected: nil, scrollOffset: 500, width: 80, height: 10)
        #expect(output.scrollOffset == 91)
        #expect(SongListView.scrolled(offset: 3, selected: 2, count: 2, visible: 5) == 0)
    }

    @Test func emptyListSaysSo() {
        let output = SongListView.render(songs: [], selected: nil, scrollOffset: 4, width: 40, height: 5)
        #expect(output.lines.count == 5)
        #expect(output.scrollOffset == 0)
        #expect(output.lines[1].text.contains("No songs"))
    }

    @Test func rowComesFromASong() {
        let song = Song(
            id: "1", title: "T", icon: nil, uri: "u", style: 0, lyric: nil, singer: nil,
            artists: [ArtistSummary(id: "a", name: "周杰伦"), ArtistSummary(id: "b", name: "费玉清")],
            album: AlbumSummary(id: "c", title: "叶惠美", icon: nil), genres: [], trackNumber: nil,
            discNumber: nil, year: nil, duration: 1000, format: "mp3", bitRate: 0, sampleRate: 0,
            channels: 2, clicksCount: 0, commentsCount: 0, playsCount: 0, createdAt: "", updatedAt: "")
        #expect(SongRow(song: song) == SongRow(title: "T", artist: "周杰伦 / 费玉清", album: "叶惠美", duration: 1000))
    }
}
