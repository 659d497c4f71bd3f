import CloudMusicKit
import Foundation
import MPRIS
import MusicCore
import PlayerControl

/// Where the sound goes: the config's `audio_output` (or `--audio`) and `audio_device`.
public struct SoundSettings: Sendable, Equatable {
    public var output: MPVConfiguration.AudioOutput
    public var device: String?

    public init(output: MPVConfiguration.AudioOutput, device: String? = nil) {
        self.output = output
        self.device = device
    }
}

/// How the terminal player is set up (from the config file and the command line).
public struct PlayerOptions: Sendable {
    public var server: URL
    public var audioOutput: MPVConfiguration.AudioOutput = .auto
    public var audioDevice: String?
    public var volume = 80
    /// Where the client's SQLite file (queue, downloads, offline cache) lives.
    public var stateDirectory: URL
    public var downloadsDirectory: URL
    public var keyMap = KeyMap()
    public var colors: Theme.Mode = .auto
    public var palette: [TextStyle: ColorSpec] = [:]
    /// Something to tell the person as the player opens (a config problem that was worked around).
    public var notice: String?
    /// A remembered sign-in.
    public var session: (userID: String, token: String, nickname: String?)?
    /// Called after a sign-in, to remember it.
    public var saveSession: @Sendable (_ userID: String, _ token: String, _ nickname: String?) -> Void = {
        _, _, _ in
    }
    /// Called when the server ended the session.
    public var forgetSession: @Sendable () -> Void = {}
    /// Called when the volume changes, to start at it next time.
    public var saveVolume: @Sendable (Int) -> Void = { _ in }
    /// Words to search for and play once started (`cloudmusic play <words>` with no player running).
    public var playQuery: String?
    /// Where `cloudmusic pause|next|status` find this player; nil for no control socket.
    public var controlSocketPath: String?
    /// Whether to offer MPRIS on the D-Bus session bus.
    public var mediaKeys = true
    /// Reads the config's sound settings again; while the sound output has failed the player does each second,
    /// and tries again with them when they change. Nil: only a restart takes new ones.
    public var rereadSoundSettings: (@Sendable () throws -> SoundSettings)?

    public init(server: URL, stateDirectory: URL, downloadsDirectory: URL) {
        self.server = server
        self.stateDirectory = stateDirectory
        self.downloadsDirectory = downloadsDirectory
    }
}

/// The terminal player: the state, its runtime, and the loop that reads keys, applies actions and draws.
public final class TerminalApp {
    private var state: AppState
    private let mailbox: Mailbox
    private let runtime: PlayerRuntime
    private let options: PlayerOptions
    private var terminal: Terminal?
    private var controlServer: ControlServer?

