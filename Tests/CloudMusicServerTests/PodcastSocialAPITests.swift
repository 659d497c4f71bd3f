import Foundation
import Testing

/// Comments on podcast episodes over the real server: written, listed, replied to and liked as on a song;
/// refused for an episode nobody has; gone with the podcast. Likes of episodes through `v1/likes`, and moments
/// that share an episode.
@Suite struct PodcastSocialAPITests {
    /// A world with one podcast of two episodes: the podcast's id and its episodes' ids, newest first.
    static func podcast(in world: PodcastAPITests.World, title: String) async throws -> (
        podcast: String, episodes: [String]
    ) {
        let url = try world.origin.put(
            "social-\(UUID().uuidString).xml",
            PodcastAPITests.feed(
                title: title,
                items: (1...2).map { PodcastAPITests.Item(guid: "t\($0)", title: "Talk \($0)", day: $0) },
                origin: world.origin))
        let added = try await world.add(url)
        let podcast = try #require(added.data["id"] as? String, "\(added.json)")
        let listed = try await world.server.call("GET", "/v1/podcasts/\(podcast)/episodes")
        let episodes = listed.rows.compactMap { $0["id"] as? String }
        try #require(episodes.count == 2, "\(listed.json)")
        return (podcast, episodes)
    }

    @Test func episodesAreLikedOncePerPersonAndTheLikesGoWithThem() async throws {
        let world = try await PodcastAPITests.World.start()
        let server = world.server
        let (podcast, episodes) = try await Self.podcast(in: world, title: "Likes Show")
        let episode = episodes[0]

        let first = try await server.call("POST", "/v1/likes", json: ["episodeId": episode], token: world.bob)
        #expect(first.status == 201, "\(first.json)")
        #expect(first.data["id"] as? String == episode && first.data["likesCount"] as? Int == 1)
        let likeID = try #require(first.data["likeId"] as? String, "\(first.json)")
        // Liking again gives the same like, and counts once.
        let again = try await server.call("POST", "/v1/likes", json: ["episodeId": episode], token: world.bob)
        #expect(again.status == 201 && again.data["likeId"] as? String == likeID, "\(again.json)")
        #expect(again.data["likesCount"] as? Int == 1)
        let annLikes = try await server.call(
            "POST", "/v1/likes", json: ["episodeId": episode], token: world.admin)
        #expect(annLikes.data["likesCount"] as? Int == 2, "\(annLikes.json)")
        let annLikeID = try #require(annLikes.data["likeId"] as? String)
        #expect(annLikeID != likeID)

        // Each viewer sees the count and only their own like: on the episode and on the album page.
        let bobSees = try await server.call("GET", "/v1/episodes/\(episode)", token: world.bob)
        #expect(bobSees.data["likesCount"] as? Int == 2 && bobSees.data["likeId"] as? String == likeID)
        let nobodySees = try await server.call("GET", "/v1/episodes/\(episode)")
        #expect(nobodySees.data["likesCount"] as? Int == 2 && nobodySees.data["likeId"] == nil)
        let album = try await server.call("GET", "/v1/podcasts/\(podcast)/episodes", token: world.admin)
        let row = album.rows.first { $0["id"] as? String == episode }
        #expect(row?["likesCount"] as? Int == 2 && row?["likeId"] as? String == annLikeID, "\(album.json)")
        let other = album.rows.first { $0["id"] as? String == episodes[1] }
        #expect(other?["likesCount"] as? Int == 0 && other?["likeId"] == nil)

        // Only who made a like takes it back (an administrator too).
        let notYours = try await server.call("DELETE", "/v1/likes/\(likeID)", token: world.admin)
        #expect(notYours.status == 403, "\(notYours.json)")
        #expect(
            notYours.json["status"] as? Int != 0
                && notYours.message == "You can only take back your own likes.")
        let unliked = try await server.call("DELETE", "/v1/likes/\(likeID)", token: world.bob)
        #expect(unliked.status == 200, "\(unliked.json)")
        let afterUnlike = try await server.call("GET", "/v1/episodes/\(episode)", token: world.bob)
        #expect(afterUnlike.data["likesCount"] as? Int == 1 && afterUnlike.data["likeId"] == nil)
        let twice = try await server.call("DELETE", "/v1/likes/\(likeID)", token: world.bob)
        #expect(twice.status == 404 && twice.message == "That like does not exist.", "\(twice.json)")

