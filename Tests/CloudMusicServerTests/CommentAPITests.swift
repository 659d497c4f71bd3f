import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Comments on songs and sheets, replies, likes, reports and hiding, end to end over the real server binary
/// with a library of two one-second tracks. Each person may write 5 comments a minute, so every test signs up
/// as many people as it writes comments for (the first, Ann, is an administrator).
@Suite struct CommentAPITests {
    struct Person {
        let id: String
        let token: String
    }

    struct World {
        let server: TestServer
        let music: String
        /// Song ids, in the order of `titles`.
        let songs: [String]
        let people: [Person]

        var ann: Person { people[0] }
        var bob: Person { people[1] }
        var cy: Person { people[2] }

        static let titles = ["Song One", "Song Two"]

        /// `songs: false` serves an empty library, for tests that need only people.
        static func start(people count: Int = 3, songs withSongs: Bool = true) async throws -> World {
            let music = try await offPool {
                let root = temporaryFolder()
                guard withSongs else { return root }
                try makeTrack(root + "/A/One/01.mp3", title: "Song One", artist: "A", album: "One", track: 1)
                try makeTrack(
                    root + "/B/Two/01.mp3", title: "Song Two", artist: "B", album: "Two", track: 1,
                    frequency: 660)
                return root
            }
            let server = try await TestServer.start(.empty, extraArguments: ["--music", music])
            var byTitle: [String: String] = [:]
            if withSongs {
                try await server.waitForScan()
                let list = try await server.call("GET", "/v1/songs?size=100")
                for song in list.data["data"] as? [[String: Any]] ?? [] {
                    byTitle[song["title"] as! String] = song["id"] as? String
                }
                try #require(Set(byTitle.keys) == Set(titles), "\(list.json)")
            }
            var people: [Person] = []
            for index in 0..<count {
                let account = ["email": "p\(index)@example.com"]
                let id = try await server.signUp(account, nickname: "Person \(index)")
                people.append(Person(id: id, token: try await server.signIn(account)))
            }
            return World(
                server: server, music: music, songs: titles.compactMap { byTitle[$0] }, people: people)
        }

