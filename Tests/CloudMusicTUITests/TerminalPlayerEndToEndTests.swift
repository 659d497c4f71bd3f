import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `cloudmusic` binary in tmux against the real server on the demo library: what a person types
/// and what they would see.
@Suite(.serialized) struct TerminalPlayerEndToEndTests {
    @Test func signInSearchPlayLyricsSkipLoopCommentAndQuit() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        try await signUp(server, email: "ann@example.com", password: "correct horse", nickname: "Ann")
        let player = try TerminalPlayer(server: server)
        let tmux = player.session

        // Sign in.
        try await player.signIn(email: "ann@example.com", password: "correct horse", nickname: "Ann")
        try await tmux.waitFor(text: "New songs")

        // Search as you type, in Chinese, and play the song found.
        try await tmux.press("/")
        try await tmux.type("少年")
        // The search screen's own rows: home also lists songs by 周末乐队, so the artist alone proves nothing.
        var screen = try await tmux.waitFor("the search's answer") { rows in
            rows.contains { $0.hasPrefix("/ 少年") } && rows.contains { $0.contains("Songs (1)") }
        }
        #expect(screen.contains { $0.contains("周末乐队") })
        try await tmux.press("Enter")
        try await tmux.press("Enter")
        try await tmux.press("7")
        screen = try await tmux.waitFor("the first lyric line while playing") {
            $0.contains { $0.contains("少年的梦") } && controlBar($0).contains("▶")
        }
        #expect(controlBar(screen).contains("少年 - 周末乐队"))

        // The current line is centred; with time the next line takes its row.
        let row = try #require(screen.firstIndex { $0.contains("少年的梦") })
        try await tmux.waitFor("the next lyric line in the current row", seconds: 30) {
            $0.count > row && $0[row].contains("在风中飞")
        }
        // Sung words are drawn in another style than the words still to sing (the karaoke fill): part of the
        // line is styled and part is not.
        try await tmux.waitFor("the karaoke fill part way through the line", styled: true) { rows in
            guard rows.count > row, let styled = rows[row].range(of: "\u{1B}[") else { return false }
            let sung = rows[row][styled.upperBound...]
            return sung.contains("在") && !sung.hasPrefix("39m") && rows[row].contains("\u{1B}[39m")
        }

        // Play a list from home, skip to the next song.
        try await tmux.press("1")
        try await tmux.waitFor(text: "New songs")
        try await tmux.press("Enter")
        screen = try await tmux.waitFor("a song from home") { controlBar($0).contains("Northern Lights") }
        try await tmux.press("n")
        screen = try await tmux.waitFor("the next song") {
            !controlBar($0).contains("Northern Lights") && controlBar($0).contains("▶")
        }

        // Loop mode: list, one, shuffle.
        #expect(controlBar(screen).contains("[Loop]"))
        try await tmux.press("l")
        try await tmux.waitFor("loop one") { controlBar($0).contains("[One]") }
        try await tmux.press("l")
        try await tmux.waitFor("shuffle") { controlBar($0).contains("[Shuffle]") }

        // Comments of the playing song: none yet, then one written from the keyboard.
        try await tmux.press("c")
        try await tmux.waitFor(text: "No comments yet")
        try await tmux.press("w")
        try await tmux.type("Lovely song #夜航# q")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Comment posted.")
        try await tmux.waitFor(text: "Lovely song #夜航# q")

