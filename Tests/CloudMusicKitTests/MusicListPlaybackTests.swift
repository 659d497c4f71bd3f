import CloudMusicKit
import Foundation
import ServerTestSupport
import MusicCore
import Testing

/// The music list driving the real libmpv player (`ao=null`) on songs from the real server: it moves on when
/// a song ends, skips one that cannot be played, and plays a downloaded song with the server gone.
@Suite struct MusicListPlaybackTests {
    /// Collects a manager's events so a test can wait for one.
    actor Recorder {
        var events: [MusicListEvent] = []
        func add(_ event: MusicListEvent) { events.append(event) }

        func wait(
            seconds: Double = 20, _ matches: @Sendable (MusicListEvent) -> Bool
        ) async throws -> MusicListEvent {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let found = events.first(where: matches) { return found }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw FixtureError(message: "no matching event in \(seconds) s; saw \(events.suffix(10))")
        }

        func clear() { events = [] }
    }

    static func start(
        _ manager: MusicListManager
    ) async -> (Recorder, Task<Void, Never>) {
        let recorder = Recorder()
        let stream = await manager.events()
        let task = Task { for await event in stream { await recorder.add(event) } }
        return (recorder, task)
    }

    /// Two 3-second songs (besides the demo library), so that songs end by themselves within a test.
    static func shortSongs() async throws -> String {
        let folder = temporaryFolder()
        try await offThread {
            for (index, title) in ["Short One", "Short Two"].enumerated() {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
                process.arguments = [
                    "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=\(440 + 220 * index):duration=3",
                    "-metadata", "title=\(title)", "-metadata", "artist=Shorts", "-c:a", "libmp3lame",
                    folder + "/\(index + 1).mp3",
                ]
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else { throw FixtureError(message: "ffmpeg failed") }
            }
        }
        return folder
    }

    @Test func theListPlaysOnAndSkipsWhatCannotPlay() async throws {
        let server = try await TestServer.start(extraArguments: ["--music", try await Self.shortSongs()])
        let client = RepositoryTests.client(server)
        let all = try await MusicRepository(client: client).songs(size: 100).value.data
        let songs = ["Short One", "Short Two"].compactMap { title in all.first { $0.title == title } }
        try #require(songs.count == 2, "\(all.map(\.title))")
        var missing = songs[0]
        missing.id = "999999"
        missing.title = "Gone"
        missing.uri = "v1/songs/999999/stream"

        let player = try MPVPlayer(configuration: MPVConfiguration(audioOutput: .null))
        defer { player.shutdown() }
        let list = try await MusicListManager(
            store: try LocalStore(path: temporaryFolder() + "/local.sqlite"), player: player, seed: 4
        ) { client.url(for: $0.uri) }
        let (recorder, task) = await Self.start(list)
        defer { task.cancel() }

        // The first song plays to its end; the list moves on past the missing one (reported) to the third.
        try await list.setList([songs[0], missing, songs[1]], startAt: 0)
        _ = try await recorder.wait { if case .progress(let at, _) = $0 { at > 0 } else { false } }
        let skipped = try await recorder.wait { if case .skipped(let song, _) = $0 { song.id == "999999" } else { false } }
        if case .skipped(_, let message) = skipped { #expect(!message.isEmpty) }
        _ = try await recorder.wait { $0 == .currentChanged(songs[1]) }
        #expect(await list.currentSong?.id == songs[1].id)

        // Single: the end of the song plays it again.
        try await list.setMode(.single)
        await recorder.clear()
        _ = try await recorder.wait { if case .progress(let at, _) = $0 { at > 1.5 } else { false } }
        await recorder.clear()
        _ = try await recorder.wait { if case .progress(let at, _) = $0 { at < 1 } else { false } }
        #expect(await list.currentSong?.id == songs[1].id)
        #expect(await list.snapshot().songs.count == 3)
        await list.pause()
    }

    /// A downloaded song plays from its file after the server stopped.
    @Test func aDownloadPlaysWithTheServerGone() async throws {
        let server = try await TestServer.start()
        let client = RepositoryTests.client(server)
        let repository = MusicRepository(client: client)
        let song = try #require(try await repository.songs(size: 1).value.data.first)
        let store = try LocalStore(path: temporaryFolder() + "/local.sqlite")
        let downloads = try DownloadManager(
            store: store, folder: URL(fileURLWithPath: temporaryFolder()), client: client)
        try await downloads.enqueue(song: song)
        let item = try #require(await downloads.waitUntilSettled(songID: song.id))
        #expect(item.state == .completed, "\(item.error ?? "")")
        server.stop()

        let player = try MPVPlayer(configuration: MPVConfiguration(audioOutput: .null))
        defer { player.shutdown() }
        let list = try await MusicListManager(store: store, player: player) {
            downloads.playableURL(for: $0, client: client)
        }
        let (recorder, task) = await Self.start(list)
        defer { task.cancel() }
        try await list.setList([song])
        _ = try await recorder.wait { if case .progress(let at, _) = $0 { at > 0.2 } else { false } }
        let events = await recorder.events
        #expect(!events.contains { if case .skipped = $0 { true } else { false } })
        await list.pause()
    }

    /// A media session as a client brings one: it keeps what it was shown and sends commands on demand.
    final class PanelSession: MediaSession, @unchecked Sendable {
        private let lock = NSLock()
        private var shown: [NowPlayingInfo?] = []
        private let stream: AsyncStream<RemoteCommand>
        private let continuation: AsyncStream<RemoteCommand>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream() }

        func update(_ info: NowPlayingInfo?) { lock.withLock { shown.append(info) } }
        func commands() -> AsyncStream<RemoteCommand> { stream }
        func send(_ command: RemoteCommand) { continuation.yield(command) }
        var last: NowPlayingInfo? { lock.withLock { shown.last ?? nil } }
    }

    @Test func theMediaSessionShowsAndControlsTheList() async throws {
        let server = try await TestServer.start()
        let client = RepositoryTests.client(server)
        let songs = try await MusicRepository(client: client).songs(size: 2).value.data
        let player = try MPVPlayer(configuration: MPVConfiguration(audioOutput: .null))
        defer { player.shutdown() }
        let list = try await MusicListManager(
            store: try LocalStore(path: temporaryFolder() + "/local.sqlite"), player: player
        ) { client.url(for: $0.uri) }
        let panel = PanelSession()
        let bridge = await NowPlayingBridge(list: list, session: panel) { $0.album?.icon.map(client.url(for:)) }
        defer { bridge.stop() }
        try await list.setList(songs)

        func until(_ what: String, _ check: @Sendable () -> Bool) async throws {
            for _ in 0..<400 where !check() { try await Task.sleep(for: .milliseconds(25)) }
            #expect(check(), "\(what): \(String(describing: panel.last))")
        }
        try await until("playing the first") { panel.last?.title == songs[0].title && panel.last?.isPlaying == true }
        #expect(panel.last?.duration == Double(songs[0].duration) / 1000)
        panel.send(.next)
        try await until("the next song") { panel.last?.title == songs[1].title }
        panel.send(.togglePlayPause)
        try await until("paused") { panel.last?.isPlaying == false }
        panel.send(.seek(to: 1.5))
        panel.send(.play)
        try await until("playing from 1.5 s") { panel.last?.isPlaying == true && (panel.last?.position ?? 0) >= 1.5 }
    }
}
