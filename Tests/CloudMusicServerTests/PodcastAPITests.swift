import AudioMetadata
import Foundation
import OriginTestSupport
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Podcasts over the real server, fetching from the tests' origin on 127.0.0.2 (the only block the server is
/// allowed with `--fetch-allow`; 127.0.0.1 must never be reached): adding, refreshing with 304s, a changed feed
/// kept by guid, hostile feeds refused with their reason, subscriptions, progress across sessions and people,
/// the album page paged, and an episode's audio passed through with its Range.
@Suite struct PodcastAPITests {
    struct World {
        let server: TestServer
        let origin: FeedOrigin
        let admin: String
        let bob: String

        static func start() async throws -> World {
            let origin = try await FeedOrigin.start()
            let server = try await TestServer.start(
                .empty,
                extraArguments: [
                    "--fetch-allow", "\(FeedOrigin.host)/32", "--podcast-refresh", "off",
                ])
            _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
            _ = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
            let admin = try await server.signIn(["email": "ann@example.com"])
            let bob = try await server.signIn(["email": "bob@example.com"])
            return World(server: server, origin: origin, admin: admin, bob: bob)
        }

        /// Adds the feed at `url` as the administrator.
        func add(_ url: URL, keep: String? = nil) async throws -> Reply {
            var body: [String: Any] = ["url": url.absoluteString]
            if let keep { body["keep"] = keep }
            return try await server.call("POST", "/v1/podcasts", json: body, token: admin)
        }
    }

    /// One episode of a generated feed.
    struct Item {
        var guid: String
        var title: String
        var day: Int
        var audio = "/bytes?size=50000"
    }

    /// An RSS feed with iTunes and Podcasting 2.0 tags; `day` is days after 2026-01-01.
    static func feed(title: String, author: String = "主播小王", items: [Item], origin: FeedOrigin) -> String {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let entries = items.map { item in
            """
            <item><guid isPermaLink="false">\(item.guid)</guid><title>\(item.title)</title>
            <description><![CDATA[<p>Notes of <b>\(item.title)</b><script>alert(1)</script></p>]]></description>
            <pubDate>\(formatter.string(from: start.addingTimeInterval(Double(item.day) * 86_400)))</pubDate>
            <enclosure url="\(origin.url(item.audio).absoluteString.replacingOccurrences(of: "&", with: "&amp;"))" type="audio/mpeg" length="50000"/>
            <itunes:duration>1:02</itunes:duration><itunes:episode>\(item.day)</itunes:episode>
            <podcast:chapters url="https://example.com/\(item.guid).json" type="application/json+chapters"/>
            </item>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel><title>\(title)</title><link>https://example.com/show</link>
            <description><![CDATA[<p>A show <img src="https://example.com/x.png"> about <a href="javascript:alert(1)">things</a></p>]]></description>
            <itunes:author>\(author)</itunes:author><itunes:explicit>false</itunes:explicit>
            <itunes:category text="Arts"><itunes:category text="Books"/></itunes:category>
            <itunes:image href="https://example.com/cover.jpg"/>
            \(entries.joined(separator: "\n"))
            </channel></rss>
            """
    }

    @Test func aFeedIsAddedRefreshedWith304sAndKeptByGuid() async throws {
        let world = try await World.start()
        let server = world.server
        let name = "show-\(UUID().uuidString).xml"
        let url = try world.origin.put(
            name,
            Self.feed(
                title: "夜读时间 Night Reading",
                items: [
                    Item(guid: "a", title: "First", day: 1), Item(guid: "b", title: "Second", day: 2),
                    Item(guid: "c", title: "Third", day: 3),
                ], origin: world.origin))

        let added = try await world.add(url)
        #expect(added.status == 201, "\(added.json)")
        let podcast = added.data
        let id = try #require(podcast["id"] as? String)
        #expect(podcast["title"] as? String == "夜读时间 Night Reading")
        #expect(podcast["author"] as? String == "主播小王")
        #expect(podcast["episodesCount"] as? Int == 3)
        #expect(podcast["categories"] as? [String] == ["Arts", "Books"])
        #expect(podcast["imageUrl"] as? String == "https://example.com/cover.jpg")
        let html = try #require(podcast["detailHtml"] as? String)
        #expect(!html.contains("<img") && !html.contains("javascript:") && html.contains("things"))
        #expect(
            podcast["detail"] as? String == "A show about things"
                || (podcast["detail"] as? String)?.contains("things") == true)

        // The same address again is refused, and nothing more is stored.
        let again = try await world.add(url)
        #expect(again.status == 409, "\(again.json)")

        let before = try await server.call("GET", "/v1/podcasts/\(id)/episodes?sort=oldest")
        let episodes = before.data["data"] as? [[String: Any]] ?? []
        #expect(episodes.map { $0["title"] as? String } == ["First", "Second", "Third"])
        let first = episodes[0]
        #expect(first["duration"] as? Int == 62 && first["episode"] as? Int == 1)
        #expect(first["chaptersUrl"] as? String == "https://example.com/a.json")
        #expect(first["detail"] as? String == "Notes of First")
        #expect(first["uri"] as? String == "v1/episodes/\(first["id"] as! String)/stream")

        // Unchanged: the origin answers 304 and nothing of the podcast or its episodes is written.
        let requestsBefore = try await world.origin.stats().requests("/docs/\(name)")
        let unchanged = try await server.call("POST", "/v1/podcasts/\(id)/refresh", token: world.admin)
        #expect(unchanged.status == 200, "\(unchanged.json)")
        #expect(unchanged.data["lastError"] == nil)
        #expect(unchanged.data["updatedAt"] as? String == podcast["updatedAt"] as? String)
        #expect(try await world.origin.stats().requests("/docs/\(name)") == requestsBefore + 1)
        let same = try await server.call("GET", "/v1/podcasts/\(id)/episodes?sort=oldest")
        #expect(
            (same.data["data"] as? [[String: Any]])?.map { $0["updatedAt"] as? String }
                == episodes.map { $0["updatedAt"] as? String })

