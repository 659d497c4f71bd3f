import Foundation
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Moments (`v1/feeds`) end to end over the real server: publishing, lists by cursor, the timeline,
/// nearby, likes, comments, blocks and topics. Each person may publish 5 moments a minute.
@Suite struct FeedAPITests {
    typealias World = CommentAPITests.World
    typealias Person = CommentAPITests.Person

    /// Publishes a moment and returns its id, expecting success.
    @discardableResult
    static func publish(
        _ world: World, _ content: String, by person: Person, extra: [String: Any] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let reply = try await world.server.call(
            "POST", "/v1/feeds", json: extra.merging(["content": content]) { $1 }, token: person.token)
        #expect(reply.status == 201, "\(reply.json)", sourceLocation: sourceLocation)
        return try #require(reply.data["id"] as? String, sourceLocation: sourceLocation)
    }

    @Test func publishListPageAndDelete() async throws {
        let world = try await World.start(people: 3, songs: false)
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let first = try await Self.publish(
            world, "First light", by: bob,
            extra: [
                "province": "Zhejiang", "city": "Hangzhou", "place": "West Lake", "latitude": 30.25,
                "longitude": 120.15,
            ])
        let second = try await Self.publish(world, "Second", by: bob)
        let third = try await Self.publish(world, "Cy's", by: cy)

        let one = try await world.server.call("GET", "/v1/feeds/\(first)")
        #expect(one.data["place"] as? String == "West Lake")
        #expect(one.data["city"] as? String == "Hangzhou")
        #expect(one.data["latitude"] as? Double == 30.25)
        #expect((one.data["user"] as? [String: Any])?["id"] as? String == bob.id)
        #expect(one.data["likesCount"] as? Int == 0)

        // Everyone's, newest first, two at a time by cursor.
        let page1 = try await world.server.call("GET", "/v1/feeds?size=2")
        #expect(page1.ids == [third, second])
        let cursor = try #require(page1.data["nextCursor"] as? String)
        let page2 = try await world.server.call("GET", "/v1/feeds?size=2&cursor=\(cursor)")
        #expect(page2.ids == [first])
        #expect(page2.data["nextCursor"] is NSNull)
        #expect(try await world.server.call("GET", "/v1/feeds?userId=\(bob.id)").ids == [second, first])

        // Only the author (or an administrator) deletes.
        #expect(try await world.server.call("DELETE", "/v1/feeds/\(first)", token: cy.token).status == 403)
        #expect(try await world.server.call("DELETE", "/v1/feeds/\(first)").status == 401)
        #expect(try await world.server.call("DELETE", "/v1/feeds/\(first)", token: bob.token).status == 200)
        #expect(try await world.server.call("GET", "/v1/feeds/\(first)").status == 404)
        #expect(try await world.server.call("DELETE", "/v1/feeds/\(third)", token: ann.token).status == 200)
        #expect(try await world.server.call("GET", "/v1/feeds").ids == [second])
        #expect(try await world.server.call("DELETE", "/v1/feeds/\(first)", token: bob.token).status == 404)
    }

