import Foundation
import Logging
import MusicCore
import Storage
import Synchronization

/// Runs library scans in the background, one at a time, and tells where the current one is.
final class ScanService: Sendable {
    let database: Database
    let folders: [String]
    let logger: Logger
    /// Called after each scan, whether it finished or failed (what is kept from the library is stale).
    let scanned: @Sendable () -> Void
    /// `again`: a start was asked while a scan ran; the running scan repeats once it ends, so no change is missed.
    private let state = Mutex<(running: Bool, progress: ScanProgress?, again: Bool)>((false, nil, false))

    init(database: Database, folders: [String], logger: Logger, scanned: @escaping @Sendable () -> Void = {})
    {
        self.database = database
        self.folders = folders
        self.logger = logger
        self.scanned = scanned
    }

    /// Starts a scan unless one is running; either way answers the current status.
    @discardableResult
    func start() throws -> LibraryScanStatus {
        let started = state.withLock { current -> Bool in
            guard !current.running else {
                current.again = true
                return false
            }
            current = (true, ScanProgress(phase: "starting", filesSeen: 0, toRead: 0, read: 0), false)
            return true
        }
        if started {
            let scanner = LibraryScanner(database: database, folders: folders, logger: logger)
            let thread = Thread { [self] in
                repeat {
                    do {
                        _ = try scanner.scan { progress in self.state.withLock { $0.progress = progress } }
                    } catch {
                        logger.error("library scan failed: \(error)")
                    }
                    scanned()
                } while state.withLock { current in
                    if current.again {
                        current.again = false
                        return true
                    }
                    current = (false, nil, false)
                    return false
                }
            }
            thread.name = "library-scan"
            thread.start()
        }
        return try status()
    }

    func status() throws -> LibraryScanStatus {
        let current = state.withLock { $0 }
        return LibraryScanStatus(
            running: current.running, progress: current.progress, lastReport: try lastReport(),
            folders: folders)
    }

    /// Waits until no scan runs (tests and the command line).
    func waitUntilIdle() {
        while state.withLock({ $0.running }) { usleep(20_000) }
    }

    func lastReport() throws -> ScanReport? {
        try database.read { db in try LibraryStore.lastReport(db) }
    }
}
