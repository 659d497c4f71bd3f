import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sheets (playlists), "I like", collections, play history, the play queue and M3U, end to end over the
/// real server binary with a small library of one-second tracks.
@Suite struct SheetAPITests {
    /// A running server with five songs and two signed-in people: Ann (the first, so an administrator) and Bob.
    struct World {
        let server: TestServer
        let music: String
        /// Song ids by title.
        let songs: [String: String]
        let ann: String
        let annID: String
        let bob: String
        let bobID: String

        func song(_ title: String) -> String { songs[title]! }
        var ids: [String] { Self.titles.map { songs[$0]! } }

        static let titles = ["Alpha One", "Alpha Two", "Beta One", "Beta Two", "Gamma"]

        static func start() async throws -> World {
            let music = try await offPool {
                let root = temporaryFolder()
                try makeTrack(
                    root + "/Ann Band/Alpha/01.mp3", title: "Alpha One", artist: "Ann Band", album: "Alpha",
                    track: 1)
                try makeTrack(
                    root + "/Ann Band/Alpha/02.mp3", title: "Alpha Two", artist: "Ann Band", album: "Alpha",
                    track: 2, frequency: 550)
                try makeTrack(
                    root + "/Bo/Beta/01.mp3", title: "Beta One", artist: "Bo", album: "Beta", track: 1,
                    frequency: 660)
                try makeTrack(
                    root + "/Bo/Beta/02.mp3", title: "Beta Two", artist: "Bo", album: "Beta", track: 2,
                    frequency: 770)
                try makeTrack(
                    root + "/Cy/Gamma/01.mp3", title: "Gamma", artist: "Cy", album: "Gamma", track: 1,
                    frequency: 880)
                return root
            }
            let server = try await TestServer.start(.empty, extraArguments: ["--music", music])
            try await server.waitForScan()
            let list = try await server.call("GET", "/v1/songs?size=100")
            var songs: [String: String] = [:]
            for song in list.data["data"] as? [[String: Any]] ?? [] {
                songs[song["title"] as! String] = song["id"] as? String
            }
            try #require(Set(songs.keys) == Set(titles), "\(list.json)")
            let annID = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
            let bobID = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
            let ann = try await server.signIn(["email": "ann@example.com"])
            let bob = try await server.signIn(["email": "bob@example.com"])
            return World(
                server: server, music: music, songs: songs, ann: ann, annID: annID, bob: bob, bobID: bobID)
        }

        /// Makes a sheet and returns its id.
        func sheet(_ title: String, isPrivate: Bool = false, token: String, songs: [String] = []) async throws
            -> String
        {
            let made = try await server.call(
                "POST", "/v1/sheets", json: ["title": title, "isPrivate": isPrivate], token: token)
            #expect(made.status == 201, "\(made.json)")
            let id = try #require(made.data["id"] as? String)
            if !songs.isEmpty {
                let added = try await server.call(
                    "POST", "/v1/sheets/\(id)/relations", json: ["songIds": songs], token: token)
                #expect(added.status == 200, "\(added.json)")
            }
            return id
        }

        /// The song ids of a sheet in order, as its owner (or `token`) sees them.
        func songIDs(ofSheet id: String, token: String?) async throws -> [String] {
            let reply = try await server.call("GET", "/v1/sheets/\(id)/songs?size=500", token: token)
            #expect(reply.status == 200, "\(reply.json)")
            return (reply.data["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }

        func likesSheetID(of userID: String, token: String) async throws -> String {
            let created = try await server.call("GET", "/v1/users/\(userID)/create", token: token)
            let likes = (created.data["data"] as? [[String: Any]] ?? []).filter {
                $0["kind"] as? String == "likes"
            }
            #expect(likes.count == 1, "\(created.json)")
            return try #require(likes.first?["id"] as? String)
        }

        /// Starts a scan as Ann and waits for it to finish.
        func rescan() async throws { try await server.rescan(adminToken: ann) }
    }

    static func items(_ reply: Reply) -> [[String: Any]] { reply.items }
    static func ids(_ reply: Reply) -> [String] { reply.ids }
    static func songIDs(_ sheet: [String: Any]) -> [String] {
        (sheet["songs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    // MARK: Sheets and their songs

    @Test func createEditAddMoveRemoveAndDelete() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids

        let made = try await server.call(
            "POST", "/v1/sheets",
            json: [
                "title": "  Road trip  ", "detail": "For the car\nand the train",
                "tags": ["Pop", "Rock", "pop"],
            ],
            token: world.ann)
        #expect(made.status == 201, "\(made.json)")
        let id = try #require(made.data["id"] as? String)
        #expect(made.data["title"] as? String == "Road trip")
        #expect(made.data["detail"] as? String == "For the car\nand the train")
        #expect(made.data["tags"] as? [String] == ["Pop", "Rock"])
        #expect(made.data["isPrivate"] as? Bool == false)
        #expect(made.data["kind"] as? String == "sheet")
        #expect(made.data["songsCount"] as? Int == 0)
        #expect(made.data["collectsCount"] as? Int == 0)
        #expect((made.data["user"] as? [String: Any])?["id"] as? String == world.annID)

        // Adding appends in the order sent and skips songs already there or repeated in one request.
        var added = try await server.call(
            "POST", "/v1/sheets/\(id)/relations", json: ["songIds": [ids[2], ids[0]]], token: world.ann)
        #expect(added.status == 200, "\(added.json)")
        #expect(added.data["songsCount"] as? Int == 2)
        added = try await server.call(
            "POST", "/v1/sheets/\(id)/relations",
            json: ["songIds": [ids[0], ids[4], ids[4], ids[1], ids[2]]],
            token: world.ann)
        #expect(added.status == 200, "\(added.json)")
        #expect(added.data["songsCount"] as? Int == 4)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[2], ids[0], ids[4], ids[1]])
        // An icon comes from the first song's album until a cover is uploaded.
        #expect((added.data["icon"] as? String)?.hasPrefix("v1/albums/") == true)

        // One unknown song refuses the whole request.
        let unknown = try await server.call(
            "POST", "/v1/sheets/\(id)/relations", json: ["songIds": [ids[3], "999999"]], token: world.ann)
        #expect(unknown.status == 400)
        #expect(unknown.message.contains("999999"))
        for bad in [["abc"], ["-3"], ["0"], [""], [], [Int(ids[3])!], "\(ids[3])"] as [Any] {
            let reply = try await server.call(
                "POST", "/v1/sheets/\(id)/relations", json: ["songIds": bad], token: world.ann)
            #expect(reply.status == 400, "\(bad): \(reply.json)")
        }
        #expect(
            try await server.call(
                "POST", "/v1/sheets/\(id)/relations", json: ["songs": [ids[3]]], token: world.ann
            )
            .status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/sheets/\(id)/relations", body: Data("{\"songIds\": [".utf8), token: world.ann
            ).status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/sheets/\(id)/relations",
                json: ["songIds": Array(repeating: ids[3], count: 1_001)],
                token: world.ann
            ).status == 400)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[2], ids[0], ids[4], ids[1]])

        // Detail with its first songs; paging of the songs.
        let detail = try await server.call("GET", "/v1/sheets/\(id)?songs=2", token: world.ann)
        #expect(detail.status == 200)
        #expect(Self.songIDs(detail.data) == [ids[2], ids[0]])
        #expect(detail.data["songsCount"] as? Int == 4)
        let page2 = try await server.call("GET", "/v1/sheets/\(id)/songs?page=2&size=3", token: world.ann)
        #expect(Self.ids(page2) == [ids[1]])
        #expect(page2.data["total"] as? Int == 4)
        #expect(try await server.call("GET", "/v1/sheets/\(id)?songs=1001").status == 400)
        #expect(try await server.call("GET", "/v1/sheets/\(id)/songs?size=501").status == 400)
        #expect(try await server.call("GET", "/v1/sheets/\(id)/songs?page=0").status == 400)