    @Test func badInputIsRefusedClearly() async throws {
        let world = try await World.start(people: 2, songs: false)
        let bob = world.bob
        func post(_ body: Any) async throws -> Reply {
            try await world.server.call("POST", "/v1/feeds", json: body, token: bob.token)
        }
        #expect(try await world.server.call("POST", "/v1/feeds", json: ["content": "hi"]).status == 401)
        let cases: [(Any, String)] = [
            (["content": "   "], "empty"),
            (["content": "x", "latitude": 30.0], "both"),
            (["content": "x", "latitude": 91.0, "longitude": 0.0], "-90 to 90"),
            (["content": "x", "latitude": "north", "longitude": 0.0], "a number"),
            (["content": 12], "a string"),
            (["content": String(repeating: "长", count: 2_001)], "2000"),
            (["content": "x", "images": [["uri": "v1/files/../../etc/passwd"]]], "uploaded"),
            (["content": "x", "images": Array(repeating: ["uri": "a"], count: 10)], "at most 9"),
            (["content": "x", "city": "\u{202E}evil"], "direction"),
        ]
        for (body, words) in cases {
            let reply = try await post(body)
            #expect(reply.status == 400, "\(body): \(reply.json)")
            #expect(reply.message.contains(words), "\(body): \(reply.message)")
        }
        let malformed = try await world.server.call(
            "POST", "/v1/feeds", body: Data(#"{"content": "x""#.utf8), token: bob.token)
        #expect(malformed.status == 400)
        for query in [
            "latitude=30", "latitude=30&longitude=200", "latitude=x&longitude=1",
            "latitude=30&longitude=120&radius=0", "latitude=30&longitude=120&radius=1e9",
            "latitude=30&longitude=120&cursor=nope",
        ] {
            let reply = try await world.server.call("GET", "/v1/feeds/nearby?\(query)")
            #expect(reply.status == 400, "\(query): \(reply.json)")
        }
        #expect(try await world.server.call("GET", "/v1/feeds?cursor=-3").status == 400)
        #expect(try await world.server.call("GET", "/v1/feeds?userId=1&topicId=1").status == 400)
        #expect(try await world.server.call("GET", "/v1/feeds/timeline").status == 401)
        #expect(try await world.server.call("GET", "/v1/feeds/99999").status == 404)
        #expect(try await world.server.call("GET", "/v1/feeds/abc").status == 404)

        // Text that looks like SQL or script comes back exactly as written.
        let tricky = "'); DROP TABLE feeds; -- <script>alert(\"x\")</script> & 😀"
        let id = try await Self.publish(world, tricky, by: bob)
        #expect(try await world.server.call("GET", "/v1/feeds/\(id)").data["content"] as? String == tricky)
        #expect(try await world.server.call("GET", "/v1/feeds").ids == [id])
    }

    @Test func aBurstOfMomentsIsLimited() async throws {
        let world = try await World.start(people: 1, songs: false)
        var written: [Int64] = []
        for index in 0..<FeedService.maxPerMinute {
            let reply = try await world.server.call(
                "POST", "/v1/feeds", json: ["content": "moment \(index)"], token: world.ann.token)
            written.append(try #require(reply.createdAt, "\(reply.json)"))
        }
        let next = try await world.server.call(
            "POST", "/v1/feeds", json: ["content": "one too many"], token: world.ann.token)
        expectPostingLimit(FeedService.maxPerMinute, written: written, next: next)
    }

    @Test func likesAndCommentsOnMoments() async throws {
        let world = try await World.start(people: 3, songs: false)
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let feed = try await Self.publish(world, "Like me", by: bob)

        let liked = try await world.server.call("POST", "/v1/likes", json: ["feedId": feed], token: cy.token)
        #expect(liked.status == 201)
        #expect(liked.data["likesCount"] as? Int == 1)
        let likeID = try #require(liked.data["likeId"] as? String)
        let again = try await world.server.call("POST", "/v1/likes", json: ["feedId": feed], token: cy.token)
        #expect(again.data["likesCount"] as? Int == 1)
        #expect(again.data["likeId"] as? String == likeID)
        #expect(try await world.server.call("GET", "/v1/feeds/\(feed)").data["likeId"] == nil)
        #expect(
            try await world.server.call("GET", "/v1/feeds/\(feed)", token: cy.token).data["likeId"] as? String
                == likeID)
        #expect(try await world.server.call("DELETE", "/v1/likes/\(likeID)", token: ann.token).status == 403)
        let both = try await world.server.call(
            "POST", "/v1/likes", json: ["feedId": feed, "commentId": "1"], token: cy.token)
        #expect(both.status == 400)
        #expect(
            try await world.server.call("POST", "/v1/likes", json: ["feedId": "424242"], token: cy.token)
                .status
                == 404)

        // A comment on the moment counts, and a reply stays on the same moment.
        let comment = try await world.server.call(
            "POST", "/v1/comments", json: ["feedId": feed, "content": "Nice one"], token: ann.token)
        #expect(comment.status == 201)
        #expect(comment.data["feedId"] as? String == feed)
        let commentID = try #require(comment.data["id"] as? String)
        let reply = try await world.server.call(
            "POST", "/v1/comments", json: ["parentId": commentID, "content": "Thanks"], token: bob.token)
        #expect(reply.data["feedId"] as? String == feed)
        // A comment like is still a comment like, next to a moment's.
        let commentLike = try await world.server.call(
            "POST", "/v1/likes", json: ["commentId": commentID], token: cy.token)
        #expect(commentLike.data["likesCount"] as? Int == 1)
        let listed = try await world.server.call("GET", "/v1/comments?feedId=\(feed)")
        #expect(listed.data["total"] as? Int == 2)
        let shown = try await world.server.call("GET", "/v1/feeds/\(feed)")
        #expect(shown.data["commentsCount"] as? Int == 2)

        #expect(try await world.server.call("DELETE", "/v1/likes/\(likeID)", token: cy.token).status == 200)
        #expect(try await world.server.call("GET", "/v1/feeds/\(feed)").data["likesCount"] as? Int == 0)
        #expect(try await world.server.call("DELETE", "/v1/likes/\(likeID)", token: cy.token).status == 404)

        // Deleting the moment takes its comments with it.
        #expect(try await world.server.call("DELETE", "/v1/feeds/\(feed)", token: bob.token).status == 200)
        #expect(try await world.server.call("GET", "/v1/comments/\(commentID)").status == 404)
        #expect(try await world.server.call("GET", "/v1/comments?feedId=\(feed)").status == 404)
    }

    @Test func theTimelineIsThePeopleIFollow() async throws {
        let world = try await World.start(people: 3, songs: false)
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let bobs = [
            try await Self.publish(world, "bob 1", by: bob), try await Self.publish(world, "bob 2", by: bob),
        ]
        let cys = try await Self.publish(world, "cy 1", by: cy)
        let anns = try await Self.publish(world, "ann 1", by: ann)
        #expect(try await world.server.call("GET", "/v1/feeds/timeline", token: ann.token).ids == [anns])
        #expect(
            try await world.server.call("POST", "/v1/friends", json: ["userId": bob.id], token: ann.token)
                .status
                == 201)
        let page1 = try await world.server.call("GET", "/v1/feeds/timeline?size=2", token: ann.token)
        #expect(page1.ids == [anns, bobs[1]])
        let cursor = try #require(page1.data["nextCursor"] as? String)
        let page2 = try await world.server.call(
            "GET", "/v1/feeds/timeline?size=2&cursor=\(cursor)", token: ann.token)
        #expect(page2.ids == [bobs[0]])
        #expect(!page2.ids.contains(cys))
        _ = try await world.server.call("DELETE", "/v1/friends/\(bob.id)", token: ann.token)
        #expect(try await world.server.call("GET", "/v1/feeds/timeline", token: ann.token).ids == [anns])
    }

