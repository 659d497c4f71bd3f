import Foundation
import OriginTestSupport
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Subsonic podcast methods over a server that fetches feeds from the tests' origin (127.0.0.2): channels
/// and episodes in the spec's shapes (checked against the schema in XML and JSON), `pe-` ids streamed with
/// their Range, a scrobble marking an episode played and a bookmark moving one's place, which the v1 API then
/// shows; writes are the administrators'.
@Suite struct SubsonicPodcastTests {
    /// The methods these tests call; SubsonicMethodTests counts them as called.
    static let methods = [
        "getPodcasts", "getNewestPodcasts", "getPodcastEpisode", "refreshPodcasts", "createPodcastChannel",
        "deletePodcastChannel", "downloadPodcastEpisode", "deletePodcastEpisode",
    ]

    static func feed(origin: FeedOrigin) -> String {
        let audio = origin.url("/bytes?size=50000").absoluteString.replacingOccurrences(
            of: "&", with: "&amp;")
        let items = [
            ("a", "第一集：新闻早班车", "Thu, 01 Jan 2026 08:00:00 +0000"),
            ("b", "Second & more", "Fri, 02 Jan 2026 08:00:00 +0000"),
        ].map { guid, title, date in
            """
            <item><guid isPermaLink="false">\(guid)</guid><title>\(title.replacingOccurrences(of: "&", with: "&amp;"))</title>
            <description>Notes of \(guid)</description><pubDate>\(date)</pubDate>
            <enclosure url="\(audio)" type="audio/mpeg" length="50000"/><itunes:duration>1:02</itunes:duration>
            </item>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>夜读时间</title><link>https://example.com/show</link><description>A show</description>
            <itunes:image href="https://example.com/cover.jpg"/>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """
    }

    @Test func podcastPagesWorkForSubsonicApps() async throws {
        let origin = try await FeedOrigin.start()
        let server = try await TestServer.start(extraArguments: [
            "--fetch-allow", "\(FeedOrigin.host)/32", "--podcast-refresh", "off",
        ])
        let log = AnswerLog()
        let admin = Rest(
            server: server, person: try await SubsonicWorld.person(on: server, index: 0), log: log)
        let listener = Rest(
            server: server, person: try await SubsonicWorld.person(on: server, index: 1), log: log)
        let url = try origin.put("subsonic-\(UUID().uuidString).xml", Self.feed(origin: origin))

        // Writes are the administrators'.
        let refused = try await listener.call("createPodcastChannel", [("url", url.absoluteString)])
        #expect(refused.errorCode == 50, "\(refused.text)")
        let bad = try await admin.call("createPodcastChannel", [("url", "ftp://example.com/feed")])
        #expect(bad.errorCode != nil && !bad.isOK)
        try await admin.ok("createPodcastChannel", [("url", url.absoluteString)])

        let extensions = try await listener.ok("getOpenSubsonicExtensions")
        let names = (extensions.response["openSubsonicExtensions"] as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
        #expect(names.contains("getPodcastEpisode"))

        let podcasts = try await listener.ok("getPodcasts")
        let channels = podcasts["podcasts"]["channel"] as? [[String: Any]] ?? []
        try #require(channels.count == 1, "\(podcasts.text)")
        let channel = channels[0]
        let channelID = try #require(channel["id"] as? String)
        #expect(channelID.hasPrefix("pc-"))
        #expect(channel["title"] as? String == "夜读时间" && channel["status"] as? String == "completed")
        #expect(channel["url"] as? String == url.absoluteString)
        #expect(channel["originalImageUrl"] as? String == "https://example.com/cover.jpg")
        let episodes = channel["episode"] as? [[String: Any]] ?? []
        #expect(episodes.map { $0["title"] as? String } == ["Second & more", "第一集：新闻早班车"])
        let episode = try #require(episodes.last)
        let episodeID = try #require(episode["id"] as? String)
        #expect(episodeID.hasPrefix("pe-") && episode["streamId"] as? String == episodeID)
        #expect(episode["channelId"] as? String == channelID && episode["status"] as? String == "completed")
        #expect(episode["duration"] as? Int == 62 && episode["size"] as? Int == 50_000)
        #expect(episode["publishDate"] as? String == "2026-01-01T08:00:00Z")
        #expect(episode["type"] as? String == "podcast" && episode["isDir"] as? Bool == false)

        // The same in XML, and the other shapes, for the schema check at the end.
        _ = try await listener.call("getPodcasts", json: false)
        let bare = try await listener.ok("getPodcasts", [("includeEpisodes", "false"), ("id", channelID)])
        let bareChannels = bare["podcasts"]["channel"] as? [[String: Any]] ?? []
        #expect(bareChannels.count == 1 && bareChannels.first?["episode"] == nil)
        _ = try await listener.call("getPodcasts", [("includeEpisodes", "false")], json: false)
        let newest = try await listener.ok("getNewestPodcasts", [("count", "1")])
        #expect(
            (newest["newestPodcasts"]["episode"] as? [[String: Any]])?.map { $0["title"] as? String } == [
                "Second & more"
            ])
        _ = try await listener.call("getNewestPodcasts", json: false)
        let one = try await listener.ok("getPodcastEpisode", [("id", episodeID)])
        #expect(one["podcastEpisode"]["title"] as? String == "第一集：新闻早班车")
        _ = try await listener.call("getPodcastEpisode", [("id", episodeID)], json: false)
        let missing = try await listener.call("getPodcastEpisode", [("id", "pe-999999")])
        #expect(missing.errorCode == 70)
        let songID = try await listener.call("getPodcastEpisode", [("id", "tr-1")])
        #expect(songID.errorCode == 70)

        // stream and download take the episode's id: its origin's bytes, Range passed on.
        let ranged = try await listener.call(
            "stream", [("id", episodeID)], json: false, headers: ["Range": "bytes=100-199"])
        #expect(
            ranged.status == 206 && ranged.body.count == 100, "\(ranged.status) \(ranged.text.prefix(300))")
        let whole = try await listener.call("download", [("id", episodeID)], json: false)
        #expect(whole.status == 200 && whole.body.count == 50_000)

        // A bookmark is one's place; a scrobble marks the episode played. The v1 API shows both.
        let v1ID = String(episodeID.dropFirst(3))
        try await listener.ok("createBookmark", [("id", episodeID), ("position", "61500")])
        let (_, place) = try await SubsonicWorld.v1(
            server, "GET", "/v1/episodes/\(v1ID)/progress", token: listener.person.session)
        let placed = place["data"] as? [String: Any] ?? [:]
        #expect(placed["position"] as? Double == 61.5 && placed["finished"] as? Bool == false, "\(place)")
        let bookmarked = try await listener.ok("getPodcastEpisode", [("id", episodeID)])
        #expect(bookmarked["podcastEpisode"]["bookmarkPosition"] as? Int == 61_500)
        // getBookmarks lists the episode one is partway through (its entry a plain Child); deleteBookmark forgets it.
        func bookmarkedEpisode() async throws -> [String: Any]? {
            let marks = try await listener.ok("getBookmarks")
            return (marks["bookmarks"]["bookmark"] as? [[String: Any]] ?? []).first {
                ($0["entry"] as? [String: Any])?["id"] as? String == episodeID
            }
        }
        let mark = try #require(try await bookmarkedEpisode())
        #expect(mark["position"] as? Int == 61_500)
        #expect((mark["entry"] as? [String: Any])?["title"] as? String == "第一集：新闻早班车")
        _ = try await listener.call("getBookmarks", json: false)
        try await listener.ok("deleteBookmark", [("id", episodeID)])
        #expect(try await bookmarkedEpisode() == nil)
        let (_, forgotten) = try await SubsonicWorld.v1(
            server, "GET", "/v1/episodes/\(v1ID)/progress", token: listener.person.session)
        #expect((forgotten["data"] as? [String: Any])?["position"] as? Double == 0, "\(forgotten)")
        // Another person's place is not one's own bookmark.
        let others = try await admin.ok("getBookmarks")
        #expect((others["bookmarks"]["bookmark"] as? [Any] ?? []).isEmpty, "\(others.text)")
        try await listener.ok("createBookmark", [("id", episodeID), ("position", "61500")])
        try await listener.ok("scrobble", [("id", episodeID)])
        let (_, after) = try await SubsonicWorld.v1(
            server, "GET", "/v1/episodes/\(v1ID)/progress", token: listener.person.session)
        let played = after["data"] as? [String: Any] ?? [:]
        #expect(played["finished"] as? Bool == true && played["position"] as? Double == 61.5, "\(after)")

        // Refreshing answers at once; downloading an episode of a streamed podcast changes nothing.
        try await admin.ok("refreshPodcasts")
        try await admin.ok("downloadPodcastEpisode", [("id", episodeID)])
        try await admin.ok("deletePodcastEpisode", [("id", episodeID)])
        #expect(try await listener.call("deletePodcastEpisode", [("id", episodeID)]).errorCode == 50)
        #expect(try await listener.call("deletePodcastChannel", [("id", channelID)]).errorCode == 50)
        try await admin.ok("deletePodcastChannel", [("id", channelID)])
        let none = try await listener.ok("getPodcasts")
        #expect((none["podcasts"]["channel"] as? [[String: Any]])?.isEmpty == true, "\(none.text)")
        _ = try await listener.call("getPodcasts", json: false)
        try await log.validate()
    }
}
