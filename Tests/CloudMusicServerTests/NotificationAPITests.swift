import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The notifications inbox over the real server: what records a notification, what takes it back, and
/// paging, counting and marking read. Each person writes at most 5 comments a minute, so no test has
/// anyone write more.
@Suite struct NotificationAPITests {
    typealias World = CommentAPITests.World
    typealias Person = CommentAPITests.Person

    /// One page of `person`'s inbox, expecting success.
    static func inbox(
        _ world: World, _ person: Person, _ query: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reply {
        let reply = try await world.server.call("GET", "/v1/notifications?\(query)", token: person.token)
        #expect(reply.status == 200, "\(reply.json)", sourceLocation: sourceLocation)
        return reply
    }

    /// The kinds in `person`'s inbox, newest first, with who caused each: ["mention:<actor id>", ...].
    static func kinds(_ world: World, _ person: Person) async throws -> [String] {
        try await inbox(world, person, "size=100").items.map {
            "\($0["kind"] as? String ?? "?"):\(($0["actor"] as? [String: Any])?["id"] as? String ?? "?")"
        }
    }

    static func unread(_ world: World, _ person: Person) async throws -> (count: Int, kinds: [String: Int]) {
        let reply = try await world.server.call("GET", "/v1/notifications/unread", token: person.token)
        #expect(reply.status == 200, "\(reply.json)")
        return (reply.data["count"] as? Int ?? -1, reply.data["kinds"] as? [String: Int] ?? [:])
    }

    static func rename(_ world: World, _ person: Person, to nickname: String) async throws {
        let reply = try await world.server.call(
            "PATCH", "/v1/users/\(person.id)", json: ["nickname": nickname], token: person.token)
        #expect(reply.status == 200, "\(reply.json)")
    }

    @Test func mentionsRepliesCommentsAndLikes() async throws {
        let world = try await World.start(people: 3)
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        try await Self.rename(world, ann, to: "ann")
        try await Self.rename(world, bob, to: "张三")
        try await Self.rename(world, cy, to: "cy")
        let song = world.songs[0]

        // A mention tells each person mentioned once, never the author; unknown nicknames stay text.
        let first = try await world.comment("谢谢@张三 and @cy, @张三 again, @ann and @nobody", song: song, by: ann)
        #expect(try await Self.kinds(world, bob) == ["mention:\(ann.id)"])
        #expect(try await Self.kinds(world, cy) == ["mention:\(ann.id)"])
        #expect(try await Self.kinds(world, ann).isEmpty)
        let mention = try #require(try await Self.inbox(world, bob).items.first)
        #expect(mention["read"] as? Bool == false)
        #expect(mention["feedId"] == nil)
        #expect((mention["createdAt"] as? String)?.hasSuffix("Z") == true)
        let actor = mention["actor"] as? [String: Any] ?? [:]
        #expect(actor["id"] as? String == ann.id)
        #expect(actor["nickname"] as? String == "ann")
        let quote = mention["comment"] as? [String: Any] ?? [:]
        #expect(quote["id"] as? String == first)
        #expect(quote["content"] as? String == "谢谢@张三 and @cy, @张三 again, @ann and @nobody")
        #expect(quote["songId"] as? String == song)
        #expect(quote["sheetId"] == nil)

        // A reply tells the parent's author once, even when it also mentions them; others it mentions get a
        // mention. Replying to oneself tells nobody.
        let reply = try await world.comment("@ann thanks! cc @cy", parent: first, by: bob)
        #expect(try await Self.kinds(world, ann) == ["reply:\(bob.id)"])
        #expect(try await Self.kinds(world, cy) == ["mention:\(bob.id)", "mention:\(ann.id)"])
        let replied = try #require(try await Self.inbox(world, ann).items.first?["comment"] as? [String: Any])
        #expect(replied["id"] as? String == reply)
        #expect(replied["parentId"] as? String == first)
        _ = try await world.comment("and to myself", parent: reply, by: bob)
        #expect(try await Self.kinds(world, bob) == ["mention:\(ann.id)"])

        // A long comment is quoted short.
        let long = String(repeating: "长", count: 150)
        let longID = try await world.comment("@张三 " + long, song: song, by: cy)
        let quoted = try await Self.inbox(world, bob).items.first?["comment"] as? [String: Any]
        #expect((quoted?["content"] as? String)?.count == 101)
        #expect((quoted?["content"] as? String)?.hasSuffix("…") == true)
        // A comment moderators hid is quoted empty (Ann is an administrator).
        let hide = try await server.call(
            "PATCH", "/v1/admin/comments/\(longID)", json: ["hidden": true], token: ann.token)
        #expect(hide.status == 200, "\(hide.json)")
        let hidden = try await Self.inbox(world, bob).items.first?["comment"] as? [String: Any]
        #expect(hidden?["id"] as? String == longID)
        #expect(hidden?["content"] as? String == "")

        // Liking twice is one notification; unliking takes it back; liking one's own tells nobody.
        let like = try await world.like(first, by: cy)
        #expect(try await world.like(first, by: cy) == like)
        #expect(try await Self.kinds(world, ann) == ["like:\(cy.id)", "reply:\(bob.id)"])
        #expect(try await Self.unread(world, ann).kinds["like"] == 1)
        #expect(try await server.call("DELETE", "/v1/likes/\(like)", token: cy.token).status == 200)
        #expect(try await Self.kinds(world, ann) == ["reply:\(bob.id)"])
        #expect(try await Self.unread(world, ann).kinds["like"] == 0)
        _ = try await world.like(first, by: ann)
        #expect(try await Self.kinds(world, ann) == ["reply:\(bob.id)"])
        _ = try await world.like(reply, by: cy)
        #expect(try await Self.kinds(world, bob).first == "like:\(cy.id)")

        // A comment on someone's sheet tells its owner, unless a reply or mention already did.
        let sheet = try await world.sheet("Ann's songs", by: ann)
        let onSheet = try await world.comment("nice list", sheet: sheet, by: cy)
        #expect(try await Self.kinds(world, ann).first == "comment:\(cy.id)")
        let sheetQuote = try await Self.inbox(world, ann).items.first?["comment"] as? [String: Any]
        #expect(sheetQuote?["sheetId"] as? String == sheet)
        #expect(sheetQuote?["songId"] == nil)
        _ = try await world.comment("@ann thanks", parent: onSheet, by: bob)
        #expect(try await Self.kinds(world, ann).prefix(2) == ["mention:\(bob.id)", "comment:\(cy.id)"])
        _ = try await world.comment("my own list", sheet: sheet, by: ann)
        #expect(try await Self.kinds(world, ann).first == "mention:\(bob.id)")

        // Deleting a comment takes its notifications with it (the reply to it stays, it is its own).
        let before = try await Self.unread(world, cy).count
        #expect(try await server.call("DELETE", "/v1/comments/\(first)", token: ann.token).status == 200)
        #expect(try await Self.kinds(world, cy).contains("mention:\(ann.id)") == false)
        #expect(try await Self.unread(world, cy).count == before - 1)
        #expect(try await Self.kinds(world, bob).contains("mention:\(ann.id)") == false)
        #expect(try await Self.kinds(world, ann).contains("reply:\(bob.id)"))
        let orphan = try await Self.inbox(world, ann, "size=100").items.first {
            $0["kind"] as? String == "reply"
        }
        #expect((orphan?["comment"] as? [String: Any])?["id"] as? String == reply)
    }

    @Test func followsAndBlocks() async throws {
        let world = try await World.start(people: 3)
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        func follow(_ who: Person, by person: Person) async throws -> Int {
            try await server.call("POST", "/v1/friends", json: ["userId": who.id], token: person.token).status
        }

        // A follow, twice, is one notification; unfollowing takes it back, following again tells again.
        #expect(try await follow(ann, by: bob) == 201)
        #expect(try await follow(ann, by: bob) == 201)
        #expect(try await Self.kinds(world, ann) == ["follow:\(bob.id)"])
        let item = try #require(try await Self.inbox(world, ann).items.first)
        #expect(item["comment"] == nil)
        #expect(item["feedId"] == nil)
        #expect(try await server.call("DELETE", "/v1/friends/\(ann.id)", token: bob.token).status == 200)
        #expect(try await Self.kinds(world, ann).isEmpty)
        #expect(try await Self.unread(world, ann).count == 0)
        #expect(try await follow(ann, by: bob) == 201)
        #expect(try await Self.kinds(world, ann) == ["follow:\(bob.id)"])

        // Blocking someone clears what they caused; afterwards nothing they do reaches the blocker.
        try await Self.rename(world, ann, to: "ann")
        let annsComment = try await world.comment("hello", song: world.songs[0], by: ann)
        _ = try await world.like(annsComment, by: bob)
        _ = try await world.like(annsComment, by: cy)
        #expect(try await Self.kinds(world, ann) == ["like:\(cy.id)", "like:\(bob.id)", "follow:\(bob.id)"])
        #expect(
            try await server.call("POST", "/v1/blocks", json: ["userId": bob.id], token: ann.token).status
                == 200)
        #expect(try await Self.kinds(world, ann) == ["like:\(cy.id)"])
        #expect(try await Self.unread(world, ann).count == 1)
        try await server.call(
            "DELETE", "/v1/likes/\(try await world.like(annsComment, by: bob))", token: bob.token)
        _ = try await world.like(annsComment, by: bob)
        _ = try await world.comment("@ann hi", parent: annsComment, by: bob)
        #expect(try await follow(ann, by: bob) == 403)
        #expect(try await Self.kinds(world, ann) == ["like:\(cy.id)"])
        // Ann still tells Bob things: a block is one way.
        try await Self.rename(world, bob, to: "bob")
        _ = try await world.comment("@bob are you there", song: world.songs[0], by: ann)
        #expect(try await Self.kinds(world, bob) == ["mention:\(ann.id)"])
    }

