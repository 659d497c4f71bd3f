import MusicCore
import Testing

@Suite("Lyric sync")
struct LyricSyncTests {
    /// Lines at 1 s ("a", not word-timed), 3 s (words at 3.0/3.5/4.5 s with a gap), 6 s and 6 s, 8 s.
    let lrc = LyricParser.parseLRC(
        """
        [00:01.00]a
        [00:03.00]<00:03.00>x <00:03.50>y<00:04.00> <00:04.50>z<00:05.00>
        [00:06.00]orig
        [00:06.00]translation
        [00:08.00]last
        """)

    /// Two word-timed KSC lines with a gap, zero-length words, and a line that starts before the last ends.
    let ksc = LyricParser.parseKSC(
        """
        karaoke.tag('title', 'test');
        karaoke.add('00:01.000', '00:02.000', '一二', '500,500');
        karaoke.add('00:04.000', '00:05.500', '三四五六', '0,0,1000,500');
        karaoke.add('00:05.000', '00:06.000', '七', '1000');
        karaoke.add('00:07.000', '00:07.000', '[la]', '0');
        """)

    @Test func emptyLyricHasNoPosition() {
        var sync = LyricSync(lyric: Lyric(format: .lrc))
        for ms in [Int.min, -1, 0, 1, 5000, Int.max] {
            #expect(sync.update(milliseconds: ms) == nil)
        }
        #expect(sync.position == nil)
    }

