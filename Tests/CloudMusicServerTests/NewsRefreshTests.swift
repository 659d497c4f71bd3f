import Foundation
import Logging
import MusicCore
import OriginTestSupport
import ServerTestSupport
import Storage
import Synchronization
import Testing
import WebFetch

@testable import CloudMusicServer

/// The news service on a real SQLite file with a hand-moved clock: a failing source backs off as podcasts do
/// (the shared `FeedRefresh.backoff`) with its reason kept and recovers, and the scheduler refreshes what is due.
@Suite struct NewsRefreshTests {
    final class Clock: Sendable {
        let now = Atomic<Int64>(1_800_000_000)
        func advance(_ seconds: Int64) { _ = now.add(seconds, ordering: .sequentiallyConsistent) }
        var seconds: Int64 { now.load(ordering: .sequentiallyConsistent) }
    }

    static let admin = Viewer(userID: 1, sessionID: 1, isAdmin: true)

    static func service(clock: Clock, interval: Int64 = 1_800) throws -> NewsService {
        let folder = temporaryFolder()
        let database = try Database(path: folder + "/news.sqlite")
        _ = try Schema.migrator.migrate(database)
        let fetcher = Fetcher(
            Fetcher.Configuration(
                addressRules: AddressRules(allowed: [NetworkRange("\(FeedOrigin.host)/32")!])))
        var service = NewsService(
            database: database, fetcher: fetcher, images: NewsImageKey(key: Array(repeating: 7, count: 32)),
            refreshInterval: interval, logger: nil)
        service.clock = { clock.seconds }
        return service
    }

    static let feed = """
        <rss version="2.0"><channel><title>Backoff News</title>
        <item><guid>n1</guid><title>One</title><link>https://example.com/n1</link></item>
        </channel></rss>
        """

    static func state(_ service: NewsService, id: Int64) throws -> (
        next: Int64, failures: Int, error: String?
    ) {
        try service.database.read { db in
            try db.queryOne("SELECT next_refresh_at, failures, last_error FROM news_sources WHERE id = ?", id)
            {
                (try $0.int64("next_refresh_at"), try $0.int("failures"), try $0.optionalString("last_error"))
            }!
        }
    }

    @Test func aFailingSourceBacksOffWithItsReasonAndRecovers() async throws {
        let origin = try await FeedOrigin.start()
        let clock = Clock()
        let service = try Self.service(clock: clock)
        let channel = try service.createChannel(.init(title: "头条"), viewer: Self.admin)
        let name = "news-backoff-\(UUID().uuidString).xml"
        let url = try origin.put(name, Self.feed)
        let added = try await service.addSource(
            .init(url: url.absoluteString, channelId: try ID(validating: channel.id, field: "channelId")),
            viewer: Self.admin)
        let id = try #require(Int64(added.id))

        try FileManager.default.removeItem(atPath: origin.folder + "/" + name)
        for (failures, wait) in [(1, Int64(1_800)), (2, 3_600), (3, 7_200)] {
            clock.advance(100)
            guard case .failed(let message) = try await service.refresh(id: id) else {
                Issue.record("refresh \(failures) did not fail")
                return
            }
            #expect(message.contains("answered 404"), "\(message)")
            let state = try Self.state(service, id: id)
            #expect(state.failures == failures && state.error == message)
            #expect(state.next == clock.seconds + wait)
        }
        #expect(try service.source(id: id).lastError?.contains("404") == true)
        try origin.put(name, Self.feed)
        clock.advance(100)
        _ = try await service.refresh(id: id)
        let state = try Self.state(service, id: id)
        #expect(state.failures == 0 && state.error == nil && state.next == clock.seconds + 1_800)
    }

    @Test func theSchedulerRefreshesWhatIsDueAndStops() async throws {
        let origin = try await FeedOrigin.start()
        let clock = Clock()
        let service = try Self.service(clock: clock, interval: 60)
        let channel = try service.createChannel(.init(title: "科技"), viewer: Self.admin)
        let name = "news-scheduled-\(UUID().uuidString).xml"
        let url = try origin.put(name, Self.feed)
        _ = try await service.addSource(
            .init(url: url.absoluteString, channelId: try ID(validating: channel.id, field: "channelId")),
            viewer: Self.admin)
        let fetchedOnAdd = try await origin.stats().requests("/docs/\(name)")
        clock.advance(61)
        let scheduler = NewsScheduler(news: service, logger: Logger(level: .error))
        scheduler.start()
        var refreshed = false
        for _ in 0..<600 where !refreshed {
            refreshed = try await origin.stats().requests("/docs/\(name)") > fetchedOnAdd
            if !refreshed { try await Task.sleep(for: .milliseconds(100)) }
        }
        scheduler.stop()
        #expect(refreshed, "the scheduler did not refresh the due source")
    }
}
