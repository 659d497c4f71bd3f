import MusicCore
import Testing

@Suite("Lyric parser fuzzing")
struct LyricFuzzTests {
    /// Pieces that reach the parsers' corners when strung together at random.
    static let pieces: [String] = [
        "[", "]", "<", ">", ":", ".", ",", "'", "\"", "\\", "(", ")", ";", "//", " ", "\t", "\n", "\r",
        "\r\n",
        "0", "1", "5", "9", "00", "59", "60", "999999999999", "-", "+", "ti", "offset", "ar:", "karaoke",
        "karaoke.add(", "karaoke.tag(", ".add", "karaoke.rows", ":=", "[00:01.00]", "<00:01.50>", "[1:2:3:4]",
        "'00:01.000'", "'1,2,3'", "一", "时", "さ", "사", "é", "e\u{301}", "🎵", "👩‍👩‍👧", "\u{FEFF}", "\u{0}",
        "\u{200B}", "\u{2028}", "[Hello]", "[", "]]", "a", "Z",
    ]

    static func check(_ lyric: Lyric, source: String) {
        #expect(zip(lyric.lines, lyric.lines.dropFirst()).allSatisfy { $0.start <= $1.start })
        let sourceLineCount = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .count
        for issue in lyric.issues {
            #expect(issue.line >= 1 && issue.line <= max(1, sourceLineCount))
        }
        for line in lyric.lines {
            #expect(line.end >= line.start)
            #expect(line.start >= 0)
            #expect(line.words.allSatisfy { $0.duration >= 0 })
            #expect(zip(line.words, line.words.dropFirst()).allSatisfy { $0.start <= $1.start })
            if !line.words.isEmpty { #expect(line.words.map(\.text).joined() == line.text) }
        }
        var probes = [Int.min, -1, 0, 1, Int.max]
        for line in lyric.lines.prefix(20) {
            probes += [line.start - 1, line.start, line.start + 1, line.end]
        }
        for ms in probes {
            if let position = lyric.position(at: ms) {
                #expect((0...1).contains(position.lineProgress))
                #expect((0...1).contains(position.wordProgress))
                #expect(lyric.lines.indices.contains(position.lineIndex))
            }
        }
    }

    @Test func randomPieces() {
        var random = SplitMix64(seed: 2024)
        for _ in 0..<3000 {
            var source = ""
            for _ in 0..<Int(random.next() % 60) {
                source += Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
            }
            Self.check(LyricParser.parseLRC(source), source: source)
            Self.check(LyricParser.parseKSC(source), source: source)
            _ = LyricParser.detectFormat(source)
        }
    }

    @Test func mutatedValidFiles() {
        let seeds = [
            "[ti:T]\n[offset:+100]\n[00:01.00][00:09.00]<00:01.00>a <00:01.50>b<00:02.00>\n[00:03.00]c\n",
            "karaoke.tag('a', 'b');\nkaraoke.add('00:01.000', '00:02.000', '[Hi] 一二', '300,300,400');\n",
        ]
        var random = SplitMix64(seed: 99)
        for _ in 0..<3000 {
            var characters = Array(seeds[Int(random.next() % 2)])
            for _ in 0..<Int(1 + random.next() % 6) {
                let index = Int(random.next() % UInt64(characters.count))
                switch random.next() % 3 {
                case 0: characters.remove(at: index)
                case 1:
                    let piece = Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
                    characters.insert(contentsOf: Array(piece), at: index)
                default: characters.swapAt(index, Int(random.next() % UInt64(characters.count)))
                }
                if characters.isEmpty { characters = ["["] }
            }
            let source = String(characters)
            Self.check(LyricParser.parseLRC(source), source: source)
            Self.check(LyricParser.parseKSC(source), source: source)
        }
    }

    @Test func randomBytesDecodedLossily() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<2000 {
            let bytes = (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let source = String(decoding: bytes, as: UTF8.self)
            Self.check(LyricParser.parseLRC(source), source: source)
            Self.check(LyricParser.parseKSC(source), source: source)
        }
    }
}
