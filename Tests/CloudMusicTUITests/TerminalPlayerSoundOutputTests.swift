import Foundation
import ServerTestSupport
import Synchronization
import Testing

/// The real `cloudmusic` as a new user first runs it: no config file (so `audio_output = auto`, libmpv's own
/// choice of output) on a machine without a sound card, with the real libmpv trying its real outputs.
@Suite(.serialized) struct TerminalPlayerSoundOutputTests {
    static let hasNoSoundCard = !FileManager.default.fileExists(atPath: "/dev/snd")
    static let sentence = "No sound output: ALSA found no sound card. Set audio_output in the config."

    @Test(.enabled(if: hasNoSoundCard, "this machine has a sound card, so the default output opens"))
    func withoutASoundCardTheBarSaysWhyAndTheQueueStays() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        try await signUp(server, email: "cy@example.com", password: "correct horse", nickname: "Cy")
        let player = try TerminalPlayer(server: server, audio: nil)
        let tmux = player.session
        try await player.signIn(email: "cy@example.com", password: "correct horse", nickname: "Cy")
        try await tmux.waitFor(text: "Northern Lights - Aurora Lane")

        // Play home's new songs from the first: a queue of many, which a skip would walk through.
        try await tmux.press("Enter")
        // Every screen the waits look at: ALSA's complaints must never be among them, nor a skipped song.
        let torn = TornRows()
        let noted = torn.note
        var screen = try await tmux.waitFor("the sound output's sentence") {
            controlBar(noted($0)).contains(Self.sentence)
        }
        #expect(controlBar(screen).hasPrefix("! "))
        #expect(controlBar(screen).contains("Northern Lights"))

        // The player answers for itself after it has dealt with the failure: still the first song, with the
        // same sentence.
        let status = await TerminalPlayerScriptingTests.cloudmusic(["status"], home: player.home)
        #expect(status.status == 0, "\(status.errorOutput)")
        #expect(status.output.contains("! Northern Lights - Aurora Lane  0:00"))
        #expect(status.output.contains(Self.sentence))
        try await tmux.press("5")
        screen = try await tmux.waitFor("the queue, at its first song") { rows in
            noted(rows).contains { $0.hasPrefix("  Title") }
                && rows.contains { $0.hasPrefix("▶ Northern Lights") }
        }
        #expect(controlBar(screen).contains(Self.sentence))

        // What libmpv and ALSA said went to the log, which --help names.
        let log = try String(contentsOfFile: player.home + "/state/cloudmusic/player.log", encoding: .utf8)
        #expect(log.contains("ALSA lib"))
        #expect(log.contains("cloudmusic: \(Self.sentence)"))
        #expect(log.contains("[ao/alsa] Playback open error"))

        // Saving the config with no sound plays the same song, silently, without a restart.
        let config = player.home + "/config/cloudmusic"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "audio_output = null\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        screen = try await tmux.waitFor("the same song playing on no output") { rows in
            let bar = controlBar(noted(rows))
            return bar.hasPrefix("▶ Northern Lights") && !bar.contains("0:00 /")
        }
        #expect(!controlBar(screen).contains("No sound output"))
        #expect(torn.rows.isEmpty)
        #expect(!(try await tmux.screen()).contains { $0.contains("ALSA lib") })

        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)
    }
}

/// Rows of the screens looked at that should never have been drawn.
final class TornRows: Sendable {
    private let seen = Mutex<[String]>([])

    var rows: [String] { seen.withLock { $0 } }

    /// Keeps the rows with ALSA's lines or a skipped song; returns `screen` as it is.
    @Sendable func note(_ screen: [String]) -> [String] {
        let bad = screen.filter { $0.contains("ALSA lib") || $0.contains("Skipped") }
        if !bad.isEmpty { seen.withLock { $0 += bad } }
        return screen
    }
}
