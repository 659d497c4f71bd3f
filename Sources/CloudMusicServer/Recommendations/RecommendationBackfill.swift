import Foundation
import Logging
import Storage
import Synchronization

/// Pairs what people did before recommendations existed (their plays, sheets and "I like"), a few people per
/// transaction with pauses between, until everyone is done; what happens later is paired as it happens.
final class RecommendationBackfill: Sendable {
    let database: Database
    let usersPerBatch: Int
    private let stopped = Atomic<Bool>(false)

    init(database: Database, usersPerBatch: Int = 20) {
        self.database = database
        self.usersPerBatch = usersPerBatch
    }

    /// Runs one batch; false once everyone is done.
    func step() throws -> Bool {
        try database.write { db in try RecommendationStore().backfill(db, users: usersPerBatch) }
    }

    /// Runs every batch now (the benchmark).
    func runToEnd(progress: (Int) -> Void = { _ in }) throws {
        var batches = 0
        while try step() {
            batches += 1
            progress(batches * usersPerBatch)
        }
    }

    func start(logger: Logger) {
        let thread = Thread { [self] in
            var batches = 0
            while !stopped.load(ordering: .relaxed) {
                do {
                    guard try step() else { break }
                    batches += 1
                } catch {
                    logger.error("event=recommendation_backfill_failed error=\"\(error)\"")
                    Thread.sleep(forTimeInterval: 30)
                }
                // Leaves the writer free between batches.
                Thread.sleep(forTimeInterval: 0.01)
            }
            if batches > 0 {
                logger.info("recommendations: paired the history of \(batches) batches of people")
            }
        }
        thread.name = "recommendation-backfill"
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }
}
