import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The libmpv player with `ao=null` (real time, no sound card) on real files made by ffmpeg.
@Suite struct PlayerTests {
    @Test func playsReportsProgressAndEnds() async throws {
        let song = try await Songs.make(seconds: 2)
        let player = try Self.player()
        let log = EventLog(player.events())
        await player.load(song, startAt: 0, autoplay: true)

        try await log.wait("playing") { $0.contains(.state(.playing)) }
        // On a loaded machine the two seconds may be over already: the state can be ahead of the log.
        let state = await player.state
        #expect(state == .playing || state == .ended || log.events.contains(.ended(itemID: song.id)))
        let events = try await log.wait("the end") { $0.contains(.ended(itemID: song.id)) }
        #expect(await player.state == .ended)
        #expect(events.last == .state(.ended))

        let progress = events.progress(of: song.id)
        let positions = progress.map(\.position)
        #expect(positions == positions.sorted(), "positions only move forward")
        let played = (positions.last ?? 0) - (positions.first ?? 0)
        #expect(played > 1)
        // The player was asked for 20 a second; at least 10 for each second of audio played.
        #expect(Double(progress.count) >= 10 * played, "\(progress.count) progress events over \(played) s")
        let duration = try #require(progress.last?.duration)
        #expect(abs(duration - 2) < 0.2)
        #expect(!events.contains { if case .failed = $0 { true } else { false } })
    }

    @Test func stopAfterTheEndGoesIdleAndPlayReplays() async throws {
        let song = try await Songs.make(seconds: 1)
        let player = try Self.player()
        let log = EventLog(player.events())
        await player.load(song, startAt: 0, autoplay: true)
        try await log.wait("the end") { $0.last == .state(.ended) }
        await player.play()
        try await log.wait("the replay's end") { $0.filter { $0 == .ended(itemID: song.id) }.count == 2 }
        try await log.wait("ended again") { $0.last == .state(.ended) }
        await player.stop()
        try await log.wait("idle") { $0.last == .state(.idle) }
    }

    @Test func movesToTheNextItemWithoutAGap() async throws {
        let first = try await Songs.make(seconds: 2, frequency: 440)
        let second = try await Songs.make(seconds: 2, frequency: 660)
        let player = try Self.player()
        let log = EventLog(player.events())
        await player.load(first, startAt: 0, autoplay: true)
        await player.setNext(second)

        let events = try await log.wait("the second song's end") { $0.contains(.ended(itemID: second.id)) }
        let advanced = try #require(events.firstIndex(of: .advanced(itemID: second.id)))
        let firstPlaying = try #require(events.firstIndex(of: .state(.playing)))
        #expect(firstPlaying < advanced)
        // From the first song playing to the second's end: no stop, no reload, and the first did not "end".
        let between = events[firstPlaying..<events.count - 1]
        for stop in [PlaybackState.idle, .loading, .ended, .failed, .paused] {
            #expect(!between.contains(.state(stop)), "no \(stop) between the songs")
        }
        #expect(!events.contains(.ended(itemID: first.id)))
        let secondProgress = events[advanced...].progress(of: second.id)
        #expect(try #require(secondProgress.first).position < 1, "the position starts again")
        #expect((secondProgress.last?.position ?? 0) > 1)
        #expect(abs((secondProgress.last?.duration ?? 0) - 2) < 0.2, "the second song's own duration")
        #expect(events[advanced...].progress(of: first.id).isEmpty)
        #expect(events.progress(of: first.id).count > 5)
    }

    @Test func aMissingFileFailsAndThePlayerStaysUsable() async throws {
        let song = try await Songs.make(seconds: 2)
        let missing = PlayableItem(
            id: "missing", url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp3"), title: "Gone")
        let player = try Self.player()
        let log = EventLog(player.events())

        await player.load(missing, startAt: 0, autoplay: true)
        let events = try await log.wait("the failure") { $0.contains(.state(.failed)) }
        let message = try #require(
            events.compactMap { if case .failed("missing", let m) = $0 { m } else { nil } }.first)
        #expect(message.contains("Gone"))
        #expect(await player.state == .failed)

        await player.load(song, startAt: 0, autoplay: true)
        try await log.wait("the next song playing") {
            $0.progress(of: song.id).contains { $0.position > 0.3 }
        }
    }

