import Foundation
import MusicCore
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the Social feature's move to services and transactions fixed for the apps: moments' lists answer
/// page fields, `POST v1/friends` takes `id` too, a tapped #topic# is found by its text, a comment over the
/// rate limit leaves nothing behind, and the migrations of the hot score and the moments' total keep what
/// an existing database holds.
@Suite struct SocialContractTests {
    typealias World = CommentAPITests.World
    typealias Person = CommentAPITests.Person

    static func publish(
        _ world: World, _ content: String, by person: Person, extra: [String: Any] = [:]
    ) async throws -> String {
        try await FeedAPITests.publish(world, content, by: person, extra: extra)
    }

    /// `total`, `pages`, `page` and `next` of a page, `nextCursor` as text or nil.
    static func fields(_ reply: Reply) -> (total: Int?, pages: Int?, page: Int?, next: Int?, cursor: String?)
    {
        (
            reply.data["total"] as? Int, reply.data["pages"] as? Int, reply.data["page"] as? Int,
            reply.data["next"] as? Int, reply.data["nextCursor"] as? String
        )
    }

    @Test func momentListsAnswerPageFieldsByNumberAndByCursor() async throws {
        let world = try await World.start(people: 3, songs: false)
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        var bobs: [String] = []
        for index in 0..<3 {
            bobs.append(
                try await Self.publish(
                    world, "bob \(index) #晚霞#", by: bob,
                    extra: ["latitude": 30.25 + Double(index) / 100, "longitude": 120.15]))
        }
        let cys = [
            try await Self.publish(world, "cy 0", by: cy), try await Self.publish(world, "cy 1", by: cy),
        ]
        let newest = (bobs + cys).reversed().map { $0 }

        // Everyone's, by number: every page field, and the last page says so.
        let first = try await server.call("GET", "/v1/feeds?size=2")
        #expect(first.ids == Array(newest[0..<2]))
        let f1 = Self.fields(first)
        #expect(f1.total == 5 && f1.pages == 3 && f1.page == 1 && f1.next == 2)
        let second = try await server.call("GET", "/v1/feeds?page=2&size=2")
        #expect(second.ids == Array(newest[2..<4]))
        #expect(Self.fields(second).page == 2 && Self.fields(second).next == 3)
        let third = try await server.call("GET", "/v1/feeds?page=3&size=2")
        #expect(third.ids == [newest[4]])
        #expect(third.data["next"] is NSNull)
        #expect(third.data["nextCursor"] is NSNull)
        // The cursor still works and reaches the same page; a page reached by cursor has no number.
        let byCursor = try await server.call("GET", "/v1/feeds?size=2&cursor=\(try #require(f1.cursor))")
        #expect(byCursor.ids == second.ids)
        #expect(Self.fields(byCursor).page == 0 && byCursor.data["next"] is NSNull)
        #expect(Self.fields(byCursor).total == 5)

        // One person's, and a topic's.
        let bobsPage = try await server.call("GET", "/v1/feeds?userId=\(bob.id)&page=2&size=2")
        #expect(bobsPage.ids == [bobs[0]])
        #expect(Self.fields(bobsPage).total == 3 && Self.fields(bobsPage).pages == 2)
        let topicID = try #require(
            (try await server.call("GET", "/v1/feeds/\(bobs[0])").data["topics"] as? [[String: Any]])?.first?[
                "id"]
                as? String)
        let onTopic = try await server.call("GET", "/v1/feeds?topicId=\(topicID)&size=2")
        #expect(onTopic.ids == [bobs[2], bobs[1]])
        #expect(Self.fields(onTopic).total == 3 && Self.fields(onTopic).next == 2)

