import Foundation
import ServerTestSupport
import Testing

/// Changing a password while signed in, and deleting an account with everything that is its own.
@Suite struct AccountLifecycleTests {
    @Test func changingThePasswordKeepsThisDeviceAndEndsTheOthers() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        let annID = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let bobID = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
        let here = try await server.signIn(["email": "ann@example.com"], device: "here")
        let there = try await server.signIn(["email": "ann@example.com"], device: "there")
        let bob = try await server.signIn(["email": "bob@example.com"])
        let path = "/v1/users/\(annID)/password"

        let wrong = try await server.call(
            "PUT", path, json: ["password": "not my password", "newPassword": "a new password"], token: here)
        #expect(wrong.status == 403)
        #expect(
            try await server.call(
                "PUT", path, json: ["password": "correct horse", "newPassword": "short"], token: here
            ).status == 400)
        #expect(
            try await server.call(
                "PUT", "/v1/users/\(bobID)/password",
                json: ["password": "correct horse", "newPassword": "a new password"], token: here
            ).status == 403)
        #expect(
            try await server.call(
                "PUT", path, json: ["password": "correct horse", "newPassword": "a new password"], token: nil
            ).status == 401)
        #expect(try await server.call("PUT", path, json: ["password": 7], token: here).status == 400)

        let changed = try await server.call(
            "PUT", path, json: ["password": "correct horse", "newPassword": "a new password"], token: here)
        #expect(changed.status == 200, "\(changed.json)")
        #expect(try await server.call("GET", "/v1/sessions", token: here).status == 200)
        #expect(try await server.call("GET", "/v1/sessions", token: there).status == 401)
        #expect(try await server.call("GET", "/v1/sessions", token: bob).status == 200)
        let old = try await server.call(
            "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "correct horse"])
        #expect(old.status == 401)
        _ = try await server.signIn(["email": "ann@example.com"], password: "a new password")
    }

    @Test func deletingAnAccountTakesWhatIsItsOwnAndKeepsOthersRight() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        let adminID = try await server.signUp(["email": "root@example.com"], nickname: "Root")
        let annID = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let bobID = try await server.signUp(["phone": "13800138000"], nickname: "Bob")
        let admin = try await server.signIn(["email": "root@example.com"])
        let ann = try await server.signIn(["email": "ann@example.com"])
        let bob = try await server.signIn(["phone": "13800138000"])

        let annSheet = try await server.call("POST", "/v1/sheets", json: ["title": "Ann's"], token: ann).data
        let bobSheet = try await server.call("POST", "/v1/sheets", json: ["title": "Bob's"], token: bob).data
        let annSheetID = try #require(annSheet["id"] as? String)
        let bobSheetID = try #require(bobSheet["id"] as? String)
        #expect(
            try await server.call("POST", "/v1/collections", json: ["sheetId": bobSheetID], token: ann).status
                == 201)
        #expect(
            try await server.call("POST", "/v1/collections", json: ["sheetId": annSheetID], token: bob).status
                == 201)
        #expect(try await server.call("GET", "/v1/sheets/\(bobSheetID)").data["collectsCount"] as? Int == 1)

        // Someone else's account: refused for users, allowed for administrators.
        #expect(
            try await server.call(
                "DELETE", "/v1/users/\(annID)", json: ["password": "correct horse"], token: bob
            ).status == 403)
        // One's own needs the password.
        #expect(try await server.call("DELETE", "/v1/users/\(annID)", token: ann).status == 403)
        #expect(
            try await server.call(
                "DELETE", "/v1/users/\(annID)", json: ["password": "wrong password"], token: ann
            )
            .status == 403)
        #expect(
            try await server.call("DELETE", "/v1/users/\(annID)", json: ["password": "correct horse"]).status
                == 401)
        let deleted = try await server.call(
            "DELETE", "/v1/users/\(annID)", json: ["password": "correct horse"], token: ann)
        #expect(deleted.status == 200, "\(deleted.json)")

        #expect(try await server.call("GET", "/v1/users/\(annID)").status == 404)
        #expect(try await server.call("GET", "/v1/sessions", token: ann).status == 401)
        #expect(try await server.call("GET", "/v1/sheets/\(annSheetID)").status == 404)
        #expect(try await server.call("GET", "/v1/sheets/\(bobSheetID)").data["collectsCount"] as? Int == 0)
        let bobCollects = try await server.call("GET", "/v1/users/\(bobID)/collect").data
        #expect(bobCollects["total"] as? Int == 0)
        #expect(
            try await server.call(
                "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "correct horse"]
            ).status == 401)
        // The address is free again.
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann again")

        #expect(try await server.call("DELETE", "/v1/users/\(bobID)", token: admin).status == 200)
        #expect(try await server.call("GET", "/v1/sessions", token: bob).status == 401)
        #expect(try await server.call("DELETE", "/v1/users/\(bobID)", token: admin).status == 404)
        #expect(
            try await server.call(
                "DELETE", "/v1/users/\(adminID)", json: ["password": "correct horse"], token: admin
            ).status == 200)
    }
}

