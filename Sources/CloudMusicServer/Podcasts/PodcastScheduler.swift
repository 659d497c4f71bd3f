import Foundation
import Logging

/// Refreshes the podcasts that are due, a few feeds at a time, checking once a minute (or every interval, when
/// shorter); started by `serve`, stopped before it returns.
final class PodcastScheduler: Sendable {
    private let scheduler: FeedRefreshScheduler

    init(podcasts: PodcastService, logger: Logger) {
        scheduler = FeedRefreshScheduler(
            name: "podcasts", pause: .seconds(min(60, max(1, podcasts.refreshInterval))), logger: logger
        ) {
            let report = try await podcasts.refreshDue()
            guard report.refreshed + report.failed > 0 else { return nil }
            return
                "changed=\(report.refreshed) unchanged=\(report.unchanged) failed=\(report.failed) added=\(report.episodesAdded)"
        }
    }

    func start() { scheduler.start() }

    /// Stops checking and waits (at most `seconds`) for the refreshes under way.
    func stop(seconds: Double = 10) { scheduler.stop(seconds: seconds) }
}
