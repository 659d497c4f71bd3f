import CloudMusicKit
import Foundation
import MusicCore
import Testing

@testable import CloudMusicTUI

/// Messages, conversations and notifications for the app's tests.
enum SocialFixture {
    static let ann = AppFixture.user("u1", "Ann")
    static let bob = AppFixture.user("u2", "小明 Bob")
    static let cai = AppFixture.user("u3", "Cai")

    static func time(_ minute: Int) -> String { "2024-05-01T10:\(minute < 10 ? "0" : "")\(minute):00Z" }

    static func message(
        _ id: String, _ text: String, from sender: UserSummary = bob, in conversation: String = "c1",
        minute: Int = 0, song: Song? = nil
    ) -> Message {
        Message(
            id: id, conversationId: conversation, sender: sender, kind: song == nil ? .text : .song,
            content: song == nil ? text : nil, song: song, createdAt: time(minute), updatedAt: time(minute))
    }

    static func conversation(
        _ id: String, with user: UserSummary, last: Message?, unread: Int = 0, minute: Int = 0
    ) -> Conversation {
        Conversation(
            id: id, user: user, lastMessage: last, unreadCount: unread, createdAt: time(minute),
            updatedAt: time(minute))
    }

    static func notification(
        _ id: String, _ kind: String, by actor: UserSummary = bob, read: Bool = false, minute: Int = 0,
        quote: String? = "好听！"
    ) -> NotificationItem {
        NotificationItem(
            id: id, kind: kind, read: read, actor: actor,
            comment: quote.map {
                NotificationComment(id: "cm\(id)", content: $0, parentId: nil, songId: "s1", sheetId: nil)
            },
            feedId: nil, createdAt: time(minute), updatedAt: time(minute))
    }

    /// Signed in as Ann with two conversations (Bob's with 2 unread) and the list loaded.
    static func withConversations() -> AppState {
        var state = AppFixture.playing(AppFixture.songs(3))
        let bobLast = message("m2", "在吗？", minute: 5)
        let caiLast = message("m9", "see you", from: ann, in: "c2", minute: 1)
        _ = state.reduce(
            .conversationsChanged(
                [
                    conversation("c1", with: bob, last: bobLast, unread: 2, minute: 5),
                    conversation("c2", with: cai, last: caiLast, minute: 1),
                ], hasMore: false, unread: UnreadMessages(count: 2, conversations: 1)))
        return state
    }

    static let thread = ChatRepository.Thread(
        conversationID: "c1",
        messages: [message("m1", "Hello Ann 👋", minute: 4), message("m2", "在吗？", minute: 5)], hasOlder: true)
}

@Suite struct SocialReducerTests {
    typealias F = SocialFixture

