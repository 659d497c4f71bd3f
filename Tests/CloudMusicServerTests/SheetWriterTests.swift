import Foundation
import Storage
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sheet songs and "I like" changed through Subsonic go through the sheets' one writer: a star is one likes
/// event per song that changed, and a playlist edit is one transaction in the order the app asked for.
@Suite struct SheetWriterTests {
    /// Ann's Subsonic app on the five-song world of `SheetAPITests`.
    struct App {
        let world: SheetAPITests.World
        let appPassword: String

        static func start() async throws -> App {
            let world = try await SheetAPITests.World.start()
            let made = try await world.server.call(
                "POST", "/v1/users/\(world.annID)/app_passwords", json: ["name": "phone"], token: world.ann)
            #expect(made.status == 201, "\(made.json)")
            return App(world: world, appPassword: try #require(made.data["password"] as? String))
        }

        /// `/rest/<method>` as Ann, JSON; the `subsonic-response`.
        func rest(_ method: String, _ parameters: [(String, String)]) async throws -> [String: Any] {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let query =
                ([("u", "Ann"), ("p", appPassword), ("v", "1.16.1"), ("c", "tests"), ("f", "json")]
                + parameters)
                .map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
                .joined(separator: "&")
            let url = URL(string: "http://127.0.0.1:\(world.server.port)/rest/\(method)?\(query)")!
            let (data, response) = try await URLSession.shared.data(from: url)
            #expect((response as! HTTPURLResponse).statusCode == 200)
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            return object?["subsonic-response"] as? [String: Any] ?? [:]
        }

        /// A call that must succeed.
        @discardableResult
        func ok(
            _ method: String, _ parameters: [(String, String)],
            sourceLocation: SourceLocation = #_sourceLocation
        )
            async throws -> [String: Any]
        {
            let answer = try await rest(method, parameters)
            #expect(
                answer["status"] as? String == "ok", "\(method): \(answer)", sourceLocation: sourceLocation)
            return answer
        }

        /// The Subsonic error code of a call that must fail.
        func errorCode(_ method: String, _ parameters: [(String, String)]) async throws -> Int? {
            let answer = try await rest(method, parameters)
            #expect(answer["status"] as? String == "failed", "\(method): \(answer)")
            return (answer["error"] as? [String: Any])?["code"] as? Int
        }

        func track(_ title: String) -> String { "tr-" + world.song(title) }

        /// A playlist's song ids (v1 ids), in order, as Subsonic lists them.
        func entries(_ playlist: String) async throws -> [String] {
            let answer = try await ok("getPlaylist", [("id", playlist)])
            let entries = (answer["playlist"] as? [String: Any])?["entry"] as? [[String: Any]] ?? []
            return entries.compactMap { ($0["id"] as? String)?.replacingOccurrences(of: "tr-", with: "") }
        }

        /// Ann's likes events as the log holds them, oldest first: song id and liked.
        func likesEvents() throws -> [String] {
            let database = try Database(path: world.server.dataFolder + "/cloudmusic.sqlite")
            return try database.read { db in
                try db.query(
                    "SELECT data FROM events WHERE user_id = ? AND kind = 'likes' ORDER BY id",
                    Int64(world.annID)!
                ) { row in
                    let data = try row.string("data")
                    let event = try JSONDecoder().decode(LikesEventShape.self, from: Data(data.utf8))
                    return "\(event.liked ? "+" : "-")\(event.songId)"
                }
            }
        }
    }

    struct LikesEventShape: Decodable {
        var songId: String
        var liked: Bool
    }

