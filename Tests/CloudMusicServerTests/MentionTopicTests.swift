import Foundation
import Testing

/// @mentions and #topics# in comments: resolved on save, with ranges in both UTF-16 and scalar units.
@Suite struct MentionTopicTests {
    @Test func mentionsResolveToPeopleAndTopicsGetPages() async throws {
        let world = try await CommentAPITests.World.start(people: 3)
        let server = world.server
        defer { _ = server.stop() }
        // "Person 1" has a space, so it cannot be @mentioned; give Bob a mentionable nickname.
        #expect(
            try await server.call(
                "PATCH", "/v1/users/\(world.bob.id)", json: ["nickname": "张三"], token: world.bob.token
            ).status == 200)
        let text = "🎵谢谢@张三，还有 @nobody 和 mail@example.com #夜曲# #夜曲# #Night Songs#"
        let written = try await server.call(
            "POST", "/v1/comments", json: ["content": text, "songId": world.songs[0]], token: world.ann.token)
        #expect(written.status == 201, "\(written.json)")
        let mentions = written.data["mentions"] as? [[String: Any]] ?? []
        #expect(mentions.count == 1)
        #expect(mentions.first?["userId"] as? String == world.bob.id)
        #expect(mentions.first?["nickname"] as? String == "张三")
        let range = mentions.first?["range"] as? [String: Int] ?? [:]
        // "🎵" is 2 UTF-16 units and 1 scalar; "谢谢" 2 of each; then "@张三".
        #expect(range["utf16Offset"] == 4)
        #expect(range["scalarOffset"] == 3)
        #expect(range["utf16Length"] == 3)
        let utf16 = Array(text.utf16)
        let token = String(
            decoding: utf16[range["utf16Offset"]!..<(range["utf16Offset"]! + range["utf16Length"]!)],
            as: UTF16.self)
        #expect(token == "@张三")

        let topics = written.data["topics"] as? [[String: Any]] ?? []
        #expect(topics.compactMap { $0["title"] as? String } == ["夜曲", "夜曲", "Night Songs"])
        let nightID = try #require(topics.first?["id"] as? String)
        #expect(topics[1]["id"] as? String == nightID)

        // A second comment on the topic (another person: at most 5 a minute each), and one on a private sheet.
        _ = try await server.call(
            "POST", "/v1/comments", json: ["content": "#夜曲# again", "songId": world.songs[1]],
            token: world.bob.token)
        let hidden = try await server.call(
            "POST", "/v1/sheets", json: ["title": "secret", "isPrivate": true], token: world.cy.token)
        let hiddenSheet = try #require(hidden.data["id"] as? String)
        _ = try await server.call(
            "POST", "/v1/comments", json: ["content": "#夜曲# private", "sheetId": hiddenSheet],
            token: world.cy.token)

        let list = try await server.call("GET", "/v1/topics")
        let first = (list.data["data"] as? [[String: Any]])?.first
        #expect(first?["title"] as? String == "夜曲")
        #expect(first?["commentsCount"] as? Int == 3)
        let page = try await server.call("GET", "/v1/topics/\(nightID)")
        let comments = page.data["comments"] as? [[String: Any]] ?? []
        // The comment on the private sheet counts, but its text is not shown to others.
        #expect(comments.compactMap { $0["content"] as? String } == ["#夜曲# again", text])
        #expect(try await server.call("GET", "/v1/topics/999999").status == 404)
        #expect(try await server.call("GET", "/v1/topics/abc").status == 404)

        // Deleting a comment takes it off its topics.
        let secondID = try #require(comments.first?["id"] as? String)
        #expect(
            try await server.call("DELETE", "/v1/comments/\(secondID)", token: world.bob.token).status == 200)
        let after = try await server.call("GET", "/v1/topics")
        #expect((after.data["data"] as? [[String: Any]])?.first?["commentsCount"] as? Int == 2)
    }
}
