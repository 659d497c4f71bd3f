import Foundation
import MusicCore
import OriginTestSupport
import ServerTestSupport
import Testing

@testable import CloudMusicKit

#if canImport(Glibc)
    import Glibc
#endif

/// Places in episodes against a real server with a podcast fetched from the tests' origin on 127.0.0.2: kept
/// offline in the LocalStore, sent when the server is back, the later place winning either way.
@Suite struct EpisodeProgressRepositoryTests {
    static func feed(_ origin: FeedOrigin) -> String {
        let items = (1...3).map { number in
            """
            <item><guid>kit-episode-\(number)</guid><title>第\(number)集</title>
            <pubDate>Mon, 0\(number) Jun 2026 08:00:00 +0000</pubDate>
            <enclosure url="\(origin.url("/bytes?size=40000").absoluteString.replacingOccurrences(of: "&", with: "&amp;"))" type="audio/mpeg" length="40000"/>
            <itunes:duration>3:20</itunes:duration></item>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>离线播客</title><description>Kit</description>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """
    }

    /// An address where nothing listens: the server, unreachable.
    static func unreachable() throws -> URL {
        let (fd, port) = try LoopbackSocket.listen(backlog: 1)
        close(fd)
        return URL(string: "http://127.0.0.1:\(port)/")!
    }

    static func client(_ url: URL, token: String? = nil) -> APIClient {
        var configuration = APIClient.Configuration()
        configuration.baseRetryDelay = 0.02
        configuration.maxAttempts = 2
        return APIClient(baseURL: url, token: token, configuration: configuration)
    }

    @Test func anOfflineWriteIsKeptThenSyncedAndTheLaterPlaceWins() async throws {
        let origin = try await FeedOrigin.start()
        let feed = try origin.put("kit-progress.xml", Self.feed(origin))
        let server = try await TestServer.start(extraArguments: [
            "--fetch-allow", "\(FeedOrigin.host)/32", "--podcast-refresh", "off",
        ])
        defer { server.stop() }
        let admin = MusicRepository(client: Self.client(server.baseURL))
        _ = try await admin.signUp(
            .email("kit-admin@example.com"), password: "kit-admin-pass-1", nickname: "管理员")
        try await admin.login(.email("kit-admin@example.com"), password: "kit-admin-pass-1")
        let podcast = try await admin.client.send(
            PodcastsAPI.add, body: PodcastDraft(url: feed.absoluteString))

        let online = MusicRepository(client: Self.client(server.baseURL))
        _ = try await online.signUp(
            .email("kit-bob@example.com"), password: "kit-bob-pass-1", nickname: "Bob")
        let login = try await online.login(.email("kit-bob@example.com"), password: "kit-bob-pass-1")
        let episodes = try await online.episodes(podcastID: podcast.id, sort: .oldest)
        #expect(episodes.data.map(\.title) == ["第1集", "第2集", "第3集"])
        let (first, second) = (episodes.data[0].id, episodes.data[1].id)
        let store = try LocalStore(path: temporaryFolder() + "/client.sqlite")

        // Online: saved here and on the server, nothing left to send.
        let progress = EpisodeProgressRepository(repository: online, store: store)
        #expect(try await progress.progress(episodeID: first) == nil)
        let saved = try await progress.save(episodeID: first, position: 30)
        #expect(saved.position == 30)
        #expect(try await online.client.send(PodcastsAPI.progress, path: IDPath(first)).position == 30)
        #expect(try progress.pendingCount() == 0)

        // Offline (the same person, the same store, a server that cannot be reached): kept here.
        let offlineRepository = MusicRepository(client: Self.client(try Self.unreachable()))
        offlineRepository.restoreSession(token: login.session, userID: login.userId)
        let offline = EpisodeProgressRepository(repository: offlineRepository, store: store)
        let now = Date()
        let kept = try await offline.save(episodeID: first, position: 95.5, at: now)
        #expect(kept.position == 95.5)
        // Taken an hour ago, and older than the place another device is about to save.
        _ = try await offline.save(episodeID: second, position: 10, at: now.addingTimeInterval(-3_600))
        #expect(try offline.pendingCount() == 2)
        #expect(try await offline.progress(episodeID: first)?.position == 95.5)
        #expect(try await offline.progress(episodeID: second)?.position == 10)
        await #expect(throws: APIError.self) { try await offline.sync() }
        #expect(try offline.pendingCount() == 2)

        // Meanwhile another device saves both: the first earlier than the offline place, the second later.
        _ = try await online.client.send(
            PodcastsAPI.saveProgress, path: IDPath(first),
            body: EpisodeProgressDraft(
                position: 50,
                updatedAt: EpisodeProgressRepository.Local.timestamp(
                    Int64(now.addingTimeInterval(-60).timeIntervalSince1970 * 1_000))))
        _ = try await online.client.send(
            PodcastsAPI.saveProgress, path: IDPath(second), body: EpisodeProgressDraft(position: 40))

        // Online again: the sync sends both; the later place wins on the server and here.
        #expect(try await progress.sync() == 2)
        #expect(try progress.pendingCount() == 0)
        let firstOnServer = try await online.client.send(PodcastsAPI.progress, path: IDPath(first))
        #expect(firstOnServer.position == 95.5)
        #expect(
            firstOnServer.updatedAt
                == EpisodeProgressRepository.Local.timestamp(
                    Int64((now.timeIntervalSince1970 * 1_000).rounded())))
        #expect(try await online.client.send(PodcastsAPI.progress, path: IDPath(second)).position == 40)
        #expect(try await offline.progress(episodeID: second)?.position == 40)
        #expect(try await progress.progress(episodeID: second)?.position == 40)
        let resumed = try await online.continueListening()
        #expect(Set(resumed.data.map(\.id)) == [first, second])

        // A place taken offline is also sent when it is next read online, not only by a sync.
        let third = episodes.data[2].id
        _ = try await offline.save(episodeID: third, position: 12, finished: true)
        #expect(try await progress.progress(episodeID: third)?.finished == true)
        #expect(try await online.client.send(PodcastsAPI.progress, path: IDPath(third)).finished)
        #expect(try progress.pendingCount() == 0)

        // Another person on the same store sees none of these places.
        let other = MusicRepository(client: Self.client(try Self.unreachable()), userID: "someone-else")
        #expect(
            try await EpisodeProgressRepository(repository: other, store: store).progress(episodeID: first)
                == nil)
    }

    @Test func timestampsKeepTheirMilliseconds() {
        #expect(EpisodeProgressRepository.Local.timestamp(1_767_225_600_007) == "2026-01-01T00:00:00.007Z")
        #expect(EpisodeProgressRepository.milliseconds("2026-01-01T00:00:00.007Z") == 1_767_225_600_007)
    }
}