    @Test func aStarIsOneLikesEventPerSongThatChanged() async throws {
        let app = try await App.start()
        let world = app.world
        defer { _ = world.server.stop() }
        let (a, b, c) = (world.song("Alpha One"), world.song("Beta One"), world.song("Gamma"))
        let likes = try await world.likesSheetID(of: world.annID, token: world.ann)

        try await app.ok("star", [("id", app.track("Alpha One"))])
        #expect(try app.likesEvents() == ["+\(a)"])
        // Starred again: nothing changed, so nothing to tell.
        try await app.ok("star", [("id", app.track("Alpha One"))])
        #expect(try app.likesEvents() == ["+\(a)"])

        // One call, a song named twice and one already liked: an event for each new one, the last named first.
        try await app.ok(
            "star",
            [
                ("id", app.track("Beta One")), ("id", app.track("Alpha One")), ("id", app.track("Gamma")),
                ("id", app.track("Beta One")),
            ])
        #expect(try app.likesEvents() == ["+\(a)", "+\(b)", "+\(c)"])
        #expect(try await world.songIDs(ofSheet: likes, token: world.ann) == [b, c, a])

        // The v1 heart on a liked song changes nothing either.
        let again = try await world.server.call("PUT", "/v1/songs/\(a)/like", token: world.ann)
        #expect(again.status == 200, "\(again.json)")
        #expect(try app.likesEvents().count == 3)

        try await app.ok("unstar", [("id", app.track("Alpha One")), ("id", app.track("Alpha One"))])
        try await app.ok("unstar", [("id", app.track("Alpha One"))])
        #expect(try app.likesEvents() == ["+\(a)", "+\(b)", "+\(c)", "-\(a)"])
        #expect(try await world.songIDs(ofSheet: likes, token: world.ann) == [b, c])
    }

    @Test func changingILikeAsASheetIsOneLikesEventPerSongThatChanged() async throws {
        let app = try await App.start()
        let world = app.world
        defer { _ = world.server.stop() }
        let (a, b, c) = (world.song("Alpha One"), world.song("Beta One"), world.song("Gamma"))
        let likes = try await world.likesSheetID(of: world.annID, token: world.ann)
        let playlist = "pl-\(likes)"
        func addToLikes(_ songs: [String]) async throws {
            let reply = try await world.server.call(
                "POST", "/v1/sheets/\(likes)/relations", json: ["songIds": songs], token: world.ann)
            #expect(reply.status == 200, "\(reply.json)")
        }

        // Added through v1 relations: a like, told once.
        try await addToLikes([a])
        #expect(try app.likesEvents() == ["+\(a)"])
        // Added again, and with a song already there: only the new one is told, once.
        try await addToLikes([a])
        #expect(try app.likesEvents() == ["+\(a)"])
        try await addToLikes([a, b, b])
        #expect(try app.likesEvents() == ["+\(a)", "+\(b)"])
        #expect(try await world.songIDs(ofSheet: likes, token: world.ann) == [b, a])

        // Taken out by Subsonic index: an unlike, told once; an addition already there tells nothing.
        try await app.ok("updatePlaylist", [("playlistId", playlist), ("songIndexToRemove", "1")])
        #expect(try app.likesEvents() == ["+\(a)", "+\(b)", "-\(a)"])
        try await app.ok(
            "updatePlaylist", [("playlistId", playlist), ("songIdToAdd", app.track("Beta One"))])
        #expect(try app.likesEvents() == ["+\(a)", "+\(b)", "-\(a)"])
        #expect(try await app.entries(playlist) == [b])

        // Taken out through v1, by query and by path: an unlike for each song that was there, once.
        var removed = try await world.server.call(
            "DELETE", "/v1/sheets/\(likes)/relations?songIds=\(b),\(c)", token: world.ann)
        #expect(removed.status == 200, "\(removed.json)")
        try await addToLikes([c])
        for _ in 0..<2 {
            removed = try await world.server.call(
                "DELETE", "/v1/sheets/\(likes)/relations/\(c)", token: world.ann)
            #expect(removed.status == 200, "\(removed.json)")
        }
        let taken = ["+\(a)", "+\(b)", "-\(a)", "-\(b)", "+\(c)", "-\(c)"]
        #expect(try app.likesEvents() == taken)

        // Replaced through Subsonic: a song kept is neither unliked nor liked again.
        try await app.ok(
            "createPlaylist",
            [("playlistId", playlist), ("songId", app.track("Gamma")), ("songId", app.track("Gamma"))])
        try await app.ok(
            "createPlaylist",
            [("playlistId", playlist), ("songId", app.track("Gamma")), ("songId", app.track("Beta One"))])
        try await app.ok("createPlaylist", [("playlistId", playlist), ("songId", app.track("Beta One"))])
        #expect(try app.likesEvents() == taken + ["+\(c)", "+\(b)", "-\(c)"])
        #expect(try await world.songIDs(ofSheet: likes, token: world.ann) == [b])

        // Another sheet's songs are no likes.
        _ = try await world.sheet("Road", token: world.ann, songs: [a, c])
        #expect(try app.likesEvents().count == taken.count + 3)
    }