    @Test func aMissingQueuedItemIsReportedAndTheListGoesOn() async throws {
        let first = try await Songs.make(seconds: 1)
        let third = try await Songs.make(seconds: 1, frequency: 550)
        let missing = PlayableItem(
            id: "missing", url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp3"), title: "Gone")
        let player = try Self.player()
        let log = EventLog(player.events())

        // What a list manager does: queue the next, and on a failure with nothing queued, load the one after.
        await player.load(first, startAt: 0, autoplay: true)
        await player.setNext(missing)
        let events = try await log.wait("the failure") { $0.contains(.state(.failed)) }
        #expect(events.contains(.advanced(itemID: "missing")) || events.contains(.ended(itemID: first.id)))
        #expect(events.contains { if case .failed("missing", _) = $0 { true } else { false } })
        await player.load(third, startAt: 0, autoplay: true)
        try await log.wait("the third song's end") { $0.contains(.ended(itemID: third.id)) }
    }

    @Test func pausesResumesSeeksAndStops() async throws {
        // Long enough that the song cannot end before the stop on a busy machine: 12 s ended twice in one
        // evening (load 20-50), once before the pause and once before the stop, the test's own steps starved.
        let song = try await Songs.make(seconds: 90)
        let player = try Self.player()
        let log = EventLog(player.events())

        await player.load(song, startAt: 0, autoplay: false)
        try await log.wait("paused after loading") { $0.contains(.state(.paused)) }
        #expect(!log.events.contains(.state(.playing)))

        await player.play()
        try await log.wait("playing") { $0.contains(.state(.playing)) }
        await player.pause()
        try await log.wait("paused again") { $0.filter { $0 == .state(.paused) }.count == 2 }
        let progressBefore = log.events.progress(of: song.id).count
        let pausedAt = try #require(player.property("time-pos").flatMap(Double.init))
        // A second player is the clock: once it has played half a second, the first would have too, unpaused.
        let clock = try Self.player()
        let clockLog = EventLog(clock.events())
        await clock.load(song, startAt: 0, autoplay: true)
        try await clockLog.wait("the clock to play half a second") {
            $0.progress(of: song.id).contains { $0.position >= 0.5 }
        }
        await clock.stop()
        let stillAt = try #require(player.property("time-pos").flatMap(Double.init))
        #expect(abs(stillAt - pausedAt) < 0.05, "no progress while paused: \(pausedAt) then \(stillAt)")
        #expect(log.events.progress(of: song.id).count == progressBefore, "no progress events while paused")

        await player.seek(to: 2)
        try await log.wait("progress after the seek") {
            $0.progress(of: song.id).contains { abs($0.position - 2) < 0.25 }
        }
        #expect(await player.state == .paused)

        await player.setVolume(30)
        await player.setMuted(true)
        try await eventually("volume and mute applied") {
            player.property("volume") == "30.000000" && player.property("mute") == "yes"
        }
        await player.setVolume(250)
        try await eventually("volume clamped to 100") { player.property("volume") == "100.000000" }

        await player.play()
        try await log.wait("playing again") { $0.filter { $0 == .state(.playing) }.count == 2 }
        await player.stop()
        try await log.wait("idle") { $0.last == .state(.idle) }
        #expect(await player.state == .idle)
        #expect(!log.events.contains(.ended(itemID: song.id)), "a stop is not an end")
    }

    @Test func startsAtAPosition() async throws {
        let song = try await Songs.make(seconds: 3)
        let player = try Self.player()
        let log = EventLog(player.events())
        await player.load(song, startAt: 2, autoplay: true)
        let events = try await log.wait("progress") { !$0.progress(of: song.id).isEmpty }
        #expect(try #require(events.progress(of: song.id).first).position >= 1.9)
    }

    @Test func everySubscriberGetsTheEvents() async throws {
        let song = try await Songs.make(seconds: 1)
        let player = try Self.player()
        let one = EventLog(player.events())
        let two = EventLog(player.events())
        await player.load(song, startAt: 0, autoplay: true)
        for log in [one, two] {
            let events = try await log.wait("the end") { $0.contains(.ended(itemID: song.id)) }
            #expect(events.contains(.state(.playing)))
            #expect(!events.progress(of: song.id).isEmpty)
        }
    }

    @Test func shutdownFinishesTheStreamsAndLaterCallsDoNothing() async throws {
        let song = try await Songs.make(seconds: 2)
        let player = try Self.player()
        let log = EventLog(player.events())
        await player.load(song, startAt: 0, autoplay: true)
        try await log.wait("playing") { $0.contains(.state(.playing)) }
        player.shutdown()
        try await log.waitForFinish()
        await player.load(song, startAt: 0, autoplay: true)
        await player.seek(to: 1)
        player.shutdown()
        var late = player.events().makeAsyncIterator()
        #expect(await late.next() == nil, "a stream asked for after shutdown is already finished")
    }

    @Test func droppingThePlayerDestroysTheEngine() async throws {
        let song = try await Songs.make(seconds: 2)
        var player: MPVPlayer? = try Self.player()
        let log = EventLog(player!.events())
        await player!.load(song, startAt: 0, autoplay: true)
        try await log.wait("playing") { $0.contains(.state(.playing)) }
        player = nil
        // The stream finishes only after mpv_terminate_destroy has returned on the player's thread.
        try await log.waitForFinish()
    }

    @Test func streamsASongFromTheServer() async throws {
        let server = try await TestServer.start()
        let (data, _) = try await URLSession.shared.data(
            from: server.baseURL.appendingPathComponent("v1/songs"))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let songs = try #require((json?["data"] as? [String: Any])?["data"] as? [[String: Any]])
        let first = try #require(songs.first)
        let uri = try #require(first["uri"] as? String)
        let item = PlayableItem(
            id: "\(first["id"] ?? "")", url: URL(string: uri, relativeTo: server.baseURL)!.absoluteURL,
            title: first["title"] as? String ?? "")
        let gone = PlayableItem(
            id: "gone", url: server.baseURL.appendingPathComponent("v1/songs/987654321/stream"), title: "Gone"
        )

        let player = try Self.player()
        let log = EventLog(player.events())
        await player.load(gone, startAt: 0, autoplay: true)
        let failed = try await log.wait("the 404") { $0.contains(.state(.failed)) }
        #expect(failed.contains { if case .failed("gone", _) = $0 { true } else { false } })

        await player.load(item, startAt: 0, autoplay: true)
        let events = try await log.wait("progress over HTTP") {
            $0.progress(of: item.id).contains { $0.position > 0.5 && ($0.duration ?? 0) > 1 }
        }
        #expect(events.contains(.state(.playing)))
        player.shutdown()
        try await log.waitForFinish()
        server.stop()
    }

    @Test func takesItsConfiguration() async throws {
        let player = try MPVPlayer(
            configuration: MPVConfiguration(
                audioOutput: .null, progressRate: 1000, replayGain: .album, volume: 40,
                httpHeaders: ["Authorization": "secret-token"]))
        #expect(player.property("replaygain") == "album")
        #expect(player.property("volume") == "40.000000")
        #expect(player.property("ao") == "null")
        #expect(player.property("video") == "no")
        #expect(player.property("gapless-audio") == "weak")
        #expect(player.property("http-header-fields") == "Authorization: secret-token")
        player.shutdown()

        #expect(throws: PlayerError.self) {
            try MPVPlayer(configuration: MPVConfiguration(audioOutput: .null, httpHeaders: ["X": "a,b"]))
        }
    }