    @Test func nearbyIsNearestFirstWithinTheRadius() async throws {
        let world = try await World.start(people: 3, songs: false)
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        // West Lake, ~1.1 km north of it, ~31 km away, and one with no place.
        let here = try await Self.publish(
            world, "here", by: bob, extra: ["latitude": 30.2500, "longitude": 120.1500])
        let north = try await Self.publish(
            world, "north", by: cy, extra: ["latitude": 30.2600, "longitude": 120.1500])
        let far = try await Self.publish(
            world, "far", by: ann, extra: ["latitude": 30.5300, "longitude": 120.1500])
        try await Self.publish(world, "nowhere", by: ann)
        // Both sides of the 180th meridian, 2.2 km apart.
        let east = try await Self.publish(
            world, "east", by: bob, extra: ["latitude": -16.5, "longitude": 179.99])
        let west = try await Self.publish(
            world, "west", by: cy, extra: ["latitude": -16.5, "longitude": -179.99])

        let near = try await world.server.call("GET", "/v1/feeds/nearby?latitude=30.2501&longitude=120.15")
        #expect(near.ids == [here, north])
        let distances = near.items.compactMap { $0["distance"] as? Double }
        #expect(distances.count == 2 && distances[0] < 20 && abs(distances[1] - 1_101) < 15, "\(distances)")

        let wide = "/v1/feeds/nearby?latitude=30.25&longitude=120.15&radius=50000&size=2"
        let page1 = try await world.server.call("GET", wide)
        #expect(page1.ids == [here, north])
        let cursor = try #require(page1.data["nextCursor"] as? String)
        let page2 = try await world.server.call("GET", wide + "&cursor=\(cursor)")
        #expect(page2.ids == [far])

        let meridian = try await world.server.call(
            "GET", "/v1/feeds/nearby?latitude=-16.5&longitude=-179.995&radius=3000")
        #expect(Set(meridian.ids) == [east, west])
        // A deleted moment leaves the map.
        _ = try await world.server.call("DELETE", "/v1/feeds/\(north)", token: cy.token)
        #expect(
            try await world.server.call("GET", "/v1/feeds/nearby?latitude=30.2501&longitude=120.15").ids == [
                here
            ])
    }

    @Test func blocksHideMomentsBothWays() async throws {
        let world = try await World.start(people: 3, songs: false)
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let bobs = try await Self.publish(
            world, "bob's", by: bob, extra: ["latitude": 1.0, "longitude": 1.0])
        let anns = try await Self.publish(
            world, "ann's", by: ann, extra: ["latitude": 1.0, "longitude": 1.0])
        #expect(
            try await world.server.call("POST", "/v1/blocks", json: ["userId": ann.id], token: bob.token)
                .status
                == 200)
        for (viewer, hidden) in [(ann, bobs), (bob, anns)] {
            #expect(try await world.server.call("GET", "/v1/feeds", token: viewer.token).ids.count == 1)
            #expect(
                try await world.server.call("GET", "/v1/feeds/\(hidden)", token: viewer.token).status == 404)
            #expect(
                try await world.server.call(
                    "GET", "/v1/feeds/nearby?latitude=1&longitude=1", token: viewer.token
                ).ids.count == 1)
            #expect(
                try await world.server.call(
                    "POST", "/v1/likes", json: ["feedId": hidden], token: viewer.token
                )
                .status == 404)
            #expect(
                try await world.server.call(
                    "POST", "/v1/comments", json: ["feedId": hidden, "content": "hi"], token: viewer.token
                ).status == 404)
        }
        #expect(try await world.server.call("GET", "/v1/feeds", token: cy.token).ids == [anns, bobs])
    }

    @Test func momentsCarryMentionsAndTopics() async throws {
        let world = try await World.start(people: 1, songs: false)
        let li = try await world.server.signUp(["email": "li@example.com"], nickname: "李雷")
        let text = "😀@李雷，看 #西湖# 🎵"
        let id = try await Self.publish(world, text, by: world.ann)
        let feed = try await world.server.call("GET", "/v1/feeds/\(id)")
        let mention = try #require((feed.data["mentions"] as? [[String: Any]])?.first)
        #expect(mention["userId"] as? String == li)
        let range = try #require(mention["range"] as? [String: Int])
        #expect(range["utf16Offset"] == 2 && range["scalarOffset"] == 1)
        let topic = try #require((feed.data["topics"] as? [[String: Any]])?.first)
        let topicID = try #require(topic["id"] as? String)
        let page = try await world.server.call("GET", "/v1/topics/\(topicID)")
        #expect((page.data["feeds"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])
        #expect((page.data["topic"] as? [String: Any])?["feedsCount"] as? Int == 1)
        #expect(try await world.server.call("GET", "/v1/feeds?topicId=\(topicID)").ids == [id])
        #expect(try await world.server.call("GET", "/v1/topics").items.first?["title"] as? String == "西湖")
    }

    /// Likes, comments and @mentions on moments reach the author's and the mentioned person's inbox;
    /// an unlike takes its notification back, and a deleted moment takes all of them.
    @Test func momentsNotify() async throws {
        let world = try await World.start(people: 3, songs: false)
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let li = try await world.server.signUp(["email": "li@example.com"], nickname: "李雷")
        let liPerson = Person(id: li, token: try await world.server.signIn(["email": "li@example.com"]))
        let feed = try await Self.publish(world, "和 @李雷 一起", by: bob)
        let liked = try await world.server.call("POST", "/v1/likes", json: ["feedId": feed], token: cy.token)
        _ = try await world.server.call(
            "POST", "/v1/comments", json: ["feedId": feed, "content": "好"], token: ann.token)
        let inbox = try await NotificationAPITests.inbox(world, bob, "size=10").items
        #expect(inbox.compactMap { $0["kind"] as? String } == ["comment", "like"])
        #expect(inbox.last?["feedId"] as? String == feed)
        #expect((inbox.first?["comment"] as? [String: Any])?["feedId"] as? String == feed)
        let mention = try await NotificationAPITests.inbox(world, liPerson).items
        #expect(mention.compactMap { $0["kind"] as? String } == ["mention"])
        #expect(mention.first?["feedId"] as? String == feed)

        let likeID = try #require(liked.data["likeId"] as? String)
        _ = try await world.server.call("DELETE", "/v1/likes/\(likeID)", token: cy.token)
        #expect(try await NotificationAPITests.kinds(world, bob) == ["comment:\(ann.id)"])
        _ = try await world.server.call("DELETE", "/v1/feeds/\(feed)", token: bob.token)
        #expect(try await NotificationAPITests.kinds(world, bob).isEmpty)
        #expect(try await NotificationAPITests.kinds(world, liPerson).isEmpty)
        #expect(try await NotificationAPITests.unread(world, bob).count == 0)
    }

    /// A database written before moments existed keeps every comment, like, reply and count when the
    /// comments table is rebuilt to take comments on moments.
    @Test func theMomentsMigrationKeepsComments() throws {
        let path = temporaryFolder() + "/cloudmusic.sqlite"
        let database = try Database(path: path)
        try Migrator(Schema.migrator.migrations.filter { $0.version < FeedsSchema.migration.version })
            .migrate(database)
        try database.write { db in
            for (id, name) in [(1, "ann"), (2, "bob")] {
                try db.execute(
                    """
                    INSERT INTO users(id, nickname, nickname_key, password_hash, email, created_at, updated_at)
                    VALUES (?, ?, ?, 'x', ?, 0, 0)
                    """, id, name, name, "\(name)@example.com")
            }
            try db.execute(
                "INSERT INTO sheets(id, user_id, title, created_at, updated_at) VALUES (7, 1, 'Mix', 0, 0)")
            try db.execute(
                """
                INSERT INTO comments(id, user_id, target_kind, target_id, parent_id, content, hot, created_at, updated_at)
                VALUES (1, 1, 2, 7, NULL, 'first', 0, 0, 0), (2, 2, 2, 7, 1, 'reply', 0, 1, 1)
                """)
            try db.execute("INSERT INTO comment_likes(user_id, comment_id, created_at) VALUES (2, 1, 0)")
            try db.execute(
                "INSERT INTO comment_reports(user_id, comment_id, reason, created_at) VALUES (2, 2, 'r', 0)")
        }
        try Schema.migrator.migrate(database)
        let state = try database.read { db in
            try db.queryOne(
                """
                SELECT (SELECT comments_count FROM sheets WHERE id = 7), (SELECT likes_count FROM comments WHERE id = 1),
                    (SELECT replies_count FROM comments WHERE id = 1), (SELECT parent_id FROM comments WHERE id = 2),
                    (SELECT count(*) FROM comment_likes), (SELECT count(*) FROM comment_reports)
                """
            ) { row in try (0..<6).map { try row.int($0) } }
        }
        #expect(state == [2, 1, 1, 1, 1, 1])
        // The rebuilt table's triggers and keys work: a comment on a moment counts, a delete cascades.
        try database.write { db in
            try db.execute(
                "INSERT INTO feeds(id, user_id, content, created_at, updated_at) VALUES (5, 2, 'hi', 0, 0)")
            try db.execute(
                """
                INSERT INTO comments(user_id, target_kind, target_id, content, hot, created_at, updated_at)
                VALUES (1, 3, 5, 'on a moment', 0, 0, 0)
                """)
            try db.execute("DELETE FROM comments WHERE id = 1")
        }
        let after = try database.read { db in
            try db.queryOne(
                """
                SELECT (SELECT comments_count FROM feeds WHERE id = 5), (SELECT count(*) FROM comment_likes),
                    (SELECT parent_id IS NULL FROM comments WHERE id = 2), (SELECT comments_count FROM sheets WHERE id = 7)
                """
            ) { row in try (0..<4).map { try row.int($0) } }
        }
        #expect(after == [1, 0, 1, 1])
    }
}
