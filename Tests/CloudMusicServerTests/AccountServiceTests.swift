import Cryptography
import Foundation
import HTTPServer
import MusicCore
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

/// A code sender that keeps what it was given and fails the test on any send beyond what it expects.
final class ExpectingSender: CodeSender, @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private(set) var texts: [String] = []

    init(expecting count: Int) { remaining = count }

    func send(channel: String, target: String, purpose: String, text: String) throws {
        lock.lock()
        defer { lock.unlock() }
        guard remaining > 0 else {
            Issue.record("unexpected code sent to \(target): \(text)")
            throw ServiceError.serverFault("unexpected send")
        }
        remaining -= 1
        texts.append(text)
    }

    var lastCode: String? {
        lock.lock()
        defer { lock.unlock() }
        return texts.last.flatMap { text in
            text.range(of: #"\d{6}"#, options: .regularExpression).map { String(text[$0]) }
        }
    }
}

/// Rules that depend on time, checked at the service level with a hand-moved clock and a real database.
@Suite struct AccountServiceTests {
    func service(
        sender: ExpectingSender, clock: TestClock, settings: AccountService.Settings = .init()
    ) throws -> AccountService {
        let folder = temporaryFolder()
        let database = try Database(path: folder + "/test.sqlite")
        try Schema.migrator.migrate(database)
        return AccountService(
            database: database, sender: sender, avatarFolder: folder + "/avatars",
            sheetCoverPath: { folder + "/sheet-covers/\($0).jpg" }, settings: settings,
            clock: { clock.read() })
    }

    func status(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch let error as ServiceError {
            return error.kind.httpStatus
        } catch {
            return -1
        }
    }

