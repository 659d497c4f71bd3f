import Foundation
import MusicCore
import ServerTestSupport
import Testing

@testable import CloudMusicKit

/// What libmpv 0.35 logs (at `error`) when its default output finds no sound card: each output in turn.
let noSoundCardLog = [
    "[ao/alsa] Playback open error: No such file or directory",
    "[ao/jack] cannot open server",
    "[ao/sdl] could not open audio: ALSA: Couldn't open audio device: No such file or directory",
    "[ao] Failed to initialize audio driver 'sdl'",
    "[cplayer] Could not open/initialize audio device -> no sound.",
]

/// From libmpv's reason and log lines to the one sentence a person sees.
@Suite struct SoundOutputFailureTests {
    static let reason = "audio output initialization failed"

    @Test func noSoundCardWithTheDefaultOutput() {
        let failure = SoundOutputFailure(reason: Self.reason, log: noSoundCardLog)
        #expect(
            failure.message == "No sound output: ALSA found no sound card. Set audio_output in the config.")
        #expect(SoundOutput.failed(failure).problem == failure.message)
    }

    @Test(arguments: [
        // audio_output = alsa: only ALSA's line.
        [
            "[ao/alsa] Playback open error: No such file or directory",
            "[ao] Failed to initialize audio driver 'alsa'",
        ],
        // Some lines came before the END_FILE, the rest not at all (a loaded machine).
        ["[ao/sdl] could not open audio: ALSA: Couldn't open audio device: No such file or directory"],
        // ALSA's own words, as newer libmpv versions pass them on.
        ["[ao/alsa] alsa-lib: confmisc.c:855:(parse_card) cannot find card '0'"],
        ["[ao/alsa] alsa-lib: pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default"],
    ])
    func alsaWithoutACard(log: [String]) {
        #expect(SoundOutputFailure(reason: Self.reason, log: log).cause == "ALSA found no sound card")
    }

    @Test(arguments: [
        (
            "[ao/alsa] Playback open error: Device or resource busy",
            "the sound card is busy (another program is using it)"
        ),
        (
            "[ao/alsa] Playback open error: Permission denied",
            "this user may not open the sound card (permission denied)"
        ),
        (
            "[ao/alsa] Playback open error: Input/output error",
            "ALSA failed (Playback open error: Input/output error)"
        ),
        ("[ao/pulse] Init failed: Connection refused", "no PulseAudio server is running"),
        ("[ao/pulse] Init failed: Access denied", "PulseAudio failed (Access denied)"),
    ])
    func whatTheOutputSaid(line: String, cause: String) {
        let failure = SoundOutputFailure(
            reason: Self.reason, log: [line, "[ao] Failed to initialize audio driver"])
        #expect(failure.cause == cause)
        #expect(failure.message == "No sound output: \(cause). Set audio_output in the config.")
    }

    @Test func aDeviceAskedForPointsAtAudioDevice() {
        let missing = SoundOutputFailure(
            reason: Self.reason,
            log: [
                "[ao/alsa] Playback open error: No such file or directory",
                "[ao] This audio driver/device was forced with the --audio-device option.",
            ], device: "alsa/hw:3")
        #expect(
            missing.message
                == "No sound output: there is no device alsa/hw:3. Set audio_device in the config.")
        let silent = SoundOutputFailure(reason: Self.reason, log: [], device: "pulse/sink")
        #expect(silent.cause == "the device pulse/sink could not be opened")
        // libmpv's name for its own choice is no device asked for.
        #expect(SoundOutputFailure(reason: Self.reason, device: "auto").device == nil)
    }

    @Test func withNothingClearerLibmpvsReasonIsTheCause() {
        let failure = SoundOutputFailure(
            reason: Self.reason,
            log: ["[ao] Failed to initialize audio driver 'pipewire'", "[ao/jack] cannot open server"])
        #expect(
            failure.message
                == "No sound output: audio output initialization failed. Set audio_output in the config.")
        #expect(SoundOutput.working.problem == nil)
        #expect(SoundOutput.unknown.problem == nil)
    }
}

/// The real libmpv with an output that cannot open anywhere (ALSA, a device that does not exist): the failure
/// is the output's, not the song's, nothing moves on, and another output set afterwards plays.
@Suite struct SoundOutputPlaybackTests {
    static let missingDevice = "alsa/cloudmusic-no-such-device"

    static func brokenPlayer() throws -> MPVPlayer {
        try MPVPlayer(configuration: MPVConfiguration(audioOutput: .alsa, audioDevice: missingDevice))
    }

