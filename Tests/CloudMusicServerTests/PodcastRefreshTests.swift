import Foundation
import Logging
import OriginTestSupport
import ServerTestSupport
import Storage
import Synchronization
import Testing
import WebFetch

@testable import CloudMusicServer

/// The podcast service on a real SQLite file with a hand-moved clock: a failing feed backs off (doubling,
/// capped) with its reason kept, a feed that works again resets it, and the scheduler refreshes what is due.
@Suite struct PodcastRefreshTests {
    final class Clock: Sendable {
        let now = Atomic<Int64>(1_800_000_000)
        func advance(_ seconds: Int64) { _ = now.add(seconds, ordering: .sequentiallyConsistent) }
        var seconds: Int64 { now.load(ordering: .sequentiallyConsistent) }
    }

    static func service(clock: Clock, interval: Int64 = 3_600) throws -> PodcastService {
        let folder = temporaryFolder()
        let database = try Database(path: folder + "/podcasts.sqlite")
        _ = try Schema.migrator.migrate(database)
        let fetcher = Fetcher(
            Fetcher.Configuration(
                addressRules: AddressRules(allowed: [NetworkRange("\(FeedOrigin.host)/32")!])))
        var service = PodcastService(
            database: database, fetcher: fetcher, downloadFolder: folder + "/podcasts",
            refreshInterval: interval,
            logger: nil)
        service.clock = { clock.seconds }
        return service
    }

    static let feed = """
        <rss version="2.0"><channel><title>Backoff Show</title>
        <item><guid>x1</guid><title>One</title><enclosure url="https://example.com/1.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """

    static func nextRefresh(_ service: PodcastService, id: Int64) throws -> (
        next: Int64, failures: Int, error: String?
    ) {
        try service.database.read { db in
            try db.queryOne("SELECT next_refresh_at, failures, last_error FROM podcasts WHERE id = ?", id) {
                (try $0.int64("next_refresh_at"), try $0.int("failures"), try $0.optionalString("last_error"))
            }!
        }
    }

    @Test func theWaitDoublesFromTheIntervalToADay() {
        #expect(PodcastService.backoff(interval: 3_600, failures: 1) == 3_600)
        #expect(PodcastService.backoff(interval: 3_600, failures: 2) == 7_200)
        #expect(PodcastService.backoff(interval: 3_600, failures: 4) == 28_800)
        #expect(PodcastService.backoff(interval: 3_600, failures: 6) == 86_400)
        #expect(PodcastService.backoff(interval: 3_600, failures: 60) == 86_400)
        #expect(PodcastService.backoff(interval: 172_800, failures: 3) == 172_800)
    }

    @Test func aFailingFeedBacksOffWithItsReasonAndRecovers() async throws {
        let origin = try await FeedOrigin.start()
        let clock = Clock()
        let service = try Self.service(clock: clock)
        let name = "backoff-\(UUID().uuidString).xml"
        let url = try origin.put(name, Self.feed)
        let added = try await service.add(.init(url: url.absoluteString))
        let id = try #require(Int64(added.id))

        try FileManager.default.removeItem(atPath: origin.folder + "/" + name)
        for (failures, wait) in [(1, Int64(3_600)), (2, 7_200), (3, 14_400)] {
            clock.advance(100)
            let outcome = try await service.refresh(id: id)
            guard case .failed(let message) = outcome else {
                Issue.record("refresh \(failures) did not fail: \(outcome)")
                return
            }
            #expect(message.contains("answered 404"), "\(message)")
            let state = try Self.nextRefresh(service, id: id)
            #expect(state.failures == failures)
            #expect(state.next == clock.seconds + wait)
            #expect(state.error == message)
        }
        // Still readable while failing: the episodes stay.
        #expect(try service.podcast(id: id, viewer: nil).episodesCount == 1)
        #expect(try service.podcast(id: id, viewer: nil).lastError?.contains("404") == true)

        try origin.put(name, Self.feed)
        clock.advance(100)
        let recovered = try await service.refresh(id: id)
        #expect(recovered == .unchanged || recovered == .changed(added: 0, updated: 0), "\(recovered)")
        let state = try Self.nextRefresh(service, id: id)
        #expect(state.failures == 0 && state.error == nil && state.next == clock.seconds + 3_600)
    }

    @Test func theSchedulerRefreshesWhatIsDueAndStops() async throws {
        let origin = try await FeedOrigin.start()
        let clock = Clock()
        let service = try Self.service(clock: clock, interval: 60)
        let name = "scheduled-\(UUID().uuidString).xml"
        let url = try origin.put(name, Self.feed)
        _ = try await service.add(.init(url: url.absoluteString))
        let fetchedOnAdd = try await origin.stats().requests("/docs/\(name)")
        // Not due yet: the scheduler's first pass fetches nothing; then the clock passes the interval.
        clock.advance(61)
        let scheduler = PodcastScheduler(podcasts: service, logger: Logger(level: .error))
        scheduler.start()
        var refreshed = false
        for _ in 0..<600 where !refreshed {
            refreshed = try await origin.stats().requests("/docs/\(name)") > fetchedOnAdd
            if !refreshed { try await Task.sleep(for: .milliseconds(100)) }
        }
        scheduler.stop()
        #expect(refreshed, "the scheduler did not refresh the due feed")
        let next = try service.database.read { db in
            try db.queryOne("SELECT next_refresh_at FROM podcasts") { try $0.int64("next_refresh_at") }
        }
        #expect(next == clock.seconds + 60)
    }
}
