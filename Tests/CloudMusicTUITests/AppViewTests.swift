import CloudMusicKit
import Foundation
import MusicCore
import Testing

@testable import CloudMusicTUI

@Suite struct AppViewTests {
    static let now = Date(timeIntervalSince1970: 1_714_560_000)  // 2024-05-01T10:40:00Z
    static let lrc = "[ti:晴天]\n[00:01.00]故事的小黄花\n[00:05.00]Second line 🎵\n[00:09.00]第三行"

    static let songs = [
        AppFixture.song("s1", title: "晴天 ☀️", artist: "周杰伦", album: "叶惠美", ms: 269_000),
        AppFixture.song("s2", title: "Yesterday", artist: "The Beatles", album: "Help!", ms: 125_000),
        AppFixture.song("s3", title: "👨‍👩‍👧 Family", artist: "Ａｒｔｉｓｔ", album: "Album", ms: 3_600_000),
    ]

    /// Signed in, playing the first song at 6 s with its lyric, with every screen's data loaded.
    static func loadedState() -> AppState {
        var state = AppFixture.playing(songs)
        _ = state.reduce(.progress(position: 6, duration: 269))
        _ = state.reduce(.lyricLoaded(songID: "s1", LyricParser.parseLRC(lrc), message: nil))
        _ = state.reduce(
            .homeLoaded(
                sheets: [AppFixture.sheet("sh1", title: "华语经典 🎧", songsCount: 50)], newSongs: songs,
                recent: Array(songs.reversed())))
        _ = state.reduce(
            .libraryPage(
                .artists(
                    [AppFixture.artist("ar1", "周杰伦"), AppFixture.artist("ar2", "Ｂｅａｔｌｅｓ")], page: 1, next: 2))
        )
        _ = state.reduce(.libraryPage(.albums([AppFixture.album("al1", "叶惠美")], page: 1, next: nil)))
        _ = state.reduce(.libraryPage(.songs(songs, page: 1, next: nil)))
        _ = state.reduce(.libraryPage(.genres([AppFixture.genre("g1", "流行")], page: 1, next: nil)))
        state.search.query = "晴天"
        state.search.cursor = 2
        state.search.results = SearchResults(
            songs: songs, albums: [AppFixture.album("al1", "叶惠美")], artists: [AppFixture.artist("ar1", "周杰伦")]
        )
        state.search.status = .loaded
        var detail = DetailState(kind: .sheet, id: "sh1", title: "华语经典 🎧")
        detail.subtitle = "50 songs · by 小明"
        detail.songs = songs
        detail.sheet = AppFixture.sheet("sh1", title: "华语经典 🎧")
        detail.status = .loaded
        state.detail = detail
        _ = state.reduce(
            .myMusicLoaded(
                created: [AppFixture.sheet("sh2", title: "我的歌单")],
                collected: [AppFixture.sheet("sh1", title: "华语经典")],
                liked: [songs[0]]))
        _ = state.reduce(
            .downloadsChanged([
                DownloadEntry(
                    song: songs[0], state: "done", received: 5_000_000, total: 5_000_000, message: nil),
                DownloadEntry(
                    song: songs[1], state: "downloading", received: 1_000, total: 4_000, message: nil),
            ]))
        state.comments.songID = "s1"
        state.comments.songTitle = songs[0].title
        _ = state.reduce(
            .commentsLoaded(
                songID: "s1",
                [
                    AppFixture.comment("c1", "好听！@小明 #周杰伦# 🎶", minute: 10),
                    AppFixture.comment("r1", "同感 👍", parentId: "c1", by: "Cai", minute: 20),
                ]))
        return state
    }

    static let sizes = [(1, 1), (20, 5), (80, 24), (120, 40)]