        // Blocks take the blocked person's moments off the total as off the list, both ways.
        #expect(
            try await server.call("POST", "/v1/blocks", json: ["userId": cy.id], token: ann.token).status
                == 200)
        for viewer in [ann, cy] {
            let seen = try await server.call("GET", "/v1/feeds?size=10", token: viewer.token)
            #expect(Self.fields(seen).total == seen.ids.count, "\(seen.json)")
        }
        let cysForAnn = try await server.call("GET", "/v1/feeds?userId=\(cy.id)", token: ann.token)
        #expect(cysForAnn.ids.isEmpty && Self.fields(cysForAnn).total == 0)
        let blockedTopic = try await server.call(
            "GET", "/v1/feeds?topicId=\(topicID)", token: cy.token)
        #expect(blockedTopic.ids.count == 3 && Self.fields(blockedTopic).total == 3)

        // The timeline: Ann follows Bob.
        _ = try await server.call("POST", "/v1/friends", json: ["userId": bob.id], token: ann.token)
        let anns = try await Self.publish(world, "ann 0", by: ann)
        let timeline = try await server.call("GET", "/v1/feeds/timeline?page=2&size=3", token: ann.token)
        #expect(timeline.ids == [bobs[0]])
        #expect(Self.fields(timeline).total == 4 && Self.fields(timeline).pages == 2)
        #expect(Self.fields(timeline).page == 2 && timeline.data["next"] is NSNull)
        let timeline1 = try await server.call("GET", "/v1/feeds/timeline?size=3", token: ann.token)
        #expect(timeline1.ids == [anns, bobs[2], bobs[1]])
        #expect(Self.fields(timeline1).next == 2)

        // Nearby: the second nearest by number, as by cursor.
        let near = "/v1/feeds/nearby?latitude=30.25&longitude=120.15&radius=10000&size=1"
        let nearest = try await server.call("GET", near)
        #expect(nearest.ids == [bobs[0]])
        #expect(
            Self.fields(nearest).total == 3 && Self.fields(nearest).pages == 3
                && Self.fields(nearest).next == 2)
        let secondNearest = try await server.call("GET", near + "&page=2")
        #expect(secondNearest.ids == [bobs[1]])
        #expect(((secondNearest.items.first?["distance"] as? Double) ?? 0) > 1_000)
        let nearCursor = try #require(Self.fields(nearest).cursor)
        #expect(try await server.call("GET", near + "&cursor=\(nearCursor)").ids == [bobs[1]])

        // Numbered pages reach the first 10,000 moments; deeper is refused with what to do instead.
        let tooDeep = try await server.call("GET", "/v1/feeds?page=101&size=100")
        #expect(tooDeep.status == 400)
        #expect(tooDeep.message.contains("nextCursor"), "\(tooDeep.message)")
        #expect(try await server.call("GET", "/v1/feeds?page=10000&size=1").status == 200)
        #expect(try await server.call("GET", "/v1/feeds?page=10001&size=1").status == 400)
        #expect(
            try await server.call("GET", "/v1/feeds/timeline?page=201&size=50", token: ann.token).status
                == 400)
        #expect(try await server.call("GET", near + "&page=0").status == 400)
    }

    /// With more moments than numbered pages reach, `pages` and `next` stop at the depth while `total`
    /// and `nextCursor` go on.
    @Test func numberedPagesStopAtTheDepthAndCursorsGoOn() async throws {
        let world = try await World.start(people: 1, songs: false)
        let server = world.server
        defer { _ = server.stop() }
        let count = FeedsAPI.maxNumberedDepth + 50
        let database = try Database(path: server.dataFolder + "/cloudmusic.sqlite")
        try database.write { db in
            try db.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO feeds(user_id, content, created_at, updated_at) SELECT ?, 'moment ' || i, i, i FROM n
                """, count, Int64(world.ann.id)!)
        }
        let first = try await server.call("GET", "/v1/feeds?size=100")
        #expect(Self.fields(first).total == count)
        #expect(Self.fields(first).pages == 100)
        let last = try await server.call("GET", "/v1/feeds?page=100&size=100")
        #expect(last.ids.count == 100)
        #expect(last.data["next"] is NSNull)
        let cursor = try #require(Self.fields(last).cursor)
        let deeper = try await server.call("GET", "/v1/feeds?size=100&cursor=\(cursor)")
        #expect(deeper.ids.count == 50)
        #expect(deeper.data["nextCursor"] is NSNull)
        #expect(Self.fields(deeper).total == count)
        // Deleting through the API keeps the kept total right.
        let id = try #require(first.ids.first)
        #expect(try await server.call("DELETE", "/v1/feeds/\(id)", token: world.ann.token).status == 200)
        #expect(Self.fields(try await server.call("GET", "/v1/feeds?size=1")).total == count - 1)
    }

    @Test func followAndBlockTakeIdAsWellAsUserId() async throws {
        let world = try await World.start(people: 3, songs: false)
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let followed = try await server.call("POST", "/v1/friends", json: ["id": bob.id], token: ann.token)
        #expect(followed.status == 201, "\(followed.json)")
        #expect(followed.data["id"] as? String == bob.id)
        #expect(followed.data["following"] as? Bool == true)
        #expect(followed.data["followersCount"] as? Int == 1)
        #expect(try await server.call("GET", "/v1/users/\(ann.id)/following").ids == [bob.id])
        // `userId` wins when both are sent; neither, or an id that is not text, is refused.
        let both = try await server.call(
            "POST", "/v1/friends", json: ["userId": cy.id, "id": bob.id], token: ann.token)
        #expect(both.data["id"] as? String == cy.id)
        let neither = try await server.call("POST", "/v1/friends", json: ["user": bob.id], token: ann.token)
        #expect(neither.status == 400)
        #expect(neither.message.contains("userId"), "\(neither.message)")
        #expect(try await server.call("POST", "/v1/friends", json: ["id": 7], token: ann.token).status == 400)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["id": "999999"], token: ann.token).status
                == 404)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["id": ann.id], token: ann.token).status == 400
        )
        // Blocks read the same body.
        #expect(
            try await server.call("POST", "/v1/blocks", json: ["id": ann.id], token: bob.token).status == 200)
        #expect(try await server.call("GET", "/v1/blocks", token: bob.token).ids == [ann.id])
        #expect(
            try await server.call("POST", "/v1/friends", json: ["id": bob.id], token: ann.token).status == 403
        )
    }

    @Test func aTappedTopicIsFoundByItsText() async throws {
        let world = try await World.start(people: 2)
        let server = world.server
        defer { _ = server.stop() }
        _ = try await world.comment("#夜曲# and #Night Songs#", song: world.songs[0], by: world.ann)
        func find(_ text: String) async throws -> Reply {
            let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let reply = try await server.call("GET", "/v1/topics?title=\(encoded)")
            #expect(reply.status == 200, "\(reply.json)")
            return reply
        }
        let night = try await find("夜曲")
        #expect(night.items.compactMap { $0["title"] as? String } == ["夜曲"])
        #expect(night.data["total"] as? Int == 1)
        let topicID = try #require(night.ids.first)
        // As the apps pass it: with its hashes, another case, full-width forms.
        #expect(try await find("#夜曲#").ids == [topicID])
        #expect(try await find("night songs").items.first?["title"] as? String == "Night Songs")
        #expect(try await find("＃ＮＩＧＨＴ ＳＯＮＧＳ＃").items.first?["title"] as? String == "Night Songs")
        // A text no topic has is an empty page; the topic's page opens from the id found.
        let none = try await find("无此话题")
        #expect(none.ids.isEmpty && none.data["total"] as? Int == 0)
        #expect(try await server.call("GET", "/v1/topics/\(topicID)").status == 200)
        #expect(try await server.call("GET", "/v1/topics").ids.count == 2)
    }

    /// The rate check runs in the comment's own transaction, before anything is written: the comment over
    /// the limit leaves no comment, no topic, no count and no notification for anyone it names.
    @Test func aCommentOverTheRateLimitLeavesNothing() async throws {
        let world = try await World.start(people: 3)
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        try await NotificationAPITests.rename(world, ann, to: "ann")
        let sheet = try await world.sheet("Ann's", by: ann)
        let cys = try await world.comment("nice sheet", sheet: sheet, by: cy)
        for index in 0..<CommentService.maxPerMinute {
            _ = try await world.comment("warming up \(index)", song: world.songs[0], by: bob)
        }
        let annBefore = try await NotificationAPITests.kinds(world, ann)
        let cyBefore = try await NotificationAPITests.kinds(world, cy)
        let countBefore = try await world.sheetCount(sheet, token: ann.token)

        let limited = try await world.write("@ann #限流# over the limit", parent: cys, token: bob.token)
        #expect(limited.status == 429, "\(limited.json)")
        #expect(limited.retryAfter == 60)

        #expect(try await NotificationAPITests.kinds(world, ann) == annBefore)
        #expect(try await NotificationAPITests.kinds(world, cy) == cyBefore)
        #expect(try await world.sheetCount(sheet, token: ann.token) == countBefore)
        #expect(try await world.get(cys)?["repliesCount"] as? Int == 0)
        #expect(try await world.listIDs("parentId=\(cys)").isEmpty)
        #expect(try await world.listIDs("sheetId=\(sheet)", token: ann.token) == [cys])
        let topic = try await server.call("GET", "/v1/topics?title=%E9%99%90%E6%B5%81")
        #expect(topic.data["total"] as? Int == 0)
        #expect(
            try await world.list("songId=\(world.songs[0])").data["total"] as? Int
                == CommentService.maxPerMinute)
    }

    // MARK: Migrations

    static func hot(likes: Int, replies: Int, createdAt: Int64) -> Double {
        log10(Double(max(likes + 2 * replies, 0)) + 1) + Double(createdAt) / 45_000
    }

    /// A database from before the hot score was written once keeps its comments, counts and scores, and
    /// the new triggers score as the old ones did; the moments' kept total starts from the moments there.
    @Test func theHotScoreAndTotalsMigrationsKeepAnExistingDatabase() throws {
        let path = temporaryFolder() + "/cloudmusic.sqlite"
        let database = try Database(path: path)
        try Migrator(Schema.migrator.migrations.filter { $0.version < CommentsSchema.hotScoreOnce.version })
            .migrate(database)
        let t0: Int64 = 1_800_000_000
        try database.write { db in
            for (id, name) in [(1, "ann"), (2, "bob"), (3, "cy")] {
                try db.execute(
                    """
                    INSERT INTO users(id, nickname, nickname_key, password_hash, email, created_at, updated_at)
                    VALUES (?, ?, ?, 'x', ?, 0, 0)
                    """, id, name, name, "\(name)@example.com")
            }
            try db.execute(
                "INSERT INTO sheets(id, user_id, title, created_at, updated_at) VALUES (7, 1, 'Mix', 0, 0)")
            // As the old store wrote them: the score of a new comment, then the old triggers' updates.
            for (id, parent, at) in [(1, nil, t0), (2, 1, t0 + 60), (3, nil, t0 + 120)]
                as [(Int64, Int64?, Int64)]
            {
                try db.execute(
                    """
                    INSERT INTO comments(id, user_id, target_kind, target_id, parent_id, content, hot, created_at, updated_at)
                    VALUES (?, 2, 2, 7, ?, 'c', ?, ?, ?)
                    """, id, parent, Double(at) / 45_000, at, at)
            }
            try db.execute(
                "INSERT INTO comment_likes(user_id, comment_id, created_at) VALUES (3, 1, 0), (1, 1, 0)")
            try db.execute(
                "INSERT INTO feeds(id, user_id, content, created_at, updated_at) VALUES (5, 2, 'a', 0, 0), (6, 3, 'b', 0, 0)"
            )
        }
        func state() throws -> [Int64: (likes: Int, replies: Int, hot: Double)] {
            try database.read { db in
                Dictionary(
                    uniqueKeysWithValues: try db.query(
                        "SELECT id, likes_count, replies_count, hot FROM comments"
                    ) {
                        row -> (Int64, (likes: Int, replies: Int, hot: Double)) in
                        (
                            try row.int64("id"),
                            (
                                likes: try row.int("likes_count"), replies: try row.int("replies_count"),
                                hot: try row.double("hot")
                            )
                        )
                    })
            }
        }
        let before = try state()
        #expect(before[1]?.likes == 2 && before[1]?.replies == 1)
        #expect(before[1]?.hot == Self.hot(likes: 2, replies: 1, createdAt: t0))

        try Schema.migrator.migrate(database)
        let after = try state()
        for id in [1, 2, 3] as [Int64] {
            #expect(after[id]?.likes == before[id]?.likes && after[id]?.replies == before[id]?.replies)
            #expect(after[id]?.hot == before[id]?.hot, "comment \(id)")
        }
        #expect(
            try database.read { db in
                try db.queryOne("SELECT feeds_count FROM feed_totals") { try $0.int("feeds_count") }
            } == 2)

        // The new triggers score every change as the old ones did, from the one formula.
        try database.write { db in
            try db.execute("DELETE FROM comment_likes WHERE user_id = 3 AND comment_id = 1")
            try db.execute("INSERT INTO comment_likes(user_id, comment_id, created_at) VALUES (1, 3, 0)")
            try db.execute(
                """
                INSERT INTO comments(id, user_id, target_kind, target_id, parent_id, content, hot, created_at, updated_at)
                VALUES (4, 3, 2, 7, 3, 'new', 0, ?, ?)
                """, t0 + 180, t0 + 180)
            try db.execute("UPDATE comments SET hidden = 1 WHERE id = 2")
            try db.execute("DELETE FROM feeds WHERE id = 5")
        }
        let changed = try state()
        #expect(changed[1]?.likes == 1 && changed[1]?.replies == 0)
        #expect(changed[1]?.hot == Self.hot(likes: 1, replies: 0, createdAt: t0))
        #expect(changed[3]?.likes == 1 && changed[3]?.replies == 1)
        #expect(changed[3]?.hot == Self.hot(likes: 1, replies: 1, createdAt: t0 + 120))
        #expect(changed[4]?.hot == Self.hot(likes: 0, replies: 0, createdAt: t0 + 180))
        let counts = try database.read { db in
            try db.queryOne(
                "SELECT (SELECT comments_count FROM sheets WHERE id = 7) AS sheet, (SELECT feeds_count FROM feed_totals) AS feeds"
            ) { (try $0.int("sheet"), try $0.int("feeds")) }
        }
        #expect(counts?.0 == 3 && counts?.1 == 1)
    }
}
