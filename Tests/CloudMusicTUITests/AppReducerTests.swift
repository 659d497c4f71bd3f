import CloudMusicKit
import MusicCore
import Testing

@testable import CloudMusicTUI

/// Small models for the app's tests: songs, sheets, comments and search results.
enum AppFixture {
    static let server = "music.example.org"

    static func song(
        _ id: String, title: String? = nil, artist: String = "Artist", album: String = "Album",
        ms: Int = 200_000
    ) -> Song {
        Song(
            id: id, title: title ?? "Song \(id)", icon: nil, uri: "/media/\(id).mp3", style: 0, lyric: nil,
            singer: nil,
            artists: [ArtistSummary(id: "ar-\(artist)", name: artist)],
            album: AlbumSummary(id: "al-\(album)", title: album, icon: nil), genres: [], trackNumber: nil,
            discNumber: nil, year: nil, duration: ms, format: "mp3", bitRate: 320_000, sampleRate: 44_100,
            channels: 2, clicksCount: 0, commentsCount: 0, playsCount: 0, createdAt: "2024-01-01T00:00:00Z",
            updatedAt: "2024-01-01T00:00:00Z")
    }

    static func songs(_ count: Int, prefix: String = "s") -> [Song] {
        (1...max(1, count)).prefix(count).map { song("\(prefix)\($0)") }
    }

    static func user(_ id: String, _ nickname: String) -> UserSummary {
        UserSummary(id: id, nickname: nickname, icon: nil)
    }

    static func sheet(_ id: String, title: String, songsCount: Int = 3, owner: UserSummary? = nil) -> Sheet {
        Sheet(
            id: id, title: title, icon: nil, detail: nil, tags: [], isPrivate: false, kind: "sheet",
            clicksCount: 0,
            collectsCount: 0, commentsCount: 0, songsCount: songsCount,
            user: owner ?? user("u-owner", "Owner"),
            collected: false, createdAt: "2024-01-01T00:00:00Z", updatedAt: "2024-01-01T00:00:00Z")
    }

    static func comment(
        _ id: String, _ content: String, parentId: String? = nil, likeId: String? = nil,
        songId: String = "s1",
        by nickname: String = "Bea", minute: Int = 0
    ) -> MusicCore.Comment {
        let time = "2024-05-01T10:\(minute < 10 ? "0" : "")\(minute):00Z"
        return Comment(
            id: id, content: content, likesCount: 0, repliesCount: 0, likeId: likeId, parentId: parentId,
            parent: nil, songId: songId, sheetId: nil, user: user("u-\(nickname)", nickname), createdAt: time,
            updatedAt: time)
    }

    static func artist(_ id: String, _ name: String) -> Artist {
        Artist(id: id, name: name, icon: nil, songsCount: 10, albumsCount: 2, createdAt: "", updatedAt: "")
    }

    static func artists(_ range: ClosedRange<Int>) -> [Artist] {
        range.map { artist("ar\($0)", "Artist \($0)") }
    }

    static func album(_ id: String, _ title: String) -> Album {
        Album(
            id: id, title: title, icon: nil, artist: ArtistSummary(id: "ar1", name: "Artist"), year: 2003,
            isCompilation: false, songsCount: 10, duration: 0, createdAt: "", updatedAt: "")
    }

    static func genre(_ id: String, _ name: String) -> Genre { Genre(id: id, name: name, songsCount: 5) }

    /// Signed in as "u1" ("Ann"), on the home screen with nothing loaded.
    static func signedIn() -> AppState {
        AppState(server: server, signedIn: (userID: "u1", nickname: "Ann"))
    }

    /// Signed in, with `songs` queued and the song at `current` playing.
    static func playing(_ songs: [Song], current: Int = 0) -> AppState {
        var state = signedIn()
        _ = state.reduce(.queueChanged(songs: songs, current: current, mode: .list))
        _ = state.reduce(.playback(.playing))
        return state
    }
}

extension AppState {
    /// Presses `keys` in order and returns every effect they asked for.
    mutating func press(_ keys: Key...) -> [AppEffect] {
        keys.flatMap { reduce(.key($0)) }
    }

    /// Types `text` key by key, as the terminal decodes it (space is its own key).
    mutating func type(_ text: String) -> [AppEffect] {
        text.flatMap { reduce(.key($0 == " " ? .space : .character($0))) }
    }
}

@Suite struct AppReducerTests {}

// MARK: Sign in and sign up

extension AppReducerTests {
    @Suite struct SignIn {
        @Test func startsOnTheLoginScreenWhenNotSignedIn() {
            let state = AppState(server: AppFixture.server)
            #expect(state.screen == .login)
            #expect(!state.isSignedIn)
            #expect(state.login.labels == ["Email or phone", "Password"])
        }

        @Test func typingFillsTheFocusedFieldAndKeysDoNotRunCommands() {
            var state = AppState(server: AppFixture.server)
            #expect(state.type("ann@example.com") == [])
            #expect(state.login.values == ["ann@example.com", ""])
            // q and space are text here, not quit and play/pause.
            #expect(state.press(.tab) == [])
            #expect(state.type("q w") == [])
            #expect(state.login.values == ["ann@example.com", "q w"])
            #expect(!state.quitting)
            #expect(state.press(.backspace) == [])
            #expect(state.login.values[1] == "q ")
            #expect(state.screen == .login)
        }

        @Test func tabAndShiftTabCycleFocus() {
            var state = AppState(server: AppFixture.server)
            #expect(state.login.focused == 0)
            _ = state.press(.tab)
            #expect(state.login.focused == 1)
            _ = state.press(.tab)
            #expect(state.login.focused == 0)
            _ = state.press(.backTab)
            #expect(state.login.focused == 1)
            _ = state.press(.up)
            #expect(state.login.focused == 0)
            _ = state.press(.down)
            #expect(state.login.focused == 1)
        }

        @Test func enterOnTheAccountMovesToTheEmptyPassword() {
            var state = AppState(server: AppFixture.server)
            _ = state.type("ann")
            #expect(state.press(.enter) == [])
            #expect(state.login.focused == 1)
            #expect(!state.login.busy)
        }