    /// Builds the client (store, player, queue, downloads); blocking, call it from `main` before `run`.
    public init(options: PlayerOptions) throws {
        self.options = options
        mailbox = try Mailbox()
        let fileManager = FileManager.default
        try fileManager.createDirectory(
            at: options.stateDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let client = APIClient(baseURL: options.server, token: options.session?.token)
        let store = try LocalStore(path: options.stateDirectory.appendingPathComponent("client.sqlite").path)
        let repository = MusicRepository(
            client: client, cache: OfflineCache(store: store), userID: options.session?.userID)
        let player = try MPVPlayer(
            configuration: MPVConfiguration(
                audioOutput: options.audioOutput, progressRate: 10, volume: Double(options.volume),
                audioDevice: options.audioDevice))
        let downloads = try DownloadManager(store: store, folder: options.downloadsDirectory, client: client)
        let mailbox = self.mailbox
        // Without a session bus (SSH, a console, CI) this is nil and the player runs quietly without it.
        let mediaSession = options.mediaKeys ? MPRISService.start() : nil
        let list = try Self.blocking {
            try await MusicListManager(store: store, player: player, sync: repository) { song in
                downloads.playableURL(for: song, client: client)
            }
        }
        runtime = PlayerRuntime(
            client: client, repository: repository, player: player, list: list, downloads: downloads,
            chat: ChatRepository(repository: repository), mediaSession: mediaSession, volume: options.volume,
            post: { mailbox.post($0) },
            onSignedIn: options.saveSession, onSignedOut: options.forgetSession, onVolume: options.saveVolume,
            sound: SoundSettings(output: options.audioOutput, device: options.audioDevice),
            rereadSound: options.rereadSoundSettings)
        var state = AppState(
            server: options.server.absoluteString, keyMap: options.keyMap,
            signedIn: options.session.map { ($0.userID, $0.nickname) })
        state.playing.volume = options.volume
        if let query = options.playQuery {
            state.screen = .search
            state.search.query = query
            state.search.cursor = query.count
            state.search.playFirstAnswer = true
        }
        if let notice = options.notice { state.toast = Toast(message: notice, isError: true, ticksLeft: 10) }
        self.state = state
    }

    /// Waits for async work from synchronous code (start-up only), off the cooperative pool's threads.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, any Error>!
        Task.detached {
            do { result = .success(try await work()) } catch { result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try result.get()
    }

    /// Takes the terminal and runs until the person quits; the terminal is given back however it ends.
    public func run(startedAt: ContinuousClock.Instant = .now) throws {
        let terminal = try Terminal(colors: options.colors, palette: options.palette)
        self.terminal = terminal
        // What libmpv, ALSA, PulseAudio and libav print must not reach the drawn screen.
        StandardErrorLog.redirect(
            to: options.stateDirectory.appendingPathComponent(StandardErrorLog.fileName).path)
        defer {
            terminal.close()
            runtime.stop()
            StandardErrorLog.restore()
        }
        let runtime = self.runtime
        try Self.blocking { await runtime.start() }
        if let path = options.controlSocketPath {
            do {
                controlServer = try ControlServer(path: path) { await runtime.control($0) }
            } catch {
                state.show(
                    "\(error) `cloudmusic pause|next|status` will not reach this player.", isError: true)
            }
        }
        defer { controlServer?.stop() }
        var effects: [AppEffect] = []
        if state.isSignedIn {
            state.home.status = .loading
            effects += [.loadHome, .loadMyMusic, .loadUnreadCounts, .loadConversations(more: false)]
            // The queue may have moved on on another device since this one last ran.
            Task { try? await runtime.list.syncWithServer() }
            // Messages and notifications as they happen; the chat token comes from the session.
            runtime.startLive(chatToken: nil)
        }
        if state.search.playFirstAnswer {
            state.search.generation += 1
            state.search.status = .loading
            effects.append(.search(query: state.search.query, generation: state.search.generation))
        }
        effects.forEach(runtime.perform)
        draw()
        // For the start-up figure (Benchmarks/tui): how long `main` took to the first frame.
        if ProcessInfo.processInfo.environment["CLOUDMUSIC_EXIT_AFTER_FIRST_FRAME"] != nil {
            let elapsed = ContinuousClock.now - startedAt
            terminal.close()
            print(
                "first frame after \(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms"
            )
            return
        }
        loop()
        if state.quitting { runtime.finishChangesBeforeQuit(within: .seconds(5)) }
        // Stop the sound before the terminal is given back, so quitting is immediate.
        try? Self.blocking { await runtime.list.pause() }
        runtime.player.shutdown()
    }

    private func loop() {
        var fds = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: mailbox.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        while !state.quitting, !Terminal.wasInterrupted {
            _ = poll(&fds, 2, 1_000)
            var changed = false
            // ncurses may hold several keys from one read; take all of them.
            while let input = terminal?.readKey(timeout: 0) {
                changed = true
                switch input {
                case .resize: break
                case .key(let key): apply(.key(key))
                }
                if state.quitting { return }
            }
            for action in mailbox.take() {
                changed = true
                apply(action)
            }
            if changed { draw() }
            // A closed terminal reads as end of input forever: nobody is left to press q.
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
        }
    }

    private func apply(_ action: AppAction) {
        for effect in state.reduce(action) { runtime.perform(effect) }
    }

    private func draw() {
        guard let terminal else { return }
        state.bodyHeight = max(1, terminal.height - 3)
        terminal.draw(AppView.render(&state, width: terminal.width, height: terminal.height))
    }
}
