import Foundation
import Testing

/// Books an administrator deleted (`DELETE /v1/podcasts/{id}`): scans leave them out while their files are as
/// they were, list them for administrators, and add them again when their files change or an administrator
/// restores them.
@Suite struct AudiobookDeletionTests {
    @Test func aDeletedBookStaysDeletedUntilItsFilesChangeOrItIsRestored() async throws {
        let world = try await AudiobookFolderTests.World.start()
        defer { _ = world.server.stop() }
        let server = world.server
        _ = try await world.scan()
        let nested = try #require(try await world.books()["Nested Book"])
        #expect(try await server.call("DELETE", "/v1/podcasts/\(nested)", token: world.bob).status == 403)
        #expect(try await server.call("DELETE", "/v1/podcasts/\(nested)", token: world.admin).status == 200)

        // Scans leave it out, and say so.
        for _ in 0..<2 {
            let scan = try await world.scan()
            #expect(scan.data["deleted"] as? Int == 1, "\(scan.json)")
            #expect(scan.data["added"] as? Int == 0 && scan.data["unchanged"] as? Int == 1)
            #expect(Set(try await world.books().keys) == ["Plain Book"])
        }
        let listed = try await server.call("GET", "/v1/audiobooks/deleted", token: world.admin)
        #expect(listed.status == 200, "\(listed.json)")
        let deletions = listed.json["data"] as? [[String: Any]] ?? []
        #expect(deletions.map { $0["path"] as? String } == ["Nested"])
        #expect(deletions.map { $0["title"] as? String } == ["Nested Book"])
        #expect(try await server.call("GET", "/v1/audiobooks/deleted", token: world.bob).status == 403)

        // Its files change (a part added): it is a book again.
        try AudiobookAPITests.part(
            world.folder + "/Nested/Disc 10/2.mp3", tags: ["album": "Nested Book", "title": "Ten Two"])
        let changed = try await world.scan()
        #expect(changed.data["added"] as? Int == 1 && changed.data["deleted"] as? Int == 0, "\(changed.json)")
        let back = try #require(try await world.books()["Nested Book"])
        let deletedNow = try await server.call("GET", "/v1/audiobooks/deleted", token: world.admin)
        #expect((deletedNow.json["data"] as? [Any])?.isEmpty == true)

        // Deleted again, then restored by an administrator: back at once, and no longer listed as deleted.
        #expect(try await server.call("DELETE", "/v1/podcasts/\(back)", token: world.admin).status == 200)
        #expect(try await world.scan().data["deleted"] as? Int == 1)
        let again = try await server.call("GET", "/v1/audiobooks/deleted", token: world.admin)
        let deletion = try #require((again.json["data"] as? [[String: Any]])?.first?["id"] as? String)
        let bobRestores = try await server.call(
            "POST", "/v1/audiobooks/deleted/\(deletion)/restore", token: world.bob)
        #expect(bobRestores.status == 403)
        let restored = try await server.call(
            "POST", "/v1/audiobooks/deleted/\(deletion)/restore", token: world.admin)
        #expect(restored.status == 200, "\(restored.json)")
        #expect(restored.data["added"] as? Int == 1 && restored.data["deleted"] as? Int == 0)
        #expect(try await world.books()["Nested Book"] != nil)
        let gone = try await server.call(
            "POST", "/v1/audiobooks/deleted/\(deletion)/restore", token: world.admin)
        #expect(gone.status == 404 && gone.message.contains("deleted audiobook"), "\(gone.json)")
    }
}