        @Test func enterWithBothFieldsSignsIn() {
            var state = AppState(server: AppFixture.server)
            _ = state.type(" ann@example.com ")
            _ = state.press(.enter)
            _ = state.type(" pass word ")
            let effects = state.press(.enter)
            // The account is trimmed; the password is sent as typed.
            #expect(effects == [.signIn(account: "ann@example.com", password: " pass word ")])
            #expect(state.login.busy)
            #expect(state.login.message == "Signing in…")
            #expect(!state.login.messageIsError)
        }

        @Test func enterOnTheAccountSubmitsWhenThePasswordIsAlreadyThere() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.tab)
            _ = state.type("pw")
            _ = state.press(.backTab)
            _ = state.type("ann")
            #expect(state.press(.enter) == [.signIn(account: "ann", password: "pw")])
        }

        @Test func emptyFieldsGiveAnErrorAndNoEffect() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.tab)
            #expect(state.press(.enter) == [])
            #expect(state.login.message == "Type your email or phone and your password.")
            #expect(state.login.messageIsError)
            #expect(!state.login.busy)

            // Only spaces in the account count as empty.
            var spaces = AppState(server: AppFixture.server)
            _ = spaces.type("   ")
            _ = spaces.press(.tab)
            _ = spaces.type("pw")
            #expect(spaces.press(.enter) == [])
            #expect(spaces.login.messageIsError)
        }

        @Test func keysAreIgnoredWhileBusyButEscStillSkips() {
            var state = AppState(server: AppFixture.server)
            _ = state.type("ann")
            _ = state.press(.tab)
            _ = state.type("pw")
            #expect(state.press(.enter) == [.signIn(account: "ann", password: "pw")])
            #expect(state.type("x") == [])
            #expect(state.press(.enter) == [])
            #expect(state.login.values == ["ann", "pw"])
            #expect(state.press(.escape) == [.loadHome])
            #expect(state.screen == .home)
            #expect(!state.login.busy)
        }

        @Test func signInFailedClearsBusyAndShowsTheMessage() {
            var state = AppState(server: AppFixture.server)
            _ = state.type("ann")
            _ = state.press(.tab)
            _ = state.type("bad")
            _ = state.press(.enter)
            #expect(state.reduce(.signInFailed("The password is wrong.")) == [])
            #expect(!state.login.busy)
            #expect(state.login.message == "The password is wrong.")
            #expect(state.login.messageIsError)
            #expect(state.screen == .login)
            // The form works again.
            _ = state.press(.backspace, .backspace, .backspace)
            _ = state.type("good")
            #expect(state.press(.enter) == [.signIn(account: "ann", password: "good")])
        }

        @Test func ctrlRSwitchesToSignUpAndEnterSignsUpWithoutACode() {
            var state = AppState(server: AppFixture.server)
            _ = state.type("left over")
            #expect(state.press(.control("r")) == [])
            #expect(state.login.mode == .signUp)
            #expect(state.login.values == ["", "", "", ""])
            #expect(state.login.labels.count == 4)
            #expect(state.login.focused == 0)
            #expect(state.login.secretField == 2)

            _ = state.type("安妮")
            #expect(state.press(.enter) == [])
            #expect(state.login.focused == 1)
            _ = state.type("ann@example.com")
            #expect(state.press(.enter) == [])
            _ = state.type("secret")
            // The code is empty, so Enter first moves to it.
            #expect(state.press(.enter) == [])
            #expect(state.login.focused == 3)
            let effects = state.press(.enter)
            #expect(
                effects == [
                    .signUp(nickname: "安妮", account: "ann@example.com", password: "secret", code: nil)
                ])
            #expect(state.login.busy)
            #expect(state.login.message == "Creating your account…")
        }

        @Test func signUpSendsTheCodeWhenTyped() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.control("r"))
            _ = state.type("Ann")
            _ = state.press(.tab)
            _ = state.type("ann@example.com")
            _ = state.press(.tab)
            _ = state.type("pw")
            _ = state.press(.tab)
            _ = state.type("123456")
            #expect(
                state.press(.enter) == [
                    .signUp(nickname: "Ann", account: "ann@example.com", password: "pw", code: "123456")
                ])
        }

        @Test func signUpWithoutAPasswordIsAnError() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.control("r"))
            _ = state.type("Ann")
            _ = state.press(.tab)
            _ = state.type("ann@example.com")
            _ = state.press(.tab, .tab)
            #expect(state.press(.enter) == [])
            #expect(state.login.message == "Type a nickname, your email or phone, and a password.")
            #expect(state.login.messageIsError)
            #expect(!state.login.busy)
        }

        @Test func ctrlSSendsACodeOnlyWithAnAccountInSignUp() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.control("r"))
            #expect(state.press(.control("s")) == [])
            #expect(state.login.message == "Type your email or phone first, then press Ctrl-S for a code.")
            #expect(state.login.messageIsError)

            _ = state.press(.tab)
            _ = state.type("ann@example.com")
            #expect(state.press(.control("s")) == [.sendCode(account: "ann@example.com")])
            #expect(state.reduce(.codeSent("We sent a code to ann@example.com.")) == [])
            #expect(state.login.message == "We sent a code to ann@example.com.")
            #expect(!state.login.messageIsError)
        }

        @Test func ctrlRTwiceGoesBackToSignIn() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.control("r"), .control("r"))
            #expect(state.login.mode == .signIn)
            #expect(state.login.values == ["", ""])
        }

        @Test func escSkipsToHomeAndLoadsIt() {
            var state = AppState(server: AppFixture.server)
            #expect(state.press(.escape) == [.loadHome])
            #expect(state.screen == .home)
            #expect(state.home.status == .loading)
            #expect(!state.isSignedIn)
            #expect(state.toast?.message == "Browsing without signing in. Press 4 for My Music to sign in.")
            #expect(state.toast?.isError == false)
        }

        @Test func signedInGoesHomeAndLoadsHomeAndMyMusic() {
            var state = AppState(server: AppFixture.server)
            _ = state.type("ann")
            _ = state.press(.tab)
            _ = state.type("pw")
            _ = state.press(.enter)
            let effects = state.reduce(.signedIn(userID: "u1", nickname: "Ann"))
            #expect(effects == [.loadHome, .loadMyMusic, .loadUnreadCounts, .loadConversations(more: false)])
            #expect(state.screen == .home)
            #expect(state.userID == "u1")
            #expect(state.nickname == "Ann")
            #expect(state.isSignedIn)
            #expect(state.login == LoginState())
            #expect(state.toast?.message == "Signed in as Ann.")
        }

        @Test func signedInWithoutANicknameNamesTheUserID() {
            var state = AppState(server: AppFixture.server)
            _ = state.reduce(.signedIn(userID: "u42", nickname: nil))
            #expect(state.toast?.message == "Signed in as u42.")
        }

        @Test func sessionExpiredReturnsToTheLoginScreen() {
            var state = AppFixture.signedIn()
            _ = state.reduce(
                .myMusicLoaded(
                    created: [AppFixture.sheet("sh1", title: "Mine")], collected: [], liked: []))
            _ = state.press(.character("2"))
            _ = state.reduce(.libraryPage(.artists([AppFixture.artist("ar1", "A")], page: 1, next: nil)))
            _ = state.press(.enter)
            #expect(state.screen == .detail)
            #expect(state.backStack == [.library])

            #expect(state.reduce(.sessionExpired) == [])
            #expect(state.screen == .login)
            #expect(state.backStack == [])
            #expect(state.userID == nil)
            #expect(state.nickname == nil)
            #expect(state.myMusic == MyMusicState())
            #expect(state.login.message == "Your session has ended. Sign in again.")
            #expect(state.login.messageIsError)
            #expect(state.login.values == ["", ""])
        }
    }
}

