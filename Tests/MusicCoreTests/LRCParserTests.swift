import MusicCore
import Testing

@Suite("LRC parsing")
struct LRCParserTests {
    @Test(
        "fractions of 1, 2 and 3 digits are decimal fractions of a second",
        arguments: [
            ("[00:01.5]a", 1500), ("[00:01.50]a", 1500), ("[00:01.500]a", 1500),
            ("[00:01.05]a", 1050), ("[00:01.005]a", 1005), ("[00:01.1234]a", 1123),
        ])
    func fractionWidths(source: String, expected: Int) {
        let lyric = LyricParser.parseLRC(source)
        #expect(lyric.issues.isEmpty)
        #expect(lyric.lines.map(\.start) == [expected])
    }

    @Test func timestampWithoutFraction() {
        #expect(LyricParser.parseLRC("[01:02]a").lines.first?.start == 62_000)
    }

    @Test func colonFractionVariant() {
        #expect(LyricParser.parseLRC("[01:02:50]a").lines.first?.start == 62_500)
        #expect(LyricParser.parseLRC("[01:02:5]a").lines.first?.start == 62_500)
    }

    @Test func hourForm() {
        #expect(LyricParser.parseLRC("[1:02:03.25]a").lines.first?.start == 3_723_250)
    }

    @Test func minutesBeyondAnHour() {
        #expect(LyricParser.parseLRC("[75:00.00]a").lines.first?.start == 4_500_000)
        #expect(LyricParser.parseLRC("[123:04.50]a").lines.first?.start == 7_384_500)
        #expect(LyricParser.parseLRC("[1:04.50]a").lines.first?.start == 64_500)
    }

    @Test func textIsTrimmed() {
        let lyric = LyricParser.parseLRC("  [00:01.00]   hello world   ")
        #expect(lyric.lines == [LyricLine(start: 1000, end: 6000, text: "hello world")])
    }

    @Test func severalTimestampsGiveSeveralLines() {
        let lyric = LyricParser.parseLRC("[00:12.00][01:30.50]chorus\n[00:20.00]verse")
        #expect(lyric.lines.map(\.start) == [12_000, 20_000, 90_500])
        #expect(lyric.lines.map(\.text) == ["chorus", "verse", "chorus"])
        #expect(lyric.lines.map(\.end) == [20_000, 90_500, 95_500])
    }

    @Test func bracketTextAfterTimestampIsText() {
        let lyric = LyricParser.parseLRC("[00:01.00][Chorus] la la")
        #expect(lyric.lines.first?.text == "[Chorus] la la")
        #expect(lyric.issues.isEmpty)
    }

    @Test func positiveOffsetMakesLyricsEarlier() {
        let lyric = LyricParser.parseLRC("[offset:+500]\n[00:01.00]a\n[00:02.00]b")
        #expect(lyric.lines.map(\.start) == [500, 1500])
        #expect(lyric.tags["offset"] == "+500")
    }

    @Test func offsetWithoutSignIsPositive() {
        #expect(LyricParser.parseLRC("[offset:500]\n[00:01.00]a").lines.first?.start == 500)
    }

    @Test func negativeOffsetMakesLyricsLater() {
        let lyric = LyricParser.parseLRC("[offset:-250]\n[00:01.00]a")
        #expect(lyric.lines.first?.start == 1250)
    }

    @Test func offsetAppliesToLinesBeforeIt() {
        let lyric = LyricParser.parseLRC("[00:01.00]a\n[offset:1000]")
        #expect(lyric.lines.first?.start == 0)
    }

    @Test func offsetClampsAtZero() {
        let lyric = LyricParser.parseLRC("[offset:+2000]\n[00:01.00]<00:01.00>a <00:03.00>b")
        #expect(lyric.lines.first?.start == 0)
        #expect(lyric.lines.first?.words.map(\.start) == [0, 1000])
    }

    @Test func badOffsetIsReportedAndIgnored() {
        let lyric = LyricParser.parseLRC("[offset:soon]\n[00:01.00]a")
        #expect(lyric.lines.first?.start == 1000)
        #expect(lyric.issues.map(\.line) == [1])
    }

