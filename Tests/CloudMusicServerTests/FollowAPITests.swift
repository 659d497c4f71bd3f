import Foundation
import ServerTestSupport
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

@Suite struct UserSearchTests {
    @Test func theMentionPickerFindsByPrefixFriendsFirstAndNeverBlockers() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        var ids: [String: String] = [:]
        var tokens: [String: String] = [:]
        for (index, nickname) in ["Annie", "ANNA", "Anton", "张三", "张三丰", "Bob"].enumerated() {
            let account = ["email": "u\(index)@example.com"]
            ids[nickname] = try await server.signUp(account, nickname: nickname)
            tokens[nickname] = try await server.signIn(account)
        }
        func search(_ query: String, as viewer: String?) async throws -> [String] {
            let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let reply = try await server.call("GET", "/v1/searches/users?query=\(encoded)", token: viewer)
            #expect(reply.status == 200, "\(reply.json)")
            return (reply.json["data"] as? [[String: Any]] ?? []).compactMap { $0["nickname"] as? String }
        }
        #expect(try await search("an", as: nil) == ["ANNA", "Annie", "Anton"])
        #expect(try await search("ＡＮ", as: nil) == ["ANNA", "Annie", "Anton"])  // full-width folds too
        #expect(try await search("张三", as: nil) == ["张三", "张三丰"])
        #expect(try await search("zz", as: nil).isEmpty)
        // Bob follows Anton and is friends with Annie: they come first, friends and follows before others.
        let bob = tokens["Bob"]!
        _ = try await server.call("POST", "/v1/friends", json: ["userId": ids["Anton"]!], token: bob)
        _ = try await server.call("POST", "/v1/friends", json: ["userId": ids["Annie"]!], token: bob)
        _ = try await server.call(
            "POST", "/v1/friends", json: ["userId": ids["Bob"]!], token: tokens["Annie"]!)
        #expect(try await search("an", as: bob) == ["Annie", "Anton", "ANNA"])
        // Someone who blocked Bob does not show up for him.
        _ = try await server.call("POST", "/v1/blocks", json: ["userId": ids["Bob"]!], token: tokens["ANNA"]!)
        #expect(try await search("an", as: bob) == ["Annie", "Anton"])
        #expect(try await server.call("GET", "/v1/searches/users?query=").status == 400)
        #expect(try await server.call("GET", "/v1/searches/users?query=%25").status == 200)
        #expect(
            try await server.call("GET", "/v1/searches/users?query=\(String(repeating: "a", count: 33))")
                .status
                == 400)
    }
}