// MARK: Global keys

extension AppReducerTests {
    @Suite struct GlobalKeys {
        let songs = [
            AppFixture.song("s1", title: "晴天", ms: 269_000),
            AppFixture.song("s2", title: "Yesterday", ms: 125_500),
            AppFixture.song("s3"),
        ]

        @Test func playbackKeysWithAPlayingSong() {
            var state = AppFixture.playing(songs)
            #expect(state.press(.space) == [.togglePlayPause])
            #expect(state.press(.character("n")) == [.next])
            #expect(state.press(.character("p")) == [.previous])
            #expect(state.press(.left) == [.seek(by: -5)])
            #expect(state.press(.right) == [.seek(by: 5)])
            #expect(state.screen == .home)
        }

        @Test func volumeKeysStepByFiveAndClamp() {
            var state = AppFixture.playing(songs)
            #expect(state.playing.volume == 80)
            #expect(state.press(.character("+")) == [.setVolume(85)])
            #expect(state.press(.character("=")) == [.setVolume(90)])
            #expect(
                state.press(.character("+"), .character("+"), .character("+")) == [
                    .setVolume(95), .setVolume(100), .setVolume(100),
                ])
            #expect(state.playing.volume == 100)
            #expect(state.press(.character("-")) == [.setVolume(95)])
            for _ in 0..<30 { _ = state.press(.character("-")) }
            #expect(state.playing.volume == 0)
            #expect(state.press(.character("-")) == [.setVolume(0)])
        }

        @Test func remoteVolumeIsClamped() {
            var state = AppFixture.signedIn()
            #expect(state.reduce(.remoteVolume(140)) == [.setVolume(100)])
            #expect(state.reduce(.remoteVolume(-3)) == [.setVolume(0)])
            #expect(state.reduce(.remoteLoopMode(.shuffle)) == [.setLoopMode(.shuffle)])
            #expect(state.playing.mode == .shuffle)
        }

        @Test func loopKeyCyclesListSingleShuffle() {
            var state = AppFixture.playing(songs)
            #expect(state.playing.mode == .list)
            #expect(state.press(.character("l")) == [.setLoopMode(.single)])
            #expect(state.playing.mode == .single)
            #expect(state.toast?.message == "Loop mode: One")
            #expect(state.press(.character("l")) == [.setLoopMode(.shuffle)])
            #expect(state.toast?.message == "Loop mode: Shuffle")
            #expect(state.press(.character("l")) == [.setLoopMode(.list)])
            #expect(state.playing.mode == .list)
            #expect(state.toast?.message == "Loop mode: Loop")
        }

        @Test func quitAsksToQuit() {
            var state = AppFixture.playing(songs)
            #expect(!state.quitting)
            #expect(state.press(.character("q")) == [.quit])
            #expect(state.quitting)
        }

        @Test func playbackKeysDoNothingWithNothingPlaying() {
            var state = AppFixture.signedIn()
            #expect(state.press(.space) == [])
            #expect(state.press(.character("n")) == [])
            #expect(state.press(.character("p")) == [])
            #expect(state.press(.left) == [])
            #expect(state.press(.right) == [])
            #expect(state.press(.character("f")) == [])
        }

        @Test func remoteCommandsRunLikeKeys() {
            var state = AppFixture.playing(songs)
            #expect(state.reduce(.remote(.playPause)) == [.togglePlayPause])
            #expect(state.reduce(.remote(.next)) == [.next])
            #expect(state.reduce(.remote(.quit)) == [.quit])
        }

        @Test func likeKeyLikesThePlayingSongAndUnlikesALikedOne() {
            var state = AppFixture.playing(songs)
            _ = state.press(.character("7"))
            #expect(state.press(.character("f")) == [.setLiked(songID: "s1", liked: true)])
            #expect(state.reduce(.likedChanged(songID: "s1", liked: true)) == [])
            #expect(state.playingIsLiked)
            #expect(state.myMusic.liked.map(\.id) == ["s1"])
            #expect(state.press(.character("f")) == [.setLiked(songID: "s1", liked: false)])
        }

        @Test func likeWhenNotSignedInIsAnError() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.escape)
            _ = state.reduce(.queueChanged(songs: songs, current: 0, mode: .list))
            #expect(state.press(.character("f")) == [])
            #expect(state.toast == Toast(message: "Sign in to like songs.", isError: true))
        }
    }
}

// MARK: The queue and lyrics

extension AppReducerTests {
    @Suite struct QueueAndLyrics {
        let songs = [AppFixture.song("s1", ms: 269_000), AppFixture.song("s2", ms: 215_500)]

        @Test func aNewCurrentSongLoadsItsLyricAndSetsTheDuration() {
            var state = AppFixture.signedIn()
            let effects = state.reduce(.queueChanged(songs: songs, current: 1, mode: .shuffle))
            #expect(effects == [.loadLyric(songID: "s2")])
            #expect(state.playing.song?.id == "s2")
            #expect(state.playing.duration == 215.5)
            #expect(state.playing.position == 0)
            #expect(state.playing.mode == .shuffle)
            #expect(state.playing.lyricStatus == "Loading lyrics…")
            #expect(state.queue.map(\.id) == ["s1", "s2"])
            #expect(state.queueIndex == 1)
        }