    @Test func pagingCountingAndMarkingRead() async throws {
        let world = try await World.start(people: 3)
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)

        // Twelve notifications for Ann: two follows and ten likes.
        _ = try await server.call("POST", "/v1/friends", json: ["userId": ann.id], token: bob.token)
        var comments: [String] = []
        for index in 0..<5 {
            comments.append(try await world.comment("c\(index)", song: world.songs[0], by: ann))
        }
        for comment in comments {
            _ = try await world.like(comment, by: bob)
            _ = try await world.like(comment, by: cy)
        }
        _ = try await server.call("POST", "/v1/friends", json: ["userId": ann.id], token: cy.token)
        let counts = try await Self.unread(world, ann)
        #expect(counts.count == 12)
        #expect(counts.kinds == ["mention": 0, "reply": 0, "like": 10, "follow": 2, "comment": 0])
        #expect(try await Self.unread(world, bob).count == 0)

        // By cursor, newest first, 5 at a time: 5, 5, 2, and no cursor after the last.
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await Self.inbox(world, ann, "size=5" + (cursor.map { "&cursor=\($0)" } ?? ""))
            #expect(page.data["total"] as? Int == 12)
            #expect(page.data["page"] as? Int == (cursor == nil ? 1 : 0))
            seen += page.ids
            cursor = page.data["nextCursor"] as? String
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(seen.count == 12)
        #expect(seen == seen.sorted { Int($0)! > Int($1)! })
        #expect(Set(seen).count == 12)
        let all = try await Self.inbox(world, ann, "size=100")
        #expect(all.ids == seen)
        #expect(all.items.first?["kind"] as? String == "follow")
        #expect(all.data["nextCursor"] is NSNull)
        #expect(all.data["next"] is NSNull)
        // By page number too, as the apps page.
        let second = try await Self.inbox(world, ann, "size=5&page=2")
        #expect(second.ids == Array(seen[5..<10]))
        #expect(second.data["pages"] as? Int == 3)
        #expect(second.data["next"] as? Int == 3)

