import Foundation
import ServerTestSupport
import Testing

/// `cloudmusic` as a command (play, pause, status, --help, config errors), its remembered sign-in, and its
/// MPRIS service on a private D-Bus session bus, around a player running in tmux.
@Suite(.serialized) struct TerminalPlayerScriptingTests {
    /// Runs `cloudmusic` with `arguments` in the player's environment, to its end.
    static func cloudmusic(_ arguments: [String], home: String) async -> ProcessResult {
        await run(
            productBinary("cloudmusic").path, arguments, environment: TerminalPlayer.environment(home: home))
    }

    /// The player's well-known name on the bus.
    static let mpris = "org.mpris.MediaPlayer2.cloudmusic"

    @Test func rememberedSignInPlayPauseStatusAndMediaKeys() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        try await signUp(server, email: "bo@example.com", password: "a long passphrase", nickname: "Bo")
        let bus = try await PrivateBus.start()
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
        var answer = await Self.cloudmusic(["play", "星河"], home: home)
        #expect(answer.status == 0, "\(answer.errorOutput)")
        try await tmux.waitFor("星河 playing") { controlBar($0).contains("星河") && controlBar($0).contains("▶") }
        answer = await Self.cloudmusic(["status"], home: home)
        #expect(answer.status == 0)
        #expect(answer.output.contains("▶ 星河 - Nova 星"))
        answer = await Self.cloudmusic(["pause"], home: home)
        #expect(answer.status == 0)
        try await tmux.waitFor("paused") { controlBar($0).contains("‖") }
        // A second player for the same person refuses to start and says where the first one is.
        answer = await Self.cloudmusic(["--server", server.baseURL.absoluteString], home: home)
        #expect(answer.status == 1)
        #expect(answer.errorOutput.contains("already running in another terminal"))
        #expect(answer.errorOutput.contains("星河"))

        // Media keys: the desktop sees the song and the pause, and its play-pause reaches the player.
        let properties = try await bus.properties(of: Self.mpris)
        #expect(properties["PlaybackStatus"]?.contains("Paused") == true)
        #expect(properties["Metadata.xesam:title"]?.contains("星河") == true)
        _ = await bus.send(to: Self.mpris, "org.mpris.MediaPlayer2.Player.PlayPause")
        try await tmux.waitFor("playing after the media key") { controlBar($0).contains("▶") }
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)
        await bus.stop()

        // With no player running, the commands say so and fail.
        answer = await Self.cloudmusic(["pause"], home: home)
        #expect(answer.status == 1)
        #expect(answer.errorOutput.contains("No cloudmusic player is running"))

        // The next start is signed in already: no sign-in form, and the song played is in the history.
        let again = try TerminalPlayer(server: server, home: home)
        try await again.session.waitFor(text: "Recently played")
        try await again.session.waitFor(text: "星河 - Nova 星")
        #expect(!(try await again.session.screen()).contains { $0.contains("Sign in to") })
        try await again.session.press("q")
        #expect(try await again.session.waitForExit().status == 0)

        // Signing out forgets it.
        answer = await Self.cloudmusic(["logout"], home: home)
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
        var answer = await Self.cloudmusic(["--help"], home: home)
        #expect(answer.status == 0)
        #expect(answer.output.contains("cloudmusic play <search words>"))
        #expect(answer.output.contains("Space play/pause"))
        // The real places of the log and the config for this person, not variables to work out.
        #expect(answer.output.contains(home + "/state/cloudmusic/player.log"))
        #expect(answer.output.contains(home + "/config/cloudmusic/config"))
        #expect(answer.output.contains("null to play without sound"))

        answer = await Self.cloudmusic(["--bogus"], home: home)
        #expect(answer.status == 2)
        #expect(answer.errorOutput.contains("unknown option --bogus"))

        answer = await Self.cloudmusic(["--server", "ftp://example.com"], home: home)
        #expect(answer.status == 2)
        #expect(answer.errorOutput.contains("http:// or https://"))

        answer = await Self.cloudmusic(["config"], home: home)
        #expect(answer.status == 0)
        #expect(answer.output.hasPrefix("# cloudmusic configuration"))
        #expect(answer.output.contains("play_pause"))

        // A config file with a mistake names the line and stops before taking the terminal.
        let config = home + "/config/cloudmusic"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "server = http://127.0.0.1:1\nvolume = loud\n".write(
            toFile: config + "/config", atomically: true, encoding: .utf8)
        answer = await Self.cloudmusic([], home: home)
        #expect(answer.status == 2)
        #expect(answer.errorOutput.contains("line 2"))
        #expect(answer.errorOutput.contains("volume"))

        try "[keys]\nplay_paus = x\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        answer = await Self.cloudmusic([], home: home)
        #expect(answer.status == 2)
        #expect(answer.errorOutput.contains("play_paus"))
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