        @Test func theSameCurrentSongDoesNotReloadOrResetProgress() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.queueChanged(songs: songs, current: 0, mode: .list))
            _ = state.reduce(.progress(position: 42, duration: 270))
            let reordered = [songs[1], songs[0]]
            #expect(state.reduce(.queueChanged(songs: reordered, current: 1, mode: .list)) == [])
            #expect(state.playing.position == 42)
            #expect(state.playing.duration == 270)
            #expect(state.queueIndex == 1)
        }

        @Test func noCurrentSongStopsShowingOne() {
            var state = AppFixture.playing(songs)
            #expect(state.reduce(.queueChanged(songs: songs, current: nil, mode: .list)) == [])
            #expect(state.playing.song == nil)
            #expect(state.playing.duration == 0)
        }

        @Test func aLyricForAnotherSongIsIgnored() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.queueChanged(songs: songs, current: 0, mode: .list))
            let lyric = LyricParser.parseLRC("[00:01.00]first\n[00:03.00]second")
            #expect(state.reduce(.lyricLoaded(songID: "s2", lyric, message: nil)) == [])
            #expect(state.playing.lyric == nil)
            #expect(state.playing.lyricSongID == nil)
            #expect(state.playing.lyricStatus == "Loading lyrics…")

            #expect(state.reduce(.lyricLoaded(songID: "s1", lyric, message: nil)) == [])
            #expect(state.playing.lyric == lyric)
            #expect(state.playing.lyricSongID == "s1")
            #expect(state.playing.lyricStatus == nil)
        }

        @Test func aMissingLyricShowsItsMessage() {
            var state = AppFixture.playing(songs)
            _ = state.reduce(.lyricLoaded(songID: "s1", nil, message: "No lyrics for this song"))
            #expect(state.playing.lyric == nil)
            #expect(state.playing.lyricStatus == "No lyrics for this song")
        }

        @Test func progressKeepsTheKnownDurationWhenNoneIsGiven() {
            var state = AppFixture.playing(songs)
            _ = state.reduce(.progress(position: 10, duration: nil))
            #expect(state.playing.position == 10)
            #expect(state.playing.duration == 269)
            _ = state.reduce(.progress(position: 11, duration: 0))
            #expect(state.playing.duration == 269)
        }
    }
}

// MARK: Screens and the library

extension AppReducerTests {
    @Suite struct Screens {
        @Test(arguments: [
            ("1", Screen.home, [AppEffect.loadHome]), ("2", .library, [.loadLibrary(tab: 0, page: 1)]),
            ("3", .search, []), ("/", .search, []), ("4", .myMusic, [.loadMyMusic]), ("5", .queue, []),
            ("6", .downloads, []), ("7", .nowPlaying, []),
        ])
        func numberKeysSwitchTabs(key: String, screen: Screen, effects: [AppEffect]) {
            var state = AppFixture.signedIn()
            state.screen = .nowPlaying
            if screen == .nowPlaying { state.screen = .home }
            #expect(state.press(.character(Character(key))) == effects)
            #expect(state.screen == screen)
            #expect(state.backStack == [])
        }

        @Test func switchingTabsAgainDoesNotReloadWhatIsLoading() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("2"))
            #expect(state.press(.character("1")) == [.loadHome])
            #expect(state.press(.character("2")) == [])
            #expect(state.press(.character("1")) == [])
            _ = state.reduce(.homeFailed("The server is down."))
            #expect(state.press(.character("2"), .character("1")) == [.loadHome])
        }

        @Test func myMusicNotSignedInDoesNotLoadAndEnterOpensLogin() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.escape)
            #expect(state.press(.character("4")) == [])
            #expect(state.screen == .myMusic)
            #expect(state.press(.enter) == [])
            #expect(state.screen == .login)
        }

        @Test func helpOpensOverTheScreenAndEscGoesBack() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("5"))
            #expect(state.press(.character("?")) == [])
            #expect(state.screen == .help)
            #expect(state.backStack == [.queue])
            _ = state.press(.character("?"))
            #expect(state.backStack == [.queue])
            _ = state.press(.escape)
            #expect(state.screen == .queue)
            _ = state.press(.escape)
            #expect(state.screen == .home)
        }
    }

    @Suite struct Library {
        @Test func openingTheLibraryAsksForTheFirstPage() {
            var state = AppFixture.signedIn()
            #expect(state.press(.character("2")) == [.loadLibrary(tab: 0, page: 1)])
            #expect(state.library.artists.status == .loading)
            #expect(state.library.tab == 0)
        }

        @Test func tabSwitchesTheSubTabAndLoadsIt() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("2"))
            _ = state.reduce(.libraryPage(.artists(AppFixture.artists(1...3), page: 1, next: nil)))
            #expect(state.press(.tab) == [.loadLibrary(tab: 1, page: 1)])
            #expect(state.library.tab == 1)
            #expect(state.library.albums.status == .loading)
            _ = state.reduce(.libraryPage(.albums([AppFixture.album("al1", "叶惠美")], page: 1, next: nil)))
            #expect(state.press(.backTab) == [])
            #expect(state.library.tab == 0)
            #expect(state.press(.backTab) == [.loadLibrary(tab: 3, page: 1)])
            #expect(state.library.tab == 3)
            #expect(state.press(.tab) == [])
            #expect(state.library.tab == 0)
        }

        @Test func movingNearTheEndAsksForTheNextPageOnce() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("2"))
            _ = state.reduce(.libraryPage(.artists(AppFixture.artists(1...30), page: 1, next: 2)))
            #expect(state.library.artists.status == .loaded)
            #expect(state.library.artists.nextPage == 2)
            for _ in 0..<19 { #expect(state.press(.down) == []) }
            #expect(state.library.artists.cursor.selected == 19)
            // Ten from the end.
            #expect(state.press(.down) == [.loadLibrary(tab: 0, page: 2)])
            #expect(state.library.artists.status == .loading)
            #expect(state.press(.down) == [])
            #expect(state.press(.character("j")) == [])
            #expect(state.library.artists.cursor.selected == 22)

            #expect(
                state.reduce(.libraryPage(.artists(AppFixture.artists(31...35), page: 2, next: nil))) == [])
            #expect(state.library.artists.items.count == 35)
            #expect(state.library.artists.items.last?.id == "ar35")
            #expect(state.library.artists.items.first?.id == "ar1")
            #expect(state.library.artists.cursor.selected == 22)
            #expect(state.library.artists.nextPage == nil)
            #expect(state.press(.character("G")) == [])
            #expect(state.library.artists.cursor.selected == 34)
        }

        @Test func aFirstPageReplacesTheList() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("2"))
            _ = state.reduce(.libraryPage(.artists(AppFixture.artists(1...5), page: 1, next: nil)))
            _ = state.press(.character("G"))
            _ = state.reduce(.libraryPage(.artists(AppFixture.artists(1...2), page: 1, next: nil)))
            #expect(state.library.artists.items.map(\.id) == ["ar1", "ar2"])
            #expect(state.library.artists.cursor.selected == 1)
        }

        @Test func aFailedPageStopsLoadingUntilRefresh() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("2"))
            _ = state.reduce(.libraryFailed(tab: 0, "The server is down."))
            #expect(state.library.artists.status == .failed("The server is down."))
            #expect(state.press(.down) == [])
            #expect(state.press(.control("r")) == [.loadLibrary(tab: 0, page: 1)])
            #expect(state.library.artists.status == .loading)
        }

        @Test func enterOpensArtistsAndPlaysSongs() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("2"))
            _ = state.reduce(.libraryPage(.artists([AppFixture.artist("ar7", "周杰伦")], page: 1, next: nil)))
            #expect(state.press(.enter) == [.openDetail(.artist, id: "ar7", title: "周杰伦")])
            #expect(state.screen == .detail)
            #expect(state.detail?.kind == .artist)
            _ = state.press(.escape)
            #expect(state.screen == .library)

            _ = state.press(.tab)
            _ = state.press(.tab)
            #expect(state.library.tab == 2)
            let songs = AppFixture.songs(4)
            _ = state.reduce(.libraryPage(.songs(songs, page: 1, next: nil)))
            _ = state.press(.down, .down)
            #expect(state.press(.enter) == [.playSongs(songs, start: 2)])
            #expect(state.press(.character("P")) == [.playSongs(songs, start: 0)])
            #expect(state.press(.character("a")) == [.addToQueue(songs[2])])
            #expect(state.toast?.message == "Added to the queue: Song s3")
        }
    }
}

