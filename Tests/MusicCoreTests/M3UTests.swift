import MusicCore
import Testing

@Suite("M3U playlists")
struct M3UTests {
    typealias Entry = M3U.Entry

    @Test func plainListOfPaths() {
        #expect(
            M3U.parse("a.mp3\n/music/b.flac\nhttp://host/c.ogg\n") == [
                Entry(location: "a.mp3"), Entry(location: "/music/b.flac"),
                Entry(location: "http://host/c.ogg"),
            ])
        #expect(M3U.parse("").isEmpty)
        #expect(M3U.parse("#EXTM3U\n").isEmpty)
        #expect(M3U.parse("\n\r\n  \n").isEmpty)
    }

    @Test func extinfWithTitleAndDuration() {
        let text = "#EXTM3U\n#EXTINF:215,Band - Song\n/music/Band/Song.mp3\n"
        #expect(
            M3U.parse(text) == [Entry(location: "/music/Band/Song.mp3", title: "Band - Song", duration: 215)])
    }

    @Test func byteOrderMarkIsSkipped() {
        let text = "\u{FEFF}#EXTM3U\n#EXTINF:3,One\none.mp3\n"
        #expect(M3U.parse(text) == [Entry(location: "one.mp3", title: "One", duration: 3)])
        // Without #EXTM3U the mark must not end up in the first location.
        #expect(
            M3U.parse("\u{FEFF}one.mp3\ntwo.mp3") == [Entry(location: "one.mp3"), Entry(location: "two.mp3")])
    }

    @Test func crlfAndLoneCRLineEndings() {
        let crlf = "#EXTM3U\r\n#EXTINF:10,Ten\r\nten.mp3\r\n\r\n#EXTINF:20,Twenty\r\ntwenty.mp3\r\n"
        let expected = [
            Entry(location: "ten.mp3", title: "Ten", duration: 10),
            Entry(location: "twenty.mp3", title: "Twenty", duration: 20),
        ]
        #expect(M3U.parse(crlf) == expected)
        #expect(M3U.parse(crlf.replacingOccurrences(of: "\r\n", with: "\r")) == expected)
        // No trailing newline at the end of the file.
        #expect(M3U.parse("#EXTINF:10,Ten\r\nten.mp3") == [expected[0]])
    }

    @Test func extinfWithoutTitle() {
        #expect(M3U.parse("#EXTINF:42\nx.mp3") == [Entry(location: "x.mp3", title: nil, duration: 42)])
        #expect(M3U.parse("#EXTINF:42,\nx.mp3") == [Entry(location: "x.mp3", title: nil, duration: 42)])
        #expect(M3U.parse("#EXTINF:42,   \nx.mp3") == [Entry(location: "x.mp3", title: nil, duration: 42)])
        #expect(M3U.parse("#EXTINF:,Only Title\nx.mp3") == [Entry(location: "x.mp3", title: "Only Title")])
    }

    @Test func unknownDurations() {
        #expect(
            M3U.parse("#EXTINF:-1,Stream\nhttp://radio/") == [
                Entry(location: "http://radio/", title: "Stream")
            ])
        #expect(M3U.parse("#EXTINF:abc,T\nx.mp3") == [Entry(location: "x.mp3", title: "T")])
        #expect(M3U.parse("#EXTINF:1e99,T\nx.mp3") == [Entry(location: "x.mp3", title: "T")])
        #expect(M3U.parse("#EXTINF:nan,T\nx.mp3") == [Entry(location: "x.mp3", title: "T")])
        // Fractions of a second round to the nearest second.
        #expect(M3U.parse("#EXTINF:61.6,T\nx.mp3").first?.duration == 62)
        #expect(M3U.parse("#EXTINF:0,T\nx.mp3").first?.duration == 0)
    }

    @Test func attributesBeforeTheComma() {
        let simple = #"#EXTINF:180 tvg-id="abc" group-title="Pop",Artist - Song"# + "\nsong.mp3"
        #expect(M3U.parse(simple) == [Entry(location: "song.mp3", title: "Artist - Song", duration: 180)])
        let unknown = #"#EXTINF:-1 tvg-logo="http://x/y.png",Radio One"# + "\nhttp://radio/one"
        #expect(M3U.parse(unknown) == [Entry(location: "http://radio/one", title: "Radio One")])
        // A comma inside a quoted attribute value is part of the value, not the start of the title.
        let quotedComma = #"#EXTINF:200 tvg-name="Hits, 2020" group-title="Pop",Artist - Song"# + "\nsong.mp3"
        #expect(
            M3U.parse(quotedComma) == [Entry(location: "song.mp3", title: "Artist - Song", duration: 200)])
        // A quote never closed: the first comma still starts the title.
        let unclosed = #"#EXTINF:5 tvg-name="oops,Title"# + "\nsong.mp3"
        #expect(M3U.parse(unclosed) == [Entry(location: "song.mp3", title: "Title", duration: 5)])
        // Quotes in the title itself, after the comma, are part of it.
        let quotedTitle = #"#EXTINF:5,Band - "Live, at last""# + "\nsong.mp3"
        #expect(
            M3U.parse(quotedTitle) == [
                Entry(location: "song.mp3", title: #"Band - "Live, at last""#, duration: 5)
            ])
    }

    @Test func commasInTheTitleAreKept() {
        #expect(
            M3U.parse("#EXTINF:100,Earth, Wind & Fire - September\nsept.mp3")
                == [Entry(location: "sept.mp3", title: "Earth, Wind & Fire - September", duration: 100)])
    }

    @Test func commentsAndDirectivesAreSkipped() {
        let text = """
            #EXTM3U
            # a comment
            #PLAYLIST:Road trip
            #EXTINF:5,Five
            #EXTGRP:Group
            # another comment between the info and its location

            five.mp3
            #EXTALB:Not a song
            plain.mp3
            """
        #expect(
            M3U.parse(text) == [
                Entry(location: "five.mp3", title: "Five", duration: 5), Entry(location: "plain.mp3"),
            ])
    }

    @Test func extinfDescribesOnlyTheNextLocation() {
        let text = "#EXTINF:1,First\n#EXTINF:2,Second\na.mp3\nb.mp3\n#EXTINF:3,Dangling"
        #expect(
            M3U.parse(text) == [
                Entry(location: "a.mp3", title: "Second", duration: 2), Entry(location: "b.mp3"),
            ])
    }

    @Test func surroundingWhitespaceIsTrimmed() {
        #expect(
            M3U.parse("  #EXTINF:7 ,  Spaced Title  \n\t /music/a b.mp3 \t\n")
                == [Entry(location: "/music/a b.mp3", title: "Spaced Title", duration: 7)])
    }

    @Test func unicodeTitlesAndPaths() {
        let text = "#EXTINF:3,林晓 - 一时失志 🎵\n/音乐/林晓/01 一时失志.flac\n"
        #expect(
            M3U.parse(text) == [Entry(location: "/音乐/林晓/01 一时失志.flac", title: "林晓 - 一时失志 🎵", duration: 3)])
    }

    @Test func formatWritesExtendedM3U() {
        let text = M3U.format([
            Entry(location: "/v1/songs/1/stream", title: "Band - Song", duration: 215),
            Entry(location: "b.mp3"),
        ])
        #expect(text == "#EXTM3U\n#EXTINF:215,Band - Song\n/v1/songs/1/stream\n#EXTINF:-1,\nb.mp3\n")
        #expect(M3U.format([]) == "#EXTM3U\n")
    }

    @Test func formatKeepsEachEntryOnItsLines() {
        let text = M3U.format([Entry(location: "a\nb.mp3", title: "Line\r\nbreak\rand\nmore", duration: 1)])
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
        #expect(!text.contains("\r"))
        #expect(M3U.parse(text) == [Entry(location: "a b.mp3", title: "Line break and more", duration: 1)])
    }

    @Test func roundTrip() {
        let entries = [
            Entry(location: "/music/林晓/夜空/01.mp3", title: "林晓 - 一时失志", duration: 183),
            Entry(location: "http://127.0.0.1:8080/v1/songs/42/stream", title: "A, B - C", duration: 0),
            Entry(location: "relative/path with spaces.ogg", title: nil, duration: nil),
            Entry(location: "x.flac", title: "No duration", duration: nil),
            Entry(location: "y.flac", title: nil, duration: 9),
        ]
        let text = M3U.format(entries)
        #expect(M3U.parse(text) == entries)
        #expect(M3U.parse("\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")) == entries)
        #expect(M3U.format(M3U.parse(text)) == text)
    }
}
