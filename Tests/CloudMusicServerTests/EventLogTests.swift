import Foundation
import MusicCore
import ServerTestSupport
import Storage
import Synchronization
import Testing

@testable import CloudMusicServer

/// The event log on its own: published only after commit, replay after an id, and what a purge leaves.
@Suite struct EventLogTests {
    /// A hub that records what it was given; subscriptions are not this test's subject.
    final class RecordingHub: EventHub {
        let published = Mutex<[Int64]>([])
        func publish(_ events: [StoredEvent]) { published.withLock { $0 += events.map(\.id) } }
        func subscribe(userID: Int64, device: Int64, sink: any EventSink) -> EventSubscription {
            Issue.record("the log never subscribes")
            return EventSubscription(userID: userID, device: device, sink: sink) { _ in }
        }
        let ended = Mutex<[String]>([])
        func endSessions(_ sessions: [(userID: Int64, sessionID: Int64)]) {
            ended.withLock { $0 += sessions.map { "\($0.userID)/\($0.sessionID)" } }
        }
    }

    /// A stream's socket as text; `accepting` false plays a client that has gone.
    final class RecordingSink: EventSink {
        let text = Mutex("")
        let finished = Mutex(false)
        let accepting = Mutex(true)
        func send(_ data: Data) -> Bool {
            guard accepting.withLock({ $0 }) else { return false }
            text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            return true
        }
        func finish() { finished.withLock { $0 = true } }
        var ids: [String] {
            text.withLock { $0 }.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map {
                String($0.dropFirst(4))
            }
        }
    }

    static func event(_ id: Int64) -> StoredEvent {
        StoredEvent(id: id, userID: 1, kind: .message, data: Data("{}".utf8))
    }

    @Test func aSubscriptionSendsWhatCameWhileItOpenedOnceAndInOrder() {
        let sink = RecordingSink()
        let subscription = EventSubscription(userID: 1, device: 1, sink: sink) { _ in }
        // Committed while the stream read the log: 4 and 5 are in its replay (latest 5), 6 and 7 are not.
        for id in [4, 5, 6] { subscription.deliver(.event(Self.event(Int64(id)))) }
        subscription.deliver(.heartbeat)
        #expect(sink.text.withLock { $0 }.isEmpty)
        subscription.open(with: Data("id: 5\nevent: ready\n\n".utf8), after: 5)
        subscription.deliver(.event(Self.event(7)))
        subscription.deliver(.event(Self.event(6)))
        subscription.deliver(.heartbeat)
        #expect(sink.ids == ["5", "6", "7"])
        #expect(sink.text.withLock { $0 }.hasSuffix(": ping\n\n"))

        subscription.deliver(.replaced)
        #expect(sink.text.withLock { $0 }.hasSuffix("event: replaced\ndata: {}\n\n"))
        #expect(sink.finished.withLock { $0 })
        subscription.deliver(.event(Self.event(8)))
        #expect(sink.ids == ["5", "6", "7"])
    }

    @Test func aSubscriptionWhoseClientWentStopsSending() {
        let sink = RecordingSink()
        let subscription = EventSubscription(userID: 1, device: 1, sink: sink) { _ in }
        subscription.open(with: Data("id: 0\nevent: ready\n\n".utf8), after: 0)
        subscription.deliver(.event(Self.event(1)))
        sink.accepting.withLock { $0 = false }
        subscription.deliver(.event(Self.event(2)))
        sink.accepting.withLock { $0 = true }
        subscription.deliver(.event(Self.event(3)))
        #expect(sink.ids == ["0", "1"])

        // Too much waiting while a stream opens ends it (the client resumes from its last event).
        let slow = RecordingSink()
        let opening = EventSubscription(userID: 1, device: 2, sink: slow) { _ in }
        for id in 1...(EventSubscription.backlog + 1) { opening.deliver(.event(Self.event(Int64(id)))) }
        #expect(slow.finished.withLock { $0 })
        opening.open(with: Data("id: 0\n\n".utf8), after: 0)
        #expect(slow.text.withLock { $0 }.isEmpty)
    }

    static func database() throws -> (Database, [Int64]) {
        let folder = temporaryFolder()
        let database = try Database(path: folder + "/test.sqlite")
        try Schema.migrator.migrate(database)
        let users = try database.write { db in
            try (1...2).map { index -> Int64 in
                try db.execute(
                    """
                    INSERT INTO users(email, nickname, nickname_key, password_hash, created_at, updated_at)
                    VALUES (?, ?, ?, 'x', 0, 0)
                    """, "p\(index)@example.com", "p\(index)", "p\(index)")
                return db.lastInsertRowID
            }
        }
        return (database, users)
    }

