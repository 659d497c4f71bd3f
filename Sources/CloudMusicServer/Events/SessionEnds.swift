import Foundation
import Logging
import Storage
import Synchronization

/// Closes the event streams of sessions that ended, in this process, from the `session_ends` rows the
/// database writes whenever a session or its chat token ends.
///
/// The rows are the source of truth, as the event log is for events: this process reads the ones after the
/// last it acted on when one of its own transactions ended a session (`check`, called after the commit) and
/// twice a second in case another process did (on PostgreSQL, a NOTIFY would wake it instead).
final class SessionEnds: Sendable {
    let database: Database
    let hub: any EventHub
    private let last = Mutex<Int64?>(nil)
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    init(database: Database, hub: any EventHub) {
        self.database = database
        self.hub = hub
    }

    /// Ends the streams of every session that ended since the last check; the first check only notes where
    /// the table is (streams open after it).
    func check() throws {
        try last.withLock { last in
            let ended = try database.read { db in
                try db.query(
                    "SELECT id, session_id, user_id FROM session_ends WHERE id > ? ORDER BY id",
                    last ?? Int64.max
                ) {
                    (
                        id: try $0.int64("id"), session: try $0.int64("session_id"),
                        user: try $0.int64("user_id")
                    )
                }
            }
            if last == nil {
                last = try database.read { db in
                    try db.queryOne("SELECT coalesce(max(id), 0) AS id FROM session_ends") {
                        try $0.int64("id")
                    }
                }
            }
            guard let newest = ended.last else { return }
            last = newest.id
            hub.endSessions(ended.map { (userID: $0.user, sessionID: $0.session) })
        }
    }

    /// Checks twice a second on a thread of its own, until `stop`.
    func start(logger: Logger) {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                do { try check() } catch { logger.error("event=session_ends_failed error=\"\(error)\"") }
                Thread.sleep(forTimeInterval: 0.5)
            }
            done.signal()
        }
        thread.name = "session-ends"
        thread.start()
    }

    func stop() {
        guard running.load(ordering: .relaxed) else { return }
        stopping.store(true, ordering: .relaxed)
        done.wait()
    }
}