    @Test func tags() {
        let lyric = LyricParser.parseLRC(
            "[ti:Title]\n[ar: Artist ]\n[al:Album]\n[by:Me]\n[length: 03:45]\n[TI:Upper]\n[ti2:x]\n[00:01.00]a"
        )
        #expect(lyric.tags["ar"] == "Artist")
        #expect(lyric.tags["al"] == "Album")
        #expect(lyric.tags["by"] == "Me")
        #expect(lyric.tags["length"] == "03:45")
        #expect(lyric.tags["ti"] == "Upper")  // keys are lowercased, the later one wins
        #expect(lyric.tags["ti2"] == nil)  // keys are alphabetic
        #expect(lyric.issues.map(\.line) == [7])
        #expect(lyric.lines.count == 1)
    }

    @Test func tagValueMayContainBrackets() {
        #expect(LyricParser.parseLRC("[ti:Song [Live]]").tags["ti"] == "Song [Live]")
    }

    @Test func emptyTimedLinesAreKept() {
        let lyric = LyricParser.parseLRC("[00:01.00]a\n[00:05.00]\n[00:09.00]b")
        #expect(lyric.lines.map(\.text) == ["a", "", "b"])
        #expect(lyric.lines[1] == LyricLine(start: 5000, end: 9000, text: ""))
    }

    @Test func unsortedInputIsSortedStably() {
        let lyric = LyricParser.parseLRC("[00:03.00]c\n[00:01.00]a\n[00:02.00]b1\n[00:02.00]b2")
        #expect(lyric.lines.map(\.text) == ["a", "b1", "b2", "c"])
        #expect(lyric.lines.map(\.end) == [2000, 3000, 3000, 8000])
    }

    @Test func equalStartsEndAtTheNextLaterLine() {
        let lyric = LyricParser.parseLRC("[00:01.00]original\n[00:01.00]translation\n[00:04.00]next")
        #expect(lyric.lines.map(\.end) == [4000, 4000, 9000])
    }

    @Test(
        "line endings and byte order mark",
        arguments: [
            "\u{FEFF}[ti:T]\r\n[00:01.00]a\r\n[00:02.00]b\r\n",
            "[ti:T]\r[00:01.00]a\r[00:02.00]b",
            "[ti:T]\n[00:01.00]a\n\n[00:02.00]b\n",
        ])
    func lineEndings(source: String) {
        let lyric = LyricParser.parseLRC(source)
        #expect(lyric.tags == ["ti": "T"])
        #expect(lyric.lines.map(\.text) == ["a", "b"])
        #expect(lyric.issues.isEmpty)
    }

    @Test func brokenLinesAreReportedWithLineNumbers() {
        let source = """
            [ti:T]
            [00:01.00]good
            just text
            [00:6x.00]bad seconds
            [1:2:3:4]too many parts
            [00:02.00]good too
            [chorus]
            [00:03.00
            [00:61.00]seconds out of range
            [00:04.]no fraction digits
            [00:05.00][00:0y.00]second stamp broken
            """
        let lyric = LyricParser.parseLRC(source)
        #expect(lyric.lines.map(\.text) == ["good", "good too"])
        #expect(lyric.issues.map(\.line) == [3, 4, 5, 7, 8, 9, 10, 11])
        #expect(lyric.issues.allSatisfy { !$0.reason.isEmpty })
        #expect(lyric.issues[1].reason.contains("[00:6x.00]"))
    }

    @Test func lastLineLastsFiveSeconds() {
        let lyric = LyricParser.parseLRC("[00:01.00]a\n[00:02.00]b")
        #expect(lyric.lines.last?.end == 7000)
    }

    @Test func noLinesGivesEmptyLyric() {
        let lyric = LyricParser.parseLRC("")
        #expect(lyric == Lyric(format: .lrc))
        #expect(lyric.lineIndex(at: 0) == nil)
        #expect(lyric.position(at: 0) == nil)
    }
}