        // Moving: to the top, down past the end (clamped), back to the middle.
        var moved = try await server.call(
            "PATCH", "/v1/sheets/\(id)/relations/\(ids[1])", json: ["position": 0], token: world.ann)
        #expect(moved.status == 200, "\(moved.json)")
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[1], ids[2], ids[0], ids[4]])
        moved = try await server.call(
            "PATCH", "/v1/sheets/\(id)/relations/\(ids[1])", json: ["position": 99], token: world.ann)
        #expect(moved.status == 200)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[2], ids[0], ids[4], ids[1]])
        moved = try await server.call(
            "PATCH", "/v1/sheets/\(id)/relations/\(ids[2])", json: ["position": 2], token: world.ann)
        #expect(moved.status == 200)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[0], ids[4], ids[2], ids[1]])
        #expect(moved.data["songsCount"] as? Int == 4)
        #expect(
            try await server.call(
                "PATCH", "/v1/sheets/\(id)/relations/\(ids[1])", json: ["position": -1], token: world.ann
            ).status == 400)
        #expect(
            try await server.call(
                "PATCH", "/v1/sheets/\(id)/relations/\(ids[1])", json: ["position": "1"], token: world.ann
            ).status == 400)
        #expect(
            try await server.call(
                "PATCH", "/v1/sheets/\(id)/relations/\(ids[1])", json: [:], token: world.ann
            )
            .status == 400)
        // A song of the library that is not in the sheet, and one that does not exist.
        #expect(
            try await server.call(
                "PATCH", "/v1/sheets/\(id)/relations/\(ids[3])", json: ["position": 0], token: world.ann
            ).status == 404)
        #expect(
            try await server.call(
                "PATCH", "/v1/sheets/\(id)/relations/abc", json: ["position": 0], token: world.ann
            ).status == 404)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[0], ids[4], ids[2], ids[1]])

        // Removing one, then several (ids not in the sheet are ignored), keeps positions dense.
        var removed = try await server.call(
            "DELETE", "/v1/sheets/\(id)/relations/\(ids[4])", token: world.ann)
        #expect(removed.status == 200, "\(removed.json)")
        #expect(removed.data["songsCount"] as? Int == 3)
        removed = try await server.call("DELETE", "/v1/sheets/\(id)/relations/\(ids[4])", token: world.ann)
        #expect(removed.status == 200)
        #expect(removed.data["songsCount"] as? Int == 3)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[0], ids[2], ids[1]])
        moved = try await server.call(
            "PATCH", "/v1/sheets/\(id)/relations/\(ids[1])", json: ["position": 1], token: world.ann)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[0], ids[1], ids[2]])
        #expect(
            try await server.call(
                "DELETE", "/v1/sheets/\(id)/relations?songIds=\(ids[0]),abc", token: world.ann
            )
            .status == 400)
        #expect(try await server.call("DELETE", "/v1/sheets/\(id)/relations", token: world.ann).status == 400)
        removed = try await server.call(
            "DELETE", "/v1/sheets/\(id)/relations?songIds=\(ids[0]),\(ids[2]),\(ids[3])", token: world.ann)
        #expect(removed.status == 200, "\(removed.json)")
        #expect(removed.data["songsCount"] as? Int == 1)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[1]])
        added = try await server.call(
            "POST", "/v1/sheets/\(id)/relations", json: ["songIds": [ids[3], ids[0]]], token: world.ann)
        #expect(added.data["songsCount"] as? Int == 3)
        #expect(try await world.songIDs(ofSheet: id, token: world.ann) == [ids[1], ids[3], ids[0]])

        // Editing: only what is sent changes; an empty detail clears it.
        var patched = try await server.call(
            "PATCH", "/v1/sheets/\(id)", json: ["title": "Road trip 2", "tags": ["Jazz"]], token: world.ann)
        #expect(patched.status == 200, "\(patched.json)")
        #expect(patched.data["title"] as? String == "Road trip 2")
        #expect(patched.data["tags"] as? [String] == ["Jazz"])
        #expect(patched.data["detail"] as? String == "For the car\nand the train")
        patched = try await server.call("PATCH", "/v1/sheets/\(id)", json: ["detail": ""], token: world.ann)
        #expect(patched.status == 200)
        #expect(patched.data["detail"] == nil)
        #expect(patched.data["title"] as? String == "Road trip 2")
        #expect(patched.data["songsCount"] as? Int == 3)

        // Deleting: gone for everyone, its songs stay in the library.
        #expect(try await server.call("DELETE", "/v1/sheets/\(id)", token: world.ann).status == 200)
        #expect(try await server.call("GET", "/v1/sheets/\(id)", token: world.ann).status == 404)
        #expect(try await server.call("GET", "/v1/sheets/\(id)/songs", token: world.ann).status == 404)
        #expect(try await server.call("DELETE", "/v1/sheets/\(id)", token: world.ann).status == 404)
        #expect(
            try await server.call(
                "POST", "/v1/sheets/\(id)/relations", json: ["songIds": [ids[0]]], token: world.ann
            )
            .status == 404)
        #expect(try await server.call("GET", "/v1/songs/\(ids[0])").status == 200)
        #expect(try await server.call("GET", "/v1/sheets/abc").status == 404)
        #expect(try await server.call("GET", "/v1/sheets/999999").status == 404)
    }

    @Test func badSheetInputsAreRefused() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let id = try await world.sheet("Fine", token: world.ann)

        let long = String(repeating: "長", count: 101)
        let hundred = String(repeating: "a", count: 100)
        let elevenTags = (1...11).map { "tag\($0)" }
        let badBodies: [(String, Any)] = [
            ("no title", [:] as [String: Any]),
            ("empty title", ["title": ""]),
            ("blank title", ["title": "   \n "]),
            ("101 characters", ["title": long]),
            ("title not a string", ["title": 5]),
            ("title null", ["title": NSNull()]),
            ("private not a bool", ["title": "x", "isPrivate": "yes"]),
            ("tags not a list", ["title": "x", "tags": "pop"]),
            ("tags not strings", ["title": "x", "tags": [1, 2]]),
            ("11 tags", ["title": "x", "tags": elevenTags]),
            ("a tag of 21 characters", ["title": "x", "tags": [String(repeating: "t", count: 21)]]),
            ("control characters", ["title": "bell\u{7}"]),
            ("direction override", ["title": "a\u{202E}b"]),
            ("newline in title", ["title": "two\nlines"]),
            ("2001-character detail", ["title": "x", "detail": String(repeating: "d", count: 2_001)]),
            ("a list", ["title", "x"]),
        ]
        for (name, body) in badBodies {
            let reply = try await server.call("POST", "/v1/sheets", json: body, token: world.ann)
            #expect(reply.status == 400, "\(name): \(reply.json)")
            #expect(!reply.message.isEmpty, "\(name)")
        }
        for raw in ["{\"title\": ", "not json", "{\"title\": \"x\"", "{\"title\": 'x'}", "\u{FEFF}", ""] {
            let reply = try await server.call("POST", "/v1/sheets", body: Data(raw.utf8), token: world.ann)
            #expect(reply.status == 400, "\(raw): \(reply.json)")
        }
        #expect(
            try await server.call(
                "POST", "/v1/sheets", body: Data("title=x".utf8), contentType: "text/plain", token: world.ann
            ).status == 415)
        // At the limits is fine: 100 characters, 10 tags (11 that differ only in case are 10).
        let atLimit = try await server.call(
            "POST", "/v1/sheets",
            json: ["title": hundred, "tags": (1...10).map { "tag\($0)" } + ["TAG1"]], token: world.ann)
        #expect(atLimit.status == 201, "\(atLimit.json)")
        #expect((atLimit.data["tags"] as? [String])?.count == 10)
        let emoji = try await server.call("POST", "/v1/sheets", json: ["title": "👩‍👩‍👧‍👦 夜空"], token: world.ann)
        #expect(emoji.status == 201, "\(emoji.json)")

        // The same rules when editing; a refused edit changes nothing.
        for (name, body) in badBodies where name != "no title" && name != "title null" {
            let reply = try await server.call("PATCH", "/v1/sheets/\(id)", json: body, token: world.ann)
            #expect(reply.status == 400, "PATCH \(name): \(reply.json)")
        }
        let unchanged = try await server.call("GET", "/v1/sheets/\(id)", token: world.ann)
        #expect(unchanged.data["title"] as? String == "Fine")
        #expect(unchanged.data["tags"] as? [String] == [])
        #expect(unchanged.data["isPrivate"] as? Bool == false)

        // Lists: unknown order, bad paging.
        #expect(try await server.call("GET", "/v1/sheets?order=colour").status == 400)
        #expect(try await server.call("GET", "/v1/sheets?page=-1").status == 400)
        #expect(try await server.call("GET", "/v1/sheets?size=abc").status == 400)
        #expect(try await server.call("GET", "/v1/users/\(world.annID)/create?size=0").status == 400)
        #expect(try await server.call("GET", "/v1/users/999999/create").status == 404)
        #expect(try await server.call("GET", "/v1/users/999999/collect").status == 404)
        #expect(try await server.call("GET", "/v1/users/abc/collect").status == 404)
    }

    @Test func onlyTheOwnerChangesASheetAndPrivateSheetsAreHidden() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids
        let open = try await world.sheet("Ann open", token: world.ann, songs: [ids[0], ids[1]])
        let hidden = try await world.sheet("Ann hidden", isPrivate: true, token: world.ann, songs: [ids[2]])
        let annLikes = try await world.likesSheetID(of: world.annID, token: world.ann)
        let png = try await Self.picture("png")
        // Ann gives both a cover, so Bob's attempts have something to break.
        for sheet in [open, hidden] {
            let cover = try await server.upload(
                "/v1/sheets/\(sheet)/cover", file: png, fileName: "c.png", token: world.ann)
            #expect(cover.status == 200, "\(cover.json)")
        }

        /// Every call that changes a sheet, with what a stranger must get for a public and a private sheet.
        func attempts(_ sheet: String) -> [(String, String, Any?)] {
            [
                ("PATCH", "/v1/sheets/\(sheet)", ["title": "Mine now"]),
                ("PATCH", "/v1/sheets/\(sheet)", ["isPrivate": false]),
                ("DELETE", "/v1/sheets/\(sheet)", nil),
                ("POST", "/v1/sheets/\(sheet)/relations", ["songIds": [ids[4]]]),
                ("DELETE", "/v1/sheets/\(sheet)/relations/\(ids[0])", nil),
                ("DELETE", "/v1/sheets/\(sheet)/relations?songIds=\(ids[0]),\(ids[2])", nil),
                ("PATCH", "/v1/sheets/\(sheet)/relations/\(ids[1])", ["position": 0]),
                ("PATCH", "/v1/sheets/\(sheet)/relations/\(ids[1])", ["position": -1]),
                ("DELETE", "/v1/sheets/\(sheet)/cover", nil),
            ]
        }
        // "I like" is private unless its owner makes it public (issue 26): to others, as if it did not exist.
        for (sheet, expected) in [(open, 403), (annLikes, 404), (hidden, 404)] {
            for (method, path, body) in attempts(sheet) {
                let reply = try await server.call(method, path, json: body, token: world.bob)
                #expect(reply.status == expected, "Bob \(method) \(path): \(reply.json)")
                // Nobody signed in: 401 before anything else.
                let anonymous = try await server.call(method, path, json: body)
                #expect(anonymous.status == 401, "anonymous \(method) \(path): \(anonymous.json)")
            }
            let cover = try await server.upload(
                "/v1/sheets/\(sheet)/cover", file: png, fileName: "c.png", token: world.bob)
            #expect(cover.status == expected, "Bob uploads a cover to \(sheet): \(cover.json)")
            #expect(
                try await server.upload("/v1/sheets/\(sheet)/cover", file: png, fileName: "c.png", token: nil)
                    .status
                    == 401)
        }
        // Nothing changed.
        let openNow = try await server.call("GET", "/v1/sheets/\(open)", token: world.ann)
        #expect(openNow.data["title"] as? String == "Ann open")
        #expect(Self.songIDs(openNow.data) == [ids[0], ids[1]])
        #expect((openNow.data["icon"] as? String)?.hasPrefix("v1/sheets/\(open)/cover") == true)
        let hiddenNow = try await server.call("GET", "/v1/sheets/\(hidden)", token: world.ann)
        #expect(hiddenNow.data["isPrivate"] as? Bool == true)
        #expect(Self.songIDs(hiddenNow.data) == [ids[2]])
        #expect((hiddenNow.data["icon"] as? String)?.hasPrefix("v1/sheets/\(hidden)/cover") == true)
        #expect(try await world.songIDs(ofSheet: annLikes, token: world.ann) == [])

        // Reading: the public sheet is anyone's to read; the private one is a 404 everywhere but for Ann.
        for token in [world.bob, nil] as [String?] {
            #expect(try await server.call("GET", "/v1/sheets/\(open)", token: token).status == 200)
            #expect(try await server.call("GET", "/v1/sheets/\(open)/songs", token: token).status == 200)
            #expect(try await server.call("GET", "/v1/sheets/\(open)/m3u", token: token).status == 200)
            #expect(try await server.call("GET", "/v1/sheets/\(open)/cover", token: token).status == 200)
            for path in ["", "/songs", "/m3u", "/cover"] {
                let reply = try await server.call("GET", "/v1/sheets/\(hidden)\(path)", token: token)
                #expect(reply.status == 404, "GET \(hidden)\(path) as \(token == nil ? "nobody" : "Bob")")
            }
            let created = try await server.call("GET", "/v1/users/\(world.annID)/create", token: token)
            #expect(Set(Self.ids(created)) == [open])
            #expect(created.data["total"] as? Int == 1)
            let list = try await server.call("GET", "/v1/sheets?size=100", token: token)
            #expect(Self.ids(list) == [open])
            #expect(list.data["total"] as? Int == 1)
        }
        // A private sheet's 404 is the same as a sheet that does not exist.
        let hiddenReply = try await server.call("GET", "/v1/sheets/\(hidden)", token: world.bob)
        let missingReply = try await server.call("GET", "/v1/sheets/999999", token: world.bob)
        #expect(hiddenReply.message == missingReply.message)
        let own = try await server.call("GET", "/v1/users/\(world.annID)/create", token: world.ann)
        #expect(Self.ids(own) == [annLikes, hidden, open])
        #expect(own.data["total"] as? Int == 3)

        // Owner turns the private sheet public: now Bob may see it but still not change it.
        let opened = try await server.call(
            "PATCH", "/v1/sheets/\(hidden)", json: ["isPrivate": false], token: world.ann)
        #expect(opened.status == 200)
        #expect(try await server.call("GET", "/v1/sheets/\(hidden)", token: world.bob).status == 200)
        #expect(
            try await server.call("PATCH", "/v1/sheets/\(hidden)", json: ["title": "x"], token: world.bob)
                .status
                == 403)
        // Anonymous creation and other writes.
        #expect(try await server.call("POST", "/v1/sheets", json: ["title": "x"]).status == 401)
        #expect(
            try await server.call("POST", "/v1/sheets", json: ["title": "x"], token: "nonsense").status == 401
        )
    }

    // MARK: I like

    @Test func everyoneHasOneILikeSheet() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids
        let annLikes = try await world.likesSheetID(of: world.annID, token: world.ann)
        let bobLikes = try await world.likesSheetID(of: world.bobID, token: world.bob)
        #expect(annLikes != bobLikes)
        let empty = try await server.call("GET", "/v1/sheets/\(annLikes)", token: world.ann)
        #expect(empty.data["kind"] as? String == "likes")
        #expect(empty.data["songsCount"] as? Int == 0)
        // It is not one of the public sheets.
        #expect(Self.ids(try await server.call("GET", "/v1/sheets")).isEmpty)

        // Newest like first; liking again changes nothing.
        for id in [ids[0], ids[3], ids[1]] {
            let liked = try await server.call("PUT", "/v1/songs/\(id)/like", token: world.ann)
            #expect(liked.status == 200, "\(liked.json)")
            #expect(liked.data["id"] as? String == annLikes)
        }
        let again = try await server.call("PUT", "/v1/songs/\(ids[3])/like", token: world.ann)
        #expect(again.data["songsCount"] as? Int == 3)
        #expect(try await world.songIDs(ofSheet: annLikes, token: world.ann) == [ids[1], ids[3], ids[0]])
        // Adding through relations puts songs first too.
        let added = try await server.call(
            "POST", "/v1/sheets/\(annLikes)/relations", json: ["songIds": [ids[4], ids[2]]], token: world.ann)
        #expect(added.status == 200)
        #expect(
            try await world.songIDs(ofSheet: annLikes, token: world.ann) == [
                ids[4], ids[2], ids[1], ids[3], ids[0],
            ])

        // Unliking removes the song and closes the gap; unliking what is not liked is harmless.
        var unliked = try await server.call("DELETE", "/v1/songs/\(ids[1])/like", token: world.ann)
        #expect(unliked.status == 200, "\(unliked.json)")
        #expect(unliked.data["songsCount"] as? Int == 4)
        unliked = try await server.call("DELETE", "/v1/songs/\(ids[1])/like", token: world.ann)
        #expect(unliked.status == 200)
        #expect(unliked.data["songsCount"] as? Int == 4)
        let liked = try await server.call("PUT", "/v1/songs/\(ids[1])/like", token: world.ann)
        #expect(liked.data["songsCount"] as? Int == 5)
        #expect(
            try await world.songIDs(ofSheet: annLikes, token: world.ann) == [
                ids[1], ids[4], ids[2], ids[3], ids[0],
            ])

        // Ann's likes are not Bob's.
        #expect(try await world.songIDs(ofSheet: bobLikes, token: world.bob) == [])
        let bobLiked = try await server.call("PUT", "/v1/songs/\(ids[2])/like", token: world.bob)
        #expect(bobLiked.data["id"] as? String == bobLikes)
        #expect(bobLiked.data["songsCount"] as? Int == 1)
        #expect(try await server.call("DELETE", "/v1/songs/\(ids[4])/like", token: world.bob).status == 200)
        #expect(try await world.songIDs(ofSheet: annLikes, token: world.ann).count == 5)

        // Songs that do not exist; nobody signed in.
        #expect(try await server.call("PUT", "/v1/songs/999999/like", token: world.ann).status == 404)
        #expect(try await server.call("DELETE", "/v1/songs/999999/like", token: world.ann).status == 404)
        #expect(try await server.call("PUT", "/v1/songs/abc/like", token: world.ann).status == 404)
        #expect(try await server.call("PUT", "/v1/songs/\(ids[0])/like").status == 401)
        #expect(try await server.call("DELETE", "/v1/songs/\(ids[0])/like").status == 401)

        // Likes sent at once all land, each once, with dense positions.
        let bobAll = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in ids + ids {
                group.addTask {
                    try await server.call("PUT", "/v1/songs/\(id)/like", token: world.bob).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(bobAll.allSatisfy { $0 == 200 }, "\(bobAll)")
        let bobSongs = try await world.songIDs(ofSheet: bobLikes, token: world.bob)
        #expect(Set(bobSongs) == Set(ids))
        #expect(bobSongs.count == 5)
        #expect(
            try await server.call("GET", "/v1/sheets/\(bobLikes)", token: world.bob).data["songsCount"]
                as? Int == 5)
        let bobPage = try await server.call(
            "GET", "/v1/sheets/\(bobLikes)/songs?page=3&size=2", token: world.bob)
        #expect(Self.ids(bobPage) == [bobSongs[4]])

        // It cannot be deleted, renamed or collected; it can be described and reordered.
        #expect(try await server.call("DELETE", "/v1/sheets/\(annLikes)", token: world.ann).status == 400)
        #expect(
            try await server.call(
                "PATCH", "/v1/sheets/\(annLikes)", json: ["title": "Faves"], token: world.ann
            )
            .status == 400)
        let described = try await server.call(
            "PATCH", "/v1/sheets/\(annLikes)", json: ["detail": "All I like"], token: world.ann)
        #expect(described.status == 200)
        #expect(described.data["title"] as? String == "I like")
        #expect(described.data["detail"] as? String == "All I like")
        let moved = try await server.call(
            "PATCH", "/v1/sheets/\(annLikes)/relations/\(ids[0])", json: ["position": 0], token: world.ann)
        #expect(moved.status == 200)
        #expect(try await world.songIDs(ofSheet: annLikes, token: world.ann).first == ids[0])
        // Private until Ann shows it; shown, it still cannot be collected.
        let hiddenLikes = try await server.call(
            "POST", "/v1/collections", json: ["sheetId": annLikes], token: world.bob)
        #expect(hiddenLikes.status == 404, "\(hiddenLikes.json)")
        #expect(
            try await server.call(
                "PATCH", "/v1/sheets/\(annLikes)", json: ["isPrivate": false], token: world.ann
            )
            .status == 200)
        let collect = try await server.call(
            "POST", "/v1/collections", json: ["sheetId": annLikes], token: world.bob)
        #expect(collect.status == 400, "\(collect.json)")
        #expect(try await server.call("GET", "/v1/users/\(world.bobID)/collect").data["total"] as? Int == 0)
        let stillThere = try await server.call("GET", "/v1/sheets/\(annLikes)", token: world.ann)
        #expect(stillThere.data["collectsCount"] as? Int == 0)
        #expect(stillThere.data["title"] as? String == "I like")
    }

    // MARK: Collections, lists and clicks

    @Test func collectionsListsAndCounts() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids
        let first = try await world.sheet("First", token: world.ann, songs: [ids[0]])
        let second = try await world.sheet("Second", token: world.ann)
        let hidden = try await world.sheet("Hidden", isPrivate: true, token: world.ann)
        let bobs = try await world.sheet("Bob's", token: world.bob)
        let carolID = try await server.signUp(["email": "carol@example.com"], nickname: "Carol")
        let carol = try await server.signIn(["email": "carol@example.com"])

        // Bob collects Ann's first sheet, twice; Carol collects it too.
        for _ in 0..<2 {
            let collected = try await server.call(
                "POST", "/v1/collections", json: ["sheetId": first], token: world.bob)
            #expect(collected.status == 201, "\(collected.json)")
            #expect(collected.data["collectsCount"] as? Int == 1)
            #expect(collected.data["collected"] as? Bool == true)
        }
        let carolCollects = try await server.call(
            "POST", "/v1/collections", json: ["sheetId": first], token: carol)
        #expect(carolCollects.data["collectsCount"] as? Int == 2)
        let collectsSecond = try await server.call(
            "POST", "/v1/collections", json: ["sheetId": second], token: carol)
        #expect(collectsSecond.data["collectsCount"] as? Int == 1)

        // Refusals: one's own sheet, a private one, one that does not exist, bad bodies, nobody signed in.
        let ownSheet = try await server.call(
            "POST", "/v1/collections", json: ["sheetId": first], token: world.ann)
        #expect(ownSheet.status == 400, "\(ownSheet.json)")
        #expect(
            try await server.call("POST", "/v1/collections", json: ["sheetId": hidden], token: world.bob)
                .status
                == 404)
        #expect(
            try await server.call("POST", "/v1/collections", json: ["sheetId": "999999"], token: world.bob)
                .status
                == 404)
        #expect(
            try await server.call("POST", "/v1/collections", json: ["sheetId": "abc"], token: world.bob)
                .status
                == 400)
        #expect(
            try await server.call("POST", "/v1/collections", json: ["sheetId": Int(first)!], token: world.bob)
                .status == 400)
        #expect(try await server.call("POST", "/v1/collections", json: [:], token: world.bob).status == 400)
        #expect(
            try await server.call("POST", "/v1/collections", body: Data("{".utf8), token: world.bob).status
                == 400)
        #expect(try await server.call("POST", "/v1/collections", json: ["sheetId": first]).status == 401)
        #expect(try await server.call("DELETE", "/v1/collections/\(first)").status == 401)

        // What each sees.
        let seenByBob = try await server.call("GET", "/v1/sheets/\(first)", token: world.bob)
        #expect(seenByBob.data["collected"] as? Bool == true)
        #expect(seenByBob.data["collectsCount"] as? Int == 2)
        let seenByAnn = try await server.call("GET", "/v1/sheets/\(first)", token: world.ann)
        #expect(seenByAnn.data["collected"] as? Bool == false)
        let seenByNobody = try await server.call("GET", "/v1/sheets/\(first)")
        #expect(seenByNobody.data["collected"] == nil)
        let bobCollects = try await server.call("GET", "/v1/users/\(world.bobID)/collect")
        #expect(Self.ids(bobCollects) == [first])
        let carolList = try await server.call("GET", "/v1/users/\(carolID)/collect", token: world.bob)
        #expect(Self.ids(carolList) == [second, first])
        #expect(carolList.data["total"] as? Int == 2)

        // Public lists: newest first; hot by collections. Private and "I like" sheets never show.
        let new = try await server.call("GET", "/v1/sheets?order=new", token: world.bob)
        #expect(Self.ids(new) == [bobs, second, first])
        #expect(new.data["total"] as? Int == 3)
        let hot = try await server.call("GET", "/v1/sheets?order=hot&size=2")
        #expect(Self.ids(hot) == [first, second])
        #expect(hot.data["total"] as? Int == 3)
        let hotPage2 = try await server.call("GET", "/v1/sheets?order=hot&size=2&page=2")
        #expect(Self.ids(hotPage2) == [bobs])

        // Uncollecting: the count falls once; a second time is a 404; so is someone else's id.
        let uncollect = try await server.call("DELETE", "/v1/collections/\(first)", token: carol)
        #expect(uncollect.status == 200, "\(uncollect.json)")
        #expect(try await server.call("DELETE", "/v1/collections/\(first)", token: carol).status == 404)
        #expect(try await server.call("DELETE", "/v1/collections/\(bobs)", token: carol).status == 404)
        #expect(try await server.call("DELETE", "/v1/collections/\(hidden)", token: world.bob).status == 404)
        #expect(try await server.call("DELETE", "/v1/collections/999999", token: world.bob).status == 404)
        #expect(try await server.call("DELETE", "/v1/collections/abc", token: world.bob).status == 404)
        #expect(try await server.call("GET", "/v1/sheets/\(first)").data["collectsCount"] as? Int == 1)
        // Ann uncollecting her own sheet must not touch Bob's collection.
        #expect(try await server.call("DELETE", "/v1/collections/\(first)", token: world.ann).status == 404)
        #expect(try await server.call("GET", "/v1/sheets/\(first)").data["collectsCount"] as? Int == 1)

        // Making a sheet private takes it from everyone's collections; public again, the count stays 0.
        let madePrivate = try await server.call(
            "PATCH", "/v1/sheets/\(first)", json: ["isPrivate": true], token: world.ann)
        #expect(madePrivate.status == 200)
        #expect(madePrivate.data["collectsCount"] as? Int == 0)
        #expect(Self.ids(try await server.call("GET", "/v1/users/\(world.bobID)/collect")).isEmpty)
        #expect(try await server.call("GET", "/v1/users/\(world.bobID)/collect").data["total"] as? Int == 0)
        #expect(try await server.call("DELETE", "/v1/collections/\(first)", token: world.bob).status == 404)
        let madePublic = try await server.call(
            "PATCH", "/v1/sheets/\(first)", json: ["isPrivate": false], token: world.ann)
        #expect(madePublic.data["collectsCount"] as? Int == 0)
        let afterwards = try await server.call("GET", "/v1/sheets/\(first)", token: world.bob)
        #expect(afterwards.data["collected"] as? Bool == false)
        let recollect = try await server.call(
            "POST", "/v1/collections", json: ["sheetId": first], token: world.bob)
        #expect(recollect.data["collectsCount"] as? Int == 1)

        // Deleting a sheet takes it from collections too.
        #expect(try await server.call("DELETE", "/v1/sheets/\(second)", token: world.ann).status == 200)
        let carolAfter = try await server.call("GET", "/v1/users/\(carolID)/collect")
        #expect(Self.ids(carolAfter).isEmpty)
        #expect(carolAfter.data["total"] as? Int == 0)

        // Clicks: every view by someone other than the owner counts, the owner's do not.
        let before = try await server.call("GET", "/v1/sheets/\(bobs)", token: world.bob)
        let clicks = try #require(before.data["clicksCount"] as? Int)
        _ = try await server.call("GET", "/v1/sheets/\(bobs)", token: world.bob)
        _ = try await server.call("GET", "/v1/sheets/\(bobs)", token: world.ann)
        _ = try await server.call("GET", "/v1/sheets/\(bobs)")
        let after = try await server.call("GET", "/v1/sheets/\(bobs)", token: world.bob)
        #expect(after.data["clicksCount"] as? Int == clicks + 2)
    }

    // MARK: Covers and M3U

    /// A small picture made with ffmpeg.
    static func picture(_ ext: String) async throws -> Data {
        try await offPool {
            let path = temporaryFolder() + "/picture.\(ext)"
            try FFmpeg.installed!.run(["-f", "lavfi", "-i", "color=c=red:size=64x64", "-frames:v", "1", path])
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }

    @Test func coversAreCheckedAndServed() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let id = try await world.sheet("Covered", token: world.ann, songs: [world.ids[0]])
        #expect(try await server.call("GET", "/v1/sheets/\(id)/cover").status == 404)

        for ext in ["png", "jpg", "webp"] {
            let uploaded = try await server.upload(
                "/v1/sheets/\(id)/cover", file: try await Self.picture(ext), fileName: "cover.\(ext)",
                token: world.ann)
            #expect(uploaded.status == 200, "\(ext): \(uploaded.json)")
            #expect((uploaded.data["icon"] as? String)?.hasPrefix("v1/sheets/\(id)/cover?v=") == true)
            let (status, body, _) = try await server.request("/v1/sheets/\(id)/cover")
            #expect(status == 200)
            #expect(body.prefix(2) == Data([0xFF, 0xD8]), "\(ext) becomes a JPEG")
        }
        // Judged by content, not by name.
        let text = try await server.upload(
            "/v1/sheets/\(id)/cover", file: Data("<svg></svg>".utf8), fileName: "cover.png", token: world.ann)
        #expect(text.status == 415, "\(text.json)")
        let tiny = try await server.upload(
            "/v1/sheets/\(id)/cover", file: Data([0x89, 0x50, 0x4E, 0x47]), fileName: "c.png",
            token: world.ann)
        #expect(tiny.status == 415, "\(tiny.json)")
        // A PNG signature with nothing readable after it.
        let broken = try await server.upload(
            "/v1/sheets/\(id)/cover",
            file: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 200),
            fileName: "c.png", token: world.ann)
        #expect(broken.status == 400, "\(broken.json)")
        #expect(
            try await server.call("POST", "/v1/sheets/\(id)/cover", json: ["file": "x"], token: world.ann)
                .status
                == 400)
        #expect(try await server.request("/v1/sheets/\(id)/cover").0 == 200)

        let removed = try await server.call("DELETE", "/v1/sheets/\(id)/cover", token: world.ann)
        #expect(removed.status == 200)
        #expect((removed.data["icon"] as? String)?.hasPrefix("v1/albums/") == true)
        #expect(try await server.call("GET", "/v1/sheets/\(id)/cover").status == 404)
        #expect(try await server.call("DELETE", "/v1/sheets/\(id)/cover", token: world.ann).status == 200)
        #expect(
            try await server.upload(
                "/v1/sheets/999999/cover", file: try await Self.picture("png"), fileName: "c.png",
                token: world.ann
            ).status == 404)

        // A deleted sheet's cover goes with it.
        _ = try await server.upload(
            "/v1/sheets/\(id)/cover", file: try await Self.picture("png"), fileName: "c.png", token: world.ann
        )
        #expect(try await server.call("DELETE", "/v1/sheets/\(id)", token: world.ann).status == 200)
        let covers =
            (try? FileManager.default.contentsOfDirectory(atPath: server.dataFolder + "/sheet-covers")) ?? []
        #expect(covers.isEmpty, "\(covers)")
    }

    @Test func m3uExportAndImport() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids
        let id = try await world.sheet("Road trip", token: world.ann, songs: [ids[3], ids[0]])

        let (status, body, response) = try await server.request("/v1/sheets/\(id)/m3u")
        #expect(status == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("audio/x-mpegurl") == true)
        #expect(response.value(forHTTPHeaderField: "Content-Disposition")?.contains("Road_trip.m3u8") == true)
        let text = String(decoding: body, as: UTF8.self)
        #expect(
            text == """
                #EXTM3U
                #EXTINF:1,Bo - Beta Two
                /v1/songs/\(ids[3])/stream
                #EXTINF:1,Ann Band - Alpha One
                /v1/songs/\(ids[0])/stream

                """)

        // A title that is not plain ASCII: the header stays ASCII, the name travels percent-encoded.
        let cjk = try await world.sheet("夜空 Mix 2", token: world.ann, songs: [ids[4]])
        let (cjkStatus, _, cjkResponse) = try await server.request("/v1/sheets/\(cjk)/m3u")
        #expect(cjkStatus == 200)
        let disposition = try #require(cjkResponse.value(forHTTPHeaderField: "Content-Disposition"))
        #expect(disposition.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }, "\(disposition)")
        #expect(disposition.contains("filename*=UTF-8''%E5%A4%9C%E7%A9%BA%20Mix%202.m3u8"), "\(disposition)")
        #expect(disposition.contains("Mix"), "\(disposition)")

        // Bob imports Ann's export privately: the same songs in the same order, his own sheet.
        let imported = try await server.call(
            "POST", "/v1/sheets/import?title=Copy%20of%20Ann%27s&private=true", body: body,
            contentType: "audio/x-mpegurl", token: world.bob)
        #expect(imported.status == 201, "\(imported.json)")
        #expect(imported.data["matched"] as? Int == 2)
        #expect(imported.data["unmatched"] as? [String] == [])
        let sheet = try #require(imported.data["sheet"] as? [String: Any])
        let copy = try #require(sheet["id"] as? String)
        #expect(sheet["title"] as? String == "Copy of Ann's")
        #expect(sheet["isPrivate"] as? Bool == true)
        #expect(sheet["songsCount"] as? Int == 2)
        #expect((sheet["user"] as? [String: Any])?["id"] as? String == world.bobID)
        #expect(try await world.songIDs(ofSheet: copy, token: world.bob) == [ids[3], ids[0]])
        #expect(try await server.call("GET", "/v1/sheets/\(copy)", token: world.ann).status == 404)
        #expect(try await server.call("GET", "/v1/sheets/\(copy)/m3u", token: world.ann).status == 404)
        #expect(try await server.call("GET", "/v1/sheets/\(copy)/m3u", token: world.bob).status == 200)

        // Another player's list: full paths, "Artist - Title", file names, CRLF and a BOM; a duplicate
        // and entries not in the library.
        let foreign =
            "\u{FEFF}#EXTM3U\r\n#EXTINF:1,Cy - Gamma\r\nD:\\Music\\Cy\\Gamma.mp3\r\n"
            + "\(world.music)/Bo/Beta/01.mp3\r\n"
            + "#EXTINF:200,Nobody - Not Here\r\nhttp://elsewhere/x.mp3\r\n"
            + "/somewhere/else/02 - Alpha Two.flac\r\n"
            + "#EXTINF:1,Cy - Gamma\r\nanother/copy.mp3\r\n"
            + "missing.ogg\r\n"
        let second = try await server.call(
            "POST", "/v1/sheets/import", body: Data(foreign.utf8), contentType: "text/plain", token: world.ann
        )
        #expect(second.status == 201, "\(second.json)")
        #expect(second.data["matched"] as? Int == 3)
        #expect(second.data["unmatched"] as? [String] == ["Nobody - Not Here", "missing.ogg"])
        let secondSheet = try #require(second.data["sheet"] as? [String: Any])
        #expect(secondSheet["title"] as? String == "Imported playlist")
        #expect(secondSheet["isPrivate"] as? Bool == false)
        #expect(secondSheet["songsCount"] as? Int == 3)
        let secondID = try #require(secondSheet["id"] as? String)
        #expect(try await world.songIDs(ofSheet: secondID, token: nil) == [ids[4], ids[2], ids[1]])

        // As a multipart file too.
        let asFile = try await server.upload(
            "/v1/sheets/import?title=Upload", file: Data("#EXTM3U\n/v1/songs/\(ids[2])/stream\n".utf8),
            fileName: "list.m3u8", token: world.ann)
        #expect(asFile.status == 201, "\(asFile.json)")
        #expect(asFile.data["matched"] as? Int == 1)

        // Refusals.
        #expect(
            try await server.call(
                "POST", "/v1/sheets/import", body: Data(text.utf8), contentType: "text/plain"
            )
            .status == 401)
        for empty in ["", "#EXTM3U\n# nothing\n", "\u{FEFF}\r\n"] {
            let reply = try await server.call(
                "POST", "/v1/sheets/import", body: Data(empty.utf8), contentType: "text/plain",
                token: world.ann)
            #expect(reply.status == 400, "\(empty.debugDescription): \(reply.json)")
        }
        let longTitle = String(repeating: "x", count: 101)
        #expect(
            try await server.call(
                "POST", "/v1/sheets/import?title=\(longTitle)", body: Data(text.utf8),
                contentType: "text/plain",
                token: world.ann
            ).status == 400)
        let tooMany = String(repeating: "a.mp3\n", count: 10_001)
        #expect(
            try await server.call(
                "POST", "/v1/sheets/import", body: Data(tooMany.utf8), contentType: "text/plain",
                token: world.ann
            ).status == 400)
        // Refusals made no sheets.
        let annSheets = try await server.call("GET", "/v1/users/\(world.annID)/create", token: world.ann)
        #expect(annSheets.data["total"] as? Int == 5)
        #expect(try await server.call("GET", "/v1/sheets/999999/m3u").status == 404)
    }

    // MARK: Play history and the queue

    @Test func playsCountOncePerHalfMinuteAndFeedTheCatalog() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids

        // What the server says it counted, per person and song: a first play always; a repeat only once half a
        // minute has passed, which a loaded machine may take between two requests (TimeWindowTests has the
        // window's edges), so the counts below follow the answers.
        var counted: [String: Int] = [:]
        func play(_ id: String, _ token: String) async throws -> Bool? {
            let reply = try await server.call("POST", "/v1/plays", json: ["songId": id], token: token)
            #expect(reply.status == 201, "\(reply.json)")
            let wasCounted = reply.data["counted"] as? Bool
            if wasCounted == true { counted[token + id, default: 0] += 1 }
            return wasCounted
        }
        #expect(try await play(ids[2], world.ann) == true)
        #expect(try await play(ids[2], world.ann) != nil)
        #expect(try await play(ids[2], world.ann) != nil)
        #expect(try await play(ids[4], world.ann) == true)
        // Per person: Bob's first play of the same song counts.
        #expect(try await play(ids[2], world.bob) == true)
        #expect(try await play(ids[2], world.bob) != nil)
        let annsPlays = counted[world.ann + ids[2], default: 0]
        let everyonesPlays = annsPlays + counted[world.bob + ids[2], default: 0]

        let history = try await server.call("GET", "/v1/plays", token: world.ann)
        #expect(history.status == 200)
        #expect(history.data["total"] as? Int == 2)
        let rows = Self.items(history)
        #expect(
            Set(rows.compactMap { ($0["song"] as? [String: Any])?["id"] as? String }) == [ids[2], ids[4]])
        #expect(rows.allSatisfy { $0["lastPlayedAt"] is String })
        #expect(
            rows.map { ($0["song"] as? [String: Any])?["id"] as? String == ids[2] ? annsPlays : 1 }
                == rows.map { $0["playsCount"] as? Int ?? 0 })
        let most = try await server.call("GET", "/v1/plays?order=most", token: world.bob)
        #expect(Self.items(most).count == 1)
        #expect((Self.items(most).first?["song"] as? [String: Any])?["id"] as? String == ids[2])

        // The catalog: plays of everyone, counted ones only.
        let song = try await server.call("GET", "/v1/songs/\(ids[2])")
        #expect(song.data["playsCount"] as? Int == everyonesPlays)
        #expect(try await server.call("GET", "/v1/songs/\(ids[4])").data["playsCount"] as? Int == 1)
        #expect(try await server.call("GET", "/v1/songs/\(ids[0])").data["playsCount"] as? Int == 0)
        let played = try await server.call("GET", "/v1/songs?sort=played&size=2")
        #expect(Set(Self.ids(played)) == [ids[2], ids[4]])
        let plays = try await server.call("GET", "/v1/songs?sort=plays&size=1")
        #expect(Self.ids(plays) == [ids[2]])

        // Refusals.
        #expect(try await server.call("POST", "/v1/plays", json: ["songId": ids[0]]).status == 401)
        #expect(try await server.call("GET", "/v1/plays").status == 401)
        #expect(try await server.call("DELETE", "/v1/plays").status == 401)
        #expect(
            try await server.call("POST", "/v1/plays", json: ["songId": "999999"], token: world.ann).status
                == 404)
        #expect(
            try await server.call("POST", "/v1/plays", json: ["songId": "abc"], token: world.ann).status
                == 400)
        #expect(
            try await server.call("POST", "/v1/plays", json: ["songId": Int(ids[0])!], token: world.ann)
                .status
                == 400)
        #expect(try await server.call("POST", "/v1/plays", json: [:], token: world.ann).status == 400)
        #expect(try await server.call("GET", "/v1/plays?order=oldest", token: world.ann).status == 400)
        #expect(try await server.call("GET", "/v1/songs/\(ids[0])").data["playsCount"] as? Int == 0)

        // Clearing is one's own history only; the catalog keeps its counts.
        #expect(try await server.call("DELETE", "/v1/plays", token: world.ann).status == 200)
        #expect(try await server.call("GET", "/v1/plays", token: world.ann).data["total"] as? Int == 0)
        #expect(try await server.call("GET", "/v1/plays", token: world.bob).data["total"] as? Int == 1)
        #expect(
            try await server.call("GET", "/v1/songs/\(ids[2])").data["playsCount"] as? Int == everyonesPlays)
    }

    @Test func theQueueIsPerPersonAndVersioned() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids

        let empty = try await server.call("GET", "/v1/queue", token: world.ann)
        #expect(empty.status == 200)
        #expect(empty.data["songIds"] as? [String] == [])
        #expect(empty.data["version"] as? Int == 0)
        #expect(empty.data["currentIndex"] == nil)

        let saved = try await server.call(
            "PUT", "/v1/queue",
            json: [
                "songIds": [ids[1], ids[3], ids[1]], "currentIndex": 2, "position": 1500,
                "loopMode": "shuffle",
            ],
            token: world.ann)
        #expect(saved.status == 200, "\(saved.json)")
        #expect(saved.data["songIds"] as? [String] == [ids[1], ids[3], ids[1]])
        #expect(saved.data["currentIndex"] as? Int == 2)
        #expect(saved.data["position"] as? Int == 1500)
        #expect(saved.data["loopMode"] as? String == "shuffle")
        #expect(saved.data["version"] as? Int == 1)

        // A save based on the current version works; one based on an older version is refused.
        let next = try await server.call(
            "PUT", "/v1/queue", json: ["songIds": [ids[0]], "baseVersion": 1, "loopMode": "single"],
            token: world.ann)
        #expect(next.status == 200, "\(next.json)")
        #expect(next.data["version"] as? Int == 2)
        let stale = try await server.call(
            "PUT", "/v1/queue", json: ["songIds": [ids[4]], "baseVersion": 1], token: world.ann)
        #expect(stale.status == 409, "\(stale.json)")
        let ahead = try await server.call(
            "PUT", "/v1/queue", json: ["songIds": [ids[4]], "baseVersion": 7], token: world.ann)
        #expect(ahead.status == 409)
        let now = try await server.call("GET", "/v1/queue", token: world.ann)
        #expect(now.data["songIds"] as? [String] == [ids[0]])
        #expect(now.data["version"] as? Int == 2)
        #expect(now.data["loopMode"] as? String == "single")
        #expect(now.data["currentIndex"] == nil)
        #expect(now.data["position"] as? Int == 0)

        // Bob's queue is his own, with its own versions.
        let bobs = try await server.call("GET", "/v1/queue", token: world.bob)
        #expect(bobs.data["songIds"] as? [String] == [])
        #expect(bobs.data["version"] as? Int == 0)
        let bobSaved = try await server.call(
            "PUT", "/v1/queue", json: ["songIds": [ids[4]], "baseVersion": 0], token: world.bob)
        #expect(bobSaved.status == 200, "\(bobSaved.json)")
        #expect(bobSaved.data["version"] as? Int == 1)
        #expect(
            try await server.call("GET", "/v1/queue", token: world.ann).data["songIds"] as? [String] == [
                ids[0]
            ])

        // Bad queues change nothing.
        let bad: [(String, [String: Any])] = [
            ("unknown song", ["songIds": [ids[0], "999999"]]),
            ("not an id", ["songIds": ["abc"]]),
            ("zero", ["songIds": ["0"]]),
            ("numbers", ["songIds": [Int(ids[0])!]]),
            ("no list", ["currentIndex": 0]),
            ("index past the end", ["songIds": [ids[0]], "currentIndex": 1]),
            ("negative index", ["songIds": [ids[0]], "currentIndex": -1]),
            ("index into nothing", ["songIds": [], "currentIndex": 0]),
            ("negative position", ["songIds": [ids[0]], "currentIndex": 0, "position": -1]),
            ("position of days", ["songIds": [ids[0]], "currentIndex": 0, "position": 86_400_001]),
            ("unknown loop mode", ["songIds": [ids[0]], "loopMode": "repeat"]),
            ("100001 songs", ["songIds": Array(repeating: ids[0], count: 100_001)]),
            ("base version not a number", ["songIds": [ids[0]], "baseVersion": "2"]),
        ]
        for (name, body) in bad {
            let reply = try await server.call("PUT", "/v1/queue", json: body, token: world.ann)
            #expect(reply.status == 400, "\(name): \(reply.json)")
        }
        #expect(
            try await server.call("PUT", "/v1/queue", body: Data("{\"songIds\":".utf8), token: world.ann)
                .status
                == 400)
        #expect(try await server.call("PUT", "/v1/queue", json: ["songIds": [ids[0]]]).status == 401)
        #expect(try await server.call("GET", "/v1/queue").status == 401)
        let unchanged = try await server.call("GET", "/v1/queue", token: world.ann)
        #expect(unchanged.data["version"] as? Int == 2)
        #expect(unchanged.data["songIds"] as? [String] == [ids[0]])

        // Two devices saving from the same version at once: exactly one wins.
        let base = try #require(unchanged.data["version"] as? Int)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await server.call(
                        "PUT", "/v1/queue", json: ["songIds": [ids[index]], "baseVersion": base],
                        token: world.ann
                    ).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.sorted() == [200, 409, 409, 409])
        let winner = try await server.call("GET", "/v1/queue", token: world.ann)
        #expect(winner.data["version"] as? Int == base + 1)
        #expect((winner.data["songIds"] as? [String])?.count == 1)

        // At the limit: 5000 songs, and an empty queue.
        let full = try await server.call(
            "PUT", "/v1/queue",
            json: ["songIds": Array(repeating: ids[0], count: 5_000), "currentIndex": 4_999],
            token: world.ann)
        #expect(full.status == 200, "\(full.json)")
        #expect((full.data["songIds"] as? [String])?.count == 5_000)
        #expect(full.data["currentIndex"] as? Int == 4_999)
        let cleared = try await server.call("PUT", "/v1/queue", json: ["songIds": []], token: world.ann)
        #expect(cleared.status == 200)
        #expect(cleared.data["songIds"] as? [String] == [])
        #expect(cleared.data["version"] as? Int == 5)
    }

    // MARK: Songs that leave the library

    @Test func aSongRemovedFromTheLibraryLeavesSheetsQueueAndHistory() async throws {
        let world = try await World.start()
        let server = world.server
        defer { _ = server.stop() }
        let ids = world.ids
        let gone = world.song("Beta One")
        #expect(gone == ids[2])

        let sheet = try await world.sheet("Mix", token: world.ann, songs: [ids[0], ids[2], ids[4], ids[1]])
        let bobSheet = try await world.sheet("Bob mix", isPrivate: true, token: world.bob, songs: [ids[2]])
        let annLikes = try await world.likesSheetID(of: world.annID, token: world.ann)
        for id in [ids[1], ids[2], ids[3]] {
            #expect(try await server.call("PUT", "/v1/songs/\(id)/like", token: world.ann).status == 200)
        }
        for id in [ids[2], ids[0]] {
            #expect(
                try await server.call("POST", "/v1/plays", json: ["songId": id], token: world.ann).status
                    == 201)
        }
        let queued = try await server.call(
            "PUT", "/v1/queue",
            json: ["songIds": [ids[0], ids[2], ids[4], ids[2]], "currentIndex": 2, "position": 700],
            token: world.ann)
        #expect(queued.status == 200)
        let bobQueued = try await server.call(
            "PUT", "/v1/queue", json: ["songIds": [ids[2]], "currentIndex": 0, "position": 300],
            token: world.bob)
        #expect(bobQueued.status == 200)

        // One file goes; another moves to a new folder and keeps its id, so it stays wherever it was.
        try FileManager.default.removeItem(atPath: world.music + "/Bo/Beta/01.mp3")
        try FileManager.default.createDirectory(
            atPath: world.music + "/Moved", withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: world.music + "/Cy/Gamma/01.mp3", toPath: world.music + "/Moved/g.mp3")
        try await world.rescan()
        let report =
            try await server.call("GET", "/v1/library/scan", token: world.ann).data["lastReport"]
            as? [String: Any]
        #expect(report?["removed"] as? Int == 1, "\(report ?? [:])")
        #expect(report?["moved"] as? Int == 1, "\(report ?? [:])")
        #expect(try await server.call("GET", "/v1/songs/\(gone)").status == 404)
        #expect(try await server.call("GET", "/v1/songs/\(ids[4])").status == 200)

        // Sheets: the song is gone, the count is right, the order of the rest kept.
        let mix = try await server.call("GET", "/v1/sheets/\(sheet)", token: world.ann)
        #expect(mix.data["songsCount"] as? Int == 3)
        #expect(Self.songIDs(mix.data) == [ids[0], ids[4], ids[1]])
        let mixPage = try await server.call(
            "GET", "/v1/sheets/\(sheet)/songs?size=2&page=2", token: world.ann)
        #expect(Self.ids(mixPage) == [ids[1]])
        #expect(mixPage.data["total"] as? Int == 3)
        let likes = try await server.call("GET", "/v1/sheets/\(annLikes)", token: world.ann)
        #expect(likes.data["songsCount"] as? Int == 2)
        #expect(Self.songIDs(likes.data) == [ids[3], ids[1]])
        let bobs = try await server.call("GET", "/v1/sheets/\(bobSheet)", token: world.bob)
        #expect(bobs.data["songsCount"] as? Int == 0)
        #expect(Self.songIDs(bobs.data) == [])
        let listed = try await server.call("GET", "/v1/users/\(world.annID)/create", token: world.ann)
        let counts = Dictionary(
            uniqueKeysWithValues: Self.items(listed).map { ($0["id"] as! String, $0["songsCount"] as? Int) })
        #expect(counts[sheet] == 3)
        #expect(counts[annLikes] == 2)

        // The sheet still works where the song was: moving, adding, removing, liking.
        var moved = try await server.call(
            "PATCH", "/v1/sheets/\(sheet)/relations/\(ids[1])", json: ["position": 1], token: world.ann)
        #expect(moved.status == 200, "\(moved.json)")
        #expect(try await world.songIDs(ofSheet: sheet, token: world.ann) == [ids[0], ids[1], ids[4]])
        moved = try await server.call(
            "PATCH", "/v1/sheets/\(sheet)/relations/\(ids[0])", json: ["position": 5], token: world.ann)
        #expect(try await world.songIDs(ofSheet: sheet, token: world.ann) == [ids[1], ids[4], ids[0]])
        let added = try await server.call(
            "POST", "/v1/sheets/\(sheet)/relations", json: ["songIds": [ids[3]]], token: world.ann)
        #expect(added.data["songsCount"] as? Int == 4)
        #expect(
            try await world.songIDs(ofSheet: sheet, token: world.ann) == [ids[1], ids[4], ids[0], ids[3]])
        let readd = try await server.call(
            "POST", "/v1/sheets/\(sheet)/relations", json: ["songIds": [gone]], token: world.ann)
        #expect(readd.status == 400)
        #expect(try await server.call("PUT", "/v1/songs/\(gone)/like", token: world.ann).status == 404)
        let liked = try await server.call("PUT", "/v1/songs/\(ids[4])/like", token: world.ann)
        #expect(liked.data["songsCount"] as? Int == 3)
        #expect(try await world.songIDs(ofSheet: annLikes, token: world.ann) == [ids[4], ids[3], ids[1]])
        let unliked = try await server.call("DELETE", "/v1/songs/\(ids[3])/like", token: world.ann)
        #expect(unliked.data["songsCount"] as? Int == 2)
        #expect(try await world.songIDs(ofSheet: annLikes, token: world.ann) == [ids[4], ids[1]])

        // Queues: the song left both; Ann's current song stays current at its new place, Bob's current was the one that went.
        let queue = try await server.call("GET", "/v1/queue", token: world.ann)
        #expect(queue.data["songIds"] as? [String] == [ids[0], ids[4]])
        #expect(queue.data["currentIndex"] as? Int == 1)
        #expect(queue.data["position"] as? Int == 700)
        let version = try #require(queue.data["version"] as? Int)
        let resaved = try await server.call(
            "PUT", "/v1/queue", json: ["songIds": [ids[4]], "currentIndex": 0, "baseVersion": version],
            token: world.ann)
        #expect(resaved.status == 200, "\(resaved.json)")
        let bobQueue = try await server.call("GET", "/v1/queue", token: world.bob)
        #expect(bobQueue.data["songIds"] as? [String] == [])
        #expect(bobQueue.data["currentIndex"] == nil)
        #expect(bobQueue.data["position"] as? Int == 0)

        // History: only the song that remains, and the total agrees.
        let history = try await server.call("GET", "/v1/plays", token: world.ann)
        #expect(history.data["total"] as? Int == 1)
        #expect(
            Self.items(history).compactMap { ($0["song"] as? [String: Any])?["id"] as? String } == [ids[0]])
    }
}
