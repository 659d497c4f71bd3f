import CloudMusicKit
import CloudMusicTUI
import MusicCore
import Testing

@Suite struct NowPlayingViewTests {
    // The same lyrics as the lyrics view's tests, so both views are checked on one text.
    static let lrc = LyricsViewTests.lrc
    static let ksc = LyricsViewTests.ksc

    func state(position: Double, lyric: Lyric? = Self.lrc, status: String? = nil) -> NowPlayingView.State {
        NowPlayingView.State(
            title: "爱拼才会赢", artist: "叶启田", album: "Best of 🎤", playback: .playing, position: position,
            duration: 245, loopMode: .list, volume: 80, lyric: lyric, lyricStatus: status)
    }

    func centred(_ text: String, _ width: Int) -> String {
        TerminalWidth.pad(text, to: width, alignment: .center)
    }

    @Test func everySizeIsExact() {
        for (width, height) in ViewTest.sizes {
            for state in [
                state(position: 55.5), state(position: 28.7, lyric: Self.ksc),
                state(position: .nan, lyric: nil),
                state(position: 3, status: "Loading lyrics…"),
                NowPlayingView.State(
                    title: ViewTest.messy, artist: ViewTest.messy, album: "", playback: .failed, position: -3,
                    duration: 7200, loopMode: .shuffle, volume: 250),
            ] {
                ViewTest.expectShape(
                    NowPlayingView.render(state, width: width, height: height), width: width, height: height,
                    "now playing")
            }
        }
    }

    @Test func headerLyricsAndProgressAt80x24() {
        // 10 s + 11 × 4 s + 1.5 s: line 11 ("第11行 歌词") is current.
        let screen = NowPlayingView.render(state(position: 55.5), width: 80, height: 24)
        #expect(screen[0] == [StyledSpan(centred("爱拼才会赢", 80), .accent)])
        #expect(screen[1] == [StyledSpan(centred("叶启田 — Best of 🎤", 80), .dim)])
        #expect(ViewTest.isBlank(screen[2]))
        // The lyrics pane is rows 3...22 (20 rows); its middle row is 3 + 9.
        #expect(screen[12].text == centred("第11行 歌词", 80))
        #expect(ViewTest.text(in: screen[12], .highlight) == "第11行 歌词")
        #expect(screen[11].text == centred("Line 10", 80))
        #expect(screen[13].text == centred("Line 12", 80))
        #expect(
            screen.enumerated().allSatisfy {
                $0.offset == 12 || !$0.element.contains { $0.style == .highlight }
            })
        // 51 bar columns, 55.5 of 245 s played: 11 filled.
        #expect(
            screen[23].text
                == "▶ 0:55 " + String(repeating: "━", count: 11) + String(repeating: "─", count: 40)
                + " 4:05  [Loop]  Vol 80%")
        #expect(ViewTest.text(in: screen[23], .progressFilled) == String(repeating: "━", count: 11))
    }

    @Test func smallHeightsDropTheHeaderForTheLyrics() {
        let screen = NowPlayingView.render(state(position: 55.5), width: 40, height: 7)
        // No header: six lyric rows (middle row 2), then the progress line.
        #expect(screen[2].text == centred("第11行 歌词", 40))
        #expect(!screen.contains { $0.text.contains("爱拼才会赢") })
        #expect(screen[6].text.hasPrefix("▶ 0:55 "))
        let eight = NowPlayingView.render(state(position: 55.5), width: 40, height: 8)
        #expect(eight[0].text == centred("爱拼才会赢", 40))
        #expect(eight[3 + 1].text == centred("第11行 歌词", 40))  // 4 lyric rows, middle row 1
        let one = NowPlayingView.render(state(position: 55.5), width: 40, height: 1)
        #expect(one.count == 1 && one[0].text.hasPrefix("▶ 0:55 "))
    }

    @Test func karaokeSplitAtAGivenTime() {
        // 28.207 s + 539 ms: "失" (1077 ms) is past its middle, so "一时失" is sung.
        let screen = NowPlayingView.render(state(position: 28.746, lyric: Self.ksc), width: 80, height: 24)
        #expect(ViewTest.text(in: screen[12], .karaokeSung) == "一时失")
        #expect(ViewTest.text(in: screen[12], .karaokeUnsung) == "志不免怨叹")
        #expect(screen[12].text == centred("一时失志不免怨叹", 80))
        #expect(screen[11].text == centred("爱拼才会赢", 80))
        let before = NowPlayingView.render(state(position: 28.745, lyric: Self.ksc), width: 80, height: 24)
        #expect(ViewTest.text(in: before[12], .karaokeSung) == "一时")
    }

    @Test func statusReplacesTheLyricsAndNarrowProgressDegrades() {
        let screen = NowPlayingView.render(
            state(position: 3, status: "Loading lyrics…"), width: 40, height: 10)
        // 6 lyric rows (3...8); middle row 3 + 2.
        #expect(screen[5] == [StyledSpan(centred("Loading lyrics…", 40), .dim)])
        let narrow = NowPlayingView.progressLine(state(position: 83), width: 30)
        // Under 60 columns the tail is short; here it would leave the bar under 10, so it goes.
        #expect(
            narrow.text == "▶ 1:23 " + String(repeating: "━", count: 6) + String(repeating: "─", count: 12)
                + " 4:05")
        #expect(NowPlayingView.progressLine(state(position: 83), width: 14).text == "▶ 1:23 / 4:05 ")
        #expect(NowPlayingView.progressLine(state(position: 83), width: 12).text == "1:23 / 4:05 ")
        #expect(NowPlayingView.progressLine(state(position: 83), width: 6).text == "1:23  ")
        #expect(NowPlayingView.progressLine(state(position: 83), width: 3).text == "1:2")
        let short = NowPlayingView.progressLine(state(position: 83), width: 40)
        #expect(short.text.hasSuffix(" 4:05  [L]  80%"))
    }
}
