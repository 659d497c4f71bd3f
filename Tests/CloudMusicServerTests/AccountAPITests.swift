import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// Accounts end to end over the real server binary. argon2id runs at its production cost (64 MiB), so each
/// test keeps its sign-ups and sign-ins few.
@Suite struct AccountAPITests {
    @Test func signUpSignInProfilesAndSignOut() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        let ann = ["phone": "+86 138-0013-8000"]
        let annID = try await server.signUp(ann, nickname: "  林晓 🎵  ")
        let first = try await server.call("GET", "/v1/users/\(annID)")
        #expect(first.data["nickname"] as? String == "林晓 🎵")
        #expect(first.data["phone"] == nil)
        let bobID = try await server.signUp(["email": "Bob@Example.COM"], nickname: "👩‍👩‍👧‍👦 Bob")

        let token = try await server.signIn(["phone": "+8613800138000"], device: "phone")
        #expect(token.count == 64)
        let me = try await server.call("GET", "/v1/users/\(annID)", token: token)
        #expect(me.data["phone"] as? String == "+8613800138000")
        #expect(me.data["role"] as? String == "admin")
        // Others, administrators included (Ann is the first user), see public fields only.
        let bobSeenByAnn = try await server.call("GET", "/v1/users/\(bobID)", token: token)
        #expect(bobSeenByAnn.data["email"] == nil)
        #expect(bobSeenByAnn.data["role"] == nil)
        #expect(bobSeenByAnn.data["nickname"] as? String == "👩‍👩‍👧‍👦 Bob")

        let bobToken = try await server.signIn(["email": "bob@example.com"])
        let bob = try await server.call("GET", "/v1/users/\(bobID)", token: "Bearer \(bobToken)")
        #expect(bob.data["email"] as? String == "bob@example.com")
        #expect(bob.data["role"] as? String == "user")
        let annSeenByBob = try await server.call("GET", "/v1/users/\(annID)", token: bobToken)
        #expect(annSeenByBob.status == 200)
        #expect(annSeenByBob.data["phone"] == nil)
        #expect(annSeenByBob.data["role"] == nil)

        let patched = try await server.call(
            "PATCH", "/v1/users/\(annID)",
            json: [
                "gender": 20, "birthday": "1996-02-29", "province": "浙江", "city": "杭州",
                "description": "听歌\n写歌",
            ],
            token: token)
        #expect(patched.status == 200, "\(patched.json)")
        #expect(patched.data["gender"] as? Int == 20)
        #expect(patched.data["birthday"] as? String == "1996-02-29")
        let cleared = try await server.call(
            "PATCH", "/v1/users/\(annID)", json: ["city": NSNull()], token: token)
        #expect(cleared.data["city"] == nil)
        #expect(cleared.data["province"] as? String == "浙江")