// MARK: Search

extension AppReducerTests {
    @Suite struct Search {
        static let results = SearchResults(
            songs: [
                AppFixture.song("s1", title: "晴天"), AppFixture.song("s2", title: "晴天 (Live)"),
                AppFixture.song("s3", title: "雨天"),
            ],
            albums: [AppFixture.album("al1", "叶惠美")], artists: [AppFixture.artist("ar1", "周杰伦")])

        @Test func typingSearchesWithIncreasingGenerations() {
            var state = AppFixture.signedIn()
            #expect(state.press(.character("/")) == [])
            #expect(state.screen == .search)
            #expect(state.search.editing)
            #expect(state.press(.character("晴")) == [.search(query: "晴", generation: 1)])
            #expect(state.press(.character("天")) == [.search(query: "晴天", generation: 2)])
            #expect(state.search.query == "晴天")
            #expect(state.search.cursor == 2)
            #expect(state.search.status == .loading)
            // Keys that are commands elsewhere type here.
            #expect(
                state.type("q1") == [
                    .search(query: "晴天q", generation: 3), .search(query: "晴天q1", generation: 4),
                ])
            #expect(!state.quitting)
            #expect(state.screen == .search)
        }

        @Test func anOlderAnswerIsIgnored() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("晴天")
            #expect(state.reduce(.searchAnswered(generation: 1, Self.results)) == [])
            #expect(state.search.results == nil)
            #expect(state.search.status == .loading)
            #expect(state.reduce(.searchFailed(generation: 1, "Too slow")) == [])
            #expect(state.search.status == .loading)
            #expect(state.reduce(.searchAnswered(generation: 2, Self.results)) == [])
            #expect(state.search.results == Self.results)
            #expect(state.search.status == .loaded)
        }

        @Test func aFailureForTheCurrentQueryShows() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("x")
            _ = state.reduce(.searchFailed(generation: 1, "The server is down."))
            #expect(state.search.status == .failed("The server is down."))
        }

        @Test func backspaceAndCursorKeysEditTheQuery() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("abc")
            #expect(state.press(.backspace) == [.search(query: "ab", generation: 4)])
            #expect(state.press(.left) == [])
            #expect(state.search.cursor == 1)
            #expect(state.press(.character("X")) == [.search(query: "aXb", generation: 5)])
            #expect(state.press(.control("u")) == [.search(query: "b", generation: 6)])
            #expect(state.press(.delete) == [])
            #expect(state.search.query == "")
            #expect(state.search.results == nil)
            #expect(state.search.status == .idle)
            #expect(state.search.generation == 7)
            // Nothing left to delete: no search and no going back.
            #expect(state.press(.backspace) == [])
            #expect(state.screen == .search)
        }

        @Test func escOnAnEmptyQueryGoesBack() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("5"))
            _ = state.press(.character("/"))
            #expect(state.press(.escape) == [])
            #expect(!state.search.editing)
            // Search is a tab, so back from it is home.
            #expect(state.screen == .home)
        }

        @Test func escWithAQueryLeavesEditingThenGoesBack() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("x")
            _ = state.press(.escape)
            #expect(state.screen == .search)
            #expect(!state.search.editing)
            #expect(state.search.query == "x")
            _ = state.press(.escape)
            #expect(state.screen == .home)
        }

        @Test func enterLeavesEditingThenPlaysTheSelectedSong() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("晴天")
            _ = state.reduce(.searchAnswered(generation: 2, Self.results))
            #expect(state.press(.enter) == [])
            #expect(!state.search.editing)
            #expect(state.search.list.selected == 0)
            _ = state.press(.down)
            #expect(state.search.list.selected == 1)
            #expect(state.press(.enter) == [.playSongs(Self.results.songs, start: 1)])
            #expect(state.press(.character("P")) == [.playSongs(Self.results.songs, start: 0)])
            // Up from the first result goes back to typing.
            _ = state.press(.up, .up)
            #expect(state.search.editing)
        }

        @Test func downArrowAlsoLeavesEditing() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("晴")
            _ = state.reduce(.searchAnswered(generation: 1, Self.results))
            #expect(state.press(.down) == [])
            #expect(!state.search.editing)
            #expect(state.search.list.selected == 0)
            // Now keys are commands again.
            #expect(state.press(.character("q")) == [.quit])
        }

        @Test func tabSwitchesSectionsAndEnterOpensAlbumsAndArtists() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("晴")
            _ = state.reduce(.searchAnswered(generation: 1, Self.results))
            _ = state.press(.enter)
            _ = state.press(.down)
            #expect(state.press(.tab) == [])
            #expect(state.search.section == 1)
            #expect(state.search.list.selected == 0)
            #expect(state.press(.enter) == [.openDetail(.album, id: "al1", title: "叶惠美")])
            #expect(state.screen == .detail)
            #expect(state.backStack == [.search])
            _ = state.press(.escape)
            #expect(state.screen == .search)
            _ = state.press(.tab)
            #expect(state.search.section == 2)
            #expect(state.press(.enter) == [.openDetail(.artist, id: "ar1", title: "周杰伦")])
            _ = state.press(.escape)
            _ = state.press(.tab)
            #expect(state.search.section == 3)
            _ = state.press(.tab)
            #expect(state.search.section == 4)
            _ = state.press(.tab)
            #expect(state.search.section == 0)
            _ = state.press(.backTab)
            #expect(state.search.section == 4)
        }

        @Test func anAnswerWithoutSongsShowsTheFirstSectionWithResults() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("/"))
            _ = state.type("叶")
            let albumsOnly = SearchResults(songs: [], albums: [AppFixture.album("al1", "叶惠美")], artists: [])
            _ = state.reduce(.searchAnswered(generation: 1, albumsOnly))
            #expect(state.search.section == 1)
        }

        @Test func playFirstAnswerPlaysTheFirstSongAndShowsNowPlaying() {
            var state = AppFixture.signedIn()
            state.screen = .search
            state.search.query = "晴天"
            state.search.playFirstAnswer = true
            state.search.generation = 1
            let effects = state.reduce(.searchAnswered(generation: 1, Self.results))
            #expect(effects == [.playSongs(Self.results.songs, start: 0)])
            #expect(state.screen == .nowPlaying)
            #expect(!state.search.playFirstAnswer)
        }

        @Test func playFirstAnswerWithNothingFoundSaysSo() {
            var state = AppFixture.signedIn()
            state.screen = .search
            state.search.query = "zzz"
            state.search.playFirstAnswer = true
            state.search.generation = 1
            let empty = SearchResults(songs: [], albums: [], artists: [])
            #expect(state.reduce(.searchAnswered(generation: 1, empty)) == [])
            #expect(state.screen == .search)
            #expect(state.toast == Toast(message: "Nothing found for \"zzz\".", isError: true))
        }
    }
}

