import Foundation
import ServerTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A program running in its own tmux server (a private socket), driven by keys and read back with
/// capture-pane: what a person would type and see.
final class TmuxSession: Sendable {
    let socket = "cm-test-\(UUID().uuidString.prefix(8))"
    let width: Int
    let height: Int
    /// What the screen showed since the last keys were sent, until a wait looks at it.
    private let watched = Mutex(Watched())

    private struct Watched {
        var screens: [[String]] = []
        var watching = false
        var stop = false
    }

    /// Starts `command` in a `width` x `height` window; the pane stays after the program exits so its exit
    /// status and last screen can be read.
    init(command: [String], environment: [String: String], width: Int = 100, height: Int = 30) throws {
        self.width = width
        self.height = height
        let line =
            (["env"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + command)
            .map(Self.quoted).joined(separator: " ")
        try tmux([
            "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)", line,
        ])
        try tmux(["set-option", "-t", "main", "remain-on-exit", "on"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs one tmux command and returns what it printed.
    ///
    /// A ChildProcess, not Foundation's Process: the tmux server that `new-session` forks keeps the
    /// descriptors it inherits, and Process would wait for the server to see its child exit.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmux-\(UUID().uuidString)"
        ).path
        defer { unlink(outPath) }
        let child = try ChildProcess("/usr/bin/tmux", ["-L", socket] + arguments, output: .file(outPath))
        let termination = child.waitForExit()
        let output = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        guard termination == .exited(0) else {
            throw FixtureError(message: "tmux \(arguments.first ?? "") failed (\(termination))")
        }
        return output
    }

    /// Changes the window's size, as a person dragging the terminal's corner.
    func resize(width: Int, height: Int) async throws {
        _ = try await offThread {
            try self.tmux(["resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
        }
    }

    /// Presses keys by tmux's names ("Enter", "Tab", "Left", "C-c", or single characters).
    func press(_ keys: String...) async throws {
        try await offThread {
            try self.tmux(["send-keys", "-t", "main"] + keys)
            self.watch()
        }
    }

    /// Types text literally (UTF-8, CJK included).
    func type(_ text: String) async throws {
        try await offThread {
            try self.tmux(["send-keys", "-t", "main", "-l", text])
            self.watch()
        }
    }

    /// The screen's text, one string per row.
    func screen() async throws -> [String] {
        try await offThread { try self.capture(styled: false) }
    }

    /// The screen with its SGR escape sequences (colours, bold), to see what is highlighted.
    func styledScreen() async throws -> [String] {
        try await offThread { try self.capture(styled: true) }
    }

    private func capture(styled: Bool) throws -> [String] {
        try tmux(["capture-pane", "-p"] + (styled ? ["-e"] : []) + ["-t", "main"])
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Keeps looking at the screen from now until the next wait, on a thread of its own.
    ///
    /// What keys bring may show only for a moment (a toast stays 4 s), and the test gets back to its next
    /// wait only when the cooperative pool, busy with every other test on two loaded cores, has a turn for it,
    /// which can be later than that.
    private func watch() {
        let start = watched.withLock { watched in
            watched.stop = false
            guard !watched.watching else { return false }
            watched.watching = true
            return true
        }
        guard start else { return }
        // A bound for a test that presses keys and never waits again; a wait ends the watch long before.
        let deadline = Date().addingTimeInterval(300)
        Thread { [weak self] in
            // Weak: a session nobody uses any more goes (and its deinit stops its tmux server).
            while let session = self,
                session.watched.withLock({ watched in
                    if watched.stop || Date() > deadline { watched.watching = false }
                    return watched.watching
                })
            {
                if let screen = try? session.capture(styled: false) {
                    session.watched.withLock { if $0.screens.last != screen { $0.screens.append(screen) } }
                }
                usleep(50_000)
            }
        }.start()
    }

    /// The screens seen since keys were last sent; ends the watch.
    private func takeWatched() -> [[String]] {
        watched.withLock { watched in
            watched.stop = true
            defer { watched.screens = [] }
            return watched.screens
        }
    }

    /// Waits (up to `seconds`, a bound for a hung player) until the screen (with its escape sequences when
    /// `styled`) satisfies `condition`; returns that screen, which may be one seen since the last keys.
    ///
    /// It looks on a thread of its own, not between turns on the cooperative pool, so that what shows only
    /// for a moment is seen.
    @discardableResult
    func waitFor(
        _ what: String, styled: Bool = false, seconds: Double = 60,
        _ condition: @escaping @Sendable ([String]) -> Bool
    ) async throws -> [String] {
        try await offThread {
            let seen = self.takeWatched()
            if !styled, let screen = seen.first(where: condition) { return screen }
            let deadline = Date().addingTimeInterval(seconds)
            var last: [String] = []
            repeat {
                last = try self.capture(styled: styled)
                if condition(last) { return last }
                usleep(50_000)
            } while Date() < deadline
            throw FixtureError(
                message: "waited \(seconds) s for \(what); the screen was:\n" + last.joined(separator: "\n"))
        }
    }

    /// Waits until some row contains `text`.
    @discardableResult
    func waitFor(text: String, seconds: Double = 60) async throws -> [String] {
        try await waitFor("\"\(text)\"", seconds: seconds) { $0.contains { $0.contains(text) } }
    }

    /// Whether the program ended, with its exit status, and whether the terminal is back on the normal screen.
    func exitState() async throws -> (dead: Bool, status: Int?, alternateScreen: Bool) {
        let fields = try await offThread {
            try self.tmux([
                "display-message", "-p", "-t", "main", "#{pane_dead} #{pane_dead_status} #{alternate_on}",
            ])
        }.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return (
            fields.first == "1", fields.count > 1 ? Int(fields[1]) : nil, fields.count > 2 && fields[2] == "1"
        )
    }

    /// Waits for the program to end (up to `seconds`, a bound for a hung player).
    func waitForExit(seconds: Double = 60) async throws -> (status: Int?, alternateScreen: Bool) {
        _ = takeWatched()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let state = try await exitState()
            if state.dead { return (state.status, state.alternateScreen) }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw FixtureError(message: "the player did not exit within \(seconds) s")
    }

    /// The pid of the program in the pane.
    func pid() async throws -> Int32? {
        Int32(
            try await offThread { try self.tmux(["display-message", "-p", "-t", "main", "#{pane_pid}"]) }
                .trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// A player with its own home folder (config, remembered sign-in, client database) on `server`.
struct TerminalPlayer {
    let home: String
    let session: TmuxSession

    /// Fills in the sign-in form as a person would and waits for the greeting.
    func signIn(email: String, password: String, nickname: String) async throws {
        try await session.waitFor(text: "Sign in to")
        try await session.type(email)
        try await session.press("Tab")
        try await session.type(password)
        try await session.press("Enter")
        try await session.waitFor(text: "Signed in as \(nickname)")
    }

    /// - Parameter audio: the `--audio` output; nil for none, so the config's (by default libmpv's own choice).
    init(
        server: TestServer, home: String = temporaryFolder(), arguments: [String] = [],
        environment extra: [String: String] = [:], width: Int = 100, height: Int = 30, audio: String? = "null"
    ) throws {
        self.home = home
        session = try TmuxSession(
            command: [productBinary("cloudmusic").path, "--server", server.baseURL.absoluteString]
                + (audio.map { ["--audio", $0] } ?? []) + arguments,
            environment: Self.environment(home: home).merging(extra) { $1 }, width: width, height: height)
    }

    static func environment(home: String) -> [String: String] {
        [
            "HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home + "/config",
            "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data",
            "XDG_RUNTIME_DIR": home + "/run",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home)/no-bus",
        ]
    }
}

/// Signs a person up over HTTP (the player signs in through its own form).
func signUp(_ server: TestServer, email: String, password: String, nickname: String) async throws {
    let answer = try await server.sendSignUp(["email": email], nickname: nickname, password: password)
    #expect((200..<300).contains(answer.status))
}

/// The row holding the control bar (the last one).
func controlBar(_ screen: [String]) -> String {
    screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
}