/// With sign-up codes on (the default), only the owner of an address learns that an account uses it.
@Suite struct SignUpCodeTests {
    @Test func signUpNeedsACodeAndNeverRevealsWhoHasAnAccount() async throws {
        let server = try await TestServer.start(.empty, extraArguments: ["--signup-codes", "on"])
        defer { _ = server.stop() }
        // Before any administrator exists, this machine reads the outbox (loopback).
        func outboxText(_ target: String, token: String?) async throws -> String? {
            let reply = try await server.call("GET", "/v1/admin/outbox?size=100", token: token)
            #expect(reply.status == 200, "\(reply.json)")
            let messages = reply.data["data"] as? [[String: Any]] ?? []
            return messages.first { $0["target"] as? String == target }?["text"] as? String
        }
        func code(in text: String?) -> String? {
            guard let text, let range = text.range(of: #"\d{6}"#, options: .regularExpression) else {
                return nil
            }
            return String(text[range])
        }
        let noCode = try await server.call(
            "POST", "/v1/users",
            json: ["email": "ann@example.com", "password": "correct horse", "nickname": "Ann"])
        #expect(noCode.status == 400)
        #expect(noCode.message.contains("sign-up code"))

        #expect(
            try await server.call(
                "POST", "/v1/codes", json: ["email": "ann@example.com", "purpose": "register"]
            )
            .status == 200)
        let annCode = try #require(code(in: try await outboxText("ann@example.com", token: nil)))
        let wrong = annCode == "000000" ? "111111" : "000000"
        #expect(
            try await server.call(
                "POST", "/v1/users",
                json: [
                    "email": "ann@example.com", "password": "correct horse", "nickname": "Ann", "code": wrong,
                ]
            ).status == 400)
        let created = try await server.call(
            "POST", "/v1/users",
            json: [
                "email": "ann@example.com", "password": "correct horse", "nickname": "Ann", "code": annCode,
            ])
        #expect(created.status == 201, "\(created.json)")
        let admin = try await server.signIn(["email": "ann@example.com"])

        // (That a taken and a free address get the same answer is checked in AccountServiceTests,
        // where the clock can pass the one-a-minute limit.)
        #expect(
            try await server.call(
                "POST", "/v1/codes", json: ["email": "bob@example.com", "purpose": "register"]
            )
            .status == 200)
        let bobCode = try #require(code(in: try await outboxText("bob@example.com", token: admin)))
        #expect(
            try await server.call(
                "POST", "/v1/users",
                json: [
                    "email": "bob@example.com", "password": "correct horse", "nickname": "Bob",
                    "code": bobCode,
                ]
            ).status == 201)
        // A code is used once.
        #expect(
            try await server.call(
                "POST", "/v1/users",
                json: [
                    "email": "bob@example.com", "password": "correct horse", "nickname": "Bob2",
                    "code": bobCode,
                ]
            ).status == 400)
    }
}
