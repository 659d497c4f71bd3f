import Foundation
import MusicCore
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

/// Each use case of the accounts is one transaction: what fails halfway leaves nothing behind, and what
/// is refused on purpose (a wrong code) still leaves its trace.
@Suite struct AccountTransactionTests {
    struct World {
        let database: Database
        let accounts: AccountService
        let sender: ExpectingSender
    }

    func world(sends: Int) throws -> World {
        let folder = temporaryFolder()
        let database = try Database(path: folder + "/test.sqlite")
        try Schema.migrator.migrate(database)
        let sender = ExpectingSender(expecting: sends)
        let clock = TestClock()
        let accounts = AccountService(
            database: database, sender: sender, avatarFolder: folder + "/avatars",
            sheetCoverPath: { folder + "/sheet-covers/\($0).jpg" }, clock: { clock.read() })
        return World(database: database, accounts: accounts, sender: sender)
    }

    func count(_ database: Database, _ sql: String) throws -> Int {
        try database.read { db in try db.queryOne(sql) { try $0.int("n") } ?? 0 }
    }

    func register(_ accounts: AccountService, code: String?, nickname: String = "Ann") throws -> User {
        try accounts.register(
            phone: nil, email: "ann@example.com", password: "correct horse", nickname: nickname, code: code,
            address: "10.0.0.1")
    }

    @Test func aSignUpThatFailsHalfwayLeavesNoUserAndNoLikesSheet() throws {
        let world = try world(sends: 1)
        _ = try world.accounts.sendCode(
            phone: nil, email: "ann@example.com", purpose: "register", address: "10.0.0.1")
        let code = try #require(world.sender.lastCode)
        // The last step of a sign-up, using up its code, fails after the user and their "I like" sheet
        // were written.
        try world.database.write { db in
            try db.executeScript(
                """
                CREATE TRIGGER fail_code_use BEFORE DELETE ON verification_codes
                BEGIN SELECT RAISE(ABORT, 'the disk is full'); END;
                """)
        }
        #expect(throws: DatabaseError.self) { _ = try register(world.accounts, code: code) }
        #expect(try count(world.database, "SELECT count(*) AS n FROM users") == 0)
        #expect(try count(world.database, "SELECT count(*) AS n FROM sheets") == 0)
        #expect(try count(world.database, "SELECT count(*) AS n FROM verification_codes") == 1)

        // The code was not used up, so the same sign-up succeeds once the failure is gone.
        try world.database.write { db in try db.executeScript("DROP TRIGGER fail_code_use") }
        let user = try register(world.accounts, code: code)
        #expect(user.nickname == "Ann")
        #expect(try count(world.database, "SELECT count(*) AS n FROM users") == 1)
        #expect(
            try count(
                world.database, "SELECT count(*) AS n FROM sheets WHERE kind = 1 AND user_id = \(user.id)")
                == 1)
        #expect(try count(world.database, "SELECT count(*) AS n FROM verification_codes") == 0)
    }

    @Test func aWrongCodeIsCountedThoughTheSignUpIsRefused() throws {
        let world = try world(sends: 1)
        _ = try world.accounts.sendCode(
            phone: nil, email: "ann@example.com", purpose: "register", address: "10.0.0.1")
        let code = try #require(world.sender.lastCode)
        let wrong = code == "000000" ? "111111" : "000000"
        #expect(throws: AccountService.badCode) { _ = try register(world.accounts, code: wrong) }
        #expect(try count(world.database, "SELECT tries AS n FROM verification_codes") == 1)
        #expect(try count(world.database, "SELECT count(*) AS n FROM users") == 0)
        // A sign-up refused for its nickname rolls back whole: the code stays for another try.
        _ = try world.accounts.createUser(
            identifier: .email("bob@example.com"), password: "correct horse",
            nickname: try AccountRules.nickname("Ann"), admin: false)
        #expect(throws: AccountService.nicknameTaken) { _ = try register(world.accounts, code: code) }
        #expect(try count(world.database, "SELECT count(*) AS n FROM verification_codes") == 1)
        _ = try register(world.accounts, code: code, nickname: "Ann Lee")
        #expect(try count(world.database, "SELECT count(*) AS n FROM users") == 2)
        #expect(try count(world.database, "SELECT count(*) AS n FROM verification_codes") == 0)
    }

    @Test func aCodeAndItsOutboxMessageAreWrittenTogether() throws {
        let folder = temporaryFolder()
        let database = try Database(path: folder + "/test.sqlite")
        try Schema.migrator.migrate(database)
        let accounts = AccountService(
            database: database, avatarFolder: folder + "/avatars",
            sheetCoverPath: { folder + "/sheet-covers/\($0).jpg" })
        try database.write { db in
            try db.executeScript(
                """
                CREATE TRIGGER fail_outbox BEFORE INSERT ON outbox
                BEGIN SELECT RAISE(ABORT, 'the disk is full'); END;
                """)
        }
        #expect(throws: DatabaseError.self) {
            _ = try accounts.sendCode(phone: "13800138000", email: nil, purpose: "login", address: "10.0.0.1")
        }
        // No code that nobody was told about, and the failed send does not count against the daily limit.
        #expect(try count(database, "SELECT count(*) AS n FROM verification_codes") == 0)
        #expect(try count(database, "SELECT count(*) AS n FROM code_sends") == 0)
        try database.write { db in try db.executeScript("DROP TRIGGER fail_outbox") }
        _ = try accounts.sendCode(phone: "13800138000", email: nil, purpose: "login", address: "10.0.0.1")
        #expect(try count(database, "SELECT count(*) AS n FROM outbox") == 1)
        #expect(try count(database, "SELECT count(*) AS n FROM verification_codes") == 1)
    }
}