        // Changed: "b" renamed, "d" new, "c" gone from the feed (kept: episodes are not deleted by a refresh).
        try world.origin.put(
            name,
            Self.feed(
                title: "夜读时间 Night Reading",
                items: [
                    Item(guid: "a", title: "First", day: 1),
                    Item(guid: "b", title: "Second, revised", day: 2),
                    Item(guid: "d", title: "Fourth", day: 4),
                ], origin: world.origin))
        let report = try await server.call("POST", "/v1/podcasts/refresh", token: world.admin)
        #expect(report.status == 200, "\(report.json)")
        #expect(report.data["refreshed"] as? Int == 1 && report.data["unchanged"] as? Int == 0)
        #expect(report.data["episodesAdded"] as? Int == 1 && report.data["episodesUpdated"] as? Int == 1)
        let after = try await server.call("GET", "/v1/podcasts/\(id)/episodes?sort=oldest")
        let now = after.data["data"] as? [[String: Any]] ?? []
        #expect(now.map { $0["title"] as? String } == ["First", "Second, revised", "Third", "Fourth"])
        // Kept by guid: the same ids as before.
        #expect(now[0]["id"] as? String == episodes[0]["id"] as? String)
        #expect(now[1]["id"] as? String == episodes[1]["id"] as? String)

        // Search: any substring of the title or author, Chinese included, case folded.
        for query in ["夜读", "读时", "NIGHT", "小王"] {
            let found = try await server.call(
                "GET", "/v1/podcasts?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            )
            #expect(found.data["total"] as? Int == 1, "\(query)")
        }
        let none = try await server.call("GET", "/v1/podcasts?q=%E6%97%A9%E5%AE%89")
        #expect(none.data["total"] as? Int == 0)

        // Only administrators add, refresh and delete.
        let refused = try await server.call("POST", "/v1/podcasts/\(id)/refresh", token: world.bob)
        #expect(refused.status == 403, "\(refused.json)")
        let deleted = try await server.call("DELETE", "/v1/podcasts/\(id)", token: world.admin)
        #expect(deleted.status == 200)
        let gone = try await server.call("GET", "/v1/podcasts/\(id)")
        #expect(gone.status == 404 && gone.message == "That podcast does not exist.")
        let stats = try await world.origin.stats()
        #expect(stats.forbiddenRequests == 0)
    }