    @Test func theOutputFailsNotTheSongAndTheQueuedOneIsNotTried() async throws {
        // Long enough to still be playing when a loaded machine gets round to asking for its output.
        let first = try await Songs.make(seconds: 30)
        let second = try await Songs.make(seconds: 4, frequency: 660)
        let player = try Self.brokenPlayer()
        defer { player.shutdown() }
        let log = EventLog(player.events())
        await player.load(first, startAt: 0, autoplay: true)
        await player.setNext(second)
        let events = try await log.wait("the failed state") { $0.contains(.state(.failed)) }

        let failure = try #require(
            events.lazy.compactMap { event -> SoundOutputFailure? in
                if case .outputFailed(first.id, let failure) = event { failure } else { nil }
            }.first)
        #expect(
            failure.message
                == "No sound output: there is no device \(Self.missingDevice). Set audio_device in the config.",
            "\(failure.log)")
        #expect(failure.reason == "audio output initialization failed")
        // Said before the state, so a listener knows why it failed.
        let said = try #require(events.firstIndex { if case .outputFailed = $0 { true } else { false } })
        #expect(said < (events.firstIndex(of: .state(.failed)) ?? 0))
        #expect(!events.contains { if case .failed = $0 { true } else { false } })
        #expect(!events.contains(.state(.playing)))
        #expect(!events.contains(.outputOpened))

        // Nothing is left for libmpv to go on to, and nothing went on.
        try await eventually("an empty playlist") { player.property("playlist-count") == "0" }
        #expect(!log.events.contains { if case .advanced = $0 { true } else { false } })
        #expect(await player.state == .failed)

        // Another output, then the same song again: it plays, and the output says it works.
        player.setAudioOutput(.null, device: nil)
        await player.load(first, startAt: 0, autoplay: true)
        let after = try await log.wait("the song playing on the null output") {
            $0.contains(.outputOpened) && !$0.progress(of: first.id).filter { $0.position > 0.2 }.isEmpty
        }
        #expect(after.contains(.state(.playing)))
        #expect(player.property("current-ao") == "null")
        await player.stop()
    }

    @Test func theListStaysOnTheSongAndThePlayKeyTriesAgain() async throws {
        let server = try await TestServer.start(extraArguments: [
            "--music", try await MusicListPlaybackTests.shortSongs(),
        ])
        let client = RepositoryTests.client(server)
        let all = try await MusicRepository(client: client).songs(size: 100).value.data
        let songs = ["Short One", "Short Two"].compactMap { title in all.first { $0.title == title } }
        try #require(songs.count == 2, "\(all.map(\.title))")

        let player = try Self.brokenPlayer()
        defer { player.shutdown() }
        let list = try await MusicListManager(
            store: try LocalStore(path: temporaryFolder() + "/local.sqlite"), player: player, seed: 4
        ) { client.url(for: $0.uri) }
        let recorder = await MusicListPlaybackTests.Recorder(list)

        try await list.setList(songs + songs, startAt: 1)
        let said = try await recorder.wait {
            if case .soundOutput(.failed) = $0 { true } else { false }
        }
        #expect(said.problem?.hasPrefix("No sound output: there is no device") == true)
        _ = try await recorder.wait { $0 == .state(.failed) }
        // The same song, where it was, and nothing skipped: the next song would fail the same way.
        var snapshot = await list.snapshot()
        #expect(snapshot.currentIndex == 1)
        #expect(snapshot.current?.id == songs[1].id)
        #expect(snapshot.soundOutput.problem == said.problem)
        #expect(!recorder.events.contains { if case .skipped = $0 { true } else { false } })
        #expect(recorder.events.filter { if case .currentChanged = $0 { true } else { false } }.count == 1)

        // The play key tries the output again: still broken, still the same song.
        recorder.clear()
        try await list.togglePlayPause()
        _ = try await recorder.wait { $0 == .state(.loading) }
        _ = try await recorder.wait { $0 == .state(.failed) }
        #expect(await list.snapshot().currentIndex == 1)

        // With an output that works, the same key plays that song, and the failure is over.
        player.setAudioOutput(.null, device: nil)
        recorder.clear()
        try await list.togglePlayPause()
        _ = try await recorder.wait { $0 == .soundOutput(.working) }
        _ = try await recorder.wait { if case .progress(let at, _) = $0 { at > 0.2 } else { false } }
        // That song, not another: the current song was only ever it before it played (on a loaded machine the
        // short song may have ended by now, so the list is not asked).
        let seen = recorder.events
        let played = try #require(
            seen.firstIndex { if case .progress(let at, _) = $0 { at > 0.2 } else { false } })
        #expect(
            seen[..<played].allSatisfy {
                if case .currentChanged(let song) = $0 { song?.id == songs[1].id } else { true }
            })
        snapshot = await list.snapshot()
        #expect(snapshot.soundOutput == .working)
        await list.pause()
    }
}

extension MusicListEvent {
    fileprivate var problem: String? {
        if case .soundOutput(let output) = self { output.problem } else { nil }
    }
}
