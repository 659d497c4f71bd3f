import CloudMusicKit
import MusicCore
import Testing

@testable import CloudMusicTUI

/// A song's comments come a page at a time, older pages as the selection nears the end.
@Suite struct CommentsPagingTests {
    static let song = AppFixture.song("s1")

    static func openComments() -> AppState {
        var state = AppFixture.playing([song])
        _ = state.press(.character("c"))
        return state
    }

    static func page(_ range: Range<Int>) -> [MusicCore.Comment] {
        range.map { AppFixture.comment("c\($0)", "Comment \($0)", minute: 59 - $0) }
    }

    @Test func theNextPageIsAskedForNearTheEndOnlyOnce() {
        var state = Self.openComments()
        _ = state.reduce(.commentsLoaded(songID: "s1", Self.page(0..<10), nextCursor: "cur-10"))
        #expect(state.press(.down, .down, .down) == [])
        #expect(state.press(.down) == [])
        // Row 5 of 10: five from the end.
        #expect(state.press(.down) == [.loadComments(songID: "s1", cursor: "cur-10")])
        #expect(state.comments.loadingMore)
        #expect(state.press(.down) == [])

        _ = state.reduce(.commentsLoaded(songID: "s1", Self.page(10..<20), nextCursor: nil, more: true))
        #expect(state.comments.comments.count == 20)
        #expect(state.comments.comments[state.comments.list.selected].id == "c6")
        #expect(!state.comments.loadingMore)
        // The last page: no more asking.
        #expect(state.press(.end) == [])
    }

    @Test func aLaterPageBringsTheParentOfAReplyAlreadyShown() {
        var state = Self.openComments()
        let reply = AppFixture.comment("r1", "Agreed", parentId: "c12", minute: 58)
        _ = state.reduce(.commentsLoaded(songID: "s1", [reply] + Self.page(0..<3), nextCursor: "next"))
        _ = state.press(.down)
        let selected = state.comments.comments[state.comments.list.selected].id
        _ = state.reduce(.commentsLoaded(songID: "s1", Self.page(10..<13), nextCursor: nil, more: true))
        let ids = state.comments.comments.map(\.id)
        // The reply now sits right under its parent, and the selection stayed on the same comment.
        #expect(ids.firstIndex(of: "r1") == ids.firstIndex(of: "c12").map { $0 + 1 })
        #expect(state.comments.comments[state.comments.list.selected].id == selected)
        // A comment that came again on a later page (new comments moved the pages) is shown once.
        _ = state.reduce(.commentsLoaded(songID: "s1", Self.page(2..<4), nextCursor: nil, more: true))
        #expect(state.comments.comments.filter { $0.id == "c2" }.count == 1)
    }

    @Test func reloadingReplacesTheList() {
        var state = Self.openComments()
        _ = state.reduce(.commentsLoaded(songID: "s1", Self.page(0..<10), nextCursor: "x"))
        #expect(state.press(.control("r")) == [.loadComments(songID: "s1")])
        _ = state.reduce(.commentsLoaded(songID: "s1", Self.page(0..<2)))
        #expect(state.comments.comments.count == 2)
        #expect(state.comments.nextCursor == nil)
    }
}
