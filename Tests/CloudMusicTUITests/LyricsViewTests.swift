import CloudMusicTUI
import MusicCore
import Testing

@Suite struct LyricsViewTests {
    /// 30 LRC lines, one every 4 s from 0:10: "Line 0", "第1行 歌词", "Line 2", ...
    static let lrc: Lyric = {
        var source = ""
        for index in 0..<30 {
            let seconds = 10 + index * 4
            let text = index % 2 == 0 ? "Line \(index)" : "第\(index)行 歌词"
            source += "[\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60).00]\(text)\n"
        }
        return LyricParser.parseLRC(source)
    }()

    static let ksc = LyricParser.parseKSC(
        """
        karaoke.add('00:20.000', '00:27.000', '爱拼才会赢', '1000,1000,1000,1000,1000');
        karaoke.add('00:27.487', '00:32.068', '一时失志不免怨叹', '347,373,1077,320,344,386,638,1096');
        karaoke.add('00:33.000', '00:36.000', '[Hello] [world]', '1000,2000');
        """)

    /// The screen has the asked size, every row exactly as wide as asked.
    func expectShape(_ screen: [Line], width: Int, height: Int) {
        #expect(screen.count == height)
        for row in screen { #expect(row.width == width, "\(row.text)") }
    }

    func centred(_ text: String, width: Int) -> String {
        TerminalWidth.pad(text, to: width, alignment: .center)
    }

    @Test(arguments: [(80, 24), (200, 60), (41, 7)])
    func currentLineIsCentredAndHighlighted(width: Int, height: Int) {
        let lyric = Self.lrc
        let screen = LyricsView.render(
            lyric: lyric, milliseconds: 10_000 + 11 * 4000 + 1500, width: width, height: height)
        expectShape(screen, width: width, height: height)
        let middle = (height - 1) / 2
        #expect(screen[middle].text == centred("第11行 歌词", width: width))
        #expect(screen[middle].contains { $0.style == .highlight && $0.text == "第11行 歌词" })
        #expect(screen[middle - 1].text == centred("Line 10", width: width))
        #expect(screen[middle + 1].text == centred("Line 12", width: width))
        for (index, row) in screen.enumerated() where index != middle {
            #expect(!row.contains { $0.style == .highlight })
        }
        // The lines above and below are dimmed, and in order.
        #expect(screen[middle - 1].contains { $0.style == .dim && $0.text == "Line 10" })
        if middle >= 11 {
            #expect(screen[middle - 11].text == centred("Line 0", width: width))
            if middle >= 12 { #expect(screen[middle - 12].text.allSatisfy { $0 == " " }) }
        }
    }

    @Test func beforeTheFirstLineTheFirstWaitsDimmedInTheMiddle() {
        let screen = LyricsView.render(lyric: Self.lrc, milliseconds: 3000, width: 80, height: 24)
        expectShape(screen, width: 80, height: 24)
        #expect(screen[11].text == centred("Line 0", width: 80))
        #expect(screen.allSatisfy { row in !row.contains { $0.style == .highlight } })
        #expect(screen[0...10].allSatisfy { $0.text.allSatisfy { $0 == " " } })
        #expect(screen[12].text == centred("第1行 歌词", width: 80))
    }

    @Test func afterTheLastLineItStaysInTheMiddle() {
        let screen = LyricsView.render(lyric: Self.lrc, milliseconds: 3_600_000, width: 80, height: 24)
        expectShape(screen, width: 80, height: 24)
        #expect(screen[11].text == centred("第29行 歌词", width: 80))
        #expect(screen[12...].allSatisfy { $0.text.allSatisfy { $0 == " " } })
    }

    @Test func noLyricOrAnEmptyOneSaysSo() {
        for lyric in [nil, Lyric(format: .lrc)] as [Lyric?] {
            let screen = LyricsView.render(lyric: lyric, milliseconds: 0, width: 80, height: 24)
            expectShape(screen, width: 80, height: 24)
            #expect(screen[11].text == centred("No lyrics", width: 80))
        }
        #expect(LyricsView.render(lyric: nil, milliseconds: 0, width: 80, height: 0).isEmpty)
        expectShape(
            LyricsView.render(lyric: Self.lrc, milliseconds: 20_000, width: 0, height: 3), width: 0, height: 3
        )
    }

    /// The sung part of the current row at `ms`.
    func sung(at ms: Int, width: Int = 80, height: Int = 24) -> String {
        let screen = LyricsView.render(lyric: Self.ksc, milliseconds: ms, width: width, height: height)
        expectShape(screen, width: width, height: height)
        let row = screen[(height - 1) / 2]
        return row.filter { $0.style == .karaokeSung }.map(\.text).joined()
    }

    @Test func karaokeFillsTheCurrentWordAtGivenTimes() {
        let lyric = Self.ksc
        #expect(lyric.issues.isEmpty)
        #expect(
            lyric.lines[1].words.map(\.start) == [27487, 27834, 28207, 29284, 29604, 29948, 30334, 30972])
        // Line 2 starts at 27.487 s; its words last 347, 373, 1077, ... ms; a character turns at its middle.
        #expect(sung(at: 27_487) == "")
        #expect(sung(at: 27_487 + 173) == "")
        #expect(sung(at: 27_487 + 174) == "一")
        #expect(sung(at: 27_834) == "一")
        #expect(sung(at: 28_207 + 538) == "一时")  // 失 at 538/1077 < half
        #expect(sung(at: 28_207 + 539) == "一时失")  // 539/1077 > half
        #expect(sung(at: 30_972 + 547) == "一时失志不免怨")
        #expect(sung(at: 30_972 + 548) == "一时失志不免怨叹")
        #expect(sung(at: 32_500) == "一时失志不免怨叹")  // after the end, before the next line
        let screen = LyricsView.render(lyric: lyric, milliseconds: 28_207 + 539, width: 80, height: 24)
        #expect(screen[11].filter { $0.style == .karaokeUnsung }.map(\.text).joined() == "志不免怨叹")
        #expect(screen[11].text == centred("一时失志不免怨叹", width: 80))
        #expect(screen[10].text == centred("爱拼才会赢", width: 80))
        #expect(screen[12].text == centred("Hello world", width: 80))
    }

    @Test func karaokeFillsLatinWordsLetterByLetter() {
        // "Hello " is 6 columns over 1000 ms: 3 columns at 500 ms ("Hel"), all at 1000 ms.
        #expect(sung(at: 33_000) == "")
        #expect(sung(at: 33_500) == "Hel")
        #expect(sung(at: 34_000) == "Hello ")
        #expect(sung(at: 34_900) == "Hello wo")  // 0.45 of 5 columns
        #expect(sung(at: 35_000) == "Hello wor")  // 0.5: the fill reaches r's middle
        #expect(sung(at: 36_000) == "Hello world")
    }

    @Test func longLinesWrapWithoutCuttingCharactersAndKeepTheFill() {
        // 16 columns in a 7-column pane: 一时失, 志不免, 怨叹 (each row ≤ 7 columns, centred).
        let screen = LyricsView.render(lyric: Self.ksc, milliseconds: 29_604 + 200, width: 7, height: 9)
        expectShape(screen, width: 7, height: 9)
        let rows = screen.map(\.text)
        #expect(rows[3] == " 一时失" || rows[3] == "一时失 ")
        #expect(rows[3].contains("一时失") && rows[4].contains("志不免") && rows[5].contains("怨叹"))
        #expect(screen[3].allSatisfy { $0.style != .karaokeUnsung || $0.text.allSatisfy { $0 == " " } })
        #expect(screen[4].filter { $0.style == .karaokeSung }.map(\.text).joined() == "志不")
        #expect(screen[5].filter { $0.style == .karaokeSung }.isEmpty)
    }

    @Test func sungCharactersRoundToCharacterBoundaries() {
        #expect(LyricsView.sungCharacters(of: "中", progress: 0.49) == 0)
        #expect(LyricsView.sungCharacters(of: "中", progress: 0.5) == 1)
        #expect(LyricsView.sungCharacters(of: "ab中", progress: 0.5) == 2)
        #expect(LyricsView.sungCharacters(of: "ab中", progress: 0.74) == 2)
        #expect(LyricsView.sungCharacters(of: "ab中", progress: 0.75) == 3)
        #expect(LyricsView.sungCharacters(of: "👩‍👩‍👧‍👦", progress: 1) == 1)
        #expect(LyricsView.sungCharacters(of: "", progress: 1) == 0)
    }
}
