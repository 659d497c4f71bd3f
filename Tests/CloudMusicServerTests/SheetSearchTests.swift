import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `v1/searches/sheets`: public sheets by title and tags, kept in step as sheets change.
@Suite struct SheetSearchTests {
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
