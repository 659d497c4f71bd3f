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
    /// `again`: a start was asked while a scan ran; the running scan repeats once it ends, so no change is missed.
    private let state = Mutex<(running: Bool, progress: ScanProgress?, again: Bool)>((false, nil, false))

    init(database: Database, folders: [String], logger: Logger) {
        self.database = database
        self.folders = folders
        self.logger = logger
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
        try database.read { db in
            guard
                var report = try db.queryOne(
                    """
                    SELECT id, state, started_at, finished_at, files_seen, added, updated, moved, removed, unchanged, failed
                    FROM scan_reports WHERE state != 'running' ORDER BY id DESC LIMIT 1
                    """,
                    decode: { row in
                        ScanReport(
                            id: String(try row.int64(0)), state: try row.string(1),
                            startedAt: APIDate.string(try row.int64(2)),
                            finishedAt: try row.optionalInt64(3).map(APIDate.string),
                            filesSeen: try row.int(4),
                            added: try row.int(5), updated: try row.int(6), moved: try row.int(7),
                            removed: try row.int(8), unchanged: try row.int(9), failed: try row.int(10),
                            issues: [])
                    })
            else { return nil }
            report.issues = try db.query(
                "SELECT path, reason FROM scan_issues WHERE scan_id = ? LIMIT 1000", Int64(report.id)!
            ) { ScanReport.Issue(path: try $0.string(0), reason: try $0.string(1)) }
            return report
        }
    }
}