        // Mark one read (twice is fine), and back to unread.
        let newest = seen[0]
        let marked = try await server.call(
            "PATCH", "/v1/notifications/\(newest)", json: ["read": true], token: ann.token)
        #expect(marked.status == 200, "\(marked.json)")
        #expect(marked.data["read"] as? Bool == true)
        #expect(marked.data["id"] as? String == newest)
        #expect(
            try await server.call(
                "PATCH", "/v1/notifications/\(newest)", json: ["read": true], token: ann.token
            )
            .status == 200)
        #expect(try await Self.unread(world, ann).count == 11)
        #expect(try await Self.inbox(world, ann, "unread=true&size=100").ids == Array(seen[1...]))
        #expect(try await Self.inbox(world, ann, "unread=true").data["total"] as? Int == 11)
        #expect(try await Self.inbox(world, ann).items.first?["read"] as? Bool == true)
        let unmarked = try await server.call(
            "PATCH", "/v1/notifications/\(newest)", json: ["read": false], token: ann.token)
        #expect(unmarked.data["read"] as? Bool == false)
        #expect(try await Self.unread(world, ann).count == 12)

        // Mark all up to what was seen: the third newest and older.
        let upTo = try await server.call(
            "POST", "/v1/notifications/read", json: ["before": seen[2]], token: ann.token)
        #expect(upTo.status == 200, "\(upTo.json)")
        #expect(upTo.data["count"] as? Int == 2)
        #expect(try await Self.inbox(world, ann, "unread=true").ids == Array(seen[0..<2]))
        // Unread by cursor, too.
        let firstUnread = try await Self.inbox(world, ann, "unread=true&size=1")
        #expect(firstUnread.ids == [seen[0]])
        let nextUnread = try await Self.inbox(
            world, ann, "unread=true&size=1&cursor=\(firstUnread.data["nextCursor"] as? String ?? "")")
        #expect(nextUnread.ids == [seen[1]])
        #expect(nextUnread.data["nextCursor"] is NSNull)
        // And everything, with no body at all.
        let everything = try await server.call("POST", "/v1/notifications/read", token: ann.token)
        #expect(everything.status == 200, "\(everything.json)")
        #expect(everything.data["count"] as? Int == 0)
        #expect(try await Self.unread(world, ann).count == 0)
        #expect(try await Self.inbox(world, ann, "unread=true").ids.isEmpty)
        #expect(try await Self.inbox(world, ann, "size=100").items.allSatisfy { $0["read"] as? Bool == true })

        // Only ever one's own: someone else's id is the same 404 as an unknown one, and changes nothing.
        _ = try await server.call(
            "PATCH", "/v1/notifications/\(newest)", json: ["read": false], token: ann.token)
        for id in [newest, "999999", "abc", "0", "-1"] {
            let reply = try await server.call(
                "PATCH", "/v1/notifications/\(id)", json: ["read": true], token: bob.token)
            #expect(reply.status == 404, "\(id): \(reply.json)")
            #expect(!reply.message.isEmpty)
            #expect(reply.json["status"] as? Int != 0)
        }
        #expect(try await Self.unread(world, ann).count == 1)
        #expect(
            try await server.call("POST", "/v1/notifications/read", token: bob.token).data["count"] as? Int
                == 0)
        #expect(try await Self.unread(world, ann).count == 1)

        // Bad input is a 400 that says what to change.
        let path = "/v1/notifications/\(newest)"
        for body in ["{\"read\": ", "[]", "{}", "{\"read\": \"yes\"}", "{\"read\": 1}", "{\"read\": null}"] {
            let reply = try await server.call("PATCH", path, body: Data(body.utf8), token: ann.token)
            #expect(reply.status == 400, "\(body): \(reply.json)")
            #expect(!reply.message.isEmpty)
        }
        #expect(try await server.call("PATCH", path, token: ann.token).status == 400)
        for body in [
            "{\"before\": ", "{\"before\": 5}", "{\"before\": \"abc\"}", "{\"before\": \"0\"}", "[]",
        ] {
            let reply = try await server.call(
                "POST", "/v1/notifications/read", body: Data(body.utf8), token: ann.token)
            #expect(reply.status == 400, "\(body): \(reply.json)")
        }
        #expect(try await Self.unread(world, ann).count == 1)
        for query in ["cursor=abc", "cursor=-3", "unread=maybe", "size=0", "size=1000", "page=0"] {
            let reply = try await server.call("GET", "/v1/notifications?\(query)", token: ann.token)
            #expect(reply.status == 400, "\(query): \(reply.json)")
        }

        // Nobody signed in, or a session that is not one.
        for token in [nil, "not-a-session"] {
            #expect(try await server.call("GET", "/v1/notifications", token: token).status == 401)
            #expect(try await server.call("GET", "/v1/notifications/unread", token: token).status == 401)
            #expect(
                try await server.call("PATCH", path, json: ["read": true], token: token).status == 401)
            #expect(try await server.call("POST", "/v1/notifications/read", token: token).status == 401)
        }
        #expect(try await Self.unread(world, ann).count == 1)
    }
}