        /// Writes a comment and returns its id, expecting success.
        @discardableResult
        func comment(
            _ content: String, song: String? = nil, sheet: String? = nil, parent: String? = nil,
            by person: Person,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> String {
            let reply = try await write(
                content, song: song, sheet: sheet, parent: parent, token: person.token)
            #expect(reply.status == 201, "\(reply.json)", sourceLocation: sourceLocation)
            return try #require(reply.data["id"] as? String, sourceLocation: sourceLocation)
        }

        func write(
            _ content: Any, song: String? = nil, sheet: String? = nil, parent: String? = nil, token: String?
        ) async throws -> Reply {
            var body: [String: Any] = ["content": content]
            if let song { body["songId"] = song }
            if let sheet { body["sheetId"] = sheet }
            if let parent { body["parentId"] = parent }
            return try await server.call("POST", "/v1/comments", json: body, token: token)
        }

        /// A comment as `token` sees it, or nil when it is a 404.
        func get(_ id: String, token: String? = nil) async throws -> [String: Any]? {
            let reply = try await server.call("GET", "/v1/comments/\(id)", token: token)
            #expect(reply.status == 200 || reply.status == 404, "\(reply.json)")
            return reply.status == 200 ? reply.data : nil
        }

        func list(_ query: String, token: String? = nil) async throws -> Reply {
            try await server.call("GET", "/v1/comments?\(query)", token: token)
        }

        func listIDs(_ query: String, token: String? = nil) async throws -> [String] {
            let reply = try await list(query, token: token)
            #expect(reply.status == 200, "\(query): \(reply.json)")
            return CommentAPITests.ids(reply)
        }

        func songCount(_ id: String) async throws -> Int? {
            let reply = try await server.call("GET", "/v1/songs/\(id)")
            #expect(reply.status == 200, "\(reply.json)")
            return reply.data["commentsCount"] as? Int
        }

        func sheetCount(_ id: String, token: String) async throws -> Int? {
            let reply = try await server.call("GET", "/v1/sheets/\(id)", token: token)
            #expect(reply.status == 200, "\(reply.json)")
            return reply.data["commentsCount"] as? Int
        }

        func sheet(_ title: String, isPrivate: Bool = false, by person: Person) async throws -> String {
            let made = try await server.call(
                "POST", "/v1/sheets", json: ["title": title, "isPrivate": isPrivate], token: person.token)
            #expect(made.status == 201, "\(made.json)")
            return try #require(made.data["id"] as? String)
        }

        /// Likes a comment and returns the like's id.
        @discardableResult
        func like(_ comment: String, by person: Person, sourceLocation: SourceLocation = #_sourceLocation)
            async throws -> String
        {
            let reply = try await server.call(
                "POST", "/v1/likes", json: ["commentId": comment], token: person.token)
            #expect(reply.status == 201, "\(reply.json)", sourceLocation: sourceLocation)
            return try #require(reply.data["likeId"] as? String, sourceLocation: sourceLocation)
        }

        /// Starts a scan as Ann and waits for it to finish.
        func rescan() async throws { try await server.rescan(adminToken: ann.token) }
    }

    static func items(_ reply: Reply) -> [[String: Any]] { reply.items }
    static func ids(_ reply: Reply) -> [String] { reply.ids }
    static func scalars(_ text: Any?) -> [UInt32] { ((text as? String) ?? "").unicodeScalars.map(\.value) }

    // MARK: Writing and reading

    @Test func writingValidatesAndKeepsTextExactly() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let song = world.songs[0]
        let sheet = try await world.sheet("Ann's", by: world.ann)
        let bob = world.bob.token

        // Nobody signed in; malformed bodies and wrong types; not exactly one thing; unknown things.
        #expect(try await world.write("hello", song: song, token: nil).status == 401)
        #expect(try await world.write("hello", song: song, token: "not-a-session").status == 401)
        #expect(
            try await server.call(
                "POST", "/v1/comments", body: Data("{\"content\": \"x\", ".utf8), token: bob
            ).status
                == 400)
        #expect(
            try await server.call("POST", "/v1/comments", body: Data("[]".utf8), token: bob).status == 400)
        #expect(try await server.call("POST", "/v1/comments", body: Data(), token: bob).status == 400)
        #expect(
            try await server.call("POST", "/v1/comments", json: ["songId": song], token: bob).status == 400)
        #expect(try await world.write(5, song: song, token: bob).status == 400)
        #expect(try await world.write(NSNull(), song: song, token: bob).status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/comments", json: ["content": "x", "songId": Int(song)!], token: bob
            )
            .status == 400)
        #expect(
            try await server.call("POST", "/v1/comments", json: ["content": "x", "parentId": 1], token: bob)
                .status
                == 400)
        let both = try await world.write("hello", song: song, sheet: sheet, token: bob)
        #expect(both.status == 400, "\(both.json)")
        #expect(try await world.write("hello", token: bob).status == 400)
        // An id nobody has is the thing's 404; text that is no id is refused at the edge, naming the field.
        for (unknown, status) in [("999999", 404), ("abc", 400), ("0", 400), ("-1", 400), ("", 400)] {
            #expect(
                try await world.write("hello", song: unknown, token: bob).status == status, "song \(unknown)")
            #expect(
                try await world.write("hello", sheet: unknown, token: bob).status == status,
                "sheet \(unknown)")
            #expect(
                try await world.write("hello", parent: unknown, token: bob).status == status,
                "parent \(unknown)")
        }
        // Empty, too long, control and invisible characters.
        for bad in [
            "", "   ", " \n\n ", String(repeating: "字", count: 1_001), String(repeating: "a", count: 1_001),
            "bell\u{07}", "tab\there", "nul\u{0}", "zero\u{200B}width", "rtl\u{202E}override",
            "line\u{2028}sep",
        ] {
            let reply = try await world.write(bad, song: song, token: bob)
            #expect(reply.status == 400, "\(bad.debugDescription): \(reply.json)")
            #expect(!reply.message.isEmpty)
        }
        #expect(try await world.songCount(song) == 0)

        // Unicode is kept exactly (scalar by scalar, so no normalisation), around whitespace trimmed.
        let text = "你好，世界 🎵👨‍👩‍👧‍👦🇯🇵 cafe\u{301} café\nsecond line\n\nthird"
        let made = try await world.write("  \n" + text + " \n ", song: song, token: bob)
        #expect(made.status == 201, "\(made.json)")
        #expect(Self.scalars(made.data["content"]) == Self.scalars(text))
        let id = try #require(made.data["id"] as? String)
        #expect(made.data["songId"] as? String == song)
        #expect(made.data["sheetId"] == nil)
        #expect(made.data["parentId"] == nil)
        #expect(made.data["parent"] == nil)
        #expect(made.data["likeId"] == nil)
        #expect(made.data["likesCount"] as? Int == 0)
        #expect(made.data["repliesCount"] as? Int == 0)
        #expect((made.data["user"] as? [String: Any])?["id"] as? String == world.bob.id)
        #expect((made.data["user"] as? [String: Any])?["nickname"] as? String == "Person 1")
        #expect(made.data["createdAt"] is String)
        let read = try #require(try await world.get(id))
        #expect(Self.scalars(read["content"]) == Self.scalars(text))
        #expect(read["id"] as? String == id)

        // Exactly 1000 characters, counted as characters: CJK and emoji.
        let cjk = String(repeating: "字", count: 1_000)
        let longOne = try await world.write(cjk, song: song, token: bob)
        #expect(longOne.status == 201, "\(longOne.json)")
        #expect(longOne.data["content"] as? String == cjk)
        let emoji = String(repeating: "🎵", count: 1_000)
        let emojiOne = try await world.write("  " + emoji + "  ", sheet: sheet, token: bob)
        #expect(emojiOne.status == 201, "\(emojiOne.json)")
        #expect(Self.scalars(emojiOne.data["content"]) == Self.scalars(emoji))
        #expect(emojiOne.data["sheetId"] as? String == sheet)
        #expect(emojiOne.data["songId"] == nil)
        let shortest = try await world.write("x", song: song, token: bob)
        #expect(shortest.status == 201)
        let lines = try await world.write("line one\nline two", song: song, token: bob)
        #expect(lines.status == 201)
        #expect(lines.data["content"] as? String == "line one\nline two")

        // Reading: anyone, unknown ids are 404.
        for unknown in ["999999", "abc", "0", "-5"] {
            #expect(try await server.call("GET", "/v1/comments/\(unknown)").status == 404, "\(unknown)")
        }
        #expect(try await world.listIDs("songId=\(song)").count == 4)
        #expect(try await world.listIDs("sheetId=\(sheet)") == [try #require(emojiOne.data["id"] as? String)])
        #expect(try await world.list("songId=\(song)&sheetId=\(sheet)").status == 400)
        #expect(try await world.list("").status == 400)
        #expect(try await world.list("songId=999999").status == 404)
        #expect(try await world.list("songId=abc").status == 404)
        #expect(try await world.list("sheetId=999999").status == 404)
        #expect(try await world.list("parentId=999999").status == 404)
        #expect(try await world.list("songId=\(song)&order=old").status == 400)
        #expect(try await world.list("songId=\(song)&size=0").status == 400)
        #expect(try await world.list("songId=\(song)&size=101").status == 400)
        #expect(try await world.list("songId=\(song)&page=0").status == 400)
        #expect(try await world.songCount(song) == 4)
        #expect(try await world.sheetCount(sheet, token: world.ann.token) == 1)

        // The fifth comment in a minute is the last: the sixth is a 429 with Retry-After, for Bob only.
        let limited = try await world.write("one more", song: song, token: bob)
        #expect(limited.status == 429, "\(limited.json)")
        #expect(limited.retryAfter == 60)
        #expect(!limited.message.isEmpty)
        #expect(try await world.write("me too", song: song, token: world.cy.token).status == 201)
        #expect(try await world.songCount(song) == 5)
    }

    @Test func theRateLimitHoldsForWritesSentAtOnce() async throws {
        let world = try await World.start(people: 2)
        let server = world.server
        defer { _ = server.stop() }
        let song = world.songs[0]
        let bob = world.bob.token
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<10 {
                group.addTask { try await world.write("burst \(index)", song: song, token: bob).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == 5, "\(statuses)")
        #expect(statuses.filter { $0 == 429 }.count == 5, "\(statuses)")
        #expect(try await world.songCount(song) == 5)
        #expect(try await world.listIDs("songId=\(song)").count == 5)
    }

    // MARK: Replies and likes

    @Test func repliesLikesAndTheirCounts() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let (song, other) = (world.songs[0], world.songs[1])
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let sheet = try await world.sheet("Ann's", by: ann)

        let first = try await world.comment("First!", song: song, by: ann)
        // A reply inherits its parent's thing; naming the same thing is fine, another one is not.
        let reply = try await world.write("Agreed", parent: first, token: bob.token)
        #expect(reply.status == 201, "\(reply.json)")
        let r1 = try #require(reply.data["id"] as? String)
        #expect(reply.data["songId"] as? String == song)
        #expect(reply.data["sheetId"] == nil)
        #expect(reply.data["parentId"] as? String == first)
        let quote = try #require(reply.data["parent"] as? [String: Any])
        #expect(quote["id"] as? String == first)
        #expect(quote["content"] as? String == "First!")
        #expect((quote["user"] as? [String: Any])?["id"] as? String == ann.id)
        #expect(try await world.write("Wrong", song: other, parent: first, token: bob.token).status == 400)
        #expect(try await world.write("Wrong", sheet: sheet, parent: first, token: bob.token).status == 400)
        #expect(
            try await world.write("Wrong", song: song, sheet: sheet, parent: first, token: bob.token).status
                == 400)
        let r2 = try await world.comment("Same song", song: song, parent: first, by: bob)
        let r3 = try await world.comment("Reply to a reply", parent: r1, by: cy)
        #expect(try await world.get(r3)?["parentId"] as? String == r1)
        #expect(try await world.get(r3)?["songId"] as? String == song)
        #expect(try await world.get(first)?["repliesCount"] as? Int == 2)
        #expect(try await world.get(r1)?["repliesCount"] as? Int == 1)
        #expect(try await world.listIDs("parentId=\(first)") == [r2, r1])
        #expect(try await world.listIDs("parentId=\(r1)") == [r3])
        #expect(try await world.list("parentId=abc").status == 404)
        #expect(try await world.listIDs("songId=\(song)") == [r3, r2, r1, first])
        #expect(try await world.songCount(song) == 4)
        #expect(try await world.songCount(other) == 0)
        #expect(try await world.sheetCount(sheet, token: ann.token) == 0)

        // Liking twice counts once, with the same like; the likeId is the viewer's own.
        let liked = try await server.call("POST", "/v1/likes", json: ["commentId": first], token: bob.token)
        #expect(liked.status == 201, "\(liked.json)")
        #expect(liked.data["id"] as? String == first)
        #expect(liked.data["likesCount"] as? Int == 1)
        let bobLike = try #require(liked.data["likeId"] as? String)
        let again = try await server.call("POST", "/v1/likes", json: ["commentId": first], token: bob.token)
        #expect(again.status == 201)
        #expect(again.data["likesCount"] as? Int == 1)
        #expect(again.data["likeId"] as? String == bobLike)
        let cyLike = try await world.like(first, by: cy)
        #expect(cyLike != bobLike)
        #expect(try await world.get(first, token: bob.token)?["likeId"] as? String == bobLike)
        #expect(try await world.get(first, token: cy.token)?["likeId"] as? String == cyLike)
        #expect(try await world.get(first, token: ann.token)?["likeId"] == nil)
        #expect(try await world.get(first)?["likeId"] == nil)
        #expect(try await world.get(first)?["likesCount"] as? Int == 2)
        let listed = Self.items(try await world.list("songId=\(song)", token: bob.token))
        #expect(listed.first { $0["id"] as? String == first }?["likeId"] as? String == bobLike)

        // Bad likes.
        #expect(try await server.call("POST", "/v1/likes", json: ["commentId": first]).status == 401)
        for (unknown, status) in [("999999", 404), ("abc", 400), ("0", 400), ("", 400)] {
            #expect(
                try await server.call("POST", "/v1/likes", json: ["commentId": unknown], token: bob.token)
                    .status
                    == status, "\(unknown)")
        }
        #expect(
            try await server.call("POST", "/v1/likes", json: ["commentId": Int(first)!], token: bob.token)
                .status
                == 400)
        #expect(try await server.call("POST", "/v1/likes", json: [:], token: bob.token).status == 400)
        #expect(
            try await server.call("POST", "/v1/likes", body: Data("{\"commentId\":".utf8), token: bob.token)
                .status
                == 400)

        // Taking a like back: only one's own.
        #expect(try await server.call("DELETE", "/v1/likes/\(bobLike)").status == 401)
        #expect(try await server.call("DELETE", "/v1/likes/\(bobLike)", token: ann.token).status == 403)
        #expect(try await server.call("DELETE", "/v1/likes/\(bobLike)", token: cy.token).status == 403)
        for unknown in ["999999", "abc", "0"] {
            #expect(try await server.call("DELETE", "/v1/likes/\(unknown)", token: bob.token).status == 404)
        }
        #expect(try await world.get(first)?["likesCount"] as? Int == 2)
        #expect(try await server.call("DELETE", "/v1/likes/\(bobLike)", token: bob.token).status == 200)
        #expect(try await server.call("DELETE", "/v1/likes/\(bobLike)", token: bob.token).status == 404)
        #expect(try await world.get(first)?["likesCount"] as? Int == 1)
        #expect(try await world.get(first, token: bob.token)?["likeId"] == nil)
        // Liking again makes a new like that counts again.
        let bobAgain = try await world.like(first, by: bob)
        #expect(try await world.get(first)?["likesCount"] as? Int == 2)
        #expect(try await world.get(first, token: bob.token)?["likeId"] as? String == bobAgain)

        // Deleting a parent keeps its replies without the quote; the parent's likes go with it.
        #expect(try await server.call("DELETE", "/v1/comments/\(first)", token: ann.token).status == 200)
        #expect(try await world.get(first) == nil)
        let orphan = try #require(try await world.get(r1))
        #expect(orphan["parent"] == nil)
        #expect(orphan["content"] as? String == "Agreed")
        #expect(try await world.get(r2)?["parent"] == nil)
        #expect(try await world.list("parentId=\(first)").status == 404)
        #expect(try await server.call("DELETE", "/v1/likes/\(cyLike)", token: cy.token).status == 404)
        #expect(try await world.songCount(song) == 3)
        #expect(try await world.listIDs("songId=\(song)") == [r3, r2, r1])
        // A reply to a reply loses its quote when that reply goes, and the count follows.
        #expect(try await world.get(r3)?["parent"] is [String: Any])
        #expect(try await server.call("DELETE", "/v1/comments/\(r1)", token: bob.token).status == 200)
        #expect(try await world.get(r3)?["parent"] == nil)
        #expect(try await world.songCount(song) == 2)
        // Replying to a deleted comment is a 404.
        #expect(try await world.write("Late", parent: first, token: cy.token).status == 404)
    }

    @Test func deletingIsForTheAuthorOrAnAdministrator() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let song = world.songs[0]
        let sheet = try await world.sheet("Cy's", by: world.cy)
        let bobs = try await world.comment("Bob's", song: song, by: world.bob)
        let cys = try await world.comment("Cy's", sheet: sheet, by: world.cy)
        let anns = try await world.comment("Ann's", song: song, by: world.ann)

        #expect(try await server.call("DELETE", "/v1/comments/\(bobs)").status == 401)
        #expect(try await server.call("DELETE", "/v1/comments/\(bobs)", token: world.cy.token).status == 403)
        #expect(try await server.call("DELETE", "/v1/comments/\(anns)", token: world.bob.token).status == 403)
        // Owning the sheet does not make one the owner of comments on it.
        #expect(try await world.write("on Cy's sheet", sheet: sheet, token: world.bob.token).status == 201)
        let onSheet = try await world.listIDs("sheetId=\(sheet)")
        #expect(
            try await server.call("DELETE", "/v1/comments/\(onSheet[0])", token: world.cy.token).status == 403
        )
        for unknown in ["999999", "abc", "0"] {
            #expect(
                try await server.call("DELETE", "/v1/comments/\(unknown)", token: world.bob.token).status
                    == 404)
        }
        #expect(try await world.songCount(song) == 2)
        #expect(try await world.sheetCount(sheet, token: world.cy.token) == 2)

        #expect(try await server.call("DELETE", "/v1/comments/\(bobs)", token: world.bob.token).status == 200)
        #expect(try await server.call("DELETE", "/v1/comments/\(bobs)", token: world.bob.token).status == 404)
        #expect(try await server.call("DELETE", "/v1/comments/\(cys)", token: world.ann.token).status == 200)
        #expect(try await world.get(cys) == nil)
        #expect(try await world.songCount(song) == 1)
        #expect(try await world.sheetCount(sheet, token: world.cy.token) == 1)
        #expect(try await world.listIDs("songId=\(song)") == [anns])
    }

    // MARK: Visibility

    @Test func commentsOnAPrivateSheetAreOnlyForItsOwner() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let secret = try await world.sheet("Secret", isPrivate: true, by: bob)
        let mine = try await world.comment("Note to self", sheet: secret, by: bob)
        let reply = try await world.comment("Another", parent: mine, by: bob)
        let bobLike = try await world.like(mine, by: bob)
        #expect(
            try await server.call("POST", "/v1/comments/\(mine)/reports", json: [:], token: bob.token).status
                == 200)
        #expect(try await world.listIDs("sheetId=\(secret)", token: bob.token) == [reply, mine])
        #expect(try await world.listIDs("parentId=\(mine)", token: bob.token) == [reply])
        #expect(try await world.get(mine, token: bob.token)?["likesCount"] as? Int == 1)
        #expect(try await world.sheetCount(secret, token: bob.token) == 2)

        // Everyone else, administrators included, gets a 404 for all of it; writing anonymously is a 401.
        for token in [ann.token, cy.token, nil] as [String?] {
            let who = token == nil ? "anonymous" : token == ann.token ? "admin" : "other"
            #expect(try await world.list("sheetId=\(secret)", token: token).status == 404, "\(who)")
            #expect(try await world.list("parentId=\(mine)", token: token).status == 404, "\(who)")
            #expect(
                try await server.call("GET", "/v1/comments/\(mine)", token: token).status == 404, "\(who)")
            #expect(
                try await server.call("GET", "/v1/comments/\(reply)", token: token).status == 404, "\(who)")
            guard let token else { continue }
            #expect(try await world.write("peek", sheet: secret, token: token).status == 404, "\(who)")
            #expect(try await world.write("peek", parent: mine, token: token).status == 404, "\(who)")
            #expect(
                try await server.call("POST", "/v1/likes", json: ["commentId": mine], token: token).status
                    == 404,
                "\(who)")
            #expect(
                try await server.call(
                    "POST", "/v1/comments/\(mine)/reports", json: ["reason": "x"], token: token
                )
                .status == 404, "\(who)")
            #expect(
                try await server.call("DELETE", "/v1/comments/\(mine)", token: token).status == 404, "\(who)")
        }
        #expect(try await world.write("peek", sheet: secret, token: nil).status == 401)
        #expect(try await world.get(mine, token: bob.token)?["likesCount"] as? Int == 1)
        #expect(try await world.sheetCount(secret, token: bob.token) == 2)
        #expect(try await server.call("DELETE", "/v1/likes/\(bobLike)", token: cy.token).status == 403)

        // A sheet that turns private hides the comments already on it, its commenters' own included.
        let open = try await world.sheet("Open", by: bob)
        let cys = try await world.comment("Nice sheet", sheet: open, by: cy)
        #expect(try await world.get(cys, token: cy.token) != nil)
        let patched = try await server.call(
            "PATCH", "/v1/sheets/\(open)", json: ["isPrivate": true], token: bob.token)
        #expect(patched.status == 200, "\(patched.json)")
        #expect(try await world.get(cys, token: cy.token) == nil)
        #expect(try await world.list("sheetId=\(open)", token: cy.token).status == 404)
        #expect(try await server.call("DELETE", "/v1/comments/\(cys)", token: cy.token).status == 404)
        #expect(try await world.listIDs("sheetId=\(open)", token: bob.token) == [cys])
    }

    // MARK: Reports and hiding

    @Test func reportsAndHidingKeepListsAndCountsRight() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let song = world.songs[0]
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let b1 = try await world.comment("Rude words", song: song, by: bob)
        let c1 = try await world.comment("A reply", parent: b1, by: cy)
        let c2 = try await world.comment("Plain", song: song, by: cy)
        #expect(try await world.songCount(song) == 3)

        // Reporting: anyone signed in, once per person (a second report replaces the reason).
        #expect(
            try await server.call("POST", "/v1/comments/\(b1)/reports", json: ["reason": "spam"]).status
                == 401)
        #expect(
            try await server.call(
                "POST", "/v1/comments/\(b1)/reports", json: ["reason": "spam"], token: cy.token
            )
            .status == 200)
        #expect(
            try await server.call(
                "POST", "/v1/comments/\(b1)/reports", json: ["reason": "rude\u{07}"], token: ann.token
            ).status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/comments/\(b1)/reports", json: ["reason": String(repeating: "r", count: 201)],
                token: ann.token
            ).status == 400)
        #expect(try await server.call("POST", "/v1/comments/\(b1)/reports", token: ann.token).status == 200)
        #expect(
            try await server.call(
                "POST", "/v1/comments/\(b1)/reports", json: ["reason": "spam, really"], token: cy.token
            ).status == 200)
        for unknown in ["999999", "abc", "0"] {
            #expect(
                try await server.call("POST", "/v1/comments/\(unknown)/reports", json: [:], token: cy.token)
                    .status
                    == 404)
        }
        #expect(try await server.call("GET", "/v1/admin/reports").status == 401)
        #expect(try await server.call("GET", "/v1/admin/reports", token: bob.token).status == 403)
        let reports = try await server.call("GET", "/v1/admin/reports", token: ann.token)
        #expect(reports.status == 200, "\(reports.json)")
        #expect(reports.data["total"] as? Int == 1)
        let report = try #require(Self.items(reports).first)
        #expect((report["comment"] as? [String: Any])?["id"] as? String == b1)
        #expect(report["reportsCount"] as? Int == 2)
        #expect(Set(report["reasons"] as? [String] ?? []) == ["spam, really", "No reason given"])
        #expect(report["hidden"] as? Bool == false)

        // Hiding: administrators only, a boolean, an existing comment.
        let path = "/v1/admin/comments/\(c1)"
        #expect(try await server.call("PATCH", path, json: ["hidden": true]).status == 401)
        #expect(try await server.call("PATCH", path, json: ["hidden": true], token: bob.token).status == 403)
        #expect(try await server.call("PATCH", path, json: ["hidden": true], token: cy.token).status == 403)
        #expect(try await server.call("PATCH", path, json: ["hidden": "yes"], token: ann.token).status == 400)
        #expect(try await server.call("PATCH", path, json: [:], token: ann.token).status == 400)
        #expect(
            try await server.call("PATCH", path, body: Data("{\"hidden\"".utf8), token: ann.token).status
                == 400)
        for unknown in ["999999", "abc"] {
            #expect(
                try await server.call(
                    "PATCH", "/v1/admin/comments/\(unknown)", json: ["hidden": true], token: ann.token
                ).status == 404)
        }
        #expect(try await world.songCount(song) == 3)

        // A hidden reply leaves the lists, the song's count and its parent's replies, even for its author.
        #expect(try await server.call("PATCH", path, json: ["hidden": true], token: ann.token).status == 200)
        #expect(try await server.call("PATCH", path, json: ["hidden": true], token: ann.token).status == 200)
        #expect(try await world.songCount(song) == 2)
        #expect(try await world.get(b1)?["repliesCount"] as? Int == 0)
        #expect(try await world.listIDs("songId=\(song)", token: cy.token) == [c2, b1])
        #expect(try await world.list("songId=\(song)").data["total"] as? Int == 2)
        #expect(try await world.listIDs("parentId=\(b1)") == [])
        #expect(try await world.get(c1, token: cy.token) == nil)
        #expect(try await world.get(c1) == nil)
        #expect(try await world.write("reply to hidden", parent: c1, token: bob.token).status == 404)
        #expect(
            try await server.call("POST", "/v1/likes", json: ["commentId": c1], token: bob.token).status
                == 404)
        #expect(
            try await server.call("POST", "/v1/comments/\(c1)/reports", json: [:], token: bob.token).status
                == 404)
        #expect(try await server.call("DELETE", "/v1/comments/\(c1)", token: cy.token).status == 404)

        // Hiding the reported comment too; the report shows it hidden.
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/comments/\(b1)", json: ["hidden": true], token: ann.token
            )
            .status == 200)
        #expect(try await world.songCount(song) == 1)
        #expect(try await world.listIDs("songId=\(song)") == [c2])
        let hiddenReport = Self.items(try await server.call("GET", "/v1/admin/reports", token: ann.token))
            .first
        #expect(hiddenReport?["hidden"] as? Bool == true)

        // Showing them again restores everything.
        for id in [c1, b1] {
            #expect(
                try await server.call(
                    "PATCH", "/v1/admin/comments/\(id)", json: ["hidden": false], token: ann.token
                )
                .status == 200)
        }
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/comments/\(b1)", json: ["hidden": false], token: ann.token
            )
            .status == 200)
        #expect(try await world.songCount(song) == 3)
        #expect(try await world.get(b1)?["repliesCount"] as? Int == 1)
        #expect(try await world.listIDs("songId=\(song)") == [c2, c1, b1])
        #expect(try await world.listIDs("parentId=\(b1)") == [c1])
        #expect(try await world.get(c1, token: cy.token)?["content"] as? String == "A reply")

        // Deleting a hidden comment does not take it off the count twice.
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/comments/\(c2)", json: ["hidden": true], token: ann.token
            )
            .status == 200)
        #expect(try await world.songCount(song) == 2)
        #expect(try await server.call("DELETE", "/v1/comments/\(c2)", token: ann.token).status == 200)
        #expect(try await world.songCount(song) == 2)
        // Nor does deleting a hidden reply take it off its parent twice.
        #expect(try await server.call("PATCH", path, json: ["hidden": true], token: ann.token).status == 200)
        #expect(try await world.get(b1)?["repliesCount"] as? Int == 0)
        #expect(try await server.call("DELETE", "/v1/comments/\(c1)", token: ann.token).status == 200)
        #expect(try await world.get(b1)?["repliesCount"] as? Int == 0)
        #expect(try await world.songCount(song) == 1)
        #expect(try await world.list("songId=\(song)").data["total"] as? Int == 1)
    }

    // MARK: Counts through other deletions

    @Test func countsFollowAccountSheetAndSongDeletion() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let (s1, s2) = (world.songs[0], world.songs[1])
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        let sheet = try await world.sheet("Cy's", by: cy)
        let bobSheet = try await world.sheet("Bob's", by: bob)

        let b1 = try await world.comment("b1", song: s1, by: bob)
        let b2 = try await world.comment("b2", song: s2, by: bob)
        let b3 = try await world.comment("b3", sheet: sheet, by: bob)
        let c1 = try await world.comment("c1", song: s1, by: cy)
        let c2 = try await world.comment("c2 replies to b1", parent: b1, by: cy)
        let b4 = try await world.comment("b4 replies to c1", parent: c1, by: bob)
        let a1 = try await world.comment("a1", sheet: sheet, by: ann)
        let c3 = try await world.comment("c3 on Bob's sheet", sheet: bobSheet, by: cy)
        let cyLikesB1 = try await world.like(b1, by: cy)
        try await world.like(c1, by: bob)
        try await world.like(a1, by: bob)
        let annLikesC3 = try await world.like(c3, by: ann)
        #expect(try await world.songCount(s1) == 4)
        #expect(try await world.songCount(s2) == 1)
        #expect(try await world.sheetCount(sheet, token: cy.token) == 2)
        #expect(try await world.get(c1)?["likesCount"] as? Int == 1)
        #expect(try await world.get(c1)?["repliesCount"] as? Int == 1)
        #expect(try await world.get(a1)?["likesCount"] as? Int == 1)

        // Bob deletes his account: his comments, likes and sheets (with the comments on them) go.
        let gone = try await server.call(
            "DELETE", "/v1/users/\(bob.id)", json: ["password": "correct horse"], token: bob.token)
        #expect(gone.status == 200, "\(gone.json)")
        for id in [b1, b2, b3, b4, c3] { #expect(try await world.get(id) == nil, "\(id)") }
        #expect(try await world.songCount(s1) == 2)
        #expect(try await world.songCount(s2) == 0)
        #expect(try await world.sheetCount(sheet, token: cy.token) == 1)
        #expect(try await world.get(c1)?["likesCount"] as? Int == 0)
        #expect(try await world.get(c1)?["repliesCount"] as? Int == 0)
        #expect(try await world.get(a1)?["likesCount"] as? Int == 0)
        #expect(try await world.get(c2)?["parent"] == nil)
        #expect(try await world.listIDs("songId=\(s1)") == [c2, c1])
        #expect(try await world.list("songId=\(s1)").data["total"] as? Int == 2)
        #expect(try await world.listIDs("sheetId=\(sheet)") == [a1])
        #expect(try await world.list("songId=\(s2)").data["total"] as? Int == 0)
        #expect(try await server.call("DELETE", "/v1/likes/\(cyLikesB1)", token: cy.token).status == 404)
        #expect(try await server.call("DELETE", "/v1/likes/\(annLikesC3)", token: ann.token).status == 404)

        // Cy deletes her sheet: Ann's comment on it goes, with its like.
        let cyLikesA1 = try await world.like(a1, by: cy)
        #expect(try await server.call("DELETE", "/v1/sheets/\(sheet)", token: cy.token).status == 200)
        #expect(try await world.get(a1) == nil)
        #expect(try await world.list("sheetId=\(sheet)").status == 404)
        #expect(try await server.call("DELETE", "/v1/likes/\(cyLikesA1)", token: cy.token).status == 404)

        // A song leaves the library: its comments, their replies and likes go; the other song's stay.
        let a2 = try await world.comment("a2", song: s2, by: ann)
        let c4 = try await world.comment("c4", parent: a2, by: cy)
        let cyLikesA2 = try await world.like(a2, by: cy)
        #expect(try await world.songCount(s2) == 2)
        try FileManager.default.removeItem(atPath: world.music + "/B/Two/01.mp3")
        try await world.rescan()
        #expect(try await server.call("GET", "/v1/songs/\(s2)").status == 404)
        #expect(try await world.get(a2) == nil)
        #expect(try await world.get(c4) == nil)
        #expect(try await world.list("songId=\(s2)").status == 404)
        #expect(try await world.write("late", song: s2, token: ann.token).status == 404)
        #expect(try await server.call("DELETE", "/v1/likes/\(cyLikesA2)", token: cy.token).status == 404)
        #expect(try await world.songCount(s1) == 2)
        #expect(try await world.listIDs("songId=\(s1)") == [c2, c1])
    }

    // MARK: Order and paging

    /// Ann (who writes nothing else) and six more people write 30 comments on one song; some are liked or
    /// replied to. Both orders, paged by cursor, return every comment exactly once, as one big page does.
    @Test func cursorsPageThroughEveryCommentOnceInBothOrders() async throws {
        let world = try await World.start(people: 7)
        let server = world.server
        defer { _ = server.stop() }
        let song = world.songs[0]
        var written: [String] = []
        for round in 0..<5 {
            for person in world.people.dropFirst() {
                written.append(
                    try await world.comment("comment \(round) by \(person.id)", song: song, by: person))
            }
        }
        #expect(written.count == 30)
        // Likes: three on an old one, two on two others (a tie), one on an old one (one like still beats
        // newer comments without any); a reply scores two.
        for person in world.people[1...3] { try await world.like(written[2], by: person) }
        for person in world.people[4...5] {
            try await world.like(written[8], by: person)
            try await world.like(written[20], by: person)
        }
        try await world.like(written[0], by: world.people[6])
        let reply = try await world.comment("a reply", parent: written[5], by: world.ann)
        let replyToReply = try await world.comment("and another", parent: reply, by: world.ann)
        let all = Set(written + [reply, replyToReply])

        let everything = try await world.list("songId=\(song)&size=100")
        #expect(everything.data["total"] as? Int == 32)
        let newest = Self.ids(everything)
        #expect(newest == all.sorted { Int($0)! > Int($1)! })
        let hot = try await world.list("songId=\(song)&size=100&order=hot")
        let hottest = Self.ids(hot)
        let score = Dictionary(
            uniqueKeysWithValues: Self.items(hot).map {
                ($0["id"] as! String, ($0["likesCount"] as! Int) + 2 * ($0["repliesCount"] as! Int))
            })
        #expect(score[written[2]] == 3)
        #expect(score[written[5]] == 2)
        #expect(score[reply] == 2)
        #expect(score[written[0]] == 1)
        #expect(
            hottest
                == all.sorted { (score[$0]!, Int($0)!) > (score[$1]!, Int($1)!) },
            "\(hottest.map { "\($0):\(score[$0]!)" })")
        #expect(
            Array(hottest.prefix(6)) == [written[2], reply, written[20], written[8], written[5], written[0]])

        for order in ["new", "hot"] {
            let expected = order == "new" ? newest : hottest
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                var query = "songId=\(song)&order=\(order)&size=7"
                if let cursor {
                    query += "&cursor=\(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                }
                let page = try await world.list(query)
                #expect(page.status == 200, "\(page.json)")
                let ids = Self.ids(page)
                #expect(page.data["total"] as? Int == 32)
                #expect(page.data["size"] as? Int == 7)
                #expect(page.data["page"] as? Int == (cursor == nil ? 1 : 0))
                let next = page.data["nextCursor"] as? String
                #expect((next != nil) == (ids.count == 7), "\(order) page \(pages): \(page.json)")
                seen += ids
                cursor = next
                pages += 1
            } while cursor != nil && pages < 20
            #expect(seen == expected, "\(order)")
            #expect(Set(seen).count == seen.count)
            #expect(pages == 5)
            // Offset pages agree with the cursor's.
            let third = try await world.list("songId=\(song)&order=\(order)&size=7&page=3")
            #expect(Self.ids(third) == Array(expected[14..<21]))
            #expect(third.data["page"] as? Int == 3)
            #expect(third.data["pages"] as? Int == 5)
        }

        // Replies of one comment page by cursor too.
        let firstReplies = try await world.list("parentId=\(written[5])&size=1")
        #expect(Self.ids(firstReplies) == [reply])
        let cursor = try #require(firstReplies.data["nextCursor"] as? String)
        let after = try await world.list("parentId=\(written[5])&size=1&cursor=\(cursor)")
        #expect(after.status == 200)
        #expect(Self.ids(after) == [])
        #expect(after.data["nextCursor"] is NSNull)

        // Cursors this server did not give out.
        let nan = Double.nan.bitPattern
        let infinity = Double.infinity.bitPattern
        for (order, bad) in [
            ("new", "abc"), ("new", "0"), ("new", "-3"), ("new", "1.5"),
            ("hot", "abc"), ("hot", "x:12"), ("hot", "12:x"), ("hot", "12:0"),
            ("hot", "1:2:3"), ("hot", "-1:12"),
        ] {
            let reply = try await world.list(
                "songId=\(song)&order=\(order)&cursor=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            )
            #expect(reply.status == 400, "\(order) \(bad): \(reply.json)")
        }
        // What the contract's one cursor shape (`[score:]id`) allows is read as a position: a score where none
        // is used is passed over, none (or one that is not a number) starts from the top.
        for (order, odd) in [
            ("new", "12:34"), ("hot", "123"), ("hot", "\(nan):12"), ("hot", "\(infinity):12"),
        ] {
            let reply = try await world.list(
                "songId=\(song)&order=\(order)&cursor=\(odd.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            )
            #expect(reply.status == 200, "\(order) \(odd): \(reply.json)")
        }
    }

    /// Hot order counts only what is visible: a hidden reply no longer lifts its parent, nor does a taken-back like.
    @Test func hotOrderFollowsHiddenRepliesAndTakenBackLikes() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let song = world.songs[0]
        let older = try await world.comment("older", song: song, by: world.bob)
        let newer = try await world.comment("newer", song: song, by: world.bob)
        #expect(try await world.listIDs("songId=\(song)&order=hot") == [newer, older])

        let reply = try await world.comment("reply", parent: older, by: world.cy)
        #expect(try await world.listIDs("songId=\(song)&order=hot") == [older, reply, newer])
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/comments/\(reply)", json: ["hidden": true], token: world.ann.token
            ).status == 200)
        #expect(try await world.listIDs("songId=\(song)&order=hot") == [newer, older])
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/comments/\(reply)", json: ["hidden": false], token: world.ann.token
            ).status == 200)
        #expect(try await world.listIDs("songId=\(song)&order=hot") == [older, reply, newer])
        #expect(try await server.call("DELETE", "/v1/comments/\(reply)", token: world.cy.token).status == 200)
        #expect(try await world.listIDs("songId=\(song)&order=hot") == [newer, older])

        let like = try await world.like(older, by: world.cy)
        #expect(try await world.listIDs("songId=\(song)&order=hot") == [older, newer])
        #expect(try await server.call("DELETE", "/v1/likes/\(like)", token: world.cy.token).status == 200)
        #expect(try await world.listIDs("songId=\(song)&order=hot") == [newer, older])
    }
}
