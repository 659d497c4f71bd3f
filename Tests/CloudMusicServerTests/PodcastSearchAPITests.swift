import Foundation
import OriginTestSupport
import ServerTestSupport
import Testing

/// `GET /v1/episodes?q=`: episodes of every podcast by their title and show notes (Chinese substrings of any
/// length, a two-character query included; case and accents folded), newest first, paged; the stored episode
/// count and the search follow refreshes and deletes.
@Suite struct PodcastSearchAPITests {
    typealias Item = PodcastAPITests.Item

    static func search(_ server: TestServer, _ query: String, page: Int = 1, size: Int = 20) async throws
        -> Reply
    {
        let q = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try await server.call("GET", "/v1/episodes?q=\(q)&page=\(page)&size=\(size)")
    }

    static func titles(_ reply: Reply) -> [String] {
        (reply.data["data"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test func episodesAreFoundByChineseSubstringsNewestFirst() async throws {
        let world = try await PodcastAPITests.World.start()
        let server = world.server
        let origin = world.origin
        let morning = try origin.put(
            "morning-\(UUID().uuidString).xml",
            PodcastAPITests.feed(
                title: "早班车",
                items: [
                    Item(guid: "1", title: "第一集：新闻早班车", day: 1),
                    Item(guid: "2", title: "第二集：天气", day: 2),
                    Item(guid: "3", title: "Tech NEWS weekly", day: 3),
                ], origin: origin))
        let evening = try origin.put(
            "evening-\(UUID().uuidString).xml",
            PodcastAPITests.feed(
                title: "晚间",
                items: [
                    Item(guid: "x", title: "晚间新闻联播", day: 5), Item(guid: "y", title: "ÉTÉ à Paris", day: 6),
                ],
                origin: origin))
        let first = try await world.add(morning)
        #expect(first.status == 201, "\(first.json)")
        let second = try await world.add(evening)
        #expect(second.status == 201, "\(second.json)")
        let morningID = try #require(first.data["id"] as? String)

        // Two Chinese characters in the middle of titles of two podcasts, newest first.
        let news = try await Self.search(server, "新闻")
        #expect(news.status == 200, "\(news.json)")
        #expect(Self.titles(news) == ["晚间新闻联播", "第一集：新闻早班车"])
        #expect(news.data["total"] as? Int == 2)
        #expect(Self.titles(try await Self.search(server, "天")) == ["第二集：天气"])
        // ASCII letters are folded; paged by number.
        #expect(Self.titles(try await Self.search(server, "news")) == ["Tech NEWS weekly"])
        let paged = try await Self.search(server, "集", page: 2, size: 1)
        #expect(Self.titles(paged) == ["第一集：新闻早班车"] && paged.data["total"] as? Int == 2)
        #expect(Self.titles(try await Self.search(server, "早安")).isEmpty)
        // Show notes are searched too ("Notes of …" is only in the notes), every word must match, and case and
        // accents are folded in every script.
        #expect(Self.titles(try await Self.search(server, "notes 天气")) == ["第二集：天气"])
        #expect(Self.titles(try await Self.search(server, "NOTES OF TECH")) == ["Tech NEWS weekly"])
        for typed in ["été", "ete", "ÉTÉ à"] {
            #expect(Self.titles(try await Self.search(server, typed)) == ["ÉTÉ à Paris"], "\(typed)")
        }
        // Bad input is the envelope's 400.
        #expect(try await server.call("GET", "/v1/episodes?q=").status == 400)
        #expect(
            try await server.call("GET", "/v1/episodes?q=\(String(repeating: "a", count: 101))").status == 400
        )

        // A renamed episode is found by its new title; a deleted podcast's episodes are gone from the search,
        // and the stored count follows.
        try origin.put(
            morning.lastPathComponent,
            PodcastAPITests.feed(
                title: "早班车",
                items: [
                    Item(guid: "1", title: "第一集：早间新闻", day: 1), Item(guid: "2", title: "第二集：天气", day: 2),
                    Item(guid: "3", title: "Tech NEWS weekly", day: 3), Item(guid: "4", title: "第四集", day: 4),
                ], origin: origin))
        let refreshed = try await server.call("POST", "/v1/podcasts/\(morningID)/refresh", token: world.admin)
        #expect(refreshed.data["episodesCount"] as? Int == 4, "\(refreshed.json)")
        #expect(Self.titles(try await Self.search(server, "早间")) == ["第一集：早间新闻"])
        #expect(Self.titles(try await Self.search(server, "早班车")).isEmpty)
        #expect(
            try await server.call("DELETE", "/v1/podcasts/\(morningID)", token: world.admin).status == 200)
        #expect(Self.titles(try await Self.search(server, "新闻")) == ["晚间新闻联播"])
        #expect(Self.titles(try await Self.search(server, "集")).isEmpty)
    }
}
