import Foundation
import MusicCore
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recommendations over the real server with nine one-second songs by three artists in two genres: similar
/// songs and sheets from what people put in sheets and play, the songs of the day (stable all day, never a
/// disliked song or one played in the last day), the radio, and "not interested".
@Suite struct RecommendationAPITests {
    struct World {
        let server: TestServer
        /// Song ids by title.
        let songs: [String: String]
        let ann: String
        let bob: String
        let cy: String
        let dan: String

        func id(_ title: String) -> String { songs[title]! }

        static let titles = ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]

        static func start() async throws -> World {
            let music = try await offPool {
                let root = temporaryFolder()
                let artists = [
                    ("A", "Ann Band", "Rock", 2001), ("B", "Bo", "Jazz", 1990), ("C", "Cy", "Rock", 2002),
                ]
                for (letter, artist, genre, year) in artists {
                    for number in 1...3 {
                        try makeTrack(
                            root + "/\(artist)/\(letter)/0\(number).mp3", title: "\(letter)\(number)",
                            artist: artist,
                            album: letter, track: number, frequency: 300 + number * 50,
                            extra: ["-metadata", "genre=\(genre)", "-metadata", "date=\(year)"])
                    }
                }
                return root
            }
            let server = try await TestServer.start(.empty, extraArguments: ["--music", music])
            try await server.waitForScan()
            let list = try await server.call("GET", "/v1/songs?size=100")
            var songs: [String: String] = [:]
            for song in list.items { songs[song["title"] as! String] = song["id"] as? String }
            try #require(Set(songs.keys) == Set(titles), "\(list.json)")
            var tokens: [String] = []
            for name in ["ann", "bob", "cy", "dan"] {
                _ = try await server.signUp(["email": "\(name)@example.com"], nickname: name.capitalized)
                tokens.append(try await server.signIn(["email": "\(name)@example.com"]))
            }
            return World(
                server: server, songs: songs, ann: tokens[0], bob: tokens[1], cy: tokens[2], dan: tokens[3])
        }

        /// Makes a sheet with songs (by title) and returns its id.
        @discardableResult
        func sheet(
            _ title: String, _ songs: [String], tags: [String] = [], isPrivate: Bool = false, token: String
        )
            async throws -> String
        {
            let made = try await server.call(
                "POST", "/v1/sheets", json: ["title": title, "tags": tags, "isPrivate": isPrivate],
                token: token)
            #expect(made.status == 201, "\(made.json)")
            let id = try #require(made.data["id"] as? String)
            let added = try await server.call(
                "POST", "/v1/sheets/\(id)/relations", json: ["songIds": songs.map(self.id)], token: token)
            #expect(added.status == 200, "\(added.json)")
            return id
        }

        func play(_ title: String, token: String) async throws {
            let played = try await server.call("POST", "/v1/plays", json: ["songId": id(title)], token: token)
            #expect(played.status == 201, "\(played.json)")
        }

        func dislike(_ title: String, token: String) async throws {
            let reply = try await server.call(
                "POST", "/v1/recommendations/dislikes", json: ["songId": id(title)], token: token)
            #expect(reply.status == 200, "\(reply.json)")
        }

