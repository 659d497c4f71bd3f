import MusicCore
import Testing

@Suite("KSC parsing")
struct KSCParserTests {
    @Test func cjkLine() {
        let lyric = LyricParser.parseKSC(
            "karaoke.add('00:27.487', '00:32.068', '一时失志不免怨叹', '347,373,1077,320,344,386,638,1096');")
        #expect(lyric.issues.isEmpty)
        #expect(lyric.format == .ksc)
        let line = lyric.lines[0]
        #expect(line.start == 27_487)
        #expect(line.end == 32_068)
        #expect(line.text == "一时失志不免怨叹")
        #expect(line.words.map(\.text) == ["一", "时", "失", "志", "不", "免", "怨", "叹"])
        #expect(line.words.map(\.duration) == [347, 373, 1077, 320, 344, 386, 638, 1096])
        #expect(line.words.map(\.start) == [27_487, 27_834, 28_207, 29_284, 29_604, 29_948, 30_334, 30_972])
    }

    @Test func bracketedLatinWords() {
        let lyric = LyricParser.parseKSC(
            "karaoke.add('00:01.000', '00:03.000', '[Hello][world]', '500,1500');")
        #expect(lyric.lines[0].text == "Hello world")
        #expect(
            lyric.lines[0].words == [
                LyricWord(start: 1000, duration: 500, text: "Hello "),
                LyricWord(start: 1500, duration: 1500, text: "world"),
            ])
    }

    @Test func bracketedWordsWithSpaces() {
        let lyric = LyricParser.parseKSC(
            "karaoke.add('00:01.000', '00:03.000', '[I] [love] [you]', '1,2,3');")
        #expect(lyric.lines[0].text == "I love you")
        #expect(lyric.lines[0].words.map(\.text) == ["I ", "love ", "you"])
    }

    @Test func mixedScripts() {
        let lyric = LyricParser.parseKSC(
            "karaoke.add('00:01.000', '00:05.000', '[Baby]我爱你 forever 1000次 さくら 사랑', '1,1,1,1,1,1,1,1,1,1,1,1');"
        )
        #expect(lyric.issues.isEmpty)
        #expect(
            lyric.lines[0].words.map(\.text) == [
                "Baby", "我", "爱", "你 ", "forever ", "1000", "次 ", "さ", "く", "ら ", "사", "랑",
            ])
        #expect(lyric.lines[0].text == "Baby我爱你 forever 1000次 さくら 사랑")
    }

    @Test func mismatchedDurationsSpreadWordsEvenly() {
        let lyric = LyricParser.parseKSC("karaoke.add('00:01.000', '00:04.000', '一二三', '100,200');")
        #expect(
            lyric.lines[0].words == [
                LyricWord(start: 1000, duration: 1000, text: "一"),
                LyricWord(start: 2000, duration: 1000, text: "二"),
                LyricWord(start: 3000, duration: 1000, text: "三"),
            ])
        #expect(lyric.issues.map(\.line) == [1])
        #expect(lyric.issues[0].reason.contains("2 word durations for 3 words"))
    }

    @Test func missingOrBadDurationsSpreadWordsEvenly() {
        let lyric = LyricParser.parseKSC(
            "karaoke.add('00:01.000', '00:02.000', '一二');\nkaraoke.add('00:03.000', '00:04.000', '一二', '1,x');"
        )
        #expect(lyric.lines.map { $0.words.map(\.duration) } == [[500, 500], [500, 500]])
        #expect(lyric.issues.map(\.line) == [1, 2])
    }

    @Test func escapedAndDoubledQuotes() {
        let lyric = LyricParser.parseKSC(
            #"""
            karaoke.add('00:01.000', '00:02.000', '[Don\'t] [stop]', '500,500');
            karaoke.add("00:03.000", "00:04.000", "[say] [\"hi\"]", "500,500");
            karaoke.add('00:05.000', '00:06.000', '[it''s]', '1000');
            """#)
        #expect(lyric.issues.isEmpty)
        #expect(lyric.lines.map(\.text) == ["Don't stop", "say \"hi\"", "it's"])
    }

    @Test(
        "time forms",
        arguments: [
            ("00:27.487", 27_487), ("0:27.48", 27_480), ("0:27.4", 27_400), ("01:00:27.487", 3_627_487),
            ("75:00.000", 4_500_000), ("00:27", 27_000),
        ])
    func timeForms(time: String, expected: Int) {
        let lyric = LyricParser.parseKSC("karaoke.add('\(time)', '99:00.000', '', '');")
        #expect(lyric.issues.isEmpty)
        #expect(lyric.lines.first?.start == expected)
    }

    @Test func tagsAndIgnoredStatements() {
        let source = """
            \u{FEFF}// a comment
            karaoke := CreateKaraokeObject;
            karaoke.rows := 2;
            karaoke.clear;
            karaoke.clear();
            karaoke.songname := 'Song';
            karaoke.TimeOffset := 0;
            karaoke.tag('语种', '国语');
            karaoke.tag("key", "value") // trailing comment

            karaoke.add('00:01.000', '00:02.000', '一', '1000');
            """
        let lyric = LyricParser.parseKSC(source)
        #expect(lyric.issues.isEmpty)
        #expect(lyric.tags == ["语种": "国语", "key": "value", "songname": "Song", "TimeOffset": "0"])
        #expect(lyric.lines.count == 1)
    }

    @Test func brokenLinesAreReportedWithLineNumbers() {
        let source = """
            karaoke.add('00:01.000', '00:02.000', '一', '1000');
            hello
            karaoke.add('00:0x.000', '00:02.000', '一', '1000');
            karaoke.add('00:03.000', '00:02.000', '一', '1000');
            karaoke.add('00:03.000', '00:04.000', '一);
            karaoke.add('00:03.000');
            karaoke.fly('away');
            karaoke.tag('only key');
            karaoke.add('00:05.000', '00:06.000', '二', '1000') junk
            """
        let lyric = LyricParser.parseKSC(source)
        #expect(lyric.lines.map(\.text) == ["一", "二"])
        #expect(lyric.issues.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test func linesAreSortedStably() {
        let lyric = LyricParser.parseKSC(
            """
            karaoke.add('00:05.000', '00:06.000', '三', '1000');
            karaoke.add('00:01.000', '00:02.000', '一', '1000');
            karaoke.add('00:01.000', '00:02.000', '二', '1000');
            """)
        #expect(lyric.lines.map(\.text) == ["一", "二", "三"])
    }

    @Test func crlfLineEndings() {
        let lyric = LyricParser.parseKSC(
            "karaoke.tag('a', 'b');\r\nkaraoke.add('00:01.000', '00:02.000', '一', '1000');\r\n")
        #expect(lyric.issues.isEmpty)
        #expect(lyric.lines.count == 1)
    }

    @Test func unclosedBracketIsReportedButKept() {
        let lyric = LyricParser.parseKSC("karaoke.add('00:01.000', '00:02.000', '一[two', '500,500');")
        #expect(lyric.lines[0].words.map(\.text) == ["一", "two"])
        #expect(lyric.issues.map(\.line) == [1])
    }
}

@Suite("Format choice")
struct LyricFormatTests {
    @Test func songStyle() {
        #expect(LyricParser.format(forSongStyle: 10) == .ksc)
        #expect(LyricParser.format(forSongStyle: 0) == .lrc)
        #expect(LyricParser.format(forSongStyle: 20) == .lrc)
        #expect(LyricParser.format(forSongStyle: -1) == .lrc)
    }

    @Test func detection() {
        #expect(
            LyricParser.detectFormat("karaoke.rows := 2;\nkaraoke.add('00:01.000', '00:02.000', 'a', '1');")
                == .ksc)
        #expect(LyricParser.detectFormat("Karaoke.Add ('00:01.000'") == .ksc)
        #expect(LyricParser.detectFormat("[00:01.00]karaoke.added to the party") == .lrc)
        #expect(LyricParser.detectFormat("") == .lrc)
    }

    @Test func parseDispatches() {
        #expect(LyricParser.parse("[00:01.00]a", format: .lrc).lines.count == 1)
        #expect(
            LyricParser.parse("karaoke.add('00:01.000', '00:02.000', 'a', '1000');", format: .ksc).lines.count
                == 1)
    }
}
