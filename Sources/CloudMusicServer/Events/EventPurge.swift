import Foundation
import Logging
import Storage
import Synchronization

/// Deletes events older than a day, at start and then every hour, on a thread of its own.
final class EventPurge: Sendable {
    let database: Database
    let log: EventLog
    let logger: Logger
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)

    init(database: Database, log: EventLog, logger: Logger) {
        self.database = database
        self.log = log
        self.logger = logger
    }

    func start() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                do {
                    let now = Int64(Date().timeIntervalSince1970)
                    var deleted = 0
                    while !stopping.load(ordering: .relaxed) {
                        let batch = try database.write { db in try log.purge(db, now: now) }
                        if batch == 0 { break }
                        deleted += batch
                    }
                    if deleted > 0 { logger.info("event=events_purged count=\(deleted)") }
                } catch {
                    logger.error("event=events_purge_failed error=\"\(error)\"")
                }
                if wake.wait(timeout: .now() + .seconds(3_600)) == .success { break }
            }
            done.signal()
        }
        thread.name = "event-purge"
        thread.start()
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
        done.wait()
    }
}