        // Quit: the program ends cleanly and the terminal is back on its normal screen.
        try await tmux.press("Escape")
        try await tmux.press("q")
        let exit = try await tmux.waitForExit()
        #expect(exit.status == 0)
        #expect(!exit.alternateScreen)
    }

    @Test func ctrlCAndSigtermRestoreTheTerminal() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        for way in ["C-c", "TERM"] {
            let player = try TerminalPlayer(server: server)
            try await player.session.waitFor(text: "Sign in to")
            if way == "C-c" {
                try await player.session.press("C-c")
            } else {
                let pid = try #require(try await player.session.pid())
                kill(pid, SIGTERM)
            }
            let exit = try await player.session.waitForExit()
            #expect(exit.status == 0, "after \(way)")
            #expect(!exit.alternateScreen, "after \(way)")
        }
    }

    @Test func aCrashStillGivesTheTerminalBack() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let home = temporaryFolder()
        // A shell around the player records the terminal's modes after it died (written aside, then renamed:
        // the redirection creates the file before stty has written a word, and a look at that moment read
        // nothing).
        let player = [
            productBinary("cloudmusic").path, "--server", server.baseURL.absoluteString, "--audio", "null",
        ]
        .map(TmuxSession.quoted).joined(separator: " ")
        let tmux = try TmuxSession(
            command: [
                "sh", "-c",
                "\(player); echo died=$? > \(home)/died; stty -a > \(home)/stty.part; mv \(home)/stty.part \(home)/stty",
            ],
            // The runtime's crash report, but not its interactive prompt (which waits for a key).
            environment: TerminalPlayer.environment(home: home).merging(["SWIFT_BACKTRACE": "interactive=no"])
            { $1 })
        try await tmux.waitFor(text: "Sign in to")
        let pid = try #require(Self.playerPID(home: home))
        kill(pid, SIGSEGV)
        try await tmux.waitFor("the shell to go on") { _ in
            FileManager.default.fileExists(atPath: home + "/stty")
        }
        let modes = try String(contentsOfFile: home + "/stty", encoding: .utf8)
        // Echo and line editing are back, as the shell had them before the player took the terminal.
        #expect(modes.contains(" echo ") || modes.contains(" echo\n"))
        #expect(modes.contains(" icanon "))
        #expect(!(try String(contentsOfFile: home + "/died", encoding: .utf8)).contains("died=0"))
        #expect(!(try await tmux.exitState().alternateScreen))
    }

    /// The player's pid, from /proc: the process whose command line names this home's player.
    static func playerPID(home: String) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { continue }
            if String(decoding: command, as: UTF8.self).contains("cloudmusic\0"),
                String(decoding: environ, as: UTF8.self).contains("HOME=\(home)\0")
            {
                return pid
            }
        }
        return nil
    }

    @Test func withoutColoursStylesBecomeBoldDimAndReverse() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let home = temporaryFolder()
        let tmux = try TmuxSession(
            command: [
                productBinary("cloudmusic").path, "--server", server.baseURL.absoluteString, "--audio",
                "null",
            ],
            environment: TerminalPlayer.environment(home: home).merging(["TERM": "vt100"]) { $1 })
        try await tmux.waitFor(text: "Sign in to")
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "New songs")
        let styled = try await tmux.waitFor("the selected row in reverse video", styled: true) { rows in
            rows.contains { $0.contains(/\x1B\[[0-9;]*7m/) }
        }
        // No colour at all: only attributes.
        #expect(!styled.contains { $0.contains(/\x1B\[(3[0-7]|9[0-7]|38;)/) })
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)
    }

    @Test func resizingRedrawsAndNarrowWindowsStillFit() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let player = try TerminalPlayer(server: server, width: 80, height: 24)
        let tmux = player.session
        try await tmux.waitFor(text: "Sign in to")
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "New songs")
        try await tmux.resize(width: 50, height: 15)
        let screen = try await tmux.waitFor("the narrow layout") {
            $0.count >= 15 && $0.contains { $0.contains("Nothing playi…") }
                && $0.contains { $0.hasPrefix("  Home ›") }
        }
        for line in screen.prefix(15) {
            // tmux gives each row's text; none may be wider than the window.
            #expect(line.count <= 50)
        }
        try await tmux.resize(width: 160, height: 50)
        try await tmux.waitFor("the wide layout") {
            $0.contains { $0.contains("7 Now Playing") } && $0.count >= 50
        }
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)
    }
}

