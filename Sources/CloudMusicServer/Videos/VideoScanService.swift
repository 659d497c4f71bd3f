import Foundation
import Logging
import MusicCore
import Storage
import Synchronization

/// Runs videos scans in the background, one at a time, after any music scan that runs (so a video finds
/// the songs that scan adds), and tells where the current one is. The last report is kept in memory.
final class VideoScanService: Sendable {
    let scanner: VideoScanner
    let logger: Logger
    /// Waits for the music scan to finish before a videos scan starts.
    let waitForMusic: @Sendable () -> Void
    /// `scans` numbers the reports (their ids) since the server started.
    private let state = Mutex<
        (running: Bool, progress: ScanProgress?, again: Bool, last: ScanReport?, scans: Int)
    >(
        (false, nil, false, nil, 0))

    init(scanner: VideoScanner, logger: Logger, waitForMusic: @escaping @Sendable () -> Void = {}) {
        self.scanner = scanner
        self.logger = logger
        self.waitForMusic = waitForMusic
    }

    var folders: [String] { scanner.folders }

    /// Starts a scan unless one is running (then it runs again once done); answers the current status.
    @discardableResult
    func start() -> LibraryScanStatus {
        let started = state.withLock { current -> Bool in
            guard !current.running else {
                current.again = true
                return false
            }
            current.running = true
            current.progress = ScanProgress(phase: "starting", filesSeen: 0, toRead: 0, read: 0)
            return true
        }
        if started {
            let thread = Thread { [self] in
                repeat {
                    waitForMusic()
                    do {
                        var report = try scanner.scan { progress in
                            self.state.withLock { $0.progress = progress }
                        }
                        state.withLock { state in
                            state.scans += 1
                            report.id = String(state.scans)
                            state.last = report
                        }
                        logger.info(
                            "videos scan finished: seen=\(report.filesSeen) added=\(report.added) "
                                + "updated=\(report.updated) removed=\(report.removed) failed=\(report.failed)"
                        )
                    } catch {
                        logger.error("videos scan failed: \(error)")
                    }
                } while state.withLock { current in
                    if current.again {
                        current.again = false
                        return true
                    }
                    current.running = false
                    current.progress = nil
                    return false
                }
            }
            thread.name = "videos-scan"
            thread.start()
        }
        return status(showFolders: true)
    }

    func status(showFolders: Bool) -> LibraryScanStatus {
        let current = state.withLock { $0 }
        return LibraryScanStatus(
            running: current.running, progress: current.progress, lastReport: current.last,
            folders: showFolders ? folders : [])
    }

    /// Waits until no scan runs (the command line).
    func waitUntilIdle() {
        while state.withLock({ $0.running }) { usleep(20_000) }
    }
}