        /// Titles of a list of songs.
        func titles(_ reply: Reply) -> [String] {
            let byID = Dictionary(uniqueKeysWithValues: songs.map { ($1, $0) })
            let list =
                reply.json["data"] as? [[String: Any]] ?? reply.data["songs"] as? [[String: Any]]
                ?? reply.data["data"] as? [[String: Any]] ?? []
            return list.compactMap { ($0["id"] as? String).flatMap { byID[$0] } }
        }
    }

    @Test func similarSongsComeFromSheetsAndPlaysThenArtistAlbumAndGenre() async throws {
        let world = try await World.start()
        let server = world.server
        try await world.sheet("Bob's", ["A1", "B1", "B2"], token: world.bob)
        try await world.sheet("Cy's", ["A1", "B1"], token: world.cy)

        let similar = try await server.call("GET", "/v1/songs/\(world.id("A1"))/similar?size=5")
        #expect(similar.status == 200, "\(similar.json)")
        let titles = world.titles(similar)
        #expect(Array(titles.prefix(2)) == ["B1", "B2"], "\(titles)")
        #expect(Array(titles.dropFirst(2).prefix(2)) == ["A2", "A3"], "then the artist's: \(titles)")
        #expect(!titles.contains("A1"))
        #expect(titles.count == 5)

        // A song nobody paired: its artist, then its genre near its year.
        let alone = world.titles(try await server.call("GET", "/v1/songs/\(world.id("C3"))/similar"))
        #expect(Set(alone.prefix(2)) == ["C1", "C2"], "\(alone)")
        #expect(Set(alone.dropFirst(2).prefix(3)) == ["A1", "A2", "A3"], "\(alone)")
        #expect(!alone.contains("C3"))

        // Two songs played one after the other go together.
        try await world.play("A2", token: world.ann)
        try await world.play("C2", token: world.ann)
        let afterPlays = world.titles(try await server.call("GET", "/v1/songs/\(world.id("A2"))/similar"))
        #expect(afterPlays.first == "C2", "\(afterPlays)")

        // Not interested: gone for that person only.
        try await world.dislike("B1", token: world.dan)
        let forDan = world.titles(
            try await server.call("GET", "/v1/songs/\(world.id("A1"))/similar", token: world.dan))
        #expect(!forDan.contains("B1") && forDan.first == "B2", "\(forDan)")

        for path in ["/v1/songs/999999/similar", "/v1/songs/abc/similar"] {
            let missing = try await server.call("GET", path)
            #expect(missing.status == 404)
            #expect(missing.message == "That song does not exist.")
        }
        #expect(try await server.call("GET", "/v1/songs/\(world.id("A1"))/similar?size=0").status == 400)
    }

    @Test func songsOfTheDayAreStableAndNeverDislikedOrPlayedInTheLastDay() async throws {
        let world = try await World.start()
        let server = world.server
        try await world.sheet("Bob's", ["A1", "B1", "B2"], token: world.bob)
        try await world.play("A1", token: world.dan)
        try await world.dislike("B3", token: world.dan)

        let first = try await server.call("GET", "/v1/recommendations/songs", token: world.dan)
        #expect(first.status == 200, "\(first.json)")
        let day = world.titles(first)
        #expect(!day.contains("A1") && !day.contains("B3"), "\(day)")
        #expect(day.count == 7, "every other song of this small library: \(day)")
        #expect(day.first == "B1", "the strongest neighbour of what Dan played: \(day)")
        #expect(
            (first.data["date"] as? String)?.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression)
                != nil)
        #expect((first.data["timeZone"] as? String)?.isEmpty == false)
        #expect(first.data["refreshesAt"] is String)

        // The same all day, whatever Dan does meanwhile (a song played from the list stays on it).
        try await world.play("A2", token: world.dan)
        try await world.sheet("Dan's", ["C1", "C2"], token: world.dan)
        #expect(
            world.titles(try await server.call("GET", "/v1/recommendations/songs", token: world.dan)) == day)

        // Except that "not interested" takes a song off at once, and taking it back puts it back.
        try await world.dislike("C3", token: world.dan)
        let without = world.titles(
            try await server.call("GET", "/v1/recommendations/songs", token: world.dan))
        #expect(without == day.filter { $0 != "C3" })
        let disliked = try await server.call("GET", "/v1/recommendations/dislikes", token: world.dan)
        #expect(Set(world.titles(disliked)) == ["C3", "B3"])
        #expect(disliked.data["total"] as? Int == 2)
        let undo = try await server.call(
            "DELETE", "/v1/recommendations/dislikes/\(world.id("C3"))", token: world.dan)
        #expect(undo.status == 200)
        #expect(
            world.titles(try await server.call("GET", "/v1/recommendations/songs", token: world.dan)) == day)

        // Someone new gets songs too, from the fallback.
        let fresh = try await server.call("GET", "/v1/recommendations/songs", token: world.cy)
        #expect(world.titles(fresh).count == 9)

        #expect(try await server.call("GET", "/v1/recommendations/songs").status == 401)
        for (bad, status) in [("abc", 400), ("999999", 404), ("", 400)] {
            let reply = try await server.call(
                "POST", "/v1/recommendations/dislikes", json: ["songId": bad], token: world.dan)
            #expect(reply.status == status, "\(bad): \(reply.json)")
        }
        let unknownUndo = try await server.call(
            "DELETE", "/v1/recommendations/dislikes/999999", token: world.dan)
        #expect(unknownUndo.status == 404)
        #expect(
            try await server.call("POST", "/v1/recommendations/dislikes", json: [:], token: world.dan).status
                == 400)
    }

    @Test func theRadioGoesOnWithoutDislikedOrRecentlyPlayedSongs() async throws {
        let world = try await World.start()
        let server = world.server
        try await world.sheet("Bob's", ["A1", "B1", "B2"], token: world.bob)
        try await world.play("A1", token: world.dan)
        try await world.dislike("B3", token: world.dan)
        var heard: [[String]] = []
        for _ in 0..<4 {
            let next = try await server.call("GET", "/v1/radio/next?count=5", token: world.dan)
            #expect(next.status == 200, "\(next.json)")
            heard.append(world.titles(next))
        }
        for batch in heard {
            #expect(batch.count == 5, "\(heard)")
            #expect(!batch.contains("A1") && !batch.contains("B3"), "\(heard)")
            #expect(Set(batch).count == batch.count, "\(heard)")
        }
        // Nothing repeats until every allowed song has been handed out.
        #expect(Set(heard[0] + heard[1]) == ["A2", "A3", "B1", "B2", "C1", "C2", "C3"], "\(heard)")
        #expect(try await server.call("GET", "/v1/radio/next?count=0", token: world.dan).status == 400)
        #expect(try await server.call("GET", "/v1/radio/next?count=51", token: world.dan).status == 400)
        #expect(try await server.call("GET", "/v1/radio/next").status == 401)
    }

    @Test func similarSheetsShareSongsThenTagsAndArePublic() async throws {
        let world = try await World.start()
        let server = world.server
        let bobs = try await world.sheet("Bob's", ["A1", "B1", "B2"], tags: ["Jazz"], token: world.bob)
        let cys = try await world.sheet("Cy's", ["A1", "B1"], token: world.cy)
        let secret = try await world.sheet(
            "Dan's secret", ["A1", "B1", "B2"], isPrivate: true, token: world.dan)
        let tagged = try await world.sheet("Ann's jazz", ["C1"], tags: ["jazz"], token: world.ann)
        let other = try await world.sheet("Ann's other", ["C2"], token: world.ann)

        let similar = try await server.call("GET", "/v1/sheets/\(bobs)/similar")
        #expect(similar.status == 200, "\(similar.json)")
        let ids = (similar.json["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids == [cys, tagged, other], "\(similar.json)")
        #expect(
            (similar.json["data"] as? [[String: Any]] ?? []).allSatisfy { $0["kind"] as? String == "sheet" })

        #expect(try await server.call("GET", "/v1/sheets/\(secret)/similar", token: world.bob).status == 404)
        let owner = try await server.call("GET", "/v1/sheets/\(secret)/similar", token: world.dan)
        #expect(owner.status == 200)
        let forOwner = (owner.json["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(forOwner.first == bobs, "\(owner.json)")
        let missing = try await server.call("GET", "/v1/sheets/999999/similar")
        #expect(missing.status == 404 && missing.message == "That sheet does not exist.")
    }
}

/// The engine on a database made by hand: the day's list across the server's midnight, and the backfill of
/// what existed before recommendations.
@Suite struct RecommendationServiceTests {
    /// A database with `songs` songs (ids 1...) and one person (id 1).
    static func library(songs: Int) throws -> Database {
        let database = try makeLibraryDatabase()
        try database.write { db in
            try db.execute("INSERT INTO music_folders(id, path) VALUES (1, '/music')")
            for id in 1...songs {
                try db.execute(
                    """
                    INSERT INTO songs(id, folder_id, path, size, mtime_ns, fingerprint, title, format, created_at,
                        updated_at)
                    VALUES (?, 1, ?, 1, 1, ?, ?, 'mp3', 1, 1)
                    """, id, "/music/\(id).mp3", "f\(id)", "Song \(id)")
            }
            try db.execute(
                """
                INSERT INTO users(id, email, nickname, nickname_key, password_hash, created_at, updated_at)
                VALUES (1, 'one@example.com', 'One', 'one', 'x', 1, 1)
                """)
        }
        return database
    }

    @Test func theDayEndsAtTheServersMidnightAndTheNextListAvoidsYesterdays() throws {
        let database = try Self.library(songs: 45)
        let clock = TestClock(0)
        var service = RecommendationService(database: database)
        service.timeZone = TimeZone(identifier: "Asia/Shanghai")!
        service.clock = { clock.now }
        let viewer = Viewer(userID: 1, sessionID: 0, isAdmin: false)
        // 2024-05-01 00:00 in Shanghai.
        let midnight: Int64 = 1_714_492_800
        clock.now = midnight - 60
        let evening = try service.daily(viewer: viewer)
        #expect(evening.date == "2024-04-30")
        #expect(evening.timeZone == "Asia/Shanghai")
        #expect(evening.refreshesAt == "2024-04-30T16:00:00Z")
        #expect(evening.songs.count == 30)
        clock.now = midnight - 1
        #expect(try service.daily(viewer: viewer).songs.map(\.id) == evening.songs.map(\.id))
        clock.now = midnight + 10
        let morning = try service.daily(viewer: viewer)
        #expect(morning.date == "2024-05-01")
        #expect(morning.refreshesAt == "2024-05-01T16:00:00Z")
        #expect(morning.songs.count == 30)
        let yesterday = Set(evening.songs.map(\.id))
        #expect(
            morning.songs.prefix(15).allSatisfy { !yesterday.contains($0.id) },
            "the 15 songs not shown yesterday come first")
    }

    @Test func theBackfillPairsWhatHappenedBeforeTheMigrationOnce() throws {
        let database = try Self.library(songs: 5)
        let now = Int64(Date().timeIntervalSince1970)
        try database.write { db in
            try db.execute(
                "INSERT INTO sheets(id, user_id, title, created_at, updated_at) VALUES (100, 1, 'Old', 1, 1)")
            for (song, position, added) in [(1, 0, now - 100), (2, 1, now - 100), (3, 2, now + 1_000)] {
                try db.execute(
                    "INSERT INTO sheet_songs(sheet_id, song_id, position, added_at) VALUES (100, ?, ?, ?)",
                    song, position, added)
            }
            for (song, time) in [(4, now - 50), (5, now - 40)] {
                try db.execute(
                    "INSERT INTO song_plays(user_id, song_id, plays_count, last_played_at) VALUES (1, ?, 1, ?)",
                    song, time)
            }
        }
        let backfill = RecommendationBackfill(database: database)
        try backfill.runToEnd()
        try backfill.runToEnd()
        let store = RecommendationStore()
        let (one, three, five, masses) = try database.read { db in
            (
                try store.neighbors(db, songID: 1, limit: 10), try store.neighbors(db, songID: 3, limit: 10),
                try store.neighbors(db, songID: 5, limit: 10), try store.masses(db, ids: [1, 4])
            )
        }
        #expect(one.map(\.id) == [2] && one.first?.weight == 1)
        #expect(three.isEmpty, "added after the migration")
        #expect(five.map(\.weight) == [0.5])
        #expect(masses == [1: 1, 4: 0.5])
        // A song leaving the library takes its pairs with it.
        try database.write { db in try db.execute("DELETE FROM songs WHERE id = 2") }
        #expect(try database.read { db in try store.neighbors(db, songID: 1, limit: 10) }.isEmpty)
    }

    @Test func pairsArePrunedToTheStrongest() throws {
        let database = try Self.library(songs: 200)
        let store = RecommendationStore()
        let kept = try database.write { db in
            var pairs: [RecommendationStore.Pair: Double] = [:]
            for other in 2...200 { pairs[RecommendationStore.Pair(1, Int64(other))!] = Double(other) }
            try store.add(db, pairs)
            return try store.neighbors(db, songID: 1, limit: 1_000)
        }
        #expect(kept.count == RecommendationStore.keptNeighbors)
        #expect(kept.first?.id == 200)
        #expect(kept.allSatisfy { $0.id > 200 - Int64(RecommendationStore.keptNeighbors) })
    }
}
