import Foundation
import Testing

/// Follows, friends (mutual follows) and blocks over the real server.
@Suite struct FollowAPITests {
    @Test func followsFriendsCountsAndBlocks() async throws {
        let world = try await CommentAPITests.World.start(people: 3)
        let server = world.server
        defer { _ = server.stop() }
        let (ann, bob, cy) = (world.ann, world.bob, world.cy)
        func user(_ id: String, as viewer: String? = nil) async throws -> [String: Any] {
            try await server.call("GET", "/v1/users/\(id)", token: viewer).data
        }
        func ids(_ path: String, as viewer: String? = nil) async throws -> [String] {
            try await server.call("GET", path, token: viewer).ids
        }

        #expect(try await server.call("POST", "/v1/friends", json: ["userId": bob.id]).status == 401)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["userId": ann.id], token: ann.token).status
                == 400)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["userId": "999999"], token: ann.token).status
                == 404)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["userId": 7], token: ann.token).status == 400)
        let followed = try await server.call(
            "POST", "/v1/friends", json: ["userId": bob.id], token: ann.token)
        #expect(followed.status == 201, "\(followed.json)")
        #expect(followed.data["following"] as? Bool == true)
        // Following twice is one follow.
        _ = try await server.call("POST", "/v1/friends", json: ["userId": bob.id], token: ann.token)
        #expect(try await user(bob.id)["followersCount"] as? Int == 1)
        #expect(try await user(ann.id)["followingsCount"] as? Int == 1)
        #expect(try await user(bob.id, as: ann.token)["following"] as? Bool == true)
        #expect(try await user(bob.id, as: cy.token)["following"] as? Bool == false)
        #expect(try await user(bob.id)["following"] == nil)

        #expect(try await ids("/v1/users/\(ann.id)/following") == [bob.id])
        #expect(try await ids("/v1/users/\(bob.id)/followers") == [ann.id])
        #expect(try await ids("/v1/users/\(ann.id)/friends").isEmpty)
        _ = try await server.call("POST", "/v1/friends", json: ["userId": ann.id], token: bob.token)
        #expect(try await ids("/v1/users/\(ann.id)/friends") == [bob.id])
        #expect(try await ids("/v1/users/\(bob.id)/friends") == [ann.id])
        #expect(try await server.call("GET", "/v1/users/999999/followers").status == 404)

        // Unfollowing.
        #expect(try await server.call("DELETE", "/v1/friends/\(bob.id)", token: ann.token).status == 200)
        #expect(try await server.call("DELETE", "/v1/friends/\(bob.id)", token: ann.token).status == 404)
        #expect(try await user(bob.id)["followersCount"] as? Int == 0)
        _ = try await server.call("POST", "/v1/friends", json: ["userId": bob.id], token: ann.token)

        // Bob blocks Ann: her follow of him ends, she cannot follow him again or mention him.
        #expect(
            try await server.call("POST", "/v1/blocks", json: ["userId": bob.id], token: bob.token).status
                == 400)
        #expect(
            try await server.call("POST", "/v1/blocks", json: ["userId": ann.id], token: bob.token).status
                == 200)
        #expect(try await user(bob.id)["followersCount"] as? Int == 0)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["userId": bob.id], token: ann.token).status
                == 403)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["userId": ann.id], token: bob.token).status
                == 400)
        #expect(try await ids("/v1/blocks", as: bob.token) == [ann.id])
        #expect(try await ids("/v1/blocks", as: ann.token).isEmpty)
        #expect(
            try await server.call(
                "PATCH", "/v1/users/\(bob.id)", json: ["nickname": "Bobby"], token: bob.token
            ).status == 200)
        let fromAnn = try await server.call(
            "POST", "/v1/comments", json: ["content": "hi @Bobby", "songId": world.songs[0]], token: ann.token
        )
        #expect((fromAnn.data["mentions"] as? [Any])?.isEmpty == true)
        let fromCy = try await server.call(
            "POST", "/v1/comments", json: ["content": "hi @Bobby", "songId": world.songs[0]], token: cy.token)
        #expect((fromCy.data["mentions"] as? [[String: Any]])?.first?["userId"] as? String == bob.id)

        #expect(try await server.call("DELETE", "/v1/blocks/\(ann.id)", token: ann.token).status == 404)
        #expect(try await server.call("DELETE", "/v1/blocks/\(ann.id)", token: bob.token).status == 200)
        #expect(
            try await server.call("POST", "/v1/friends", json: ["userId": bob.id], token: ann.token).status
                == 201)

        // Deleting an account takes its follows, and the counts follow.
        _ = try await server.call("POST", "/v1/friends", json: ["userId": bob.id], token: cy.token)
        #expect(try await user(bob.id)["followersCount"] as? Int == 2)
        #expect(
            try await server.call(
                "DELETE", "/v1/users/\(cy.id)", json: ["password": "correct horse"], token: cy.token
            ).status == 200)
        #expect(try await user(bob.id)["followersCount"] as? Int == 1)
        #expect(try await ids("/v1/users/\(bob.id)/followers") == [ann.id])
    }
}
