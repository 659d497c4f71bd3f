import Foundation
import MusicCore
import Testing

@Suite("Lyric lookups")
struct LyricLookupTests {
    /// Lines at 1 s ("a", not word-timed), 3 s (words at 3.0/3.5/4.5 s with a gap), 6 s and 6 s, 8 s.
    let lyric = LyricParser.parseLRC(
        """
        [00:01.00]a
        [00:03.00]<00:03.00>x <00:03.50>y<00:04.00> <00:04.50>z<00:05.00>
        [00:06.00]orig
        [00:06.00]translation
        [00:08.00]last
        """)

    @Test func lineIndexAtBoundaries() {
        #expect(lyric.lines.map(\.start) == [1000, 3000, 6000, 6000, 8000])
        #expect(lyric.lineIndex(at: -5) == nil)
        #expect(lyric.lineIndex(at: 0) == nil)
        #expect(lyric.lineIndex(at: 999) == nil)
        #expect(lyric.lineIndex(at: 1000) == 0)
        #expect(lyric.lineIndex(at: 2999) == 0)
        #expect(lyric.lineIndex(at: 3000) == 1)
        #expect(lyric.lineIndex(at: 5999) == 1)
        #expect(lyric.lineIndex(at: 6000) == 2)  // first of the lines that share a start
        #expect(lyric.lineIndex(at: 7000) == 2)
        #expect(lyric.lineIndex(at: 8000) == 4)
        #expect(lyric.lineIndex(at: 1_000_000) == 4)
        #expect(lyric.lineIndex(at: Int.max) == 4)
        #expect(lyric.lineIndex(at: Int.min) == nil)
    }

    @Test func positionBeforeFirstLine() {
        #expect(lyric.position(at: 500) == nil)
    }

    @Test func positionInLineWithoutWords() {
        #expect(
            lyric.position(at: 1000)
                == LyricPosition(lineIndex: 0, wordIndex: nil, wordProgress: 0, lineProgress: 0))
        #expect(
            lyric.position(at: 2000)
                == LyricPosition(lineIndex: 0, wordIndex: nil, wordProgress: 0.5, lineProgress: 0.5))
    }

    @Test func wordProgress() {
        #expect(
            lyric.position(at: 3000)
                == LyricPosition(lineIndex: 1, wordIndex: 0, wordProgress: 0, lineProgress: 0))
        #expect(
            lyric.position(at: 3250)
                == LyricPosition(lineIndex: 1, wordIndex: 0, wordProgress: 0.5, lineProgress: 250.0 / 3000))
        #expect(lyric.position(at: 3500)?.wordIndex == 1)
        #expect(lyric.position(at: 3500)?.wordProgress == 0)
        #expect(lyric.position(at: 3875)?.wordProgress == 0.75)
        // the gap between y (ends 4.0 s) and z (starts 4.5 s): y stays current, fully sung
        #expect(
            lyric.position(at: 4200)
                == LyricPosition(lineIndex: 1, wordIndex: 1, wordProgress: 1, lineProgress: 0.4))
        #expect(lyric.position(at: 4500)?.wordIndex == 2)
        #expect(lyric.position(at: 4999)?.wordProgress == 0.998)
        // after the last word, before the next line
        #expect(
            lyric.position(at: 5500)
                == LyricPosition(lineIndex: 1, wordIndex: 2, wordProgress: 1, lineProgress: 2500.0 / 3000))
    }

    @Test func positionBeforeTheFirstWord() {
        let lyric = LyricParser.parseLRC("[00:01.00]<00:02.00>late<00:03.00>\n[00:05.00]x")
        #expect(
            lyric.position(at: 1500)
                == LyricPosition(lineIndex: 0, wordIndex: nil, wordProgress: 0, lineProgress: 0.125))
    }

    @Test func positionAfterTheLastLine() {
        #expect(
            lyric.position(at: 13_000)
                == LyricPosition(lineIndex: 4, wordIndex: nil, wordProgress: 1, lineProgress: 1))
        #expect(lyric.position(at: 99_000)?.lineProgress == 1)
    }

    @Test func kscPositionBetweenLines() {
        let lyric = LyricParser.parseKSC(
            """
            karaoke.add('00:01.000', '00:02.000', '一二', '500,500');
            karaoke.add('00:04.000', '00:05.000', '三', '1000');
            """)
        #expect(
            lyric.position(at: 1750)
                == LyricPosition(lineIndex: 0, wordIndex: 1, wordProgress: 0.5, lineProgress: 0.75))
        #expect(
            lyric.position(at: 3000)
                == LyricPosition(lineIndex: 0, wordIndex: 1, wordProgress: 1, lineProgress: 1))
        #expect(lyric.position(at: 4000)?.lineIndex == 1)
    }

    @Test func zeroLengthLinesAndWords() {
        let lyric = Lyric(
            format: .ksc,
            lines: [
                LyricLine(
                    start: 10, end: 10, text: "a", words: [LyricWord(start: 10, duration: 0, text: "a")])
            ])
        #expect(
            lyric.position(at: 10)
                == LyricPosition(lineIndex: 0, wordIndex: 0, wordProgress: 1, lineProgress: 1))
        let huge = Lyric(
            format: .ksc,
            lines: [
                LyricLine(
                    start: 0, end: Int.max, text: "a",
                    words: [LyricWord(start: 0, duration: Int.max, text: "a")])
            ])
        #expect(huge.position(at: Int.max)?.wordProgress == 1)
    }

    @Test func matchesALinearScanOnRandomLyrics() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var time = 0
            var lines: [LyricLine] = []
            for _ in 0..<Int(random.next() % 20) {
                time += Int(random.next() % 3) * 500  // repeated starts happen
                var words: [LyricWord] = []
                var wordTime = time
                for _ in 0..<Int(random.next() % 4) {
                    wordTime += Int(random.next() % 3) * 100
                    let duration = Int(random.next() % 300)
                    words.append(LyricWord(start: wordTime, duration: duration, text: "w"))
                }
                lines.append(LyricLine(start: time, end: time + 400, text: "l", words: words))
            }
            let lyric = Lyric(format: .lrc, lines: lines)
            for ms in stride(from: -200, through: time + 1000, by: 50) {
                let expectedLine = lines.lastIndex { $0.start <= ms }.map { last in
                    lines.firstIndex { $0.start == lines[last].start }!
                }
                #expect(lyric.lineIndex(at: ms) == expectedLine)
                if let expectedLine {
                    let expectedWord = lines[expectedLine].words.lastIndex { $0.start <= ms }
                    #expect(lyric.position(at: ms)?.wordIndex == expectedWord)
                }
            }
        }
    }

    /// Lookups in a long lyric land on the right line everywhere (the speed of the binary search is not
    /// timed here: a timing in a unit test fails on a busy machine).
    @Test func lookupsInALongLyricFindTheirLine() {
        let count = 200_000
        let lines = (0..<count).map {
            LyricLine(
                start: $0 * 100, end: $0 * 100 + 100, text: "",
                words: (0..<8).map { LyricWord(start: $0, duration: 2, text: "") })
        }
        let lyric = Lyric(format: .lrc, lines: lines)
        for index in stride(from: 0, to: count, by: 97) {
            let line = index * 7919 % count
            #expect(lyric.position(at: line * 100 + 50)?.lineIndex == line)
        }
        #expect(lyric.position(at: count * 100 - 1)?.lineIndex == count - 1)
    }

    @Test func lyricRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(lyric)
        #expect(try JSONDecoder().decode(Lyric.self, from: data) == lyric)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains("\"format\":\"lrc\""))
    }
}
