import Foundation
import Logging
import Synchronization

/// Refreshes the podcasts that are due, a few feeds at a time, checking once a minute (or every interval, when
/// shorter); started by `serve`, stopped before it returns.
final class PodcastScheduler: Sendable {
    private let podcasts: PodcastService
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(podcasts: PodcastService, logger: Logger) {
        self.podcasts = podcasts
        self.logger = logger
    }

    func start() {
        let podcasts = self.podcasts
        let logger = self.logger
        let pause = Duration.seconds(min(60, max(1, podcasts.refreshInterval)))
        let finished = self.finished
        task.withLock { task in
            guard task == nil else { return }
            task = Task.detached {
                defer { finished.signal() }
                while !Task.isCancelled {
                    do {
                        let report = try await podcasts.refreshDue()
                        if report.refreshed + report.failed > 0 {
                            logger.info(
                                "event=podcasts_refreshed changed=\(report.refreshed) unchanged=\(report.unchanged) failed=\(report.failed) added=\(report.episodesAdded)"
                            )
                        }
                    } catch {
                        logger.error("event=podcast_schedule_failed error=\"\(error)\"")
                    }
                    try? await Task.sleep(for: pause)
                }
            }
        }
    }

    /// Stops checking and waits (at most `seconds`) for the refreshes under way.
    func stop(seconds: Double = 10) {
        guard
            let running = task.withLock({ task in
                defer { task = nil }
                return task
            })
        else { return }
        running.cancel()
        _ = finished.wait(timeout: .now() + seconds)
    }
}