@Suite("Enhanced LRC word times")
struct EnhancedLRCTests {
    @Test func wordsWithClosingTag() {
        let lyric = LyricParser.parseLRC(
            "[00:01.00]<00:01.00>Hello <00:01.50>big <00:02.00>world<00:03.00>\n[00:05.00]x")
        let line = lyric.lines[0]
        #expect(line.text == "Hello big world")
        #expect(
            line.words == [
                LyricWord(start: 1000, duration: 500, text: "Hello "),
                LyricWord(start: 1500, duration: 500, text: "big "),
                LyricWord(start: 2000, duration: 1000, text: "world"),
            ])
        #expect(line.end == 5000)
        #expect(lyric.lines[1].words.isEmpty)
    }

    @Test func lastWordRunsToTheNextLine() {
        let lyric = LyricParser.parseLRC("[00:01.00]<00:01.00>a <00:02.00>b\n[00:04.00]c")
        #expect(lyric.lines[0].words.map(\.duration) == [1000, 2000])
    }

    @Test func lastLineEndsWithItsWords() {
        let closed = LyricParser.parseLRC("[00:01.00]<00:01.00>a <00:02.00>b<00:02.70>")
        #expect(closed.lines[0].end == 2700)
        let open = LyricParser.parseLRC("[00:01.00]<00:01.00>a <00:02.00>b")
        #expect(open.lines[0].words.last?.duration == LyricParser.defaultLastWordDuration)
        #expect(open.lines[0].end == 3000)
    }

    @Test func textBeforeTheFirstTagStartsAtTheLine() {
        let lyric = LyricParser.parseLRC("[00:01.00]Hi <00:01.40>there<00:02.00>")
        #expect(
            lyric.lines[0].words == [
                LyricWord(start: 1000, duration: 400, text: "Hi "),
                LyricWord(start: 1400, duration: 600, text: "there"),
            ])
    }

    @Test func spacesBetweenTagsBelongToThePreviousWord() {
        let lyric = LyricParser.parseLRC("[00:01.00]<00:01.00>a<00:01.50> <00:02.00>b <00:03.00>")
        let line = lyric.lines[0]
        #expect(line.words.map(\.text) == ["a ", "b"])
        #expect(line.words.map(\.duration) == [500, 1000])
        #expect(line.text == "a b")
    }

    @Test func cjkWords() {
        let lyric = LyricParser.parseLRC("[00:01.00]<00:01.00>一<00:01.30>时<00:01.60>失<00:02.00>")
        #expect(lyric.lines[0].text == "一时失")
        #expect(lyric.lines[0].words.map(\.start) == [1000, 1300, 1600])
    }

    @Test func wordsFollowEveryTimestampOfTheLine() {
        let lyric = LyricParser.parseLRC("[00:10.00][01:10.00]<00:10.00>la <00:10.50>la<00:11.00>")
        #expect(lyric.lines[1].words.map(\.start) == [70_000, 70_500])
        #expect(lyric.lines[1].words.map(\.duration) == [500, 500])
    }

    @Test func offsetShiftsWords() {
        let lyric = LyricParser.parseLRC("[offset:-100]\n[00:01.00]<00:01.00>a<00:02.00>")
        #expect(lyric.lines[0].words == [LyricWord(start: 1100, duration: 1000, text: "a")])
    }

    @Test func anglesThatAreNotTimesStayText() {
        let lyric = LyricParser.parseLRC("[00:01.00]I <3 you <b>really</b>")
        #expect(lyric.lines[0].text == "I <3 you <b>really</b>")
        #expect(lyric.lines[0].words.isEmpty)
    }

    @Test func backwardWordTimesAreRepairedAndReported() {
        let lyric = LyricParser.parseLRC("[00:01.00]<00:02.00>a <00:01.50>b<00:03.00>")
        #expect(lyric.lines[0].words.map(\.start) == [2000, 2000])
        #expect(lyric.lines[0].words.allSatisfy { $0.duration >= 0 })
        #expect(lyric.issues.map(\.line) == [1])
    }
}