    @Test func signUpCodesGoOnlyToAddressesWithoutAnAccount() throws {
        let clock = TestClock()
        let sender = ExpectingSender(expecting: 3)
        let accounts = try service(sender: sender, clock: clock)
        #expect(
            status {
                _ = try accounts.register(
                    phone: nil, email: "ann@example.com", password: "correct horse", nickname: "Ann",
                    code: nil,
                    address: "10.0.0.1")
            } == 400)
        _ = try accounts.sendCode(
            phone: nil, email: "ann@example.com", purpose: "register", address: "10.0.0.1")
        let code = try #require(sender.lastCode)
        _ = try accounts.register(
            phone: nil, email: "ann@example.com", password: "correct horse", nickname: "Ann", code: code,
            address: "10.0.0.1")
        clock.advance(120)
        // Taken and free addresses get the same answer; only the owner of the taken one is told, without a code.
        let taken = try accounts.sendCode(
            phone: nil, email: "ann@example.com", purpose: "register", address: "10.0.0.2")
        #expect(sender.lastCode == nil)
        #expect(sender.texts.last?.contains("already has an account") == true)
        let free = try accounts.sendCode(
            phone: nil, email: "bob@example.com", purpose: "register", address: "10.0.0.2")
        #expect(sender.lastCode != nil)
        #expect(taken == free)
        // Whatever someone guesses for the taken address fails like a wrong code for a free one.
        #expect(
            status {
                _ = try accounts.register(
                    phone: nil, email: "ann@example.com", password: "other password", nickname: "Eve",
                    code: "123456", address: "10.0.0.2")
            } == 400)
    }

    @Test func codesExpireAfterTenMinutes() throws {
        let clock = TestClock()
        let sender = ExpectingSender(expecting: 2)
        var settings = AccountService.Settings()
        settings.signupCodes = false
        let accounts = try service(sender: sender, clock: clock, settings: settings)
        _ = try accounts.register(
            phone: "13800138000", email: nil, password: "correct horse", nickname: "Ann", code: nil,
            address: "10.0.0.1")
        _ = try accounts.sendCode(phone: "13800138000", email: nil, purpose: "login", address: "10.0.0.1")
        let code = try #require(sender.lastCode)
        clock.advance(599)
        try accounts.checkCode(
            phone: "13800138000", email: nil, purpose: "login", code: code, address: "10.0.0.1")
        clock.advance(1)
        #expect(
            status {
                try accounts.checkCode(
                    phone: "13800138000", email: nil, purpose: "login", code: code, address: "10.0.0.1")
            } == 400)
        let input = AccountService.LoginInput(phone: "13800138000", code: code)
        #expect(status { _ = try accounts.login(input, address: "10.0.0.1", userAgent: nil) } == 400)

        // A fresh code works; signing in with it gives a session that expires after 30 days unused.
        _ = try accounts.sendCode(phone: "13800138000", email: nil, purpose: "login", address: "10.0.0.1")
        let fresh = try #require(sender.lastCode)
        let result = try accounts.login(
            .init(phone: "13800138000", code: fresh), address: "10.0.0.1", userAgent: "test")
        _ = try accounts.authenticate(token: result.session, address: "10.0.0.1")
        clock.advance(29 * 86_400)
        _ = try accounts.authenticate(token: result.session, address: "10.0.0.1")  // slides the expiry
        clock.advance(29 * 86_400)
        _ = try accounts.authenticate(token: result.session, address: "10.0.0.1")
        clock.advance(30 * 86_400)
        #expect(status { _ = try accounts.authenticate(token: result.session, address: "10.0.0.1") } == 401)
    }

    @Test func atMostOneCodeAMinuteAndTenADay() throws {
        let clock = TestClock()
        let sender = ExpectingSender(expecting: 11)
        let accounts = try service(sender: sender, clock: clock)
        for index in 0..<10 {
            _ = try accounts.sendCode(
                phone: nil, email: "ann@example.com", purpose: "reset", address: "10.0.0.\(index)")
            #expect(
                status {
                    _ = try accounts.sendCode(
                        phone: nil, email: "ann@example.com", purpose: "reset", address: "10.0.1.1")
                } == 429)
            clock.advance(60)
        }
        do {
            _ = try accounts.sendCode(
                phone: nil, email: "ann@example.com", purpose: "login", address: "10.0.1.1")
            Issue.record("the eleventh code of the day was sent")
        } catch let error as ServiceError {
            #expect(error.kind == .rateLimited)
            let retry = error.retryAfter ?? 0
            #expect(retry == 86_400 - 600)
        }
        // A day after the first send, one more is allowed.
        clock.advance(86_400 - 600)
        _ = try accounts.sendCode(phone: nil, email: "ann@example.com", purpose: "login", address: "10.0.1.1")
        #expect(sender.texts.count == 11)
    }

    @Test func backOffGrowsAndIsForgottenInTheDatabase() throws {
        let database = try Database(path: temporaryFolder() + "/test.sqlite")
        try Schema.migrator.migrate(database)
        let limiter = BackoffLimiter("test", .init(allowed: 5))
        var now: Int64 = 1_000
        func record(_ key: String = "k") throws {
            try database.write { try limiter.record($0, key, now: now) }
        }
        func retryAfter(_ key: String = "k") throws -> Int? {
            try database.read { try limiter.retryAfter($0, key, now: now) }
        }
        for _ in 0..<4 {
            try record()
            #expect(try retryAfter() == nil)
        }
        try record()
        #expect(try retryAfter() == 30)
        now += 30
        #expect(try retryAfter() == nil)
        try record()
        #expect(try retryAfter() == 60)
        now += 60
        try record()
        #expect(try retryAfter() == 120)
        for _ in 0..<10 { try record() }
        #expect(try retryAfter() == 900)
        #expect(try retryAfter("other") == nil)
        // Another limiter's sources are its own, though they share the table.
        #expect(
            try database.read { try BackoffLimiter("other", .init(allowed: 5)).retryAfter($0, "k", now: now) }
                == nil)
        now += 3_600 + 900
        try record()
        #expect(try retryAfter() == nil)
        try database.write { try limiter.reset($0, "k") }
        #expect(try retryAfter() == nil)
        // A second process over the same file sees the same counts.
        let other = try Database(path: database.path)
        for _ in 0..<5 { try record("shared") }
        #expect(try other.read { try limiter.retryAfter($0, "shared", now: now) } == 30)
    }

    @Test func wrongPasswordsFromOneAddressNeverLockTheAccountOutElsewhere() throws {
        let clock = TestClock()
        let accounts = try service(sender: ExpectingSender(expecting: 0), clock: clock)
        let ann = try accounts.createUser(
            identifier: .email("ann@example.com"), password: "correct horse battery",
            nickname: ("Ann", "ann"), admin: false)
        let wrong = AccountService.LoginInput(email: "ann@example.com", password: "wrong password")
        let right = AccountService.LoginInput(email: "ann@example.com", password: "correct horse battery")
        var refusals: [Int?] = []
        for _ in 0..<50 {
            refusals.append(status { _ = try accounts.login(wrong, address: "203.0.113.9", userAgent: nil) })
        }
        #expect(refusals.prefix(5).allSatisfy { $0 == 401 })
        #expect(refusals.dropFirst(5).allSatisfy { $0 == 429 })
        // The failing source (that address, for that account) is slowed down; Ann elsewhere is not.
        #expect(status { _ = try accounts.login(right, address: "203.0.113.9", userAgent: nil) } == 429)
        let signedIn = try accounts.login(right, address: "198.51.100.7", userAgent: nil)
        #expect(signedIn.userId == String(ann.id))
        // A success there leaves the failing source blocked, and its own count at zero.
        #expect(status { _ = try accounts.login(right, address: "203.0.113.9", userAgent: nil) } == 429)
        for _ in 0..<4 {
            #expect(status { _ = try accounts.login(wrong, address: "198.51.100.7", userAgent: nil) } == 401)
        }
        #expect(try accounts.login(right, address: "198.51.100.7", userAgent: nil).userId == String(ann.id))
    }

    @Test func addressLimitsCoverManyAccounts() throws {
        let clock = TestClock()
        var settings = AccountService.Settings()
        settings.loginFailuresPerAddress = 4
        let accounts = try service(sender: ExpectingSender(expecting: 0), clock: clock, settings: settings)
        // Failed sign-ins from one address, each on a different (unknown) account, block the address.
        for index in 0..<4 {
            let input = AccountService.LoginInput(
                email: "user\(index)@example.com", password: "wrong password")
            #expect(status { _ = try accounts.login(input, address: "10.9.9.9", userAgent: nil) } == 401)
        }
        let input = AccountService.LoginInput(email: "fresh@example.com", password: "wrong password")
        #expect(status { _ = try accounts.login(input, address: "10.9.9.9", userAgent: nil) } == 429)
        #expect(status { _ = try accounts.login(input, address: "10.9.9.8", userAgent: nil) } == 401)
    }

    @Test func passwordsAreArgon2idAtSixtyFourMebibytes() {
        let hash = Crypto.hashPassword("correct horse")
        #expect(hash.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"))
        #expect(Crypto.verifyPassword("correct horse", hash: hash))
        #expect(!Crypto.verifyPassword("correct horsE", hash: hash))
        #expect(Crypto.tokenHash("abc").count == 64)
        #expect(Crypto.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!Crypto.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(Crypto.randomDigits(6).count == 6)
    }
}
