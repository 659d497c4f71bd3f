import CloudMusicTUI
import Foundation
import MusicCore
import Testing

/// `MusicCore.Comment` is spelled out: Swift Testing has a `Comment` type too.
@Suite struct CommentsViewTests {
    /// 2026-03-10 12:00:00 UTC.
    static let now = ISO8601Timestamp.date(from: "2026-03-10T12:00:00Z")!
    static let utc = TimeZone(identifier: "UTC")!

    static func comment(
        _ id: String, _ content: String, by nickname: String, at time: String = "2026-03-10T11:55:00Z",
        parentId: String? = nil, parent: CommentQuote? = nil, likes: Int = 0, liked: Bool = false,
        mentions: [Mention] = [], topics: [TopicMention] = []
    ) -> MusicCore.Comment {
        MusicCore.Comment(
            id: id, content: content, likesCount: likes, repliesCount: 0, likeId: liked ? "like-\(id)" : nil,
            parentId: parentId, parent: parent, songId: "s1", sheetId: nil,
            user: UserSummary(id: "u-\(nickname)", nickname: nickname, icon: nil), mentions: mentions,
            topics: topics, createdAt: time, updatedAt: time)
    }

    static let thread: [MusicCore.Comment] = [
        comment("c1", "First!", by: "Ann", at: "2026-03-10T10:00:00Z", likes: 3, liked: true),
        comment("r2", "Agreed", by: "Bob", at: "2026-03-10T10:05:00Z", parentId: "c1"),
        comment("c3", "再来一首", by: "张三", at: "2026-03-09T09:00:00Z", likes: 12_345),
        comment("r4", "Me too", by: "Cy", at: "2026-03-10T10:02:00Z", parentId: "c1"),
        comment(
            "o5", "Still true", by: "Dee", parentId: "gone",
            parent: CommentQuote(
                id: "gone", content: "This song\nis great",
                user: UserSummary(id: "u9", nickname: "Eve", icon: nil),
                createdAt: "2026-01-01T00:00:00Z")),
        comment("r6", "@Bob yes", by: "Ann", parentId: "r2"),
    ]

    func render(
        _ comments: [MusicCore.Comment] = Self.thread, selected: Int? = nil, offset: Int = 0, width: Int = 60,
        height: Int = 30, composer: CommentsView.Composer? = nil
    ) -> CommentsView.Output {
        CommentsView.render(
            comments: comments, selected: selected, scrollOffset: offset, width: width, height: height,
            title: "Comments (6)", composer: composer, now: Self.now, timeZone: Self.utc, language: .en)
    }

    @Test func threadingPutsRepliesUnderParentsOldestFirstAndOrphansAtTop() {
        let rows = CommentsView.threaded(Self.thread)
        #expect(rows.map(\.comment.id) == ["c1", "r4", "r2", "r6", "c3", "o5"])
        #expect(rows.map(\.depth) == [0, 1, 1, 2, 0, 0])
        // A parent cycle still shows each comment once.
        let cycle = [
            Self.comment("a", "a", by: "A", parentId: "b"), Self.comment("b", "b", by: "B", parentId: "a"),
        ]
        #expect(CommentsView.threaded(cycle).map(\.comment.id) == ["a", "b"])
        #expect(CommentsView.threaded(cycle).map(\.depth) == [0, 1])
    }

