import CloudMusicKit
import CloudMusicTUI
import MusicCore
import Testing

@Suite struct ControlBarTests {
    static let state = ControlBar.State(
        title: "一时失志不免怨叹", artist: "叶启田 🎤", playback: .playing, position: 83, duration: 245,
        loopMode: .list, volume: 80)

    @Test(arguments: [40, 41, 59, 60, 80, 120, 200])
    func everythingShowsFrom40Columns(width: Int) {
        let line = ControlBar.render(Self.state, width: width)
        #expect(line.width == width)
        let text = line.text
        #expect(text.hasPrefix("▶ "))
        #expect(text.contains("1:23 / 4:05"))
        #expect(text.contains(width < 60 ? "[L]" : "[Loop]"))
        #expect(text.hasSuffix(width < 60 ? "80%" : "Vol 80%"))
        #expect(line.contains { $0.style == .progressFilled })
        #expect(line.contains { $0.style == .progressEmpty })
        if width >= 120 {
            #expect(text.contains("一时失志不免怨叹 - 叶启田 🎤"))
        } else {
            #expect(text.contains("一时") && text.contains("…"))
        }
    }

    @Test func progressBarFillsByPosition() {
        let bar = ControlBar.progressBar(position: 30, duration: 120, width: 20)
        #expect(
            bar == [
                StyledSpan(String(repeating: "━", count: 5), .progressFilled),
                StyledSpan(String(repeating: "─", count: 15), .progressEmpty),
            ])
        #expect(ControlBar.progressBar(position: 500, duration: 120, width: 4).text == "━━━━")
        #expect(ControlBar.progressBar(position: 5, duration: .nan, width: 4).text == "────")
        #expect(ControlBar.progressBar(position: 5, duration: 10, width: 0).isEmpty)
    }

    @Test(arguments: Array(0..<40))
    func narrowWidthsDegradeButFitExactly(width: Int) {
        let line = ControlBar.render(Self.state, width: width)
        #expect(line.width == width)
        if width >= 2 { #expect(line.text.hasPrefix("▶ ")) }
        if width >= 2 + 11 + 1 + 6 { #expect(line.text.hasSuffix("1:23 / 4:05")) }
    }

    @Test(arguments: [0, 1, 2, 10, 40, 77, 80, 100, 200])
    func aProblemTakesThePlaceOfTheProgress(width: Int) {
        var state = Self.state
        state.playback = .failed
        state.problem = "No sound output: ALSA found no sound card. Set audio_output in the config."
        let line = ControlBar.render(state, width: width)
        #expect(line.width == width)
        let text = line.text
        if width >= 2 { #expect(text.hasPrefix("! ")) }
        #expect(!text.contains("1:23"))
        #expect(!text.contains("Vol"))
        if width >= 77 {
            #expect(text.hasPrefix("! " + state.problem!))
            #expect(line.contains { $0.style == .error && $0.text == state.problem })
        } else if width > 2 {
            #expect(text.hasSuffix("…"))
        }
        // The song's name follows when at least 8 columns are left for it.
        #expect(text.contains(" · 一时") == (width >= 2 + 74 + 3 + 8))
    }

    @Test func showsEveryStateAndMode() {
        var state = Self.state
        state.playback = .paused
        state.loopMode = .shuffle
        state.volume = 130
        let text = ControlBar.render(state, width: 80).text
        #expect(text.hasPrefix("‖ "))
        #expect(text.contains("[Shuffle]"))
        #expect(text.hasSuffix("Vol 100%"))
        let idle = ControlBar.State(
            title: "", artist: "", playback: .idle, position: 0, duration: .nan, loopMode: .single, volume: 0)
        let idleText = ControlBar.render(idle, width: 80).text
        #expect(idleText.hasPrefix("■ Nothing playing"))
        #expect(idleText.contains("0:00 / --:--"))
        #expect(idleText.contains("[One]"))
    }
}