// MARK: Home and detail

extension AppReducerTests {
    @Suite struct Home {
        let newSongs = AppFixture.songs(3, prefix: "n")
        let sheets = [AppFixture.sheet("sh1", title: "华语经典"), AppFixture.sheet("sh2", title: "Rock")]

        @Test func downCrossesFromAnEmptySheetsSectionIntoNewSongs() {
            var state = AppFixture.signedIn()
            state.home.newSongs = newSongs
            #expect(state.home.section == 0)
            #expect(state.press(.down) == [])
            #expect(state.home.section == 1)
            #expect(state.home.item == 0)
            // Up does not go into the empty section.
            _ = state.press(.up)
            #expect(state.home.section == 1)
            #expect(state.home.item == 0)
        }

        @Test func loadingWithoutSheetsSelectsTheFirstNewSong() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.homeLoaded(sheets: [], newSongs: newSongs, recent: []))
            #expect(state.home.status == .loaded)
            #expect(state.home.section == 1)
            #expect(state.home.item == 0)
        }

        @Test func downAndUpCrossSectionsOneStepAtATime() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.homeLoaded(sheets: sheets, newSongs: newSongs, recent: []))
            #expect(state.home.section == 0)
            _ = state.press(.down)
            #expect(state.home.item == 1)
            _ = state.press(.down)
            #expect(state.home.section == 1)
            #expect(state.home.item == 0)
            _ = state.press(.up)
            #expect(state.home.section == 0)
            #expect(state.home.item == 1)
        }

        @Test func enterOnANewSongPlaysTheNewSongsFromIt() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.homeLoaded(sheets: [], newSongs: newSongs, recent: []))
            _ = state.press(.down, .down)
            #expect(state.home.item == 2)
            #expect(state.press(.enter) == [.playSongs(newSongs, start: 2)])
            #expect(state.press(.character("P")) == [.playSongs(newSongs, start: 0)])
        }

        @Test func enterOnASheetOpensItAndEscGoesBack() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.homeLoaded(sheets: sheets, newSongs: newSongs, recent: []))
            #expect(state.press(.enter) == [.openDetail(.sheet, id: "sh1", title: "华语经典")])
            #expect(state.screen == .detail)
            #expect(state.detail?.id == "sh1")
            #expect(state.detail?.status == .loading)
            #expect(state.backStack == [.home])

            let songs = AppFixture.songs(2)
            var loaded = DetailState(kind: .sheet, id: "sh1", title: "华语经典")
            loaded.songs = songs
            loaded.status = .loaded
            _ = state.reduce(.detailLoaded(loaded))
            #expect(state.detail?.songs == songs)
            _ = state.press(.down)
            #expect(state.press(.enter) == [.playSongs(songs, start: 1)])

            #expect(state.press(.escape) == [])
            #expect(state.screen == .home)
            #expect(state.backStack == [])
        }

        @Test func aDetailForAnotherIDIsIgnored() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.homeLoaded(sheets: sheets, newSongs: [], recent: []))
            _ = state.press(.enter)
            var other = DetailState(kind: .sheet, id: "sh2", title: "Rock")
            other.songs = AppFixture.songs(2)
            _ = state.reduce(.detailLoaded(other))
            #expect(state.detail?.id == "sh1")
            #expect(state.detail?.songs == [])
            _ = state.reduce(.detailFailed(id: "sh1", "Not found."))
            #expect(state.detail?.status == .failed("Not found."))
        }

        @Test func tabMovesBetweenSections() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.homeLoaded(sheets: sheets, newSongs: newSongs, recent: []))
            _ = state.press(.down)
            _ = state.press(.tab)
            #expect(state.home.section == 1)
            #expect(state.home.item == 0)
            _ = state.press(.backTab, .backTab)
            #expect(state.home.section == 2)
        }
    }
}

