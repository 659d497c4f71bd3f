import CloudMusicKit
import CloudMusicTUI
import MusicCore
import Testing

/// Every renderer, fed random mixed-script text at random sizes, gives exactly the asked rows and columns.
@Suite struct RenderShapeTests {
    static let pieces: [String] = [
        "a", "Z", " ", "  ", "中", "あ", "한", "Ａ", "。", "😀", "👩‍👩‍👧‍👦", "🇨🇳", "👍🏽", "❤️", "e\u{301}",
        "\u{200B}", "…", "ｱ", "\t", "\u{7}", "word ",
    ]

    static func text(_ generator: inout SplitMix, maxPieces: Int) -> String {
        let count = Int(generator.next() % UInt64(maxPieces + 1))
        var text = ""
        for _ in 0..<count { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
        return text
    }

    @Test func lyricsAreAlwaysTheAskedSize() {
        var generator = SplitMix(seed: 11)
        for _ in 0..<300 {
            var lines: [LyricLine] = []
            var start = 0
            for _ in 0..<Int(generator.next() % 8) {
                var words: [LyricWord] = []
                var wordStart = start
                if generator.next() % 2 == 0 {
                    for _ in 0..<Int(generator.next() % 5) {
                        words.append(
                            LyricWord(
                                start: wordStart, duration: 300, text: Self.text(&generator, maxPieces: 3)))
                        wordStart += 300
                    }
                }
                let text = words.isEmpty ? Self.text(&generator, maxPieces: 12) : words.map(\.text).joined()
                lines.append(
                    LyricLine(start: start, end: max(wordStart, start + 1000), text: text, words: words))
                start += 1500
            }
            let lyric = Lyric(format: .ksc, lines: lines)
            let width = Int(generator.next() % 50)
            let height = Int(generator.next() % 12)
            let ms = Int(generator.next() % 14_000) - 1000
            let screen = LyricsView.render(lyric: lyric, milliseconds: ms, width: width, height: height)
            #expect(screen.count == height)
            for row in screen { #expect(row.width == width, "\(row.text) at \(width)") }
        }
    }

    @Test func controlBarAndSongListAreAlwaysTheAskedSize() {
        var generator = SplitMix(seed: 12)
        for _ in 0..<500 {
            let width = Int(generator.next() % 220)
            let state = ControlBar.State(
                title: Self.text(&generator, maxPieces: 10), artist: Self.text(&generator, maxPieces: 5),
                playback: [.playing, .paused, .idle, .loading, .failed, .ended][Int(generator.next() % 6)],
                position: Double(generator.next() % 5000), duration: Double(generator.next() % 5000),
                loopMode: LoopMode.allCases[Int(generator.next() % 3)], volume: Int(generator.next() % 150))
            #expect(ControlBar.render(state, width: width).width == width)

            let songs = (0..<Int(generator.next() % 15)).map { _ in
                SongRow(
                    title: Self.text(&generator, maxPieces: 8), artist: Self.text(&generator, maxPieces: 4),
                    album: Self.text(&generator, maxPieces: 4), duration: Int(generator.next() % 10_000_000))
            }
            let height = Int(generator.next() % 10)
            let output = SongListView.render(
                songs: songs, selected: Int(generator.next() % 16), scrollOffset: Int(generator.next() % 16),
                width: width, height: height)
            #expect(output.lines.count == height)
            for line in output.lines { #expect(line.width == width, "\(line.text) at \(width)") }
        }
    }
}