    @Test func theMessagesTabLoadsConversationsAndEnterOpensAChatThatMarksItRead() {
        var state = AppFixture.signedIn()
        #expect(state.press(.character("8")) == [.loadConversations(more: false)])
        #expect(state.screen == .messages)
        #expect(state.messages.status == .loading)
        state = F.withConversations()
        _ = state.press(.character("8"))
        #expect(state.press(.enter) == [.openConversation(id: "c1")])
        #expect(state.screen == .chat)
        #expect(state.chat?.user == F.bob)
        #expect(state.chat?.composing == true)
        // The thread comes: read up to its newest message, once.
        #expect(
            state.reduce(.threadChanged(conversationID: "c1", F.thread)) == [
                .markConversationRead(id: "c1", through: "m2")
            ])
        #expect(state.chat?.messages.map(\.id) == ["m1", "m2"])
        #expect(state.reduce(.threadChanged(conversationID: "c1", F.thread)) == [])
        // A new message while it is on screen is read too; a thread of another conversation is not shown.
        var more = F.thread
        more.messages.append(F.message("m3", "听这首", minute: 6))
        _ = state.reduce(
            .conversationsChanged(
                [F.conversation("c1", with: F.bob, last: more.messages.last, unread: 1)], hasMore: false,
                unread: UnreadMessages(count: 1, conversations: 1)))
        #expect(
            state.reduce(.threadChanged(conversationID: "c1", more)) == [
                .markConversationRead(id: "c1", through: "m3")
            ])
        #expect(state.reduce(.threadChanged(conversationID: "c9", more)) == [])
    }

    @Test func typingInAChatTakesEveryKeyAndEnterSends() {
        var state = F.withConversations()
        _ = state.press(.character("8"), .enter)
        _ = state.reduce(.threadChanged(conversationID: "c1", F.thread))
        // q, space, n and digits type; they do not quit, pause, skip or switch tabs.
        #expect(state.type("q 1 n 你好") == [])
        #expect(state.chat?.draft == "q 1 n 你好")
        #expect(state.screen == .chat && !state.quitting)
        _ = state.press(.backspace, .backspace)
        #expect(state.press(.enter) == [.sendMessage(text: "q 1 n", to: "u2")])
        #expect(state.chat?.draft == "")
        // Enter with nothing typed sends nothing; a failure puts the text back.
        #expect(state.press(.enter) == [])
        _ = state.reduce(
            .messageFailed("This person only takes messages from people they follow.", text: "q 1 n"))
        #expect(state.chat?.draft == "q 1 n")
        #expect(state.toast?.isError == true)
    }

    @Test func browsingMessagesPlaysASharedSongDeletesAfterAskingAndLoadsOlderAtTheTop() {
        var state = F.withConversations()
        let song = AppFixture.song("s7", title: "晴天")
        var thread = F.thread
        thread.messages.append(F.message("m3", "", minute: 6, song: song))
        _ = state.press(.character("8"), .enter)
        _ = state.reduce(.threadChanged(conversationID: "c1", thread))
        // Esc browses from the newest message.
        #expect(state.press(.escape) == [])
        #expect(state.chat?.composing == false && state.chat?.selected == 2)
        #expect(state.press(.enter) == [.playSongs([song], start: 0)])
        _ = state.press(.character("k"))
        #expect(state.chat?.selected == 1)
        #expect(state.press(.character("x")) == [])
        #expect(state.confirmation?.question.contains("Delete this message?") == true)
        #expect(state.press(.character("n")) == [])
        #expect(state.confirmation == nil)
        _ = state.press(.character("x"))
        #expect(state.press(.character("y")) == [.deleteMessage(id: "m2", conversationID: "c1")])
        // At the top, older messages are asked for once.
        #expect(state.press(.character("k")) == [.loadOlderMessages(conversationID: "c1")])
        #expect(state.press(.character("k")) == [])
        // Past the newest, typing again; w does it too.
        _ = state.press(.character("G"))
        _ = state.press(.character("j"))
        #expect(state.chat?.composing == true && state.chat?.selected == nil)
        _ = state.press(.escape)
        _ = state.press(.character("w"))
        #expect(state.chat?.composing == true)
        // Esc twice goes back to the list.
        _ = state.press(.escape, .escape)
        #expect(state.screen == .messages)
    }

    @Test func olderMessagesKeepTheSelectionOnTheSameMessage() {
        var state = F.withConversations()
        _ = state.press(.character("8"), .enter)
        _ = state.reduce(.threadChanged(conversationID: "c1", F.thread))
        _ = state.press(.escape, .character("k"))
        #expect(state.chat?.selected == 0)
        var older = F.thread
        older.messages.insert(contentsOf: [F.message("m0", "earlier", minute: 1)], at: 0)
        older.hasOlder = false
        _ = state.reduce(.threadChanged(conversationID: "c1", older))
        #expect(state.chat?.selected == 1)
        #expect(state.chat?.messages[1].id == "m1")
        #expect(state.chat?.loadingOlder == false)
    }

    @Test func sharingThePlayingSongGoesStraightIntoTheChatOrThroughAPicker() throws {
        var state = F.withConversations()
        let playing = try #require(state.playing.song)
        // Elsewhere: choose the conversation.
        _ = state.press(.character("7"))
        #expect(state.press(.character("S")) == [])
        #expect(state.sharePicker?.song == playing)
        _ = state.press(.character("j"))
        #expect(state.press(.enter) == [.shareSong(songID: playing.id, with: "u3")])
        #expect(state.sharePicker == nil)
        // In a chat (not typing): at once.
        _ = state.press(.character("8"), .enter, .escape)
        #expect(state.press(.character("S")) == [.shareSong(songID: playing.id, with: "u2")])
        // Not signed in, or nothing playing.
        var signedOut = AppState(server: AppFixture.server)
        signedOut.screen = .home
        #expect(signedOut.press(.character("S")) == [])
        #expect(signedOut.toast?.isError == true)
    }

    @Test func aPersonFoundBySearchGetsANewChatThatLearnsItsConversation() {
        var state = F.withConversations()
        _ = state.press(.character("/"))
        _ = state.type("dan")
        let dan = User(
            id: "u4", nickname: "Dan", icon: nil, description: nil, gender: 0, birthday: nil, province: nil,
            city: nil, area: nil, followingsCount: 1, followersCount: 2, following: true, phone: nil,
            email: nil,
            role: nil, disabled: nil, createdAt: "", updatedAt: "")
        _ = state.reduce(
            .searchAnswered(
                generation: state.search.generation, SearchResults(songs: [], albums: [], artists: []),
                users: [dan]))
        #expect(state.search.section == 4)
        _ = state.press(.enter)
        #expect(state.press(.enter) == [])
        #expect(state.screen == .chat)
        #expect(state.chat?.conversationID == nil && state.chat?.user.id == "u4")
        _ = state.type("hi Dan")
        #expect(state.press(.enter) == [.sendMessage(text: "hi Dan", to: "u4")])
        let sent = F.message("m20", "hi Dan", from: F.ann, in: "c4")
        #expect(state.reduce(.messageSent(sent, to: "u4")) == [.openConversation(id: "c4")])
        #expect(state.chat?.conversationID == "c4")
        // Someone already in the list opens their conversation.
        _ = state.press(.escape, .escape)
        state.screen = .search
        _ = state.reduce(
            .searchAnswered(
                generation: state.search.generation, SearchResults(songs: [], albums: [], artists: []),
                users: [
                    User(
                        id: "u2", nickname: "小明 Bob", icon: nil, description: nil, gender: 0, birthday: nil,
                        province: nil, city: nil, area: nil, followingsCount: 0, followersCount: 0,
                        following: nil,
                        phone: nil, email: nil, role: nil, disabled: nil, createdAt: "", updatedAt: "")
                ]))
        state.search.editing = false
        #expect(state.press(.character("w")) == [.openConversation(id: "c1")])
    }

    @Test func aMessageElsewhereShowsAToastAndOneOnScreenDoesNot() {
        var state = F.withConversations()
        _ = state.reduce(.messageReceived(F.message("m5", "晚上一起听歌？", minute: 9)))
        #expect(state.toast?.message == "小明 Bob: 晚上一起听歌？")
        state.toast = nil
        _ = state.press(.character("8"), .enter)
        _ = state.reduce(.messageReceived(F.message("m6", "in view", minute: 9)))
        #expect(state.toast == nil)
        // A message from the other conversation does show.
        _ = state.reduce(.messageReceived(F.message("m7", "from Cai", from: F.cai, in: "c2")))
        #expect(state.toast?.message == "Cai: from Cai")
    }

    @Test func deletingAConversationIsAskedFirst() {
        var state = F.withConversations()
        _ = state.press(.character("8"), .character("j"))
        #expect(state.press(.character("x")) == [])
        #expect(state.confirmation?.question.hasPrefix("Delete the conversation with Cai?") == true)
        #expect(state.press(.character("y")) == [.deleteConversation(id: "c2")])
    }

    @Test func theInboxLoadsFiltersByKindMarksReadAndTakesNewOnesLive() {
        var state = AppFixture.signedIn()
        #expect(state.press(.character("9")) == [.loadNotifications(cursor: nil), .loadUnreadCounts])
        let items = [
            F.notification("n3", "reply", minute: 3), F.notification("n2", "like", by: F.cai, minute: 2),
            F.notification("n1", "follow", read: true, minute: 1, quote: nil),
        ]
        _ = state.reduce(.notificationsLoaded(items, nextCursor: nil, more: false))
        _ = state.reduce(.notificationsUnread(UnreadNotifications(count: 2, kinds: ["reply": 1, "like": 1])))
        #expect(state.notifications.visible.map(\.id) == ["n3", "n2", "n1"])
        // Replies only.
        _ = state.press(.tab)
        #expect(state.notifications.visible.map(\.id) == ["n3"])
        // Enter marks it read, here at once and on the server.
        #expect(state.press(.enter) == [.markNotificationRead(id: "n3")])
        #expect(state.notifications.items[0].read)
        #expect(state.notifications.unread == UnreadNotifications(count: 1, kinds: ["reply": 0, "like": 1]))
        #expect(state.press(.enter) == [])
        // A new one comes live: at the top, the selection stays, a toast only when looking elsewhere.
        _ = state.press(.backTab)
        _ = state.press(.character("j"))
        let new = F.notification("n4", "mention", by: F.cai, minute: 4)
        _ = state.reduce(
            .notificationArrived(
                new, unread: UnreadNotifications(count: 2, kinds: ["mention": 1, "like": 1])))
        #expect(state.notifications.visible.first?.id == "n4")
        #expect(state.notifications.visible[state.notifications.list.selected].id == "n2")
        #expect(state.toast == nil)
        _ = state.press(.character("1"))
        _ = state.reduce(
            .notificationArrived(
                F.notification("n5", "follow"), unread: UnreadNotifications(count: 3, kinds: ["follow": 1])))
        #expect(state.toast?.message == "小明 Bob followed you")
        // R marks everything read; w writes to who did it.
        _ = state.press(.character("9"))
        #expect(state.press(.character("R")) == [.markAllNotificationsRead])
        #expect(state.notifications.unread.count == 0 && state.notifications.items.allSatisfy(\.read))
        _ = state.press(.character("g"))
        #expect(state.press(.character("w")) == [])
        #expect(state.screen == .chat && state.chat?.user == F.bob)
    }

    @Test func theInboxFetchesOlderPagesForASparseKindAndNearTheEnd() {
        var state = AppFixture.signedIn()
        _ = state.press(.character("9"))
        let page = (1...12).map { F.notification("n\($0)", "like", minute: $0) }
        #expect(state.reduce(.notificationsLoaded(page, nextCursor: "cur1", more: false)) == [])
        // Replies: none among those loaded, so older pages are asked for, one at a time.
        #expect(state.press(.tab) == [.loadNotifications(cursor: "cur1")])
        #expect(state.press(.tab, .backTab) == [])
        #expect(
            state.reduce(.notificationsLoaded([], nextCursor: "cur2", more: true)) == [
                .loadNotifications(cursor: "cur2")
            ])
        let reply = F.notification("n0", "reply")
        #expect(
            state.reduce(.notificationsLoaded([reply], nextCursor: "cur3", more: true)) == [
                .loadNotifications(cursor: "cur3")
            ])
        _ = state.reduce(.notificationsLoaded([], nextCursor: nil, more: true))
        #expect(state.notifications.visible.map(\.id) == ["n0"])
        // All: the next page when the selection nears the end.
        _ = state.press(.backTab)
        state.notifications.nextCursor = "cur4"
        #expect(state.press(.character("j")) == [])
        #expect(state.press(.character("j"), .character("j")) == [.loadNotifications(cursor: "cur4")])
    }

    @Test func theLiveStatusAndLikesFromElsewhere() {
        var state = F.withConversations()
        _ = state.reduce(.liveStatus(.live))
        #expect(state.messages.live == .live)
        _ = state.reduce(.liveStatus(.stopped("Live updates moved to another window.")))
        #expect(state.toast?.isError == true)
        // "I like" changed on another device: loaded again, unless it already says so here.
        #expect(state.reduce(.likesChangedElsewhere(songID: "s1", liked: true)) == [.loadMyMusic])
        #expect(state.reduce(.likesChangedElsewhere(songID: "s1", liked: false)) == [])
        #expect(state.reduce(.reloadEverything) == [.loadUnreadCounts, .loadMyMusic])
        // Signing out forgets it all.
        _ = state.reduce(.sessionExpired)
        #expect(state.messages == MessagesState() && state.chat == nil)
    }

    @Test func mySheetsAreRenamedAndDeletedAndSongsTakenOut() {
        var state = AppFixture.signedIn()
        let mine = AppFixture.sheet("sh2", title: "我的歌单", owner: F.ann)
        var likes = AppFixture.sheet("sh1", title: "I like", owner: F.ann)
        likes.kind = "likes"
        _ = state.reduce(.myMusicLoaded(created: [likes, mine], collected: [], liked: []))
        _ = state.press(.character("4"))
        // "I like" keeps its name and cannot go.
        #expect(state.press(.character("e")) == [])
        #expect(state.prompt == nil && state.toast?.isError == true)
        #expect(state.press(.character("x")) == [])
        #expect(state.confirmation == nil)
        _ = state.press(.character("j"))
        #expect(state.press(.character("e")) == [])
        #expect(state.prompt?.text == "我的歌单")
        // The prompt takes every key, q included.
        _ = state.press(.backspace, .backspace)
        _ = state.type("精选 q")
        #expect(state.press(.enter) == [.renameSheet(id: "sh2", title: "我的精选 q")])
        var renamed = mine
        renamed.title = "我的精选 q"
        _ = state.reduce(.sheetRenamed(renamed))
        #expect(state.myMusic.created[1].title == "我的精选 q")
        // Deleting is asked first.
        _ = state.press(.character("x"))
        #expect(state.confirmation?.question.contains("我的精选 q") == true)
        #expect(state.press(.character("y")) == [.deleteSheet(id: "sh2")])
        _ = state.reduce(.sheetDeleted(id: "sh2"))
        #expect(state.myMusic.created.map(\.id) == ["sh1"])

        // A song of my sheet is taken out with x; someone else's sheet is not mine to change.
        var detail = DetailState(kind: .sheet, id: "sh3", title: "Mine too")
        detail.sheet = AppFixture.sheet("sh3", title: "Mine too", songsCount: 2, owner: F.ann)
        detail.songs = AppFixture.songs(2)
        detail.status = .loaded
        state.detail = detail
        state.screen = .detail
        _ = state.press(.character("j"))
        #expect(state.press(.character("x")) == [.removeFromSheet(songID: "s2", sheetID: "sh3")])
        var after = detail.sheet!
        after.songsCount = 1
        _ = state.reduce(.songRemovedFromSheet(after, songID: "s2"))
        #expect(state.detail?.songs.map(\.id) == ["s1"])
        #expect(state.toast?.message == "Removed Song s2 from Mine too.")
        state.detail?.sheet = AppFixture.sheet("sh4", title: "Theirs", owner: F.bob)
        #expect(state.press(.character("x")) == [])
        #expect(state.press(.character("e")) == [])
        #expect(state.prompt == nil)
    }
}
