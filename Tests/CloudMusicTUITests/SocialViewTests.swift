import CloudMusicKit
import Foundation
import MusicCore
import Testing

@testable import CloudMusicTUI

/// The Messages, chat and Notifications screens as drawn: exact sizes, CJK widths, the newest message by
/// the input, unread dots and badges.
@Suite struct SocialViewTests {
    typealias F = SocialFixture
    static let now = Date(timeIntervalSince1970: 1_714_560_000)  // 2024-05-01T10:40:00Z

    static func chatState() -> AppState {
        var state = F.withConversations()
        _ = state.press(.character("8"), .enter)
        var thread = F.thread
        thread.messages += [
            F.message("m3", "我在，刚下班。今天听了一整天的周杰伦，从早上的《晴天》一直听到晚上的《七里香》，推荐你这首", from: F.ann, minute: 6),
            F.message(
                "m4", "", from: F.ann, minute: 7, song: AppFixture.song("s7", title: "晴天", artist: "周杰伦")),
        ]
        thread.peerReadThrough = "m4"
        _ = state.reduce(.threadChanged(conversationID: "c1", thread))
        _ = state.type("好的 👍")
        _ = state.reduce(.liveStatus(.live))
        return state
    }

    @Test func theChatShowsTheNewestMessagesAboveTheInputAt80x24() throws {
        var state = Self.chatState()
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        ViewTest.expectShape(lines, width: 80, height: 24)
        let text = lines.map(\.text)
        #expect(text[1].hasPrefix("Chat with 小明 Bob"))
        #expect(text[1].hasSuffix("● live"))
        // The input is the last row of the body, with a rule above it; the newest message right above.
        #expect(text[21].hasPrefix("Message: 好的 👍▏"))
        #expect(text[20].allSatisfy { $0 == "─" })
        #expect(text[19].hasPrefix("  ♪ 晴天 - 周杰伦"))
        #expect(text[18].hasPrefix("You · 33 min ago · seen"))
        // The long Chinese line wraps at the width, by columns.
        let wrapped = try #require(text.firstIndex { $0.hasPrefix("  我在，刚下班。") })
        #expect(TerminalWidth.width(of: text[wrapped].trimmingCharacters(in: .whitespaces)) > 70)
        #expect(text[wrapped + 1].hasPrefix("  ") && !text[wrapped + 1].hasPrefix("   "))
        #expect(text.contains { $0.hasPrefix("小明 Bob · 36 min ago") })
        // Older ones wait above.
        #expect(text[2].contains("↑ older messages") || text.contains { $0.contains("Hello Ann 👋") })
        #expect(text[22].contains("Enter send"))
        #expect(text[0].contains("Messages 2"))
    }

    @Test func aSelectedMessageIsOnTheSelectionBarAndTheInputIsDim() throws {
        var state = Self.chatState()
        _ = state.press(.escape, .character("k"))
        let lines = AppView.render(&state, width: 60, height: 16, now: Self.now)
        ViewTest.expectShape(lines, width: 60, height: 16)
        let header = try #require(lines.first { $0.text.hasPrefix("You · 34 min ago") })
        #expect(header.allSatisfy { $0.style == .selected })
        let input = try #require(lines.first { $0.text.hasPrefix("Message (w to write): 好的 👍") })
        #expect(!input.text.contains(ViewKit.cursor))
        #expect(lines.map(\.text).contains { $0.contains("w write") })
    }

    @Test func theConversationListShowsWhoLastWhenAndUnread() throws {
        var state = F.withConversations()
        _ = state.press(.character("8"))
        _ = state.reduce(.liveStatus(.retrying("The server closed the event stream.")))
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        ViewTest.expectShape(lines, width: 80, height: 24)
        let text = lines.map(\.text)
        #expect(text[1].hasPrefix("Messages · 2 unread in 1"))
        #expect(text[1].hasSuffix("reconnecting…"))
        let bob = try #require(text.first { $0.contains("小明 Bob") })
        #expect(bob.contains("在吗？") && bob.contains("35 min ago") && bob.hasSuffix("● 2"))
        let cai = try #require(text.first { $0.contains("Cai") })
        #expect(cai.contains("You: see you") && !cai.contains("●"))
        // The tab bar's badge, in the accent colour.
        #expect(lines[0].contains(StyledSpan(" 2", .accent)))
    }

