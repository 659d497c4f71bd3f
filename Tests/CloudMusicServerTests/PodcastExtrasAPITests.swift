import Foundation
import OriginTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the server fetches for the clients from a feed's addresses (the tests' origin on 127.0.0.2): the
/// podcast's picture (raster only), an episode's chapters (only web links kept) and its transcript as text; an
/// address the server may not fetch is refused with its reason, and none of it reaches 127.0.0.1.
@Suite struct PodcastExtrasAPITests {
    static func feed(_ origin: FeedOrigin, name: String, image: String, chapters: String, transcript: String)
        -> String
    {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
        <channel><title>\(name)</title><description>extras</description><itunes:image href="\(image)"/>
        <item><guid>\(name)-1</guid><title>One</title>
        <enclosure url="\(origin.url("/docs/none.mp3").absoluteString)" type="audio/mpeg" length="1000"/>
        <podcast:chapters url="\(chapters)" type="application/json+chapters"/>
        <podcast:transcript url="\(transcript)" type="text/vtt"/></item>
        <item><guid>\(name)-2</guid><title>Two</title>
        <enclosure url="\(origin.url("/docs/none.mp3").absoluteString)" type="audio/mpeg" length="1000"/></item>
        </channel></rss>
        """
    }

    @Test func picturesChaptersAndTranscriptsComeThroughTheServer() async throws {
        let world = try await PodcastAPITests.World.start()
        let origin = world.origin
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 64)
        let cover = try origin.put("extras-cover.png", png)
        let svg = try origin.put(
            "extras-cover.svg", "<svg xmlns='http://www.w3.org/2000/svg'><script>1</script></svg>")
        let chapters = try origin.put(
            "extras-chapters.json",
            """
            {"version":"1.2.0","chapters":[{"startTime":30,"title":"Second"},{"startTime":0,"title":"开场"},
            {"startTime":45,"title":"Link","url":"javascript:alert(1)"},{"startTime":50,"url":"https://example.com/a"},
            {"startTime":55,"title":"hidden","toc":false}]}
            """)
        let transcript = try origin.put(
            "extras-transcript.vtt",
            "WEBVTT\n\n1\n00:00:00.000 --> 00:00:04.000\n大家好。\n\n2\n00:00:04.000 --> 00:00:08.000\n今天聊聊海。\n")
        let good = try origin.put(
            "extras-good.xml",
            Self.feed(
                origin, name: "好", image: cover.absoluteString, chapters: chapters.absoluteString,
                transcript: transcript.absoluteString))
        let forbidden = origin.forbiddenURL("/docs/anything").absoluteString
        let bad = try origin.put(
            "extras-bad.xml",
            Self.feed(
                origin, name: "坏", image: svg.absoluteString, chapters: forbidden, transcript: forbidden))
        let goodPodcast = try await world.add(good).data
        let badPodcast = try await world.add(bad).data
        let goodID = try #require(goodPodcast["id"] as? String)
        let badID = try #require(badPodcast["id"] as? String)

        // The picture, as the origin gave it, with a cache lifetime; an SVG is refused.
        let (bytes, response) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(world.server.port)/v1/podcasts/\(goodID)/cover?size=128")!)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=3600")
        #expect(bytes == png)
        let svgReply = try await world.server.call("GET", "/v1/podcasts/\(badID)/cover")
        #expect(svgReply.status == 503)
        #expect(svgReply.message.contains("JPEG, PNG, WebP or GIF"))

        // Chapters in order, listed ones only, web links only; the transcript's words without cues.
        let episodes = try await world.server.call("GET", "/v1/podcasts/\(goodID)/episodes?sort=oldest")
        let items = try #require(episodes.data["data"] as? [[String: Any]])
        let first = try #require(items.first { $0["title"] as? String == "One" }?["id"] as? String)
        let second = try #require(items.first { $0["title"] as? String == "Two" }?["id"] as? String)
        let chapterList = try #require(
            try await world.server.call("GET", "/v1/episodes/\(first)/chapters").data["chapters"]
                as? [[String: Any]])
        #expect(chapterList.map { $0["start"] as? Double } == [0, 30, 45, 50])
        #expect(chapterList.map { $0["title"] as? String } == ["开场", "Second", "Link", nil])
        #expect(chapterList.map { $0["url"] as? String } == [nil, nil, nil, "https://example.com/a"])
        let text =
            try await world.server.call("GET", "/v1/episodes/\(first)/transcript").data["text"] as? String
        #expect(text == "大家好。\n今天聊聊海。")
        // An episode without them: empty answers, nothing fetched.
        #expect(
            (try await world.server.call("GET", "/v1/episodes/\(second)/chapters").data["chapters"] as? [Any])?
                .isEmpty == true)
        #expect(
            try await world.server.call("GET", "/v1/episodes/\(second)/transcript").data["text"] as? String
                == "")

        // Addresses the server may not fetch: refused with the reason, and 127.0.0.1 never asked.
        let badEpisodes = try await world.server.call("GET", "/v1/podcasts/\(badID)/episodes?sort=oldest")
        let badFirst = try #require(
            (badEpisodes.data["data"] as? [[String: Any]])?.first { $0["title"] as? String == "One" }?["id"]
                as? String)
        let refused = try await world.server.call("GET", "/v1/episodes/\(badFirst)/chapters")
        #expect(refused.status == 503)
        #expect(refused.message.contains("The episode's chapters cannot be fetched"))
        #expect(refused.message.contains("127.0.0.1"))
        let refusedTranscript = try await world.server.call("GET", "/v1/episodes/\(badFirst)/transcript")
        #expect(refusedTranscript.status == 503)
        #expect(try await world.origin.stats().forbiddenRequests == 0)
        #expect(try await world.server.call("GET", "/v1/episodes/999999/chapters").status == 404)
    }
}