    @Test func eventsArePublishedAfterCommitOnlyAndReplayedByID() throws {
        let (database, users) = try Self.database()
        let hub = RecordingHub()
        let log = EventLog(hub: hub)
        try database.write { db in
            try log.append(db, to: users[0], .likes, LikesEvent(songId: "1", liked: true), at: 100)
            #expect(hub.published.withLock { $0.isEmpty })
        }
        #expect(hub.published.withLock { $0 } == [1])
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try database.write { db in
                try log.append(db, to: users[0], .likes, LikesEvent(songId: "2", liked: true), at: 100)
                throw Refused()
            }
        }
        #expect(hub.published.withLock { $0 } == [1])
        try database.write { db in
            try log.append(db, to: users[1], .likes, LikesEvent(songId: "3", liked: true), at: 200)
            try log.append(db, to: users[0], .likes, LikesEvent(songId: "4", liked: false), at: 200)
        }
        let ids = hub.published.withLock { $0 }
        #expect(ids.count == 3 && ids == ids.sorted())
        try database.read { db in
            let latest = try log.latestID(db)
            #expect(latest == ids.last)
            let missed = try #require(
                try log.missed(db, userID: users[0], after: 1, latest: latest, limit: 10))
            #expect(missed.map(\.id) == [ids[2]])
            #expect(String(decoding: missed[0].data, as: UTF8.self) == #"{"liked":false,"songId":"4"}"#)
            #expect(try log.missed(db, userID: users[0], after: latest + 1, latest: latest, limit: 10) == nil)
        }
    }

    /// The database writes every end of a session (deleted by a statement, by deleting its person, or its chat
    /// token replaced), and `SessionEnds` hands each to the hub once, whichever connection wrote it.
    @Test func everyEndOfASessionIsWrittenAndHandedOnOnce() throws {
        let (database, users) = try Self.database()
        let hub = RecordingHub()
        let ends = SessionEnds(database: database, hub: hub)
        try ends.check()
        let store = AccountStore()
        func session(_ user: Int64, _ n: Int) throws -> Int64 {
            try database.write { db in
                try store.insertSession(
                    db, userID: user, tokenHash: "t\(user)-\(n)", chatTokenHash: "c\(user)-\(n)", device: nil,
                    userAgent: nil, address: "", now: 1, expiresAt: 100)
            }
        }
        let a1 = try session(users[0], 1)
        let a2 = try session(users[0], 2)
        let b1 = try session(users[1], 1)
        try ends.check()
        #expect(hub.ended.withLock { $0 }.isEmpty)
        try database.write { db in
            _ = try store.deleteSession(db, id: a1, userID: users[0])
            // A new chat token is no end.
            try store.setChatToken(db, sessionID: a2, hash: "c-new")
        }
        // Another process's connection to the same file.
        let other = try Database(path: database.path)
        try other.write { db in _ = try store.deleteUser(db, userID: users[1]) }
        try ends.check()
        try ends.check()
        #expect(
            hub.ended.withLock { $0 }
                == ["\(users[0])/\(a1)", "\(users[1])/\(b1)"])
    }

    @Test func aPurgeLeavesADayAndSendsOlderResumesToReload() throws {
        let (database, users) = try Self.database()
        let log = EventLog(hub: RecordingHub())
        let now: Int64 = 1_000_000
        try database.write { db in
            for index in 0..<5 {
                try log.append(
                    db, to: users[0], .likes, LikesEvent(songId: String(index), liked: true),
                    at: now - EventLog.keptSeconds - 10 + Int64(index))
            }
            try log.append(db, to: users[0], .likes, LikesEvent(songId: "new", liked: true), at: now)
        }
        // Two at a time: three transactions take the five old ones, the fourth finds none.
        var batches: [Int] = []
        while true {
            let deleted = try database.write { db in try log.purge(db, now: now, batch: 2) }
            if deleted == 0 { break }
            batches.append(deleted)
        }
        #expect(batches == [2, 2, 1])
        try database.read { db in
            let latest = try log.latestID(db)
            #expect(try log.missed(db, userID: users[0], after: 2, latest: latest, limit: 10) == nil)
            let kept = try #require(try log.missed(db, userID: users[0], after: 5, latest: latest, limit: 10))
            #expect(kept.map(\.id) == [6])
        }
        // Ids never go back after the newest rows are purged.
        try database.write { db in
            try log.append(db, to: users[0], .likes, LikesEvent(songId: "x", liked: true), at: now)
            #expect(try log.latestID(db) == 7)
        }
    }
}