    @Test(arguments: Screen.allCases)
    func everyScreenFillsExactlyTheSizeAsked(screen: Screen) {
        for (width, height) in Self.sizes {
            for variant in 0..<3 {
                var state = Self.loadedState()
                state.screen = screen
                if variant == 1 { state.comments.draft = CommentsState.Draft(text: "写评论 ✍️", cursor: 3) }
                if variant == 2 {
                    state.login.mode = .signUp
                    state.login.values = ["安妮", "ann@example.com", "secret", ""]
                    state.toast = Toast(message: "一条很长的提示 — a long toast message 🎉", isError: true)
                    state.search.editing = true
                }
                let lines = AppView.render(&state, width: width, height: height, now: Self.now)
                #expect(lines.count == height, "\(screen) at \(width)x\(height) variant \(variant)")
                for (row, line) in lines.enumerated() {
                    #expect(
                        line.width == width,
                        "\(screen) at \(width)x\(height) variant \(variant), row \(row): \(line.text)")
                }
            }
        }
    }

    @Test(arguments: Screen.allCases)
    func emptyStateFillsExactlyTheSizeAsked(screen: Screen) {
        for (width, height) in Self.sizes + [(0, 0), (3, 1), (40, 3)] {
            var state = AppState(server: AppFixture.server)
            state.screen = screen
            let lines = AppView.render(&state, width: width, height: height, now: Self.now)
            #expect(lines.count == height)
            #expect(lines.allSatisfy { $0.width == width }, "\(screen) at \(width)x\(height)")
        }
    }

    @Test(arguments: Screen.allCases)
    func aTwoRowScreenHasTwoRows(screen: Screen) {
        var state = Self.loadedState()
        state.screen = screen
        let lines = AppView.render(&state, width: 40, height: 2, now: Self.now)
        #expect(lines.allSatisfy { $0.width == 40 })
        // The control bar is the last row either way.
        #expect(lines.last?.text.contains("晴天") == true)
        #expect(lines.count == 2)
    }

    @Test func theTopRowHasTheTabTitlesNumberedAt100ColumnsAndNamedAt80() throws {
        var state = Self.loadedState()
        state.screen = .library
        let wide = try #require(AppView.render(&state, width: 100, height: 24, now: Self.now).first)
        for (index, title) in Screen.tabs.map(\.title).enumerated() {
            #expect(wide.text.contains("\(index + 1) \(title)"))
        }
        // The current tab is highlighted.
        #expect(wide.contains(StyledSpan("2 Library", .highlight)))
        let narrow = try #require(AppView.render(&state, width: 80, height: 24, now: Self.now).first)
        #expect(ViewTest.trimmed(narrow) == Screen.tabs.map(\.title).joined(separator: "  "))
        #expect(narrow.contains(StyledSpan("Library", .highlight)))
    }

    @Test func anOverlayHighlightsTheTabItOpenedFrom() throws {
        var state = Self.loadedState()
        _ = state.press(.character("5"))
        _ = state.press(.character("?"))
        #expect(state.screen == .help)
        let top = try #require(AppView.render(&state, width: 100, height: 24, now: Self.now).first)
        #expect(top.contains(StyledSpan("5 Queue", .highlight)))
    }

    @Test func theBottomRowIsTheControlBarWithThePlayingTitle() throws {
        var state = Self.loadedState()
        state.screen = .home
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        let bottom = try #require(lines.last)
        #expect(bottom.text.contains("晴天 ☀️"))
        #expect(bottom.text.contains("周杰伦"))
        #expect(bottom.text.hasPrefix("▶"))
        #expect(bottom.text.contains("0:06"))

        // Below three rows only the control bar is left.
        let one = AppView.render(&state, width: 30, height: 1, now: Self.now)
        #expect(one.count == 1)
        #expect(one[0].text.contains("晴天"))
    }

    @Test func aFailedSoundOutputIsTheControlBarsSentenceUntilItWorks() throws {
        var state = Self.loadedState()
        state.screen = .queue
        let failure = SoundOutputFailure(
            reason: "audio output initialization failed",
            log: ["[ao/alsa] Playback open error: No such file or directory"])
        _ = state.reduce(.playback(.failed))
        _ = state.reduce(.soundOutput(.failed(failure)))
        var bottom = try #require(AppView.render(&state, width: 120, height: 24, now: Self.now).last)
        #expect(
            bottom.text.hasPrefix(
                "! No sound output: ALSA found no sound card. Set audio_output in the config. · 晴天 ☀️ - 周杰伦"))
        #expect(bottom.contains { $0.style == .error && $0.text.hasPrefix("No sound output") })
        // The queue still marks the same song.
        #expect(state.queueIndex == 0)

        _ = state.reduce(.soundOutput(.working))
        _ = state.reduce(.playback(.playing))
        bottom = try #require(AppView.render(&state, width: 120, height: 24, now: Self.now).last)
        #expect(bottom.text.hasPrefix("▶ 晴天 ☀️ - 周杰伦"))
        #expect(!bottom.text.contains("No sound output"))
    }

    @Test func theStatusRowShowsAToastWhenSet() {
        var state = Self.loadedState()
        state.screen = .queue
        _ = state.reduce(.notice("The server is down.", isError: true))
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        let status = lines[22]
        #expect(status.text.trimmingCharacters(in: .whitespaces) == "The server is down.")
        #expect(status.contains { $0.style == .error && $0.text.contains("The server is down.") })

        // When it expires the screen's hint comes back.
        for _ in 0..<4 { _ = state.reduce(.tick) }
        let after = AppView.render(&state, width: 80, height: 24, now: Self.now)[22]
        #expect(!after.text.contains("The server is down."))
        #expect(after.text.contains("Enter play"))
    }

    @Test func theStatusRowShowsLoading() {
        var state = AppFixture.signedIn()
        _ = state.press(.character("2"))
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        #expect(lines[22].text.contains("Loading…"))
    }

    @Test func theLoginScreenNamesTheServer() {
        var state = AppState(server: AppFixture.server)
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        #expect(lines.contains { $0.text.contains("Sign in to music.example.org") })
        #expect(lines.contains { $0.text.contains("Email or phone") })
        _ = state.type("ann")
        _ = state.press(.tab)
        _ = state.type("hunter2")
        let typed = AppView.render(&state, width: 80, height: 24, now: Self.now)
        #expect(typed.contains { $0.text.contains("ann") })
        // The password does not show.
        #expect(!typed.contains { $0.text.contains("hunter2") })

        _ = state.press(.control("r"))
        let signUp = AppView.render(&state, width: 80, height: 24, now: Self.now)
        #expect(signUp.contains { $0.text.contains("Create an account on music.example.org") })
        #expect(signUp.contains { $0.text.contains("Nickname") })
    }

    @Test func theNowPlayingScreenShowsTheCurrentLyricLine() {
        var state = Self.loadedState()
        _ = state.press(.character("7"))
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        // At 6 s the second line is sung: highlighted; the lines around it are dimmed.
        let current = lines.filter { line in
            line.contains { $0.style == .highlight && $0.text.contains("Second line 🎵") }
        }
        #expect(current.count == 1)
        #expect(lines.contains { line in line.contains { $0.style == .dim && $0.text.contains("故事的小黄花") } })
        #expect(
            !lines.contains { line in line.contains { $0.style == .highlight && $0.text.contains("故事的小黄花") } }
        )

        _ = state.reduce(.progress(position: 9.5, duration: nil))
        let later = AppView.render(&state, width: 80, height: 24, now: Self.now)
        #expect(
            later.contains { line in line.contains { $0.style == .highlight && $0.text.contains("第三行") } })
    }

    @Test func theNowPlayingScreenSaysWhileTheLyricLoads() {
        var state = AppFixture.playing(Self.songs)
        _ = state.press(.character("7"))
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        #expect(lines.contains { $0.text.contains("Loading lyrics…") })
        #expect(lines.contains { $0.text.contains("晴天 ☀️") })

        var nothing = AppFixture.signedIn()
        _ = nothing.press(.character("7"))
        let empty = AppView.render(&nothing, width: 80, height: 24, now: Self.now)
        #expect(empty.contains { $0.text.contains("Find something to play: press / to search") })
    }

    @Test func theQueueMarksThePlayingRow() throws {
        var state = Self.loadedState()
        _ = state.reduce(.queueChanged(songs: Self.songs, current: 1, mode: .list))
        _ = state.press(.character("5"))
        let body = Array(AppView.render(&state, width: 80, height: 24, now: Self.now).dropFirst().dropLast(2))
        let yesterday = try #require(body.first { $0.text.contains("Yesterday") })
        #expect(yesterday.text.hasPrefix("▶ "))
        let others = body.filter { $0.text.contains("晴天") || $0.text.contains("Family") }
        #expect(others.count == 2)
        #expect(others.allSatisfy { !$0.text.contains("▶") })
        #expect(body.filter { $0.text.contains("▶") }.count == 1)
    }

    @Test func theCommentsScreenShowsRepliesUnderTheirParentAndTheDraft() throws {
        var state = Self.loadedState()
        state.screen = .comments
        _ = state.press(.character("w"))
        _ = state.type("写")
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        let parent = try #require(lines.firstIndex { $0.text.contains("好听") })
        let reply = try #require(lines.firstIndex { $0.text.contains("同感") })
        #expect(parent < reply)
        #expect(lines[reply].text.hasPrefix(CommentsView.replyGutter))
        #expect(lines.contains { $0.text.contains("Comments · 晴天 ☀️") })
        #expect(lines.contains { $0.text.contains("Comment: 写") })
        #expect(lines[22].text.contains("Enter send"))
    }

    @Test func theHomeScreenListsItsSections() {
        var state = Self.loadedState()
        state.screen = .home
        let text = AppView.render(&state, width: 80, height: 24, now: Self.now).map(\.text)
        #expect(text.contains { $0.contains("Recommended sheets") })
        #expect(text.contains { $0.contains("华语经典 🎧 · 50 songs") })
        #expect(text.contains { $0.contains("晴天 ☀️ - 周杰伦") })
    }

    /// The rows of `screen` that hold a control character (a tab, a line break, an escape).
    static func rowsWithControls(_ state: AppState, on screen: Screen) -> [String] {
        var state = state
        state.screen = screen
        return AppView.render(&state, width: 80, height: 24, now: now).map(\.text).filter { text in
            text.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
    }

    static func stateWithControlsInTitles() -> AppState {
        let title = "Tab\there\nnew line\u{1B}[31m"
        var state = loadedState()
        let song = AppFixture.song("s9", title: title)
        _ = state.reduce(.queueChanged(songs: [song], current: 0, mode: .list))
        state.home.newSongs = [song]
        state.detail?.title = title
        state.detail?.subtitle = title
        return state
    }

    @Test func titlesWithControlCharactersAreSanitizedOnListScreens() {
        let state = Self.stateWithControlsInTitles()
        for screen in Screen.allCases where screen != .detail {
            #expect(Self.rowsWithControls(state, on: screen) == [], "\(screen)")
        }
    }

    @Test func aToastWithAControlCharacterIsSanitized() {
        var state = Self.stateWithControlsInTitles()
        _ = state.press(.character("5"), .character("a"))
        #expect(state.toast?.message.contains("\n") == true)
        #expect(Self.rowsWithControls(state, on: .queue) == [])
    }

    @Test func aDetailTitleWithAControlCharacterIsSanitized() {
        let state = Self.stateWithControlsInTitles()
        #expect(Self.rowsWithControls(state, on: .detail) == [])
    }
}
