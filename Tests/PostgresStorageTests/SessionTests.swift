import Foundation
import PostgresStorage
import PostgresTestSupport
import ServerTestSupport
import Storage
import Testing

/// What a listener delivered, with a wait for what a test expects next.
final class Heard: @unchecked Sendable {
    private var events: [PostgresListener.Event] = []
    private let condition = NSCondition()

    func append(_ event: PostgresListener.Event) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `holds` is true of the events so far (a bound of a minute for a hung test only).
    func waitUntil(_ holds: ([PostgresListener.Event]) -> Bool) -> [PostgresListener.Event] {
        let deadline = Date().addingTimeInterval(60)
        condition.lock()
        defer { condition.unlock() }
        while !holds(events) && condition.wait(until: deadline) {}
        return events
    }

    static func payloads(_ events: [PostgresListener.Event]) -> [String] {
        events.compactMap { event in
            if case .notification(let notification) = event { return notification.payload }
            return nil
        }
    }
}

@Suite struct ListenerTests {
    @Test func notificationsArriveInCommitOrderOnlyWhenCommittedAndOnlyOnTheirChannels() throws {
        let database = try TestCluster.freshPool()
        let heard = Heard()
        let listener = try database.listen(["events", "Mixed Case"]) { heard.append($0) }
        defer { listener.stop() }
        for n in 1...50 { try database.write { try $0.notify("events", payload: "\(n)") } }
        #expect(throws: Refused.self) {
            try database.write { db in
                try db.notify("events", payload: "rolled back")
                throw Refused()
            }
        }
        try database.write { try $0.notify("elsewhere", payload: "not listened to") }
        try database.write { try $0.notify("Mixed Case", payload: "歌 🎵") }
        try database.write { try $0.notify("events", payload: "last") }
        let events = heard.waitUntil { Heard.payloads($0).last == "last" }
        #expect(Heard.payloads(events) == (1...50).map(String.init) + ["歌 🎵", "last"])
    }

    @Test func aListenerThatLosesItsConnectionSaysSoAndListensAgain() throws {
        let name = "listener \(UUID().uuidString)"
        let database = try TestCluster.freshPool {
            $0.maximumConnections = 1
            $0.applicationName = name
        }
        let heard = Heard()
        let listener = try database.listen(["events"]) { heard.append($0) }
        defer { listener.stop() }
        try database.write { try $0.notify("events", payload: "before") }
        _ = heard.waitUntil { Heard.payloads($0) == ["before"] }
        let listening = try database.read { db in
            try db.queryOne(
                "SELECT pid FROM pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()",
                name
            ) { try $0.int("pid") }
        }
        let admin = try PostgresDatabase(address: database.address)
        try terminate(Int32(try #require(listening)), in: admin)
        let events = heard.waitUntil { $0.last == .resumed }
        #expect(events.contains { if case .lost = $0 { true } else { false } })
        try database.write { try $0.notify("events", payload: "after") }
        #expect(
            Heard.payloads(heard.waitUntil { Heard.payloads($0).last == "after" }) == ["before", "after"])
    }
}

@Suite struct AdvisoryLockTests {
    @Test func oneHolderAtATimeAcrossPoolsAndALockGoesWithItsSession() throws {
        let first = try TestCluster.freshPool()
        let second = try PostgresDatabase(address: first.address)
        let held = try #require(try first.tryAdvisoryLock("library scan"))
        #expect(held.isHeld)
        #expect(try second.tryAdvisoryLock("library scan") == nil)
        #expect(
            try first.tryAdvisoryLock("library scan") == nil,
            "a second session of the same pool is another holder")
        let other = try second.tryAdvisoryLock("video scan")
        #expect(other != nil)
        held.release()
        #expect(!held.isHeld)
        let taken = try #require(try second.tryAdvisoryLock("library scan"))
        #expect(try first.tryAdvisoryLock("library scan") == nil)
        // The holder's session dies (its process killed): the lock is free for the next one.
        try terminate(taken.backendPID, in: first)
        #expect(!taken.isHeld)
        #expect(try first.tryAdvisoryLock("library scan") != nil)
    }
}