    @Test func blocksShowHeaderQuoteGutterAndContent() {
        let lines = render().lines.map(ViewTest.trimmed)
        #expect(
            Array(lines[0..<16]) == [
                "Comments (6)",
                "Ann · 2 h ago · ♥ 3",
                "First!",
                "",
                "  │ Cy · 1 h ago · ♥ 0",
                "  │ Me too",
                "",
                "  │ Bob · 1 h ago · ♥ 0",
                "  │ Agreed",
                "",
                "  │   │ Ann · 5 min ago · ♥ 0",
                "  │   │ @Bob yes",
                "",
                "张三 · yesterday · ♥ 12K",
                "再来一首",
                "",
            ])
        #expect(lines[16] == "Dee · 5 min ago · ♥ 0")
        #expect(lines[17] == "↪ reply to Eve: This song is great")
        #expect(lines[18] == "Still true")
        #expect(lines[19...].allSatisfy { $0.isEmpty })
    }

    @Test func likedHeartIsAccentAndSelectionHighlightsTheHeader() {
        let output = render(selected: 0)
        let header = output.lines[1]
        #expect(header.contains(StyledSpan("♥", .accent)))
        #expect(header.allSatisfy { $0.style == .selected || $0 == StyledSpan("♥", .accent) })
        #expect(!output.lines[2].contains { $0.style == .selected })
        let other = render(selected: 4).lines
        #expect(other[1].first == StyledSpan("Ann", .accent))
        #expect(other[1].contains(StyledSpan("♥", .accent)))
        #expect(other[13] == [StyledSpan(TerminalWidth.pad("张三 · yesterday · ♥ 12K", to: 60), .selected)])
        // Not liked by me: the heart is dim with the time and count.
        #expect(ViewTest.text(in: output.lines[13], .dim) == " · yesterday · ♥ 12K")
        #expect(ViewTest.text(in: output.lines[13], .accent) == "张三")
    }

    @Test func mentionsAndTopicsAreStyledAtTheirText() {
        // No ranges from the server: the parser finds them.
        let parsed = Self.comment("m1", "谢谢@张三 听#周杰伦#的歌", by: "Ann")
        let line = render([parsed]).lines[2]
        #expect(line.contains(StyledSpan("@张三", .mention)))
        #expect(line.contains(StyledSpan("#周杰伦#", .topic)))
        #expect(ViewTest.text(in: line, .normal).hasPrefix("谢谢 听的歌"))
        // Given ranges win: only @ann names somebody, so @bob stays plain.
        let content = "hi 👋 @ann and @bob #x#"
        let ann = RichTextParser.parse(content).mentions[0].range
        let given = Self.comment(
            "m2", content, by: "Ann", mentions: [Mention(userId: "u1", nickname: "ann", range: ann)])
        let given2 = render([given]).lines[2]
        #expect(ViewTest.text(in: given2, .mention) == "@ann")
        #expect(ViewTest.text(in: given2, .topic) == "")
        #expect(ViewTest.trimmed(given2) == content)
        // A control character before a mention is dropped without moving the style.
        let messy = Self.comment("m3", "\u{7}\u{7}a\nb @ann", by: "Ann")
        #expect(render([messy]).lines[2].contains(StyledSpan("@ann", .mention)))
        #expect(ViewTest.trimmed(render([messy]).lines[2]) == "a b @ann")
    }

    @Test func longContentWrapsInsideTheGutter() {
        let reply = Self.comment("r", "一二三四五六七八九十 abc", by: "Bob", parentId: "p")
        let parent = Self.comment("p", "p", by: "Ann")
        let lines = render([parent, reply], width: 16, height: 10).lines.map(\.text)
        // 16 columns less the 4-column gutter: 12 per row, never splitting a CJK character.
        #expect(lines[5] == "  │ 一二三四五六")
        #expect(lines[6] == "  │ 七八九十 abc")
    }

    @Test func scrollingMovesByBlocksToShowTheSelection() {
        let many = (0..<10).map { Self.comment("c\($0)", "text \($0)", by: "user\($0)") }
        // Body of 9 rows: three blocks of 2 rows with blanks between.
        let down = render(many, selected: 5, offset: 0, height: 10)
        #expect(down.scrollOffset == 3)
        #expect(down.lines[1].text.hasPrefix("user3 "))
        #expect(down.lines[7].text.hasPrefix("user5 "))
        #expect(down.lines[8].text.hasPrefix("text 5"))
        let up = render(many, selected: 1, offset: 3, height: 10)
        #expect(up.scrollOffset == 1)
        #expect(up.lines[1].text.hasPrefix("user1 "))
        // Past the end, earlier blocks are pulled back in while everything after still fits.
        let end = render(many, selected: nil, offset: 9, height: 10)
        #expect(end.scrollOffset == 7)
        #expect(end.lines[7].text.hasPrefix("user9 "))
    }

    @Test func composerScrollsToKeepTheCursorVisible() {
        let alphabet = "abcdefghijklmnopqrstuvwxyz"
        func line(_ text: String, cursor: Int, replyingTo: String? = nil, width: Int = 20) -> String {
            CommentsView.composerLine(.init(text: text, replyingTo: replyingTo, cursor: cursor), width: width)
                .text
        }
        #expect(line(alphabet, cursor: 0) == "Comment: ▏abcdefghij")
        #expect(line(alphabet, cursor: 26) == "Comment: …rstuvwxyz▏")
        #expect(line(alphabet, cursor: 13) == "Comment: …efghijklm▏")
        #expect(line("一二三四五六七八九十", cursor: 10) == "Comment: …七八九十▏ ")
        #expect(line("一二三四五六七八九十", cursor: 2) == "Comment: 一二▏三四五")
        #expect(
            line("hi", cursor: 99, replyingTo: "Ann", width: 30) == "Reply to Ann: hi▏"
                + String(repeating: " ", count: 13))
        // The prompt gives way before the field gets under 8 columns.
        #expect(line("hello", cursor: 5, replyingTo: "Bartholomew", width: 14) == "Reply…hello▏  ")
        let output = render(height: 12, composer: .init(text: "nice", replyingTo: "Ann", cursor: 4))
        #expect(ViewTest.trimmed(output.lines[11]) == "Reply to Ann: nice▏")
        #expect(output.lines[10].text == String(repeating: "─", count: 60))
    }

    @Test func everySizeIsExact() {
        let many =
            Self.thread
            + (0..<8).map { Self.comment("x\($0)", ViewTest.messy, by: ViewTest.messy, parentId: "c1") }
        for (width, height) in ViewTest.sizes {
            for composer in [nil, CommentsView.Composer(text: ViewTest.messy, replyingTo: "张三", cursor: 5)] {
                for (comments, selected) in [(many, 3), (many, 13), ([], nil)]
                    as [([MusicCore.Comment], Int?)]
                {
                    for offset in [0, 7, 40] {
                        let output = render(
                            comments, selected: selected, offset: offset, width: width, height: height,
                            composer: composer)
                        ViewTest.expectShape(output.lines, width: width, height: height, "comments")
                    }
                }
            }
        }
        let empty = render([], width: 40, height: 5)
        #expect(
            empty.lines[2] == [
                StyledSpan(TerminalWidth.pad("No comments yet", to: 40, alignment: .center), .dim)
            ])
    }
}
