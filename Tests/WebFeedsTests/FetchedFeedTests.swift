import Foundation
import MusicCore
import OriginTestSupport
import Testing
import WebFetch

@testable import WebFeeds

/// Feeds fetched from the test origin and parsed as they arrive: what the podcast and news features will do.
@Suite struct FetchedFeedTests {
    static func fetcher() -> Fetcher {
        Fetcher(Fetcher.Configuration(addressRules: AddressRules(allowed: [NetworkRange(FeedOrigin.host)!])))
    }

    /// Fetches and parses `url` streaming; nil items and feed when the origin answered 304.
    static func refresh(_ url: URL, validators: Validators? = nil, with fetcher: Fetcher) async throws
        -> (head: FetchHead, feed: WebFeed?, items: [WebFeedItem])
    {
        var items: [WebFeedItem] = []
        let parser = WebFeedParser(url: url) { items.append($0) }
        // No total time limit: these tests are of other things, and must hold on a busy machine.
        var request = FetchRequest.feed(url, validators: validators)
        request.limits.totalTimeout = nil
        let head = try await fetcher.fetch(request) { try parser.feed($0) }
        if head.notModified { return (head, nil, []) }
        return (head, try parser.finish(), items)
    }

    @Test func refreshingKeepsEpisodesByGuidAndCostsA304WhenNothingChanged() async throws {
        let origin = try await FeedOrigin.start()
        let fetcher = Self.fetcher()
        let name = "\(UUID().uuidString.prefix(8))-show.xml"
        let url = try origin.put(name, Fixtures.bigPodcast(episodes: 30))
        let first = try await Self.refresh(url, with: fetcher)
        #expect(first.items.count == 30)
        #expect(first.feed?.title == "Big Show v1")
        var episodes = Dictionary(uniqueKeysWithValues: first.items.map { ($0.identity!, $0) })

        let unchanged = try await Self.refresh(url, validators: first.head.validators, with: fetcher)
        #expect(unchanged.head.notModified)

        // The publisher adds two episodes and edits an old one.
        try origin.put(name, Fixtures.bigPodcast(episodes: 32, version: 2, edited: 30))
        let changed = try await Self.refresh(url, validators: first.head.validators, with: fetcher)
        #expect(changed.head.status == 200)
        let added = changed.items.filter { episodes[$0.identity!] == nil }
        let edited = changed.items.filter { item in episodes[item.identity!].map { $0 != item } ?? false }
        #expect(added.map(\.guid) == ["big-32", "big-31"])
        #expect(edited.map(\.guid) == ["big-30"])
        for item in changed.items { episodes[item.identity!] = item }
        #expect(episodes.count == 32)
        #expect(episodes["big-30"]?.title == "Episode 30 (edited)")
        #expect(changed.feed?.title == "Big Show v2")
        #expect(try await origin.stats().requests("/docs/\(name)") == 3)
    }

    @Test func hostileFeedsAreRefusedWithAReason() async throws {
        let origin = try await FeedOrigin.start()
        let fetcher = Self.fetcher()
        let laughs = try origin.put(
            "\(UUID().uuidString.prefix(8))-laughs.xml",
            "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><rss>&b;</rss>"
        )
        await #expect(throws: WebFeedError(.xml(.declaresEntities("a")))) {
            _ = try await Self.refresh(laughs, with: fetcher)
        }
        let page = try origin.put("\(UUID().uuidString.prefix(8))-page.html", "<html><body>Hi</body></html>")
        await #expect(throws: WebFeedError(.notAFeed(root: "html"))) {
            _ = try await Self.refresh(page, with: fetcher)
        }

        do {
            _ = try await Self.refresh(origin.url("/big?bytes=50000000&length=none"), with: fetcher)
            Issue.record("a 50 MB feed was taken")
        } catch let error as FetchError {
            #expect(error.message == "The feed is larger than 10 MB.")
        }
        do {
            _ = try await Self.refresh(origin.url("/loop/a"), with: fetcher)
            Issue.record("a redirect loop was followed")
        } catch let error as FetchError {
            #expect(error.reason == .redirectLoop(origin.url("/loop/a")))
        }
        do {
            _ = try await Self.refresh(
                origin.url("/redirect?to=http%3A%2F%2F127.0.0.1%2Ffeed"), with: fetcher)
            Issue.record("a redirect to 127.0.0.1 was followed")
        } catch let error as FetchError {
            #expect(
                error.message
                    == "The feed's address points to this machine (127.0.0.1); an administrator can allow it."
            )
        }
    }

    @Test func aFiveThousandEpisodeFeedIsReadAsItArrives() async throws {
        let origin = try await FeedOrigin.start()
        let url = try origin.put(
            "\(UUID().uuidString.prefix(8))-big.xml", Fixtures.bigPodcast(episodes: 5_000))
        var count = 0
        var chunks = 0
        var itemsBeforeLastChunk = 0
        let parser = WebFeedParser(url: url) { _ in count += 1 }
        var request = FetchRequest.feed(url)
        request.limits.totalTimeout = nil
        _ = try await Self.fetcher().fetch(request) { chunk in
            itemsBeforeLastChunk = count
            chunks += 1
            try parser.feed(chunk)
        }
        let feed = try parser.finish()
        #expect(feed.title == "Big Show v1")
        #expect(count == 5_000)
        #expect(chunks > 10)
        #expect(itemsBeforeLastChunk > 4_000)
    }
}
