import Foundation
import Testing

/// Comments on podcast episodes over the real server: written, listed, replied to and liked as on a song;
/// refused for an episode nobody has; gone with the podcast.
@Suite struct PodcastSocialAPITests {
    @Test func episodesAreCommentedRepliedToAndLikedLikeSongs() async throws {
        let world = try await PodcastAPITests.World.start()
        let server = world.server
        let url = try world.origin.put(
            "social-\(UUID().uuidString).xml",
            PodcastAPITests.feed(
                title: "Talk Show",
                items: (1...2).map { PodcastAPITests.Item(guid: "t\($0)", title: "Talk \($0)", day: $0) },
                origin: world.origin))
        let podcast = try #require(try await world.add(url).data["id"] as? String)
        let listed = try await server.call("GET", "/v1/podcasts/\(podcast)/episodes")
        let episodes = (listed.data["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(episodes.count == 2)
        let episode = try #require(episodes.first)

        let written = try await server.call(
            "POST", "/v1/comments", json: ["episodeId": episode, "content": "Great one #夜谈#"],
            token: world.bob)
        #expect(written.status == 201, "\(written.json)")
        #expect(written.data["episodeId"] as? String == episode)
        #expect((written.data["topics"] as? [[String: Any]])?.count == 1)
        let comment = try #require(written.data["id"] as? String)

        let reply = try await server.call(
            "POST", "/v1/comments", json: ["parentId": comment, "content": "Agreed"], token: world.admin)
        #expect(reply.status == 201, "\(reply.json)")
        #expect(reply.data["episodeId"] as? String == episode)
        let wrongPlace = try await server.call(
            "POST", "/v1/comments",
            json: ["parentId": comment, "episodeId": episodes[1], "content": "Elsewhere"], token: world.admin)
        #expect(wrongPlace.status == 400, "\(wrongPlace.json)")

        let page = try await server.call("GET", "/v1/comments?episodeId=\(episode)", token: world.bob)
        #expect(page.status == 200, "\(page.json)")
        #expect(page.data["total"] as? Int == 2)
        let ids = (page.data["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.contains(comment))
        let other = try await server.call("GET", "/v1/comments?episodeId=\(episodes[1])")
        #expect(other.status == 200 && other.data["total"] as? Int == 0, "\(other.json)")

        let liked = try await server.call(
            "POST", "/v1/likes", json: ["commentId": comment], token: world.admin)
        #expect(liked.status == 201, "\(liked.json)")
        let detail = try await server.call("GET", "/v1/comments/\(comment)", token: world.admin)
        #expect(detail.data["likesCount"] as? Int == 1 && detail.data["likeId"] as? String != nil)

        // An episode nobody has, or text that is no id, is that episode's 404.
        let unknown = try await server.call(
            "POST", "/v1/comments", json: ["episodeId": "999999", "content": "hello"], token: world.bob)
        #expect(unknown.status == 404 && unknown.message == "That episode does not exist.", "\(unknown.json)")
        let notAnID = try await server.call("GET", "/v1/comments?episodeId=abc")
        #expect(notAnID.status == 404, "\(notAnID.json)")
        let unknownList = try await server.call("GET", "/v1/comments?episodeId=999999")
        #expect(unknownList.status == 404, "\(unknownList.json)")
        let both = try await server.call(
            "POST", "/v1/comments", json: ["episodeId": episode, "songId": "1", "content": "hello"],
            token: world.bob)
        #expect(both.status == 400, "\(both.json)")

        // The podcast's episodes take their comments with them.
        let deleted = try await server.call("DELETE", "/v1/podcasts/\(podcast)", token: world.admin)
        #expect(deleted.status == 200, "\(deleted.json)")
        let gone = try await server.call("GET", "/v1/comments/\(comment)", token: world.bob)
        #expect(gone.status == 404, "\(gone.json)")
    }
}
