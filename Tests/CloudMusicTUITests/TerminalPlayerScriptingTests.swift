import Foundation
import ServerTestSupport
import Testing

/// `cloudmusic` as a command (play, pause, status, --help, config errors), its remembered sign-in, and its
/// MPRIS service on a private D-Bus session bus, around a player running in tmux.
@Suite(.serialized) struct TerminalPlayerScriptingTests {
    /// Runs `cloudmusic` with `arguments` and the player's environment; returns its exit status and output.
    static func cloudmusic(_ arguments: [String], home: String, extra: [String: String] = [:]) async throws
        -> (status: Int32, out: String, err: String)
    {
        try await offThread {
            let process = Process()
            process.executableURL = productBinary("cloudmusic")
            process.arguments = arguments
            process.environment = TerminalPlayer.environment(home: home).merging(extra) { $1 }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            let errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: outData, as: UTF8.self),
                String(decoding: errData, as: UTF8.self)
            )
        }
    }

    /// A private session bus for one test, so the desktop's (if any) is never touched.
    final class SessionBus: @unchecked Sendable {
        let process = Process()
        let address: String

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            process.arguments = ["--session", "--nofork", "--print-address", "--address=unix:tmpdir=/tmp"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            address = firstLine(of: out).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !address.isEmpty else { throw FixtureError(message: "dbus-daemon printed no address") }
        }

        deinit {
            // SIGKILL: started from a test thread, the daemon inherits a mask that blocks SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// `dbus-send --print-reply` to the player's MPRIS object.
        func send(_ member: String, _ arguments: [String] = []) async throws -> String {
            let address = address
            return try await offThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
                process.arguments =
                    [
                        "--bus=\(address)", "--print-reply", "--dest=org.mpris.MediaPlayer2.cloudmusic",
                        "/org/mpris/MediaPlayer2", member,
                    ] + arguments
                let out = Pipe()
                process.standardOutput = out
                process.standardError = out
                try process.run()
                let data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return String(decoding: data, as: UTF8.self)
            }
        }

        func playerProperty(_ name: String) async throws -> String {
            try await send(
                "org.freedesktop.DBus.Properties.Get",
                ["string:org.mpris.MediaPlayer2.Player", "string:\(name)"])
        }
    }

    @Test func rememberedSignInPlayPauseStatusAndMediaKeys() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        try await signUp(server, email: "bo@example.com", password: "a long passphrase", nickname: "Bo")
        let bus = try SessionBus()
        let home = temporaryFolder()
        let player = try TerminalPlayer(
            server: server, home: home, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let tmux = player.session
        try await player.signIn(email: "bo@example.com", password: "a long passphrase", nickname: "Bo")

        // The sign-in is remembered in a file only its owner can read, with the token and never the password.
        let sessionPath = home + "/state/cloudmusic/session.json"
        let attributes = try FileManager.default.attributesOfItem(atPath: sessionPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let saved = try String(contentsOfFile: sessionPath, encoding: .utf8)
        #expect(saved.contains("\"token\""))
        #expect(!saved.contains("passphrase"))

        // Another terminal tells the running player what to play, and asks what it plays.
        var answer = try await Self.cloudmusic(["play", "星河"], home: home)
        #expect(answer.status == 0, "\(answer.err)")
        try await tmux.waitFor("星河 playing") { controlBar($0).contains("星河") && controlBar($0).contains("▶") }
        answer = try await Self.cloudmusic(["status"], home: home)
        #expect(answer.status == 0)
        #expect(answer.out.contains("▶ 星河 - Nova 星"))
        answer = try await Self.cloudmusic(["pause"], home: home)
        #expect(answer.status == 0)
        try await tmux.waitFor("paused") { controlBar($0).contains("‖") }
        // A second player for the same person refuses to start and says where the first one is.
        answer = try await Self.cloudmusic(["--server", server.baseURL.absoluteString], home: home)
        #expect(answer.status == 1)
        #expect(answer.err.contains("already running in another terminal"))
        #expect(answer.err.contains("星河"))

        // Media keys: the desktop sees the song and the pause, and its play-pause reaches the player.
        #expect(try await bus.playerProperty("PlaybackStatus").contains("Paused"))
        #expect(try await bus.playerProperty("Metadata").contains("星河"))
        _ = try await bus.send("org.mpris.MediaPlayer2.Player.PlayPause")
        try await tmux.waitFor("playing after the media key") { controlBar($0).contains("▶") }
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)

        // With no player running, the commands say so and fail.
        answer = try await Self.cloudmusic(["pause"], home: home)
        #expect(answer.status == 1)
        #expect(answer.err.contains("No cloudmusic player is running"))

        // The next start is signed in already: no sign-in form, and the song played is in the history.
        let again = try TerminalPlayer(server: server, home: home)
        try await again.session.waitFor(text: "Recently played")
        try await again.session.waitFor(text: "星河 - Nova 星")
        #expect(!(try await again.session.screen()).contains { $0.contains("Sign in to") })
        try await again.session.press("q")
        #expect(try await again.session.waitForExit().status == 0)

        // Signing out forgets it.
        answer = try await Self.cloudmusic(["logout"], home: home)
        #expect(answer.status == 0)
        #expect(!FileManager.default.fileExists(atPath: sessionPath))
    }

    @Test func signUpFromTheForm() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let player = try TerminalPlayer(server: server)
        let tmux = player.session
        try await tmux.waitFor(text: "Sign in to")
        try await tmux.press("C-r")
        try await tmux.waitFor(text: "Create an account on")
        try await tmux.type("小雨")
        try await tmux.press("Tab")
        try await tmux.type("xiaoyu@example.com")
        try await tmux.press("Tab")
        // A password the server refuses first: its message shows in the form, and nothing is lost.
        try await tmux.type("short")
        try await tmux.press("Enter", "Enter")
        try await tmux.waitFor("the server's refusal") { rows in
            rows.contains { $0.contains("at least 8 characters") } && rows.contains { $0.contains("小雨") }
        }
        try await tmux.press("Up")
        try await tmux.press("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try await tmux.type("a much longer passphrase")
        try await tmux.press("Enter", "Enter")
        try await tmux.waitFor(text: "Signed in as 小雨")
        try await tmux.press("4")
        try await tmux.waitFor(text: "I like")
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)
    }

    @Test func playWithNoPlayerRunningStartsOneThatPlays() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let player = try TerminalPlayer(server: server, arguments: ["play", "雨后彩虹"])
        try await player.session.waitFor("雨后彩虹 playing with its lyrics") {
            controlBar($0).contains("雨后彩虹") && $0.contains { $0.contains("雨停了天空放晴") }
        }
        try await player.session.press("q")
        #expect(try await player.session.waitForExit().status == 0)
    }

    @Test func helpConfigAndBadArguments() async throws {
        let home = temporaryFolder()
        var answer = try await Self.cloudmusic(["--help"], home: home)
        #expect(answer.status == 0)
        #expect(answer.out.contains("cloudmusic play <search words>"))
        #expect(answer.out.contains("Space play/pause"))

        answer = try await Self.cloudmusic(["--bogus"], home: home)
        #expect(answer.status == 2)
        #expect(answer.err.contains("unknown option --bogus"))

        answer = try await Self.cloudmusic(["--server", "ftp://example.com"], home: home)
        #expect(answer.status == 2)
        #expect(answer.err.contains("http:// or https://"))

        answer = try await Self.cloudmusic(["config"], home: home)
        #expect(answer.status == 0)
        #expect(answer.out.hasPrefix("# cloudmusic configuration"))
        #expect(answer.out.contains("play_pause"))

        // A config file with a mistake names the line and stops before taking the terminal.
        let config = home + "/config/cloudmusic"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "server = http://127.0.0.1:1\nvolume = loud\n".write(
            toFile: config + "/config", atomically: true, encoding: .utf8)
        answer = try await Self.cloudmusic([], home: home)
        #expect(answer.status == 2)
        #expect(answer.err.contains("line 2"))
        #expect(answer.err.contains("volume"))

        try "[keys]\nplay_paus = x\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        answer = try await Self.cloudmusic([], home: home)
        #expect(answer.status == 2)
        #expect(answer.err.contains("play_paus"))
    }

    @Test func keysFromTheConfigFileDriveThePlayer() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let home = temporaryFolder()
        let config = home + "/config/cloudmusic"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "theme = none\n[keys]\nnow_playing = v\nloop_mode = o\n".write(
            toFile: config + "/config", atomically: true, encoding: .utf8)
        let player = try TerminalPlayer(server: server, home: home, arguments: ["play", "少年"])
        let tmux = player.session
        try await tmux.waitFor("playing") { controlBar($0).contains("少年") && controlBar($0).contains("▶") }
        try await tmux.press("1")
        try await tmux.waitFor(text: "New songs")
        try await tmux.press("v")
        try await tmux.waitFor(text: "少年的梦")
        try await tmux.press("o")
        try await tmux.waitFor("loop one from the configured key") { controlBar($0).contains("[One]") }
        // The help screen shows the configured keys.
        try await tmux.press("?")
        let help = try await tmux.waitFor(text: "Loop mode: list, one, shuffle")
        #expect(help.contains { $0.contains("o") && $0.contains("Loop mode") })
        try await tmux.press("Escape", "-", "-")
        try await tmux.waitFor("the volume down") { controlBar($0).contains("Vol 70%") }
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)

        // The next start is at the volume last set, not the config's starting one.
        let again = try TerminalPlayer(server: server, home: home)
        try await again.session.waitFor("the remembered volume") { controlBar($0).contains("Vol 70%") }
        // Not signed in: the form has the keys (q would be typed), Esc leaves it.
        try await again.session.press("Escape")
        try await again.session.waitFor(text: "New songs")
        try await again.session.press("q")
        #expect(try await again.session.waitForExit().status == 0)
    }
}