    @Test func progressComesAtTheConfiguredRate() async throws {
        let song = try await Songs.make(seconds: 3)
        let player = try MPVPlayer(configuration: MPVConfiguration(audioOutput: .null, progressRate: 10))
        let log = EventLog(player.events())
        await player.load(song, startAt: 0, autoplay: true)
        let events = try await log.wait("the end") { $0.contains(.ended(itemID: song.id)) }
        let progress = events.progress(of: song.id)
        let played = (progress.last?.position ?? 0) - (progress.first?.position ?? 0)
        #expect(played > 1.5)
        // About 10 a second; loose bounds (the box is shared): the point is that it is not the default 20.
        #expect(
            Double(progress.count) >= 5 * played && Double(progress.count) <= 15 * played + 3,
            "\(progress.count) in \(played) s")
    }

    @Test func aSlowStreamReportsBuffering() async throws {
        let song = try await Songs.make(seconds: 4, bitrate: "64k")
        let server = try await StallingServer.start(serving: song.url.path)
        defer { server.stop() }
        let item = PlayableItem(id: "slow", url: server.url, title: "Slow")
        let player = try Self.player()
        let log = EventLog(player.events())
        await player.load(item, startAt: 0, autoplay: true)
        // The server sends about a second of the song and then nothing, however late the player starts.
        try await log.wait("buffering") { $0.contains(.buffering(true)) }
        try server.sendTheRest()
        let events = try await log.wait("buffering, then playing on") {
            guard let start = $0.firstIndex(of: .buffering(true)) else { return false }
            return $0[start...].contains(.buffering(false))
        }
        #expect(!events.contains { if case .failed = $0 { true } else { false } })
        player.shutdown()
    }

    static func player() throws -> MPVPlayer {
        try MPVPlayer(configuration: MPVConfiguration(audioOutput: .null, progressRate: 20))
    }
}