// MARK: Queue screen

extension AppReducerTests {
    @Suite struct QueueScreen {
        let songs = AppFixture.songs(3)

        @Test func upperJAndKMoveTheSelectedSong() {
            var state = AppFixture.playing(songs)
            _ = state.press(.character("5"))
            #expect(state.screen == .queue)
            #expect(state.press(.character("J")) == [.moveInQueue(from: 0, to: 1)])
            #expect(state.queue.map(\.id) == ["s2", "s1", "s3"])
            #expect(state.queueList.selected == 1)
            #expect(state.press(.character("J")) == [.moveInQueue(from: 1, to: 2)])
            #expect(state.press(.character("J")) == [])
            #expect(state.press(.character("K")) == [.moveInQueue(from: 2, to: 1)])
            #expect(state.queue.map(\.id) == ["s2", "s1", "s3"])
            #expect(state.queueList.selected == 1)
        }

        @Test func xRemovesAndEnterPlaysTheSelectedIndex() {
            var state = AppFixture.playing(songs)
            _ = state.press(.character("5"))
            _ = state.press(.character("G"))
            #expect(state.press(.enter) == [.playQueueIndex(2)])
            #expect(state.press(.character("x")) == [.removeFromQueue(2)])
            #expect(state.queue.map(\.id) == ["s1", "s2"])
            #expect(state.queueList.selected == 1)
            #expect(state.press(.delete) == [.removeFromQueue(1)])
            #expect(state.press(.enter) == [.playQueueIndex(0)])
        }

        @Test func upperCClearsTheQueue() {
            var state = AppFixture.playing(songs)
            _ = state.press(.character("5"))
            _ = state.press(.down)
            #expect(state.press(.character("C")) == [.clearQueue])
            #expect(state.queue.isEmpty)
            #expect(state.queueList == ListCursor())
            #expect(state.toast?.message == "Queue cleared.")
            #expect(state.press(.character("C")) == [])
            #expect(state.press(.enter) == [])
            #expect(state.press(.character("x")) == [])
        }

        @Test func movingThePlayingSongKeepsItMarkedAsPlaying() {
            var state = AppFixture.playing(songs)
            _ = state.press(.character("5"))
            _ = state.press(.character("J"))
            #expect(state.queueIndex == 1)
        }

        @Test func removingASongAboveThePlayingOneKeepsTheMarkOnIt() {
            var state = AppFixture.playing(songs, current: 2)
            _ = state.press(.character("5"))
            _ = state.press(.character("x"))
            #expect(state.queueIndex == 1)
        }
    }
}

// MARK: Comments

extension AppReducerTests {
    @Suite struct Comments {
        let song = AppFixture.song("s1", title: "晴天")
        /// Given newest first, as the server lists them; replies are older-first under their parent.
        let comments = [
            AppFixture.comment("c3", "Third", minute: 30),
            AppFixture.comment("r2", "Late reply", parentId: "c1", minute: 40),
            AppFixture.comment("c1", "First", likeId: "like-c1", minute: 10),
            AppFixture.comment("r1", "Early reply", parentId: "c1", by: "Cai", minute: 20),
        ]

        func opened() -> AppState {
            var state = AppFixture.playing([song])
            _ = state.press(.character("c"))
            _ = state.reduce(.commentsLoaded(songID: "s1", comments))
            return state
        }

        @Test func cWithAPlayingSongOpensItsComments() {
            var state = AppFixture.playing([song])
            _ = state.press(.character("7"))
            #expect(state.press(.character("c")) == [.loadComments(songID: "s1")])
            #expect(state.screen == .comments)
            #expect(state.comments.songID == "s1")
            #expect(state.comments.songTitle == "晴天")
            #expect(state.comments.status == .loading)
            #expect(state.backStack == [.nowPlaying])
            _ = state.press(.escape)
            #expect(state.screen == .nowPlaying)
        }

        @Test func cWithoutASongIsAnError() {
            var state = AppFixture.signedIn()
            #expect(state.press(.character("c")) == [])
            #expect(state.screen == .home)
            #expect(state.toast == Toast(message: "Play a song to see its comments.", isError: true))
        }

        @Test func loadedCommentsAreInReadingOrder() {
            let state = opened()
            #expect(state.comments.comments.map(\.id) == ["c3", "c1", "r1", "r2"])
            #expect(state.comments.comments == CommentsView.threaded(comments).map(\.comment))
            #expect(state.comments.status == .loaded)
        }

        @Test func commentsForAnotherSongAreIgnored() {
            var state = AppFixture.playing([song])
            _ = state.press(.character("c"))
            _ = state.reduce(.commentsLoaded(songID: "s9", comments))
            #expect(state.comments.comments.isEmpty)
            #expect(state.comments.status == .loading)
        }

        @Test func writeAndSendAComment() {
            var state = opened()
            #expect(state.press(.character("w")) == [])
            #expect(state.comments.draft == CommentsState.Draft())
            #expect(state.type("好听 q1") == [])
            #expect(state.comments.draft?.text == "好听 q1")
            #expect(state.comments.draft?.cursor == 5)
            #expect(!state.quitting)
            #expect(state.screen == .comments)
            #expect(state.press(.enter) == [.postComment(text: "好听 q1", songID: "s1", replyTo: nil)])
            #expect(state.comments.draft == nil)
        }

        @Test func spaceAndNumbersTypeIntoTheDraft() {
            var state = opened()
            _ = state.press(.character("w"))
            #expect(state.press(.space, .character("5"), .character("n")) == [])
            #expect(state.comments.draft?.text == " 5n")
            #expect(state.screen == .comments)
        }