    @Test func beforeTheFirstLineAndAfterTheLast() {
        var sync = LyricSync(lyric: lrc)
        #expect(sync.update(milliseconds: Int.min) == nil)
        #expect(sync.update(milliseconds: 0) == nil)
        #expect(sync.update(milliseconds: 999) == nil)
        #expect(sync.update(milliseconds: 1000)?.lineIndex == 0)
        #expect(
            sync.update(milliseconds: 13_000)
                == LyricPosition(lineIndex: 4, wordIndex: nil, wordProgress: 1, lineProgress: 1))
        #expect(sync.update(milliseconds: Int.max)?.lineIndex == 4)
        #expect(sync.update(milliseconds: 500) == nil)  // seek back before the first line
        #expect(sync.position == nil)
    }

    @Test func linesWithoutWordsAndGapsBetweenWords() {
        var sync = LyricSync(lyric: lrc)
        #expect(
            sync.update(milliseconds: 2000)
                == LyricPosition(lineIndex: 0, wordIndex: nil, wordProgress: 0.5, lineProgress: 0.5))
        #expect(sync.update(milliseconds: 3250)?.wordProgress == 0.5)
        #expect(
            sync.update(milliseconds: 4200)
                == LyricPosition(lineIndex: 1, wordIndex: 1, wordProgress: 1, lineProgress: 0.4))
        #expect(sync.update(milliseconds: 4500)?.wordIndex == 2)
        #expect(
            sync.update(milliseconds: 5500)
                == LyricPosition(lineIndex: 1, wordIndex: 2, wordProgress: 1, lineProgress: 2500.0 / 3000))
    }

    @Test func linesSharingAStartGiveTheFirst() {
        var sync = LyricSync(lyric: lrc)
        #expect(sync.update(milliseconds: 5999)?.lineIndex == 1)
        #expect(sync.update(milliseconds: 6000)?.lineIndex == 2)
        #expect(sync.update(milliseconds: 7999)?.lineIndex == 2)
        #expect(sync.update(milliseconds: 8000)?.lineIndex == 4)
    }

    @Test func zeroLengthWordsAndLines() {
        var sync = LyricSync(lyric: ksc)
        // 三 and 四 last 0 ms at 4.0 s: the last word that has started (五) is current.
        #expect(
            sync.update(milliseconds: 4000)
                == LyricPosition(lineIndex: 1, wordIndex: 2, wordProgress: 0, lineProgress: 0))
        #expect(sync.update(milliseconds: 3999)?.lineIndex == 0)
        #expect(sync.update(milliseconds: 4000)?.wordIndex == 2)
        // A zero-length line is fully sung as soon as it starts.
        #expect(
            sync.update(milliseconds: 7000)
                == LyricPosition(lineIndex: 3, wordIndex: 0, wordProgress: 1, lineProgress: 1))
    }

    @Test func beforeALinesFirstWord() {
        let lyric = LyricParser.parseLRC("[00:01.00]<00:02.00>late<00:03.00>\n[00:05.00]x")
        var sync = LyricSync(lyric: lyric)
        #expect(
            sync.update(milliseconds: 1500)
                == LyricPosition(lineIndex: 0, wordIndex: nil, wordProgress: 0, lineProgress: 0.125))
        #expect(sync.update(milliseconds: 2000)?.wordIndex == 0)
    }

    @Test func secondsAreMilliseconds() {
        var sync = LyricSync(lyric: lrc)
        #expect(sync.update(seconds: 3.25) == lrc.position(at: 3250))
        #expect(sync.update(seconds: 0.9999) == nil)
        #expect(sync.update(seconds: 1.0) == lrc.position(at: 1000))
        #expect(sync.update(seconds: .nan) == nil)
        #expect(sync.update(seconds: .infinity) == lrc.position(at: Int.max))
        #expect(sync.update(seconds: 1e300) == lrc.position(at: Int.max))
        #expect(sync.update(seconds: -.infinity) == nil)
    }

    @Test func keepsTheLastAnswer() {
        var sync = LyricSync(lyric: lrc)
        let answer = sync.update(milliseconds: 3600)
        #expect(sync.position == answer)
        #expect(answer != nil)
    }

    // MARK: Against the binary search

    @Test func framesThroughAWholeKSCLyricMatchTheBinarySearch() {
        var random = SplitMix64(seed: 42)
        let lyric = LyricParser.parseKSC(randomKSC(lines: 300, using: &random))
        #expect(lyric.issues.isEmpty)
        let end = lyric.lines.last!.end
        var sync = LyricSync(lyric: lyric)
        var mismatches = 0
        for ms in stride(from: -1000, through: end + 2000, by: 16) {
            if sync.update(milliseconds: ms) != lyric.position(at: ms) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // and back again, frame by frame
        for ms in stride(from: end + 2000, through: -1000, by: -16) {
            if sync.update(milliseconds: ms) != lyric.position(at: ms) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func everyMillisecondOfTheSmallLyricsMatches() {
        for lyric in [lrc, ksc] {
            var sync = LyricSync(lyric: lyric)
            for ms in -100...10_000 {
                #expect(sync.update(milliseconds: ms) == lyric.position(at: ms), "at \(ms)")
            }
        }
    }

    @Test func randomSeeksMatchTheBinarySearch() {
        var random = SplitMix64(seed: 9)
        let lyric = LyricParser.parseKSC(randomKSC(lines: 200, using: &random))
        let end = lyric.lines.last!.end
        var sync = LyricSync(lyric: lyric)
        var mismatches = 0
        for _ in 0..<20_000 {
            let ms = Int.random(in: -500...(end + 500), using: &random)
            if sync.update(milliseconds: ms) != lyric.position(at: ms) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    /// Seeks, then plays on for a while at a random frame rate, on random lyrics with shared starts,
    /// overlapping lines and lines without words.
    @Test func playAndSeekOnRandomLyricsMatchesTheBinarySearch() {
        var random = SplitMix64(seed: 2026)
        var mismatches = 0
        for _ in 0..<200 {
            let lyric = randomLyric(using: &random)
            let end = (lyric.lines.map(\.end).max() ?? 0) + 500
            var sync = LyricSync(lyric: lyric)
            for _ in 0..<20 {
                var ms = Int.random(in: -300...end, using: &random)
                let step = Int.random(in: 1...120, using: &random)
                for _ in 0..<Int.random(in: 0...60, using: &random) {
                    if sync.update(milliseconds: ms) != lyric.position(at: ms) { mismatches += 1 }
                    ms += step
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func isSendable() {
        let sync = LyricSync(lyric: lrc)
        let check: @Sendable () -> LyricSync = { sync }
        #expect(check().position == nil)
    }
}

/// A KSC script of `lines` word-timed lines: CJK and `[latin]` words, zero-length words, gaps,
/// back-to-back lines, and lines sharing a start.
func randomKSC(lines: Int, using random: inout SplitMix64) -> String {
    let characters = Array("一时失志不免怨叹爱拼才会赢")
    var script = "karaoke := CreateKaraokeObject;\nkaraoke.tag('title', 'random');\n"
    var time = 500
    for _ in 0..<lines {
        let sharesStart = Int.random(in: 0..<10, using: &random) == 0
        if !sharesStart { time += [0, 0, 150, 900, 4000][Int.random(in: 0..<5, using: &random)] }
        var text = ""
        var durations: [Int] = []
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            if Int.random(in: 0..<6, using: &random) == 0 {
                text += "[la]"
            } else {
                text.append(characters[Int.random(in: 0..<characters.count, using: &random)])
            }
            durations.append(
                Int.random(in: 0..<5, using: &random) == 0 ? 0 : Int.random(in: 40...900, using: &random))
        }
        let end = time + durations.reduce(0, +)
        script +=
            "karaoke.add('\(clock(time))', '\(clock(end))', '\(text)', "
            + "'\(durations.map(String.init).joined(separator: ","))');\n"
        if !sharesStart { time = end }
    }
    return script
}

/// A lyric built directly: lines share starts, overlap, or have no words; words may start late.
private func randomLyric(using random: inout SplitMix64) -> Lyric {
    var lines: [LyricLine] = []
    var time = Int.random(in: 0...500, using: &random)
    for _ in 0..<Int.random(in: 0...25, using: &random) {
        time += Int.random(in: 0...2, using: &random) * 400
        var words: [LyricWord] = []
        var wordTime = time + Int.random(in: 0...1, using: &random) * 100
        for _ in 0..<[0, 0, 1, 3, 6][Int.random(in: 0..<5, using: &random)] {
            wordTime += Int.random(in: 0...2, using: &random) * 60
            words.append(
                LyricWord(start: wordTime, duration: Int.random(in: 0...250, using: &random), text: "w"))
        }
        let length = Int.random(in: 0...1500, using: &random)
        lines.append(LyricLine(start: time, end: time + length, text: "l", words: words))
    }
    return Lyric(format: .lrc, lines: lines)
}

private func clock(_ ms: Int) -> String {
    let minutes = ms / 60_000
    let seconds = ms / 1000 % 60
    let millis = ms % 1000
    return "\(minutes < 10 ? "0" : "")\(minutes):\(seconds < 10 ? "0" : "")\(seconds)."
        + String(repeating: "0", count: 3 - String(millis).count) + String(millis)
}
