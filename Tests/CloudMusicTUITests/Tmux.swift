import Foundation
import ServerTestSupport
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
    /// With posix_spawn and waitpid, not Foundation's Process: the tmux server that `new-session` forks
    /// inherits the descriptors Process watches to see its child exit, so Process would wait for the server.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmux-\(UUID().uuidString)"
        ).path
        defer { unlink(outPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        // The test runner's threads block signals such as SIGTERM and SIGWINCH; the tmux server and the player
        // must start with none blocked, as from a shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw FixtureError(message: "could not start tmux: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        // The exit status is in bits 8-15 of a normal exit.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw FixtureError(message: "tmux \(arguments.first ?? "") failed (status \(status))")
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
        _ = try await offThread { try self.tmux(["send-keys", "-t", "main"] + keys) }
    }

    /// Types text literally (UTF-8, CJK included).
    func type(_ text: String) async throws {
        _ = try await offThread { try self.tmux(["send-keys", "-t", "main", "-l", text]) }
    }

    /// The screen's text, one string per row.
    func screen() async throws -> [String] {
        try await offThread { try self.tmux(["capture-pane", "-p", "-t", "main"]) }
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The screen with its SGR escape sequences (colours, bold), to see what is highlighted.
    func styledScreen() async throws -> [String] {
        try await offThread { try self.tmux(["capture-pane", "-p", "-e", "-t", "main"]) }
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Waits (up to `seconds`) until the screen (with its escape sequences when `styled`) satisfies
    /// `condition`; returns that screen.
    @discardableResult
    func waitFor(
        _ what: String, styled: Bool = false, seconds: Double = 20, _ condition: @escaping ([String]) -> Bool
    ) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var last: [String] = []
        while Date() < deadline {
            last = styled ? try await styledScreen() : try await screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError(
            message: "waited \(seconds) s for \(what); the screen was:\n" + last.joined(separator: "\n"))
    }

    /// Waits until some row contains `text`.
    @discardableResult
    func waitFor(text: String, seconds: Double = 20) async throws -> [String] {
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

    /// Waits for the program to end.
    func waitForExit(seconds: Double = 20) async throws -> (status: Int?, alternateScreen: Bool) {
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

    init(
        server: TestServer, home: String = temporaryFolder(), arguments: [String] = [],
        environment extra: [String: String] = [:], width: Int = 100, height: Int = 30
    ) throws {
        self.home = home
        session = try TmuxSession(
            command: [
                productBinary("cloudmusic").path, "--server", server.baseURL.absoluteString, "--audio",
                "null",
            ]
                + arguments,
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

func signUp(_ server: TestServer, email: String, password: String, nickname: String) async throws {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/users"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
        "email": email, "password": password, "nickname": nickname,
    ])
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((200..<300).contains((response as? HTTPURLResponse)?.statusCode ?? 0))
}

/// The row holding the control bar (the last one).
func controlBar(_ screen: [String]) -> String {
    screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
}