    @Test func hostileFeedsAreRefusedWithTheirReasonAndNothingIsStored() async throws {
        let world = try await World.start()
        let origin = world.origin
        let xxe = try origin.put(
            "xxe-\(UUID().uuidString).xml",
            "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<rss version=\"2.0\"><channel><title>&x;</title></channel></rss>")
        let laughs = try origin.put(
            "laughs-\(UUID().uuidString).xml",
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>
            <rss version="2.0"><channel><title>&lol2;</title></channel></rss>
            """)
        let page = try origin.put("page-\(UUID().uuidString).html", "<html><body>Hello</body></html>")
        let forbidden = origin.forbiddenURL("/docs/feed.xml")
        let redirectInward = origin.url(
            "/redirect?to=\(forbidden.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        )
        let cases: [(URL, String)] = [
            (xxe, "declares XML entities"),
            (laughs, "declares XML entities"),
            (origin.url("/big?bytes=20000000"), "larger than 10 MB"),
            (origin.url("/loop/a"), "redirects in a loop"),
            (forbidden, "points to this machine (127.0.0.1)"),
            (redirectInward, "points to this machine (127.0.0.1)"),
            (origin.url("/status/404"), "answered 404"),
            (page, "web page, not a feed"),
        ]
        for (url, reason) in cases {
            let reply = try await world.add(url)
            #expect(reply.status == 400, "\(url): \(reply.json)")
            #expect(reply.message.hasPrefix("The feed cannot be used: "), "\(url): \(reply.message)")
            #expect(reply.message.contains(reason), "\(url): \(reply.message)")
        }
        let notAnAddress = try await world.server.call(
            "POST", "/v1/podcasts", json: ["url": "file:///etc/passwd"], token: world.admin)
        #expect(notAnAddress.status == 400)
        #expect(notAnAddress.message == "Give the feed's address as an http or https address.")
        // In the reader's language.
        let chinese = try await world.server.call(
            "POST", "/v1/podcasts", json: ["url": forbidden.absoluteString], token: world.admin,
            headers: ["Accept-Language": "zh-CN"])
        #expect(chinese.message.hasPrefix("无法使用这个订阅源："), "\(chinese.message)")

        let list = try await world.server.call("GET", "/v1/podcasts")
        #expect(list.data["total"] as? Int == 0)
        #expect(try await origin.stats().forbiddenRequests == 0)
    }

    @Test func progressFollowsThePersonAndSubscriptionsFeedTheirLists() async throws {
        let world = try await World.start()
        let server = world.server
        let url = try world.origin.put(
            "progress-\(UUID().uuidString).xml",
            Self.feed(
                title: "Morning Show",
                items: (1...3).map { Item(guid: "m\($0)", title: "Morning \($0)", day: $0) },
                origin: world.origin))
        let id = try #require(try await world.add(url).data["id"] as? String)
        let episodes = try await server.call("GET", "/v1/podcasts/\(id)/episodes")
        let ids = (episodes.data["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.count == 3)

        // Two sessions of Ann (the web player and a phone) and Bob.
        let phone = try await server.signIn(["email": "ann@example.com"], device: "phone")
        let saved = try await server.call(
            "PUT", "/v1/episodes/\(ids[0])/progress", json: ["position": 125.5], token: world.admin)
        #expect(saved.status == 200, "\(saved.json)")
        #expect(saved.data["position"] as? Double == 125.5 && saved.data["finished"] as? Bool == false)
        let resumed = try await server.call("GET", "/v1/episodes/\(ids[0])/progress", token: phone)
        #expect(resumed.data["position"] as? Double == 125.5)
        let episode = try await server.call("GET", "/v1/episodes/\(ids[0])", token: phone)
        #expect((episode.data["progress"] as? [String: Any])?["position"] as? Double == 125.5)
        // Not Bob's.
        let bobs = try await server.call("GET", "/v1/episodes/\(ids[0])/progress", token: world.bob)
        #expect(bobs.data["position"] as? Double == 0 && bobs.data["updatedAt"] == nil)
        let bobsEpisode = try await server.call("GET", "/v1/episodes/\(ids[0])", token: world.bob)
        #expect(bobsEpisode.data["progress"] == nil)

        // The later place wins, whatever order the saves arrive in: an offline save taken earlier changes nothing.
        let stale = try await server.call(
            "PUT", "/v1/episodes/\(ids[0])/progress",
            json: ["position": 10, "updatedAt": "2020-01-01T00:00:00.000Z"], token: phone)
        #expect(stale.data["position"] as? Double == 125.5, "\(stale.json)")
        let bad = try await server.call(
            "PUT", "/v1/episodes/\(ids[0])/progress", json: ["position": -1], token: phone)
        #expect(bad.status == 400)
        let noSuch = try await server.call(
            "PUT", "/v1/episodes/999999/progress", json: ["position": 1], token: phone)
        #expect(noSuch.status == 404 && noSuch.message == "That episode does not exist.")
        let anonymous = try await server.call("PUT", "/v1/episodes/\(ids[0])/progress", json: ["position": 1])
        #expect(anonymous.status == 401)

        // Continue listening: started, not finished, the last played first.
        _ = try await server.call(
            "PUT", "/v1/episodes/\(ids[1])/progress", json: ["position": 30], token: phone)
        _ = try await server.call(
            "PUT", "/v1/episodes/\(ids[2])/progress", json: ["position": 61, "finished": true], token: phone)
        let continuing = try await server.call("GET", "/v1/episodes/continue", token: world.admin)
        #expect(continuing.status == 200, "\(continuing.json)")
        #expect(
            (continuing.data["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [ids[1], ids[0]])
        let bobContinuing = try await server.call("GET", "/v1/episodes/continue", token: world.bob)
        #expect(bobContinuing.data["total"] as? Int == 0)

        // Subscriptions.
        let subscribed = try await server.call("PUT", "/v1/podcasts/\(id)/subscription", token: world.bob)
        #expect(
            subscribed.data["subscribed"] as? Bool == true && subscribed.data["subscribersCount"] as? Int == 1
        )
        let twice = try await server.call("PUT", "/v1/podcasts/\(id)/subscription", token: world.bob)
        #expect(twice.data["subscribersCount"] as? Int == 1)
        let mine = try await server.call("GET", "/v1/podcasts/subscribed", token: world.bob)
        #expect((mine.data["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        let annsNone = try await server.call("GET", "/v1/podcasts/subscribed", token: world.admin)
        #expect(annsNone.data["total"] as? Int == 0)
        let new = try await server.call("GET", "/v1/episodes/new", token: world.bob)
        #expect(
            (new.data["data"] as? [[String: Any]])?.map { $0["title"] as? String }
                == ["Morning 3", "Morning 2", "Morning 1"])
        let annsNew = try await server.call("GET", "/v1/episodes/new", token: world.admin)
        #expect(annsNew.data["total"] as? Int == 0)
        // The home carries both, each to its own person: Ann continues listening, Bob gets his new episodes.
        func modules(_ token: String) async throws -> [String: [String?]] {
            let home = try await server.call("GET", "/v1/home", token: token)
            return Dictionary(
                uniqueKeysWithValues: home.list.map {
                    (
                        $0["moduleType"] as? String ?? "",
                        ($0["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String }
                    )
                })
        }
        let annsHome = try await modules(world.admin)
        #expect(annsHome["continueListening"] == [ids[1], ids[0]])
        #expect(annsHome["newEpisodes"] == nil)
        let bobsHome = try await modules(world.bob)
        #expect(bobsHome["continueListening"] == nil)
        #expect(bobsHome["newEpisodes"]?.count == 3)
        let unsubscribed = try await server.call(
            "DELETE", "/v1/podcasts/\(id)/subscription", token: world.bob)
        #expect(unsubscribed.data["subscribed"] as? Bool == false)
        let empty = try await server.call("GET", "/v1/episodes/new", token: world.bob)
        #expect(empty.data["total"] as? Int == 0)
    }

    @Test func theAlbumPageIsPagedByNumberEitherWay() async throws {
        let world = try await World.start()
        let url = try world.origin.put(
            "album-\(UUID().uuidString).xml",
            Self.feed(
                title: "Long Series",
                items: (1...45).map { Item(guid: "s\($0)", title: "Part \($0)", day: $0) },
                origin: world.origin))
        let id = try #require(try await world.add(url).data["id"] as? String)
        let first = try await world.server.call("GET", "/v1/podcasts/\(id)/episodes?page=1&size=20")
        #expect(first.data["total"] as? Int == 45 && first.data["pages"] as? Int == 3)
        #expect(first.data["next"] as? Int == 2)
        #expect((first.data["data"] as? [[String: Any]])?.first?["title"] as? String == "Part 45")
        let last = try await world.server.call("GET", "/v1/podcasts/\(id)/episodes?page=3&size=20")
        #expect(
            (last.data["data"] as? [[String: Any]])?.map { $0["title"] as? String } == [
                "Part 5", "Part 4", "Part 3", "Part 2", "Part 1",
            ])
        #expect(last.json["data"].flatMap { ($0 as? [String: Any])?["next"] } is NSNull)
        let oldest = try await world.server.call(
            "GET", "/v1/podcasts/\(id)/episodes?sort=oldest&page=2&size=20")
        let titles = (oldest.data["data"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
        #expect(titles.first == "Part 21" && titles.last == "Part 40")
        let badSort = try await world.server.call("GET", "/v1/podcasts/\(id)/episodes?sort=hot")
        #expect(badSort.status == 400)
        let noPodcast = try await world.server.call("GET", "/v1/podcasts/999999/episodes")
        #expect(noPodcast.status == 404)
    }

    @Test func anEpisodesAudioStreamsFromItsOriginWithRangeOrFromItsDownload() async throws {
        let world = try await World.start()
        let audio = try await offPool {
            let path = temporaryFolder() + "/tone.mp3"
            try FFmpeg.installed!.run([
                "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "libmp3lame", "-b:a", "64k",
                path,
            ])
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let audioName = "tone-\(UUID().uuidString).mp3"
        try world.origin.put(audioName, audio)
        let url = try world.origin.put(
            "audio-\(UUID().uuidString).xml",
            Self.feed(
                title: "Tones",
                items: [
                    Item(guid: "t1", title: "Tone", day: 2, audio: "/docs/\(audioName)"),
                    Item(guid: "t2", title: "Bytes", day: 1, audio: "/bytes?size=5000"),
                ],
                origin: world.origin))
        let id = try #require(try await world.add(url).data["id"] as? String)
        let episodes = try await world.server.call("GET", "/v1/podcasts/\(id)/episodes")
        let episode = try #require(
            (episodes.data["data"] as? [[String: Any]])?.first { $0["title"] as? String == "Tone" })
        let uri = try #require(episode["uri"] as? String)
        #expect(episode["downloaded"] as? Bool == false)

        let (status, whole, response) = try await world.server.request("/" + uri)
        #expect(status == 200)
        #expect(whole == audio)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "audio/mpeg")
        // The origin's Range support is passed on (the tests' origin honours Range on /bytes).
        let ranged = try await world.server.call("GET", "/v1/podcasts/\(id)/episodes")
        let rangedEpisode = try #require(
            (ranged.data["data"] as? [[String: Any]])?.first { $0["title"] as? String == "Bytes" })
        let rangedURI = try #require(rangedEpisode["uri"] as? String)
        let (partStatus, part, partResponse) = try await world.server.request(
            "/" + rangedURI, headers: ["Range": "bytes=100-199"])
        #expect(partStatus == 206)
        #expect(part == Data((100..<200).map { UInt8($0 % 251) }))
        #expect(partResponse.value(forHTTPHeaderField: "Content-Range") == "bytes 100-199/5000")
        let (outsideStatus, _, _) = try await world.server.request(
            "/" + rangedURI, headers: ["Range": "bytes=9000-"])
        #expect(outsideStatus == 416)

        // Set to download: the server fetches the file into its data folder and serves it from there.
        let changed = try await world.server.call(
            "PATCH", "/v1/podcasts/\(id)", json: ["keep": "download", "retention": 5], token: world.admin)
        #expect(changed.status == 200, "\(changed.json)")
        #expect(changed.data["keep"] as? String == "download")
        let downloaded = try await world.server.call("GET", "/v1/episodes/\(episode["id"] as! String)")
        #expect(downloaded.data["downloaded"] as? Bool == true, "\(downloaded.json)")
        let fetchesBefore = try await world.origin.stats().requests("/docs/\(audioName)")
        let (fileStatus, file, _) = try await world.server.request("/" + uri, headers: ["Range": "bytes=0-9"])
        #expect(fileStatus == 206 && file == audio[0..<10])
        #expect(try await world.origin.stats().requests("/docs/\(audioName)") == fetchesBefore)
        #expect(try await world.origin.stats().forbiddenRequests == 0)
    }

    @Test func anOPMLImportAddsItsFeedsAndListsThoseThatFailed() async throws {
        let world = try await World.start()
        let good = try world.origin.put(
            "opml-\(UUID().uuidString).xml",
            Self.feed(
                title: "From OPML", items: [Item(guid: "o1", title: "One", day: 1)], origin: world.origin))
        let opml = """
            <?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>
            <outline text="Shows"><outline type="rss" text="Good" xmlUrl="\(good.absoluteString)"/>
            <outline type="rss" text="Inward" xmlUrl="\(world.origin.forbiddenURL("/docs/x.xml").absoluteString)"/>
            </outline></body></opml>
            """
        let reply = try await world.server.call(
            "POST", "/v1/podcasts/opml", body: Data(opml.utf8), contentType: "text/x-opml", token: world.admin
        )
        #expect(reply.status == 200, "\(reply.json)")
        #expect((reply.data["added"] as? [[String: Any]])?.map { $0["title"] as? String } == ["From OPML"])
        let failed = reply.data["failed"] as? [[String: Any]] ?? []
        #expect(failed.count == 1)
        #expect((failed.first?["message"] as? String)?.contains("points to this machine") == true)
        let again = try await world.server.call(
            "POST", "/v1/podcasts/opml", body: Data(opml.utf8), contentType: "text/x-opml", token: world.admin
        )
        #expect((again.data["existing"] as? [[String: Any]])?.count == 1)
        #expect((again.data["added"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await world.origin.stats().forbiddenRequests == 0)
    }
}
