import Foundation
import MusicCore
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `v1/searches/sheets`: public sheets by title and tags, kept in step as sheets change.
@Suite struct SheetSearchTests {
    /// The migration that makes the index fills it with the public sheets already there, by its own SQL:
    /// titles and tags (a JSON list of strings), private, "I like" and badly tagged sheets as the store treats them.
    @Test func theSearchMigrationIndexesTheSheetsAlreadyThere() throws {
        let database = try Database(path: temporaryFolder() + "/cloudmusic.sqlite")
        try Migrator(Schema.migrator.migrations.filter { $0.version < SheetsSchema.searchIndex.version })
            .migrate(database)
        try database.write { db in
            try db.execute(
                """
                INSERT INTO users(id, nickname, nickname_key, password_hash, email, created_at, updated_at)
                VALUES (1, 'ann', 'ann', 'x', 'ann@example.com', 0, 0)
                """)
            for (id, title, tags, isPrivate) in [
                (10, "Night Drive", #"["Synthwave","夜"]"#, 0), (11, "夜空の歌", "[]", 0),
                (12, "Secret", #"["hidden"]"#, 1), (13, "Odd tags", #"["a",1]"#, 0),
                (14, "Broken", "not json", 0),
            ] as [(Int64, String, String, Int)] {
                try db.execute(
                    """
                    INSERT INTO sheets(id, user_id, title, tags, is_private, created_at, updated_at)
                    VALUES (?, 1, ?, ?, ?, 0, 0)
                    """, id, title, tags, isPrivate)
            }
        }
        try Migrator(Schema.migrator.migrations.filter { $0.version <= SheetsSchema.searchIndex.version })
            .migrate(database)
        let indexed = try database.read { db in
            try db.query("SELECT rowid, title, tags FROM search_sheets ORDER BY rowid") {
                "\(try $0.int64("rowid")) \(try $0.string("title"))|\(try $0.string("tags"))"
            }
        }
        #expect(
            indexed == [
                "10 Night Drive|Synthwave \(SearchText.indexText("夜"))",
                "11 \(SearchText.indexText("夜空の歌"))|", "13 Odd tags|", "14 Broken|",
            ])
    }

    @Test func publicSheetsAreFoundByTitleAndTags() async throws {
        let world = try await CommentAPITests.World.start(people: 2, songs: false)
        let (ann, bob) = (world.ann, world.bob)
        func create(_ body: [String: Any], by person: CommentAPITests.Person) async throws -> String {
            let reply = try await world.server.call("POST", "/v1/sheets", json: body, token: person.token)
            #expect(reply.status == 201, "\(reply.json)")
            return try #require(reply.data["id"] as? String)
        }
        func search(_ query: String, token: String? = nil) async throws -> [String] {
            let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let reply = try await world.server.call(
                "GET", "/v1/searches/sheets?query=\(encoded)", token: token)
            #expect(reply.status == 200, "\(reply.json)")
            return reply.ids
        }
        let drive = try await create(["title": "Night Drive", "tags": ["Synthwave"]], by: ann)
        let night = try await create(["title": "夜空の歌", "tags": ["Night"]], by: bob)
        let secret = try await create(["title": "Night secrets", "isPrivate": true], by: bob)

        #expect(try await search("night") == [drive, night])
        #expect(try await search("夜空") == [night])
        #expect(try await search("synth") == [drive])
        // Private sheets and "I like" sheets are never found, not even by their owner.
        #expect(try await search("secrets", token: bob.token).isEmpty)
        #expect(try await search("like").isEmpty)

        // Renaming, going private or public, and deleting keep the index in step.
        #expect(
            try await world.server.call(
                "PATCH", "/v1/sheets/\(drive)", json: ["title": "Day Drive"], token: ann.token
            )
            .status == 200)
        #expect(try await search("night") == [night])
        #expect(try await search("day") == [drive])
        _ = try await world.server.call(
            "PATCH", "/v1/sheets/\(secret)", json: ["isPrivate": false], token: bob.token)
        #expect(try await search("secrets") == [secret])
        _ = try await world.server.call("DELETE", "/v1/sheets/\(secret)", token: bob.token)
        #expect(try await search("secrets").isEmpty)

        // SQL- and FTS-looking input is only text.
        for tricky in ["\"", "night OR 1=1", "'; DROP TABLE sheets; --", "*", "NEAR(a b)"] {
            _ = try await search(tricky)
        }
        #expect(try await world.server.call("GET", "/v1/searches/sheets").status == 400)
        let long = String(repeating: "a", count: 101)
        #expect(try await world.server.call("GET", "/v1/searches/sheets?query=\(long)").status == 400)
    }
}