        // Other people's ids: 403 when the user exists, 404 when not; no token is 401.
        #expect(
            try await server.call("PATCH", "/v1/users/\(bobID)", json: ["gender": 10], token: token).status
                == 403)
        #expect(
            try await server.call("PATCH", "/v1/users/99999", json: ["gender": 10], token: token).status
                == 404)
        #expect(try await server.call("PATCH", "/v1/users/\(annID)", json: ["gender": 10]).status == 401)
        #expect(try await server.call("GET", "/v1/users/99999").status == 404)
        #expect(try await server.call("GET", "/v1/users/abc").status == 404)

        // Sign out; the token is dead afterwards, the other device's is not.
        #expect(try await server.call("DELETE", "/v1/sessions/current", token: token).status == 200)
        let reused = try await server.call("GET", "/v1/sessions", token: token)
        #expect(reused.status == 401)
        #expect(reused.message == "Your session has ended. Please sign in again.")
        #expect(try await server.call("DELETE", "/v1/sessions/current", token: token).status == 401)
        #expect(try await server.call("GET", "/v1/sessions", token: bobToken).status == 200)
        #expect(
            try await server.call("GET", "/v1/sessions", token: String(repeating: "0", count: 64)).status
                == 401)
        #expect(try await server.call("GET", "/v1/sessions", token: "not a token").status == 401)
    }

    /// A token that is sent but is not valid is the same 401 on every endpoint that reads tokens, catalog
    /// and search included; the endpoints that hand out tokens do not read it.
    @Test func aStaleTokenIsRefusedEverywhereTheSameWay() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        let stale = String(repeating: "ab", count: 32)
        for path in [
            "/v1/songs", "/v1/songs/1", "/v1/albums", "/v1/artists", "/v1/genres", "/v1/searches?q=a",
            "/v1/searches/suggests?q=a", "/v1/topics", "/v1/sheets", "/v1/users/1", "/v1/comments?songId=1",
            "/v1/feeds", "/v1/searches/users?query=a", "/v1/queue", "/v1/library/scan",
        ] {
            let reply = try await server.call("GET", path, token: "Bearer \(stale)")
            #expect(reply.status == 401, "\(path): \(reply.json)")
            #expect(reply.message == "Your session has ended. Please sign in again.", "\(path)")
        }
        let signUp = try await server.call(
            "POST", "/v1/users",
            json: ["email": "ann@example.com", "password": "correct horse", "nickname": "Ann"],
            token: stale)
        #expect(signUp.status == 201, "\(signUp.json)")
        let signIn = try await server.call(
            "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "correct horse"],
            token: stale)
        #expect(signIn.status == 201, "\(signIn.json)")
    }

    @Test func badInputsAreRefusedWithAReason() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        func register(_ body: [String: Any]) async throws -> Reply {
            try await server.call("POST", "/v1/users", json: body)
        }
        let good: [String: Any] = ["phone": "13800138000", "password": "correct horse", "nickname": "Ann"]
        func with(_ changes: [String: Any], removing: String? = nil) -> [String: Any] {
            var body = good.merging(changes) { $1 }
            if let removing { body.removeValue(forKey: removing) }
            return body
        }
        for phone in ["12345", "+1 (555) abc", "1234567890123456", "+0123456789", "138 0013 8000 ext 5", ""] {
            let reply = try await register(with(["phone": phone]))
            #expect(reply.status == 400, "\(phone)")
        }
        for email in [
            "ann", "ann@", "@example.com", "ann@example", "ann@@example.com", "an n@example.com",
            "ann@exa_mple.com", "ann..x@example.com",
        ] {
            let reply = try await register(with(["email": email], removing: "phone"))
            #expect(reply.status == 400, "\(email)")
            #expect(reply.message.contains("email"))
        }
        #expect(try await register(with(["email": "ann@example.com"])).message.contains("not both"))
        #expect(try await register(with(["password": "short"])).message.contains("at least 8"))
        #expect(try await register(with(["password": String(repeating: "p", count: 129)])).status == 400)
        let huge = try await register(with(["nickname": String(repeating: "长", count: 10_000)]))
        #expect(huge.status == 400)
        #expect(huge.message.hasPrefix("A nickname can be at most 32 characters; this one has "))
        #expect(try await register(with(["nickname": String(repeating: "a", count: 33)])).status == 400)
        #expect(try await register(with(["nickname": "   "])).status == 400)
        #expect(try await register(with(["nickname": "An\u{0}n"])).message.contains("control"))
        #expect(try await register(with(["nickname": "Ann\u{202E}evil"])).status == 400)
        #expect(try await register(with(["nickname": "A\u{200B}nn"])).message.contains("invisible"))
        #expect(try await register(with(["nickname": "Ann\u{AD}"])).status == 400)
        let flag = try await register([
            "email": "flag@example.com", "password": "correct horse",
            "nickname": "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} fan",
        ])
        #expect(flag.status == 201, "\(flag.json)")
        #expect(
            try await register(with(["nickname": "e\u{301}" + String(repeating: "\u{301}", count: 200)]))
                .status == 400)

        // Wrong types, missing fields and malformed JSON.
        let wrongType = try await register(with(["nickname": 5]))
        #expect(wrongType.status == 400)
        #expect(wrongType.message == "The field 'nickname' should be a string.")
        #expect(
            try await register(with([:], removing: "password")).message == "The field 'password' is missing.")
        let malformed = try await server.call("POST", "/v1/users", body: Data(#"{"phone": "1380013"#.utf8))
        #expect(malformed.status == 400)
        #expect(malformed.message == "The request body is not valid JSON.")
        #expect(try await server.call("POST", "/v1/sessions", body: Data("[1,2]".utf8)).status == 400)

        // 32 CJK characters are fine; the nickname is unique ignoring case and width.
        let cjk = String(repeating: "夜", count: 32)
        let created = try await register(with(["nickname": cjk]))
        #expect(created.status == 201)
        #expect(created.data["nickname"] as? String == cjk)
        let duplicate = try await register(with(["phone": "13800138001", "nickname": cjk]))
        #expect(duplicate.status == 409)
        #expect(duplicate.message.contains("nickname"))
        #expect(
            try await register(["email": "x@example.com", "password": "correct horse", "nickname": "Zoë"])
                .status == 201)
        #expect(
            try await register(["email": "y@example.com", "password": "correct horse", "nickname": "ZOË"])
                .status == 409)
        #expect(
            try await register(["email": "z@example.com", "password": "correct horse", "nickname": "ｚｏë"])
                .status == 409)
        let samePhone = try await register(with(["phone": "138-0013-8000", "nickname": "Other"]))
        #expect(samePhone.status == 409)
        #expect(
            try await register(["email": "X@EXAMPLE.com", "password": "correct horse", "nickname": "Xx"])
                .status == 409)

        // Profile fields.
        let token = try await server.signIn(["phone": "13800138000"])
        let id = try #require(created.data["id"] as? String)
        for patch: [String: Any] in [
            ["gender": 5], ["gender": "10"], ["birthday": "1990-02-30"], ["birthday": "2999-01-01"],
            ["birthday": "90-1-1"],
            ["city": String(repeating: "城", count: 33)], ["description": String(repeating: "d", count: 301)],
            ["nickname": ""], ["nickname": "zoe\u{308}"],
        ] {
            let reply = try await server.call("PATCH", "/v1/users/\(id)", json: patch, token: token)
            #expect(reply.status == 400 || reply.status == 409, "\(patch): \(reply.json)")
        }
        #expect(
            try await server.call("PATCH", "/v1/users/\(id)", body: Data("{".utf8), token: token).status
                == 400)
    }

    @Test func wrongPasswordAndUnknownAccountLookTheSameThenBackOff() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let wrong = try await server.call(
            "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "wrong password"])
        let unknown = try await server.call(
            "POST", "/v1/sessions", json: ["email": "nobody@example.com", "password": "wrong password"])
        #expect(wrong.status == 401)
        #expect(unknown.status == wrong.status)
        #expect(wrong.message == unknown.message)
        #expect(wrong.json.keys.sorted() == unknown.json.keys.sorted())
        #expect(
            try await server.call("POST", "/v1/sessions", json: ["email": "ann@example.com"]).status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "x", "code": "123456"]
            ).status == 400)

        // Five failures on one account block it, the right password included, for a growing time.
        for _ in 0..<4 {
            let reply = try await server.call(
                "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "nope nope"])
            #expect(reply.status == 401)
        }
        let blocked = try await server.call(
            "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "correct horse"])
        #expect(blocked.status == 429)
        #expect((1...30).contains(blocked.retryAfter ?? 0))
        #expect(blocked.message.hasPrefix("Too many failed sign-ins."))
        // The unknown account is blocked the same way after as many failures.
        for _ in 0..<4 {
            _ = try await server.call(
                "POST", "/v1/sessions", json: ["email": "nobody@example.com", "password": "nope nope"])
        }
        let blockedUnknown = try await server.call(
            "POST", "/v1/sessions", json: ["email": "nobody@example.com", "password": "x"])
        #expect(blockedUnknown.status == 429)
        #expect(blockedUnknown.message.hasPrefix("Too many failed sign-ins."))
    }

    @Test func codesSignInAndTheirLimits() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        _ = try await server.signUp(["email": "admin@example.com"], nickname: "Admin")
        _ = try await server.signUp(["phone": "+8613900139000"], nickname: "Ann")
        let admin = try await server.signIn(["email": "admin@example.com"])

        // The same answer whether or not an account uses the address.
        let known = try await server.call("POST", "/v1/codes", json: ["phone": "+8613900139000"])
        let unknown = try await server.call("POST", "/v1/codes", json: ["phone": "+8613700137000"])
        #expect(known.status == 200)
        #expect(unknown.status == 200)
        #expect(NSDictionary(dictionary: known.json) == NSDictionary(dictionary: unknown.json))
        #expect(known.data["expiresIn"] as? Int == 600)
        let again = try await server.call("POST", "/v1/codes", json: ["phone": "+8613900139000"])
        #expect(again.status == 429)
        // What is left of the minute between codes; on a loaded machine seconds may pass between the two calls.
        #expect((1...60).contains(again.retryAfter ?? 0))
        #expect(
            try await server.call("POST", "/v1/codes", json: ["phone": "+8613900139000", "purpose": "spam"])
                .status == 400)
        #expect(try await server.call("POST", "/v1/codes", json: ["phone": "12"]).status == 400)

        let code = try #require(try await server.latestCode(for: "+8613900139000", adminToken: admin))
        let wrongCode = code == "000000" ? "111111" : "000000"
        let check = try await server.call(
            "POST", "/v1/codes/check", json: ["phone": "+8613900139000", "code": code])
        #expect(check.status == 200)
        #expect(
            try await server.call(
                "POST", "/v1/codes/check", json: ["phone": "+8613900139000", "code": wrongCode]
            ).status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/codes/check", json: ["phone": "+8613900139000", "code": "12ab56"]
            ).status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/codes/check",
                json: ["phone": "+8613900139000", "code": code, "purpose": "reset"]
            )
            .status == 400)
        let signIn = try await server.call(
            "POST", "/v1/sessions", json: ["phone": "+8613900139000", "code": code])
        #expect(signIn.status == 201)
        let token = try #require(signIn.data["session"] as? String)
        #expect(try await server.call("GET", "/v1/sessions", token: token).list.count == 1)
        // A code works once.
        let reused = try await server.call(
            "POST", "/v1/sessions", json: ["phone": "+8613900139000", "code": code])
        #expect(reused.status == 400)
        #expect(reused.message == "That code is wrong or has expired. Check it or ask for a new one.")
        // The unknown number was told that no account uses it; guessing a code gets the wrong-code answer.
        let outbox =
            try await server.call("GET", "/v1/admin/outbox", token: admin).data["data"] as? [[String: Any]]
            ?? []
        let notice = outbox.first { $0["target"] as? String == "+8613700137000" }?["text"] as? String
        #expect(notice?.contains("no account uses it") == true)
        let noAccount = try await server.call(
            "POST", "/v1/sessions", json: ["phone": "+8613700137000", "code": "123456"])
        #expect(noAccount.status == reused.status)
        #expect(noAccount.message == reused.message)

        // Wrong five times: the right code no longer works.
        _ = try await server.call(
            "POST", "/v1/codes", json: ["email": "admin@example.com", "purpose": "reset"])
        let resetCode = try #require(try await server.latestCode(for: "admin@example.com", adminToken: admin))
        let wrongReset = resetCode == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            let reply = try await server.call(
                "POST", "/v1/codes/check",
                json: ["email": "admin@example.com", "code": wrongReset, "purpose": "reset"])
            #expect(reply.status == 400)
        }
        let exhausted = try await server.call(
            "POST", "/v1/users/reset_password",
            json: ["email": "admin@example.com", "code": resetCode, "password": "new password"])
        #expect(exhausted.status == 400)
        #expect(exhausted.message == "That code was entered wrongly too many times. Ask for a new one.")
    }

    @Test func resetPasswordEndsEverySession() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        _ = try await server.signUp(["email": "admin@example.com"], nickname: "Admin")
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let admin = try await server.signIn(["email": "admin@example.com"])
        let laptop = try await server.signIn(["email": "ann@example.com"], device: "laptop")
        let phone = try await server.signIn(["email": "ann@example.com"], device: "phone")
        #expect(try await server.call("GET", "/v1/sessions", token: laptop).list.count == 2)

        #expect(
            try await server.call(
                "POST", "/v1/codes", json: ["email": "ann@example.com", "purpose": "reset"]
            ).status == 200)
        let code = try #require(try await server.latestCode(for: "ann@example.com", adminToken: admin))
        let wrongTarget = try await server.call(
            "POST", "/v1/users/reset_password",
            json: ["email": "admin@example.com", "code": code, "password": "new password"])
        #expect(wrongTarget.status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/users/reset_password",
                json: ["email": "ann@example.com", "code": code, "password": "short"]
            ).status == 400)
        let reset = try await server.call(
            "POST", "/v1/users/reset_password",
            json: ["email": "ann@example.com", "code": code, "password": "new password"])
        #expect(reset.status == 200, "\(reset.json)")
        #expect(try await server.call("GET", "/v1/sessions", token: laptop).status == 401)
        #expect(try await server.call("GET", "/v1/sessions", token: phone).status == 401)
        #expect(
            try await server.call(
                "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "correct horse"]
            ).status == 401)
        _ = try await server.signIn(["email": "ann@example.com"], password: "new password")
        let reused = try await server.call(
            "POST", "/v1/users/reset_password",
            json: ["email": "ann@example.com", "code": code, "password": "another one"])
        #expect(reused.status == 400)
    }

    @Test func sessionsAreOnlyOnesOwn() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        _ = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
        let annLaptop = try await server.signIn(["email": "ann@example.com"], device: "laptop")
        let annPhone = try await server.signIn(["email": "ann@example.com"], device: "phone")
        let bob = try await server.signIn(["email": "bob@example.com"])
        let annSessions = try await server.call("GET", "/v1/sessions", token: annLaptop).list
        #expect(annSessions.count == 2)
        #expect(annSessions.filter { $0["current"] as? Bool == true }.first?["device"] as? String == "laptop")
        let phoneID = try #require(annSessions.first { $0["device"] as? String == "phone" }?["id"] as? String)
        let bobID = try #require(
            try await server.call("GET", "/v1/sessions", token: bob).list.first?["id"] as? String)

        #expect(try await server.call("DELETE", "/v1/sessions/\(bobID)", token: annLaptop).status == 404)
        #expect(try await server.call("GET", "/v1/sessions", token: bob).status == 200)
        #expect(try await server.call("DELETE", "/v1/sessions/\(phoneID)", token: bob).status == 404)
        #expect(try await server.call("DELETE", "/v1/sessions/abc", token: annLaptop).status == 404)
        #expect(try await server.call("DELETE", "/v1/sessions/\(phoneID)", token: annLaptop).status == 200)
        #expect(try await server.call("GET", "/v1/sessions", token: annPhone).status == 401)
        #expect(try await server.call("GET", "/v1/sessions", token: annLaptop).list.count == 1)
        #expect(try await server.call("DELETE", "/v1/sessions/\(phoneID)").status == 401)
    }

    @Test func administratorsListDisableAndReadTheOutbox() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        // Before any administrator exists, this machine may start a scan.
        #expect(try await server.call("POST", "/v1/library/scan").status == 202)
        let adminID = try await server.signUp(["email": "admin@example.com"], nickname: "Admin")
        let annID = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let admin = try await server.signIn(["email": "admin@example.com"])
        let ann = try await server.signIn(["email": "ann@example.com"])

        #expect(try await server.call("POST", "/v1/library/scan").status == 401)
        #expect(try await server.call("POST", "/v1/library/scan", token: ann).status == 403)
        #expect(try await server.call("POST", "/v1/library/scan", token: admin).status == 202)
        // The scan's status names the music folders: administrators only, once one exists.
        #expect(try await server.call("GET", "/v1/library/scan").status == 401)
        #expect(try await server.call("GET", "/v1/library/scan", token: ann).status == 403)
        let status = try await server.call("GET", "/v1/library/scan", token: admin)
        #expect(status.status == 200 && status.data["folders"] is [String])
        for path in ["/v1/admin/users", "/v1/admin/outbox"] {
            #expect(try await server.call("GET", path).status == 401)
            #expect(try await server.call("GET", path, token: ann).status == 403)
        }
        #expect(
            try await server.call("PATCH", "/v1/admin/users/\(annID)", json: ["disabled": true], token: ann)
                .status == 403)

        let users = try await server.call("GET", "/v1/admin/users?size=1", token: admin)
        #expect(users.data["total"] as? Int == 2)
        #expect(users.data["next"] as? Int == 2)
        #expect((users.data["data"] as? [[String: Any]])?.first?["email"] as? String == "admin@example.com")

        let disabled = try await server.call(
            "PATCH", "/v1/admin/users/\(annID)", json: ["disabled": true], token: admin)
        #expect(disabled.status == 200)
        #expect(disabled.data["disabled"] as? Bool == true)
        #expect(try await server.call("GET", "/v1/sessions", token: ann).status == 401)
        let refused = try await server.call(
            "POST", "/v1/sessions", json: ["email": "ann@example.com", "password": "correct horse"])
        #expect(refused.status == 403)
        #expect(try await server.call("GET", "/v1/users/\(annID)").status == 404)
        #expect(try await server.call("GET", "/v1/users/\(annID)", token: admin).status == 200)
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/users/\(adminID)", json: ["disabled": true], token: admin
            ).status == 400)
        #expect(
            try await server.call("PATCH", "/v1/admin/users/99999", json: ["disabled": true], token: admin)
                .status == 404)
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/users/\(annID)", json: ["disabled": "yes"], token: admin
            ).status == 400)
        #expect(
            try await server.call(
                "PATCH", "/v1/admin/users/\(annID)", json: ["disabled": false], token: admin
            ).status == 200)
        _ = try await server.signIn(["email": "ann@example.com"])
    }

    @Test func avatarsAreCheckedByContentAndResized() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        let annID = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let bobID = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
        let ann = try await server.signIn(["email": "ann@example.com"])
        let folder = temporaryFolder()
        try FFmpeg.installed!.run(
            [
                "-f", "lavfi", "-i",
                "testsrc=size=640x360:duration=1",
                "-frames:v", "1", folder + "/picture.png",
            ])
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/picture.png"))

        let uploaded = try await server.upload(
            "/v1/users/\(annID)/avatar", file: png, fileName: "notes.txt", token: ann)
        #expect(uploaded.status == 200, "\(uploaded.json)")
        let icon = try #require(uploaded.data["icon"] as? String)
        #expect(icon.hasPrefix("v1/users/\(annID)/avatar"))
        let (status, jpeg, response) = try await server.request("/" + icon)
        #expect(status == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(jpeg.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        #expect(try await server.call("GET", "/v1/users/\(annID)").data["icon"] as? String == icon)

        let fake = try await server.upload(
            "/v1/users/\(annID)/avatar", file: Data("<svg onload=alert(1)>".utf8), fileName: "face.png",
            token: ann)
        #expect(fake.status == 415)
        var broken = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        broken.append(Data(repeating: 7, count: 100))
        #expect(
            try await server.upload("/v1/users/\(annID)/avatar", file: broken, fileName: "a.png", token: ann)
                .status == 400)
        #expect(
            try await server.upload("/v1/users/\(bobID)/avatar", file: png, fileName: "a.png", token: ann)
                .status == 403)
        #expect(
            try await server.upload("/v1/users/\(annID)/avatar", file: png, fileName: "a.png", token: nil)
                .status == 401)
        #expect(try await server.call("GET", "/v1/users/\(bobID)/avatar").status == 404)
    }
}