/// `GET /v1/users?nickname=`: a tapped @mention finds its person.
@Suite struct FindByNicknameTests {
    static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    @Test func aMentionFindsItsPerson() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        let adminID = try await server.signUp(["email": "admin@example.com"], nickname: "Admin")
        let bobID = try await server.signUp(["email": "bob@example.com"], nickname: "Bob 林")
        let admin = try await server.signIn(["email": "admin@example.com"])

        for text in ["Bob 林", "bob 林", "@Bob 林", "  @bob 林 ", "Ｂｏｂ 林"] {
            let query = text.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
            let found = try await server.call("GET", "/v1/users?nickname=\(query)")
            #expect(found.status == 200, "\(text): \(found.json)")
            #expect(found.data["total"] as? Int == 1, "\(text)")
            #expect(found.ids == [bobID], "\(text)")
            #expect(found.items.first?["nickname"] as? String == "Bob 林")
            #expect(found.items.first?["email"] == nil, "others see public fields only")
        }
        // Signed in: whether one follows them, as on their profile; one's own entry has one's private fields.
        let seen = try await server.call("GET", "/v1/users?nickname=Bob%20%E6%9E%97", token: admin)
        #expect(seen.items.first?["following"] as? Bool == false)
        let me = try await server.call("GET", "/v1/users?nickname=admin", token: admin)
        #expect(me.ids == [adminID])
        #expect(me.items.first?["email"] as? String == "admin@example.com")

        let nobody = try await server.call("GET", "/v1/users?nickname=Carol")
        #expect(nobody.status == 200)
        #expect(nobody.data["total"] as? Int == 0)
        #expect(nobody.items.isEmpty)
        // Only a whole nickname is a match, not a prefix.
        #expect(try await server.call("GET", "/v1/users?nickname=Bo").items.isEmpty)

        let missing = try await server.call("GET", "/v1/users")
        #expect(missing.status == 400)
        #expect(missing.message.contains("nickname"))
        #expect(try await server.call("GET", "/v1/users?nickname=%20").status == 400)

        // A disabled account is never found, not even by an administrator.
        #expect(
            try await server.call("PATCH", "/v1/admin/users/\(bobID)", json: ["disabled": true], token: admin)
                .status == 200)
        let hidden = try await server.call("GET", "/v1/users?nickname=Bob%20%E6%9E%97", token: admin)
        #expect(hidden.status == 200)
        #expect(hidden.items.isEmpty)
    }
}