    @Test func theInboxHasKindsWithCountsAndADotForUnread() throws {
        var state = AppFixture.signedIn()
        _ = state.press(.character("9"))
        _ = state.reduce(
            .notificationsLoaded(
                [
                    F.notification("n3", "reply", minute: 30),
                    F.notification("n2", "mention", by: F.cai, read: true, minute: 20, quote: "@Ann 来听 #周末#"),
                    F.notification("n1", "follow", minute: 10, quote: nil),
                    F.notification("n0", "festival", minute: 5, quote: nil),
                ], nextCursor: nil, more: false))
        _ = state.reduce(
            .notificationsUnread(UnreadNotifications(count: 3, kinds: ["reply": 1, "follow": 1, "like": 0])))
        let lines = AppView.render(&state, width: 80, height: 24, now: Self.now)
        ViewTest.expectShape(lines, width: 80, height: 24)
        let text = lines.map(\.text)
        #expect(text[0].contains("Inbox 3"))
        #expect(text[1].hasPrefix("All 3 · Replies 1 · Mentions · Likes · Follows 1 · Comments"))
        #expect(text[2].contains("● 小明 Bob replied to your comment") && text[2].contains("“好听！”"))
        #expect(text[2].hasSuffix("10 min ago"))
        #expect(text[3].contains("  Cai mentioned you") && text[3].contains("“@Ann 来听 #周末#”"))
        #expect(text[4].contains("● 小明 Bob followed you"))
        #expect(text[5].contains("小明 Bob: festival"))
        #expect(text[22].contains("Enter mark read") && text[22].contains("R all read"))
        // Narrow: the kinds without separators, the quotes give way.
        let narrow = AppView.render(&state, width: 50, height: 12, now: Self.now)
        ViewTest.expectShape(narrow, width: 50, height: 12)
        #expect(!narrow.map(\.text).joined().contains("“好听！”"))
    }

    @Test func theNewScreensFillEverySizeWithMessyText() {
        var state = Self.chatState()
        _ = state.reduce(
            .notificationsLoaded(
                [
                    F.notification(
                        "n1", "reply", by: AppFixture.user("u9", ViewTest.messy), quote: ViewTest.messy)
                ],
                nextCursor: nil, more: false))
        state.chat?.messages.append(
            F.message("m9", ViewTest.messy, from: AppFixture.user("u9", ViewTest.messy)))
        for screen in [Screen.messages, .notifications, .chat] {
            for (width, height) in ViewTest.sizes {
                for composing in [true, false] {
                    var copy = state
                    copy.screen = screen
                    copy.chat?.composing = composing
                    copy.chat?.selected = composing ? nil : 1
                    ViewTest.expectShape(
                        AppView.render(&copy, width: width, height: height, now: Self.now), width: width,
                        height: height, "\(screen)")
                }
            }
        }
        // The share picker, a prompt and a question too.
        var picking = state
        _ = picking.press(.escape, .escape, .character("S"))
        #expect(picking.sharePicker != nil)
        picking.prompt = TextPrompt(purpose: .renameSheet(id: "x"), label: "Rename: ", text: "歌单", cursor: 2)
        for (width, height) in ViewTest.sizes {
            var copy = picking
            ViewTest.expectShape(
                AppView.render(&copy, width: width, height: height, now: Self.now), width: width,
                height: height)
        }
    }

    @Test func theTabBarKeepsItsBadgesWhenNarrow() {
        let tabs = Screen.tabs.map(\.title)
        let badges: [String?] = [nil, nil, nil, nil, nil, nil, nil, "3", "12"]
        let wide = TabBar.render(tabs: tabs, current: 0, width: 110, badges: badges)
        #expect(ViewTest.trimmed(wide).hasSuffix("8 Messages 3  9 Inbox 12"))
        let at80 = TabBar.render(tabs: tabs, current: 0, width: 80, badges: badges)
        #expect(
            ViewTest.trimmed(at80)
                == "Home Library Search My Music Queue Downloads Now Playing Messages 3 Inbox 12")
        #expect(at80.filter { $0.style == .accent }.map(\.text) == [" 3", " 12"])
        let narrow = TabBar.render(tabs: tabs, current: 1, width: 40, badges: badges)
        #expect(narrow.text.hasPrefix("‹ Library › M3 I12"))
        for width in 0...120 {
            #expect(TabBar.render(tabs: tabs, current: 8, width: width, badges: badges).width == width)
        }
    }
}
