import CloudMusicKit
import MusicCore
import Testing

@testable import CloudMusicTUI

/// `m`: keeping a song in one of my sheets, or in a new one (the apps' "collect to sheet").
@Suite struct SheetPickerTests {
    static let songs = AppFixture.songs(3)

    /// Playing, with two sheets of mine and "I like" loaded.
    static func state() -> AppState {
        var state = AppFixture.playing(songs)
        var likes = AppFixture.sheet("likes", title: "I like", owner: AppFixture.user("u1", "Ann"))
        likes.kind = "likes"
        let mine =
            [likes] + ["Road", "Rain"].map { AppFixture.sheet($0.lowercased(), title: $0, songsCount: 2) }
        _ = state.reduce(.myMusicLoaded(created: mine, collected: [], liked: []))
        return state
    }

    @Test func choosingASheetAddsTheSelectedSong() {
        var state = Self.state()
        _ = state.press(.character("5"), .down)
        #expect(state.press(.character("m")) == [])
        #expect(state.sheetPicker?.song.id == Self.songs[1].id)
        // Row 0 is a new sheet; "I like" is not offered (f is its key).
        #expect(state.ownSheets.map(\.title) == ["Road", "Rain"])
        let effects = state.press(.down, .down, .enter)
        #expect(effects == [.addToSheet(songID: Self.songs[1].id, sheetID: "rain")])
        #expect(state.sheetPicker == nil)
    }

    @Test func aNewSheetIsNamedThenMade() {
        var state = Self.state()
        _ = state.press(.character("m"), .enter)
        #expect(state.sheetPicker?.newTitle == "")
        // Keys type while naming: q does not quit, space is a space.
        _ = state.type("q trip")
        #expect(state.sheetPicker?.newTitle == "q trip")
        #expect(!state.quitting)
        #expect(state.press(.enter) == [.createSheet(title: "q trip", songID: Self.songs[0].id)])
        #expect(state.sheetPicker == nil)
    }

    @Test func anEmptyTitleIsRefusedAndEscGoesBackThenCloses() {
        var state = Self.state()
        _ = state.press(.character("m"), .enter)
        #expect(state.press(.enter) == [])
        #expect(state.toast?.isError == true)
        _ = state.press(.escape)
        #expect(state.sheetPicker?.newTitle == nil)
        #expect(state.sheetPicker != nil)
        _ = state.press(.escape)
        #expect(state.sheetPicker == nil)
        // Playback keys are back.
        #expect(state.press(.space) == [.togglePlayPause])
    }

    @Test func theAnswerUpdatesMySheetsAndSaysWhere() {
        var state = Self.state()
        var rain = AppFixture.sheet("rain", title: "Rain", songsCount: 3)
        _ = state.reduce(.addedToSheet(rain, created: false))
        #expect(state.myMusic.created.first { $0.id == "rain" }?.songsCount == 3)
        #expect(state.toast?.message == "Added to Rain.")
        rain = AppFixture.sheet("new", title: "Trip", songsCount: 1)
        _ = state.reduce(.addedToSheet(rain, created: true))
        #expect(state.ownSheets.map(\.title) == ["Road", "Rain", "Trip"])
        #expect(state.toast?.message == "Made the sheet Trip with the song in it.")
    }

    @Test func signedOutItSaysToSignIn() {
        var state = AppState(server: AppFixture.server)
        _ = state.reduce(.key(.escape))
        _ = state.reduce(.queueChanged(songs: Self.songs, current: 0, mode: .list))
        #expect(state.press(.character("m")) == [])
        #expect(state.sheetPicker == nil)
        #expect(state.toast?.message == "Sign in to keep songs in your sheets.")
    }

    @Test func thePickerDrawsOverTheScreen() {
        var state = Self.state()
        _ = state.press(.character("m"))
        let lines = AppView.render(&state, width: 80, height: 24)
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.width == 80 })
        #expect(lines[1].text.contains("Add \"\(Self.songs[0].title)\" to a sheet"))
        #expect(lines.contains { $0.text.contains("+ New sheet…") })
        #expect(lines.contains { $0.text.contains("Rain") })
        #expect(!lines.contains { $0.text.contains("I like") && !$0.text.contains("f like") })
    }
}