@Suite struct AddressTests {
    @Test func urlsAndKeyValueSettingsAreReadByLibpq() throws {
        let url = try PostgresAddress(
            "postgres://ann:s3cr%40t@db.example:6543/music?sslmode=verify-full&application_name=web")
        #expect(url.setting("user") == "ann")
        #expect(url.setting("password") == "s3cr@t")
        #expect(url.setting("host") == "db.example")
        #expect(url.setting("port") == "6543")
        #expect(url.database == "music")
        #expect(url.setting("sslmode") == "verify-full")
        #expect(url.description == "postgres://ann@db.example:6543/music?sslmode=verify-full")
        #expect(!url.with("dbname", "other").description.contains("s3cr"))
        #expect(url.with("dbname", "other").database == "other")

        let settings = try PostgresAddress("host=10.0.0.5 port=5433 dbname=music user=ann sslmode=require")
        #expect(settings.description == "postgres://ann@10.0.0.5:5433/music?sslmode=require")
        #expect(try PostgresAddress("postgresql://localhost/music").database == "music")
    }

    @Test(arguments: [
        ("mysql://localhost/music", "a PostgreSQL address is a URL"),
        ("postgres://localhost/music?sslmode=sometimes", "sslmode=sometimes is not one PostgreSQL knows"),
        ("host=localhost bogus", "not valid"),
        ("postgres://localhost/music?colour=blue", "not valid"),
        ("", "a PostgreSQL address is a URL"),
    ])
    func aBadAddressIsRefusedWithASentence(text: String, says: String) {
        do {
            _ = try PostgresAddress(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect("\(error)".contains(says), "\(error)")
        }
    }

    @Test func aPasswordInTheURLSignsInAndAWrongOneSaysSoWithoutIt() throws {
        let address = try TestCluster.freshDatabase()
        let admin = try PostgresDatabase(address: address)
        let password = "p@ss w:rd/?é"
        try admin.withConnection { db in
            try db.executeScript(
                """
                DO $$ BEGIN CREATE ROLE cloudmusic_password LOGIN;
                EXCEPTION WHEN duplicate_object THEN NULL; END $$;
                """)
            // ALTER ROLE takes no parameters: the password is a quoted literal here.
            try db.executeScript(
                "ALTER ROLE cloudmusic_password PASSWORD '\(password.replacingOccurrences(of: "'", with: "''"))'"
            )
        }
        let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let host = address.setting("host") ?? "127.0.0.1"
        let port = address.setting("port") ?? "5432"
        func url(_ password: String) -> String {
            "postgres://cloudmusic_password:\(password)@\(host):\(port)/\(address.database!)?sslmode=disable"
        }
        let signedIn = try PostgresDatabase(url: url(encoded))
        let me = try signedIn.read { try $0.queryOne("SELECT current_user AS me") { try $0.string("me") } }
        #expect(me == "cloudmusic_password")
        do {
            _ = try PostgresDatabase(url: url("wrong"))
            Issue.record("a wrong password signed in")
        } catch {
            #expect("\(error)".contains("password authentication failed"), "\(error)")
            #expect(!"\(error)".contains("wrong"))
        }
    }

    @Test func sslmodeIsPassedToLibpq() throws {
        let address = try TestCluster.freshDatabase()
        let certificate = try TestCluster.rootCertificate()
        func encrypted(_ address: PostgresAddress) throws -> Bool {
            let database = try PostgresDatabase(address: address)
            return try database.read { db in
                try db.queryOne("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") {
                    try $0.bool("ssl")
                }
            } ?? false
        }
        #expect(try !encrypted(address.with("sslmode", "disable")))
        #expect(try encrypted(address.with("sslmode", "require")))
        let verified = address.with("sslmode", "verify-full").with("sslrootcert", certificate)
        #expect(try encrypted(verified.with("host", "localhost")))
        // verify-full checks the name: the certificate is for localhost and 127.0.0.1, not this name.
        do {
            _ = try encrypted(verified.with("host", "music.invalid").with("hostaddr", "127.0.0.1"))
            Issue.record("verify-full accepted a name the certificate does not carry")
        } catch {
            #expect("\(error)".contains("does not match host name"), "\(error)")
        }
    }
}