/// Songs made by ffmpeg: sine tones of a few seconds, MP3.
enum Songs {
    static func make(seconds: Int, frequency: Int = 440, bitrate: String = "128k") async throws
        -> PlayableItem
    {
        let path = temporaryFolder() + "/tone-\(frequency).mp3"
        try await runChecked(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                "sine=frequency=\(frequency):duration=\(seconds)",
                "-c:a", "libmp3lame", "-b:a", bitrate, path,
            ])
        return PlayableItem(
            id: UUID().uuidString, url: URL(fileURLWithPath: path), title: "Tone \(frequency) Hz")
    }
}

/// An HTTP server that sends the first 8 KiB of a file (a second of a 64 kb/s MP3), then nothing until
/// `sendTheRest` (Python, test only): the player runs dry whatever the machine's load, rather than only when
/// it started playing before enough had arrived.
final class StallingServer: Sendable {
    let child: ChildProcess
    let url: URL

    static let script = """
        import http.server, sys
        data = open(sys.argv[1], "rb").read()
        class Slow(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "audio/mpeg")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data[:8192]); self.wfile.flush()
                    sys.stdin.readline()
                    self.wfile.write(data[8192:]); self.wfile.flush()
                except OSError:
                    pass
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    private init(child: ChildProcess, url: URL) {
        self.child = child
        self.url = url
    }

    static func start(serving path: String) async throws -> StallingServer {
        try await offThread {
            let child = try ChildProcess(
                "/usr/bin/python3", ["-c", script, path], input: .pipe, output: .pipe)
            let line = firstLine(of: child.standardOutput!)
            guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                child.signal(SIGKILL)
                throw FixtureError(message: "the slow server did not start: \(line)")
            }
            return StallingServer(child: child, url: URL(string: "http://127.0.0.1:\(port)/song.mp3")!)
        }
    }

    /// Lets the request waiting after its first 8 KiB have the rest of the file.
    func sendTheRest() throws {
        try child.standardInput?.write(contentsOf: Data("go\n".utf8))
    }

    /// Kills it (its own thread reaps it).
    func stop() { child.signal(SIGKILL) }
}

/// Everything a player said, collected as it arrives.
final class EventLog: @unchecked Sendable {
    // @unchecked: `recorded` and `finished` are only touched under `lock`.
    private let lock = NSLock()
    private var recorded: [PlayerEvent] = []
    private var finished = false

    init(_ stream: AsyncStream<PlayerEvent>) {
        Task { [self] in
            for await event in stream { lock.withLock { recorded.append(event) } }
            lock.withLock { finished = true }
        }
    }

    var events: [PlayerEvent] { lock.withLock { recorded } }

    /// Waits (up to 30 s: the box is shared and tests run in parallel) until `done` holds for the events so far.
    @discardableResult
    func wait(_ what: String, _ done: @escaping ([PlayerEvent]) -> Bool) async throws -> [PlayerEvent] {
        for _ in 0..<1500 {
            let now = events
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw FixtureError(message: "waited 30 s for \(what); events: \(events.suffix(30))")
    }

    func waitForFinish() async throws {
        try await eventually("the event stream to finish") { self.lock.withLock { self.finished } }
    }
}

func eventually(_ what: String, _ done: @escaping () -> Bool) async throws {
    for _ in 0..<1500 {
        if done() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw FixtureError(message: "waited 30 s for \(what)")
}

extension Sequence<PlayerEvent> {
    func progress(of itemID: String) -> [PlaybackProgress] {
        compactMap { if case .progress(let p) = $0, p.itemID == itemID { p } else { nil } }
    }
}