/// `cloudmusic-server user ...` from the shell.
@Suite struct UserCommandTests {
    func run(_ arguments: [String], input: String = "") async throws -> (Int32, String, String) {
        try await runServerCommand(arguments, input: input)
    }

    @Test func addListDisableAndChangePasswords() async throws {
        let data = temporaryFolder()
        let (added, addOutput, addErrors) = try await run(
            ["user", "add", "root@example.com", "Root", "--admin", "--data", data], input: "first password\n")
        #expect(added == 0, "\(addErrors)")
        #expect(addOutput.contains("(admin)"))
        let (_, plain, _) = try await run(
            ["user", "add", "13800138000", "Ann", "--data", data], input: "first password\n")
        #expect(plain.contains("(user)"))
        let (duplicate, _, duplicateErrors) = try await run(
            ["user", "add", "13800138000", "Ann2", "--data", data], input: "first password\n")
        #expect(duplicate == 1)
        #expect(duplicateErrors.contains("cannot be used"))
        #expect(try await run(["user", "add", "x@example.com", "X", "--data", data]).0 != 0)
        #expect(
            try await run(["user", "add", "x@example.com", "X", "--data", data], input: "short\n").0 != 0)
        #expect(try await run(["user", "list", "--admin", "--data", data]).0 == 64)
        #expect(try await run(["user", "frobnicate", "--data", data]).0 == 64)

        let (_, list, _) = try await run(["user", "list", "--data", data])
        #expect(list.contains("root@example.com"))
        #expect(list.contains("13800138000"))
        #expect(try await run(["user", "disable", "13800138000", "--data", data]).0 == 0)
        #expect(try await run(["user", "list", "--data", data]).1.contains("user\tyes\t13800138000"))
        #expect(try await run(["user", "enable", "2", "--data", data]).0 == 0)
        #expect(
            try await run(["user", "passwd", "root@example.com", "--data", data], input: "second password\n")
                .0 == 0
        )
        #expect(
            try await run(
                ["user", "passwd", "nobody@example.com", "--data", data], input: "second password\n"
            ).0
                != 0)

        let server = try await TestServer.start(.empty, extraArguments: ["--data", data])
        defer { _ = server.stop() }
        let token = try await server.signIn(["email": "root@example.com"], password: "second password")
        #expect(try await server.call("GET", "/v1/admin/users", token: token).status == 200)
    }
}