/// The lists a person keeps: the queue, downloads, "I like", and a conversation in the comments.
@Suite(.serialized) struct TerminalPlayerLibraryTests {
    @Test func queueDownloadsLikesAndReplies() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        try await signUp(server, email: "cy@example.com", password: "another passphrase", nickname: "Cy")
        let player = try TerminalPlayer(server: server, width: 120, height: 36)
        let tmux = player.session
        try await player.signIn(email: "cy@example.com", password: "another passphrase", nickname: "Cy")

        // Library: the songs tab, play the list from the first song.
        try await tmux.press("2")
        try await tmux.waitFor(text: "Artists")
        try await tmux.press("Tab", "Tab")
        var screen = try await tmux.waitFor(text: "Small Hours")
        try await tmux.press("Enter")
        screen = try await tmux.waitFor("a song from the library") { controlBar($0).contains("▶") }
        let first = controlBar(screen)

        // The queue marks what plays; moving the playing song down keeps the mark on it and the song playing.
        try await tmux.press("5")
        screen = try await tmux.waitFor(text: "▶ ")
        try await tmux.press("g", "Enter")
        screen = try await tmux.waitFor("the first row playing") { $0.count > 2 && $0[2].hasPrefix("▶ ") }
        let markedTitle = String(screen[2].dropFirst(2).prefix { $0 != " " })
        try await tmux.press("J")
        try await tmux.waitFor("the playing song one row down") {
            $0.count > 3 && $0[3].hasPrefix("▶ \(markedTitle)")
        }
        #expect(controlBar(try await tmux.screen()).contains(markedTitle))
        #expect(!first.isEmpty)

        // Like the playing song: it is in "I like".
        try await tmux.press("f")
        try await tmux.waitFor(text: "Added to I like.")
        try await tmux.press("4")
        try await tmux.waitFor(text: "My sheets")
        try await tmux.press("Tab", "Tab")
        try await tmux.waitFor(text: markedTitle)

        // Keep it in a new sheet of mine too.
        try await tmux.press("m")
        try await tmux.waitFor(text: "+ New sheet…")
        try await tmux.press("Enter")
        try await tmux.type("Road trip 路上")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Made the sheet Road trip 路上 with the song in it.")
        try await tmux.press("Tab")
        try await tmux.waitFor("the new sheet with its song") { rows in
            rows.contains { $0.contains("Road trip 路上") && $0.contains(" 1 ") }
        }
        try await tmux.press("Tab", "Tab")
        try await tmux.waitFor(text: markedTitle)

        // Download the song the selection is on, and see it finish.
        try await tmux.press("d")
        try await tmux.press("6")
        try await tmux.waitFor("the download to finish", seconds: 30) {
            $0.contains { $0.contains(markedTitle) && $0.contains("100%") || $0.contains("done") }
        }

        // Comments: write one, reply to it, like it; the reply shows under its parent.
        try await tmux.press("c")
        try await tmux.waitFor(text: "No comments yet")
        try await tmux.press("w")
        try await tmux.type("First! @Cy listen to #雨天#")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Comment posted.")
        try await tmux.press("g", "r")
        try await tmux.waitFor(text: "Reply to Cy")
        try await tmux.type("Agreed")
        try await tmux.press("Enter")
        screen = try await tmux.waitFor(text: "Reply posted.")
        let parent = try #require(screen.firstIndex { $0.contains("First! @Cy listen to #雨天#") })
        let reply = try #require(screen.firstIndex { $0.contains("Agreed") })
        #expect(reply > parent)
        #expect(screen[reply].contains("│"))
        try await tmux.press("g", "f")
        try await tmux.waitFor(text: "♥ 1")
        // The mention and the topic are drawn in their own styles.
        let styled = try await tmux.styledScreen()
        let row = try #require(styled.firstIndex { $0.contains("First!") })
        #expect(styled[row].components(separatedBy: "\u{1B}[").count >= 4)

        try await tmux.press("Escape", "q")
        #expect(try await tmux.waitForExit().status == 0)
    }
}
