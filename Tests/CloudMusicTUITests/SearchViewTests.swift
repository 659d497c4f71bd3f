import CloudMusicTUI
import MusicCore
import Testing

@Suite struct SearchViewTests {
    static func song(_ title: String, _ artist: String, _ album: String, ms: Int) -> Song {
        Song(
            id: title, title: title, icon: nil, uri: "", style: 0, lyric: nil, singer: nil,
            artists: [ArtistSummary(id: artist, name: artist)],
            album: AlbumSummary(id: album, title: album, icon: nil),
            genres: [], trackNumber: nil, discNumber: nil, year: nil, duration: ms, format: "mp3", bitRate: 0,
            sampleRate: 0, channels: 2, clicksCount: 0, commentsCount: 0, playsCount: 0, createdAt: "",
            updatedAt: "")
    }

    static let results = SearchResults(
        songs: [song("晴天", "周杰伦", "叶惠美", ms: 269_000), song("Sunny Day", "Jay", "Ye Hui Mei", ms: 299_000)],
        albums: [
            Album(
                id: "a1", title: "叶惠美", icon: nil, artist: ArtistSummary(id: "r1", name: "周杰伦"), year: 2003,
                isCompilation: false, songsCount: 11, duration: 0, createdAt: "", updatedAt: ""),
            Album(
                id: "a2", title: "Fantasy", icon: nil, artist: ArtistSummary(id: "r1", name: "Jay Chou"),
                year: nil,
                isCompilation: false, songsCount: 10, duration: 0, createdAt: "", updatedAt: ""),
        ],
        artists: [
            Artist(
                id: "r1", name: "周杰伦", icon: nil, songsCount: 180, albumsCount: 15, createdAt: "",
                updatedAt: "")
        ])

    func render(
        query: String = "周杰", cursor: Int = 2, results: SearchResults? = Self.results, section: Int = 0,
        selected: Int? = 1, status: String? = nil, width: Int = 80, height: Int = 10
    ) -> SearchView.Output {
        SearchView.render(
            query: query, cursor: cursor, results: results, section: section, selected: selected,
            scrollOffset: 0,
            status: status, width: width, height: height)
    }

    @Test func inputSwitcherAndSongs() {
        let output = render()
        ViewTest.expectShape(output.lines, width: 80, height: 10)
        #expect(ViewTest.trimmed(output.lines[0]) == "/ 周杰▏")
        #expect(output.lines[0].first == StyledSpan("/ ", .accent))
        #expect(ViewTest.trimmed(output.lines[1]) == "Songs (2) · Albums (2) · Artists (1)")
        #expect(ViewTest.text(in: output.lines[1], .highlight) == "Songs (2)")
        #expect(output.lines[2].text.contains("Title"))
        #expect(output.lines[3].text.contains("晴天"))
        #expect(output.lines[4].allSatisfy { $0.style == .selected })
        #expect(output.lines[4].text.contains("Sunny Day"))
    }

    @Test func albumsAndArtistsLineUp() {
        let albums = render(section: 1, selected: 0)
        #expect(ViewTest.text(in: albums.lines[1], .highlight) == "Albums (2)")
        let header = albums.lines[2]
        #expect(ViewTest.column(of: "周杰伦", in: albums.lines[3]) == ViewTest.column(of: "Artist", in: header))
        #expect(
            ViewTest.column(of: "Jay Chou", in: albums.lines[4]) == ViewTest.column(of: "Artist", in: header))
        #expect(albums.lines[3].text.hasSuffix("2003     11"))
        #expect(albums.lines[4].text.hasSuffix("         10"))
        #expect(albums.lines[3].allSatisfy { $0.style == .selected })
        let artists = render(section: 2, selected: nil)
        #expect(ViewTest.trimmed(artists.lines[2]).hasSuffix("Albums   Songs"))
        #expect(artists.lines[3].text.hasPrefix("  周杰伦 "))
        #expect(artists.lines[3].text.hasSuffix("    15     180"))
    }

    @Test func statusAndEmptySectionsAndNarrowSwitcher() {
        let searching = render(results: nil, status: "Searching…")
        #expect(ViewTest.trimmed(searching.lines[1]) == "Songs · Albums · Artists")
        #expect(searching.lines[2] == [StyledSpan(TerminalWidth.pad("Searching…", to: 80), .dim)])
        #expect(searching.lines[3...].allSatisfy { ViewTest.isBlank($0) })
        let none = render(
            results: SearchResults(songs: [], albums: [], artists: []), section: 2,
            status: "No results for 周杰")
        #expect(ViewTest.trimmed(none.lines[2]) == "No results for 周杰")
        #expect(none.lines.contains { $0.text.contains("No artists") })
        #expect(ViewTest.trimmed(render(section: 1, width: 30).lines[1]) == "Songs · Albums · Artists")
        let narrow = render(section: 1, width: 20)
        #expect(narrow.lines[1] == [StyledSpan(TerminalWidth.pad("Albums (2)", to: 20), .highlight)])
        // The query scrolls to keep the cursor in view.
        let long = render(query: "一二三四五六七八九十", cursor: 10, width: 14)
        #expect(long.lines[0].text == "/ …六七八九十▏")
    }

    @Test func everySizeIsExact() {
        let messy = SearchResults(
            songs: Self.results.songs + [Self.song(ViewTest.messy, ViewTest.messy, ViewTest.messy, ms: 1)],
            albums: Self.results.albums, artists: Self.results.artists)
        for (width, height) in ViewTest.sizes {
            for section in [-1, 0, 1, 2, 5] {
                for results in [messy, nil] {
                    let output = render(
                        query: ViewTest.messy, cursor: 4, results: results, section: section, selected: 2,
                        status: "Searching…", width: width, height: height)
                    ViewTest.expectShape(output.lines, width: width, height: height, "search")
                }
            }
        }
    }
}