    @Test func playlistEditsKeepTheirOrderAndAreOneTransaction() async throws {
        let app = try await App.start()
        let world = app.world
        defer { _ = world.server.stop() }
        let (a, b, c, d) = (
            world.song("Alpha One"), world.song("Alpha Two"), world.song("Beta One"), world.song("Beta Two")
        )
        let made = try await app.ok(
            "createPlaylist",
            [
                ("name", "Road"), ("songId", app.track("Alpha One")), ("songId", app.track("Alpha Two")),
                ("songId", app.track("Beta One")), ("songId", app.track("Alpha One")),
            ])
        let id = try #require((made["playlist"] as? [String: Any])?["id"] as? String)
        #expect(try await app.entries(id) == [a, b, c, a])

        // Removals by index in the list as it was, then additions at the end (a repeat kept).
        try await app.ok(
            "updatePlaylist",
            [
                ("playlistId", id), ("songIndexToRemove", "0"), ("songIndexToRemove", "2"),
                ("songIdToAdd", app.track("Beta Two")), ("songIdToAdd", app.track("Alpha Two")),
            ])
        #expect(try await app.entries(id) == [b, a, d, b])

        // An unknown song to add undoes the removal asked with it; an index outside the list changes nothing.
        #expect(
            try await app.errorCode(
                "updatePlaylist",
                [("playlistId", id), ("songIndexToRemove", "0"), ("songIdToAdd", "tr-999999")])
                == 70)
        #expect(
            try await app.errorCode(
                "updatePlaylist",
                [("playlistId", id), ("songIndexToRemove", "9"), ("songIdToAdd", app.track("Gamma"))]) == 0)
        #expect(try await app.entries(id) == [b, a, d, b])

        // createPlaylist with an id replaces the whole list, in order, and renames it.
        try await app.ok(
            "createPlaylist",
            [
                ("playlistId", id), ("name", "Road home"), ("songId", app.track("Beta One")),
                ("songId", app.track("Beta One")), ("songId", app.track("Alpha One")),
            ])
        #expect(try await app.entries(id) == [c, c, a])
        #expect(
            try await app.errorCode(
                "createPlaylist", [("playlistId", id), ("songId", "tr-999999")]) == 70)
        let playlist = try await app.ok("getPlaylist", [("id", id)])["playlist"] as? [String: Any]
        #expect(playlist?["name"] as? String == "Road home")
        #expect(try await app.entries(id) == [c, c, a])
        // None of this was a like.
        #expect(try app.likesEvents().isEmpty)
    }

    @Test func aScrobbleIsAPlayPairedForRecommendations() async throws {
        let app = try await App.start()
        let world = app.world
        defer { _ = world.server.stop() }
        let (a, g) = (Int64(world.song("Alpha One"))!, Int64(world.song("Gamma"))!)
        let database = try Database(path: world.server.dataFolder + "/cloudmusic.sqlite")
        let pairs = {
            try database.read { db in
                try db.query(
                    "SELECT song_id FROM song_neighbors WHERE song_id IN (?, ?) AND other_id IN (?, ?)", a, g,
                    a,
                    g
                ) { try $0.int64("song_id") }
            }
        }
        #expect(try pairs().isEmpty)
        try await app.ok("scrobble", [("id", app.track("Alpha One"))])
        try await app.ok("scrobble", [("id", app.track("Gamma"))])
        #expect(try pairs().sorted() == [a, g].sorted())
        // And still a play in one's history.
        let history = try await world.server.call("GET", "/v1/plays?size=10", token: world.ann)
        let played = (history.data["data"] as? [[String: Any]] ?? []).compactMap {
            ($0["song"] as? [String: Any])?["id"] as? String
        }
        #expect(Set(played) == [String(a), String(g)], "\(history.json)")
    }
}