        // An episode nobody has, or text that is no id: the episode's 404 in the envelope; two things: 400.
        let unknown = try await server.call(
            "POST", "/v1/likes", json: ["episodeId": "999999"], token: world.bob)
        #expect(unknown.status == 404, "\(unknown.json)")
        #expect(unknown.json["status"] as? Int != 0 && unknown.message == "That episode does not exist.")
        for id in ["abc", "0"] {
            let malformed = try await server.call(
                "POST", "/v1/likes", json: ["episodeId": id], token: world.bob)
            #expect(malformed.status == 400, "\(malformed.json)")
            #expect(
                malformed.message == "The field 'episodeId' must be an id (digits, as the API gives them).")
        }
        let both = try await server.call(
            "POST", "/v1/likes", json: ["episodeId": episode, "feedId": "1"], token: world.bob)
        #expect(both.status == 400 && both.message.contains("episodeId"), "\(both.json)")
        let anonymous = try await server.call("POST", "/v1/likes", json: ["episodeId": episode])
        #expect(anonymous.status == 401, "\(anonymous.json)")

        // The episode goes with its podcast, and its likes with it.
        let deleted = try await server.call("DELETE", "/v1/podcasts/\(podcast)", token: world.admin)
        #expect(deleted.status == 200, "\(deleted.json)")
        let gone = try await server.call("DELETE", "/v1/likes/\(annLikeID)", token: world.admin)
        #expect(gone.status == 404 && gone.message == "That like does not exist.", "\(gone.json)")
    }

    @Test func momentsShareAnEpisodeThatStaysReadableWhenItIsGone() async throws {
        let world = try await PodcastAPITests.World.start()
        let server = world.server
        let (podcast, episodes) = try await Self.podcast(in: world, title: "Shared Show")
        let episode = episodes[0]

        let shared = try await server.call(
            "POST", "/v1/feeds", json: ["content": "Listen to this", "episodeId": episode], token: world.bob)
        #expect(shared.status == 201, "\(shared.json)")
        #expect(shared.data["episodeId"] as? String == episode)
        let card = try #require(shared.data["episode"] as? [String: Any], "\(shared.json)")
        #expect(card["id"] as? String == episode && card["title"] as? String == "Talk 2")
        #expect(card["podcastId"] as? String == podcast && card["podcastTitle"] as? String == "Shared Show")
        #expect(card["icon"] as? String == "v1/podcasts/\(podcast)/cover" && card["duration"] as? Int == 62)
        let feedID = try #require(shared.data["id"] as? String)
        // A moment may be the share alone.
        let bare = try await server.call(
            "POST", "/v1/feeds", json: ["episodeId": episodes[1]], token: world.bob)
        #expect(bare.status == 201 && bare.data["content"] as? String == "", "\(bare.json)")
        // A plain moment shares nothing.
        let plain = try await server.call("POST", "/v1/feeds", json: ["content": "hello"], token: world.bob)
        #expect(plain.status == 201 && plain.data["episodeId"] == nil && plain.data["episode"] == nil)

        // An episode nobody has is refused with the reason, and nothing is published.
        let malformed = try await server.call(
            "POST", "/v1/feeds", json: ["content": "Listen", "episodeId": "x"], token: world.bob)
        #expect(malformed.status == 400, "\(malformed.json)")
        for id in ["999999"] {
            let unknown = try await server.call(
                "POST", "/v1/feeds", json: ["content": "Listen", "episodeId": id], token: world.bob)
            #expect(unknown.status == 404, "\(unknown.json)")
            #expect(
                unknown.json["status"] as? Int != 0
                    && unknown.message.contains("episode to share does not exist"))
        }
        let bob = try #require((shared.data["user"] as? [String: Any])?["id"] as? String)
        let mine = try await server.call("GET", "/v1/feeds?userId=\(bob)")
        #expect(mine.data["total"] as? Int == 3, "\(mine.json)")

        // The episode gone (its podcast deleted), the moment still reads, its share shown as gone.
        let deleted = try await server.call("DELETE", "/v1/podcasts/\(podcast)", token: world.admin)
        #expect(deleted.status == 200, "\(deleted.json)")
        let after = try await server.call("GET", "/v1/feeds/\(feedID)", token: world.admin)
        #expect(after.status == 200, "\(after.json)")
        #expect(after.data["episodeId"] as? String == episode && after.data["episode"] == nil)
        let list = try await server.call("GET", "/v1/feeds")
        let row = list.rows.first { $0["id"] as? String == feedID }
        #expect(row?["episodeId"] as? String == episode && row?["episode"] == nil, "\(list.json)")
    }

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

extension Reply {
    /// The items of a page answer.
    fileprivate var rows: [[String: Any]] { data["data"] as? [[String: Any]] ?? [] }
}
