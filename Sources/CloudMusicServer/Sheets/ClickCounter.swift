import Foundation
import Logging
import Storage
import Synchronization

/// Counts sheet views in memory and writes them every few seconds in one transaction, so readers of a
/// popular sheet never queue behind the single writer. A crash loses at most the last few seconds of
/// clicks; lists may show a count that far behind the sheet's own page.
final class ClickCounter: Sendable {
    private let pending = Mutex<[Int64: Int]>([:])
    private let database: Database
    private let interval: Duration
    private let stopped = Atomic<Bool>(false)

    init(database: Database, interval: Duration = .seconds(2)) {
        self.database = database
        self.interval = interval
    }

    /// Counts one view; returns the views of this sheet not written yet.
    func add(sheetID: Int64) -> Int {
        pending.withLock { counts in
            counts[sheetID, default: 0] += 1
            return counts[sheetID]!
        }
    }

    func unwritten(sheetID: Int64) -> Int { pending.withLock { $0[sheetID] ?? 0 } }

    /// Writes what was counted; on failure the counts are kept for the next try.
    func flush() throws {
        let batch = pending.withLock { counts in
            let batch = counts
            counts = [:]
            return batch
        }
        guard !batch.isEmpty else { return }
        do {
            try database.write { db in try SheetStore().addClicks(db, batch) }
        } catch {
            pending.withLock { counts in counts.merge(batch, uniquingKeysWith: +) }
            throw error
        }
    }

    func start(logger: Logger) {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Double(interval.components.seconds))
                do { try flush() } catch { logger.error("event=click_flush_failed error=\"\(error)\"") }
            }
        }
        thread.name = "sheet-clicks"
        thread.start()
    }

    /// Writes the last counts (at shutdown).
    func stop() throws {
        stopped.store(true, ordering: .relaxed)
        try flush()
    }
}
