import MusicCore
import Testing

@Suite struct PlaybackFormatTests {
    @Test func loopModesInWordsAndLetters() {
        #expect(LoopMode.allCases.map { DisplayFormat.loopMode($0) } == ["Loop", "One", "Shuffle"])
        #expect(LoopMode.allCases.map { DisplayFormat.loopMode($0, short: true) } == ["L", "1", "S"])
    }

    @Test func playStateGlyphsAreOneColumnEach() {
        let states = ["playing", "paused", "loading", "failed", "idle", "ended", "something new"]
        #expect(states.map(DisplayFormat.playStateGlyph) == ["▶", "‖", "…", "!", "■", "■", "■"])
    }
}