        @Test func anEmptyDraftIsNotSent() {
            var state = opened()
            _ = state.press(.character("w"))
            _ = state.type("   ")
            #expect(state.press(.enter) == [])
            #expect(state.comments.draft != nil)
            #expect(state.toast == Toast(message: "Write something first, or press Esc.", isError: true))
        }

        @Test func replyToTheSelectedComment() {
            var state = opened()
            _ = state.press(.down)
            #expect(state.comments.list.selected == 1)
            #expect(state.press(.character("r")) == [])
            #expect(state.comments.draft?.replyTo?.id == "c1")
            _ = state.type("me too")
            #expect(state.press(.enter) == [.postComment(text: "me too", songID: "s1", replyTo: "c1")])
        }

        @Test func replyWithNoCommentsDoesNothing() {
            var state = AppFixture.playing([song])
            _ = state.press(.character("c"))
            _ = state.reduce(.commentsLoaded(songID: "s1", []))
            #expect(state.press(.character("r")) == [])
            #expect(state.comments.draft == nil)
        }

        @Test func fLikesOrUnlikesTheSelectedComment() {
            var state = opened()
            #expect(state.press(.character("f")) == [.likeComment(id: "c3")])
            _ = state.press(.down)
            #expect(state.press(.character("f")) == [.unlikeComment(likeID: "like-c1", commentID: "c1")])
        }

        @Test func escCancelsTheDraftThenGoesBack() {
            var state = opened()
            _ = state.press(.character("w"))
            _ = state.type("half")
            #expect(state.press(.escape) == [])
            #expect(state.comments.draft == nil)
            #expect(state.screen == .comments)
            _ = state.press(.escape)
            #expect(state.screen == .home)
        }

        @Test func writingWhenNotSignedInIsAnError() {
            var state = AppState(server: AppFixture.server)
            _ = state.press(.escape)
            _ = state.reduce(.queueChanged(songs: [song], current: 0, mode: .list))
            _ = state.press(.character("c"))
            _ = state.reduce(.commentsLoaded(songID: "s1", comments))
            #expect(state.press(.character("w")) == [])
            #expect(state.comments.draft == nil)
            #expect(state.toast == Toast(message: "Sign in to write comments.", isError: true))
            #expect(state.press(.character("r")) == [])
            #expect(state.comments.draft == nil)
            #expect(state.press(.character("f")) == [])
            #expect(state.toast == Toast(message: "Sign in to like comments.", isError: true))
        }

        @Test func aPostedReplyGoesUnderItsParent() {
            var state = opened()
            let reply = AppFixture.comment("r3", "Newest reply", parentId: "c1", minute: 50)
            #expect(state.reduce(.commentPosted(reply)) == [])
            #expect(state.comments.comments.map(\.id) == ["c3", "c1", "r1", "r2", "r3"])
            #expect(state.comments.list.selected == 4)
            #expect(state.comments.comments[1].repliesCount == 1)
            #expect(state.toast?.message == "Reply posted.")

            let top = AppFixture.comment("c9", "New", minute: 55)
            _ = state.reduce(.commentPosted(top))
            #expect(state.comments.comments.first?.id == "c9")
            #expect(state.comments.list.selected == 0)
            #expect(state.toast?.message == "Comment posted.")
        }

        @Test func aChangedCommentReplacesItsRow() {
            var state = opened()
            var liked = comments[0]
            liked.likeId = "like-c3"
            liked.likesCount = 1
            _ = state.reduce(.commentChanged(liked))
            #expect(state.comments.comments[0] == liked)
            #expect(state.press(.character("f")) == [.unlikeComment(likeID: "like-c3", commentID: "c3")])
        }
    }
}

// MARK: Toasts

extension AppReducerTests {
    @Suite struct Toasts {
        @Test func aToastLastsFourTicks() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.notice("Download deleted.", isError: false))
            #expect(state.toast == Toast(message: "Download deleted.", isError: false, ticksLeft: 4))
            for left in [3, 2, 1] {
                #expect(state.reduce(.tick) == [])
                #expect(state.toast?.ticksLeft == left)
            }
            _ = state.reduce(.tick)
            #expect(state.toast == nil)
            _ = state.reduce(.tick)
            #expect(state.toast == nil)
        }

        @Test func aNewToastStartsOver() {
            var state = AppFixture.signedIn()
            _ = state.reduce(.notice("One", isError: false))
            _ = state.reduce(.tick)
            _ = state.reduce(.tick)
            _ = state.reduce(.notice("Two", isError: true))
            #expect(state.toast == Toast(message: "Two", isError: true, ticksLeft: 4))
        }
    }
}

// MARK: Downloads screen

extension AppReducerTests {
    @Suite struct DownloadsScreen {
        let songs = AppFixture.songs(3, prefix: "d")

        func entries() -> [DownloadEntry] {
            [
                DownloadEntry(song: songs[0], state: "done", received: 10, total: 10, message: nil),
                DownloadEntry(song: songs[1], state: "downloading", received: 2, total: 10, message: nil),
                DownloadEntry(song: songs[2], state: "done", received: 10, total: 10, message: nil),
            ]
        }

        @Test func enterPlaysTheFinishedDownloadsFromTheSelectedOne() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("6"))
            _ = state.reduce(.downloadsChanged(entries()))
            _ = state.press(.character("G"))
            #expect(state.press(.enter) == [.playSongs([songs[0], songs[2]], start: 1)])
            #expect(state.press(.character("x")) == [.deleteDownload(songID: "d3")])
        }

        @Test func enterOnAnUnfinishedDownloadPausesOrResumesItInsteadOfPlayingAnotherSong() {
            var state = AppFixture.signedIn()
            _ = state.press(.character("6"))
            _ = state.reduce(.downloadsChanged(entries()))
            _ = state.press(.down)
            #expect(state.downloadsList.selected == 1)
            #expect(state.press(.enter) == [.pauseDownload(songID: songs[1].id)])
            var paused = entries()
            paused[1].state = "paused"
            _ = state.reduce(.downloadsChanged(paused))
            #expect(state.press(.enter) == [.resumeDownload(songID: songs[1].id)])
            paused[1].state = "failed"
            _ = state.reduce(.downloadsChanged(paused))
            #expect(state.press(.enter) == [.resumeDownload(songID: songs[1].id)])
        }
    }
}
