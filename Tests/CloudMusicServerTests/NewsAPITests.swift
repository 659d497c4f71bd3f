import Foundation
import OriginTestSupport
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// News over the real server, its sources served by the tests' origin on 127.0.0.2 (allowed with
/// `--fetch-allow`): the three feed formats, a source that changes, hostile content sanitized and its pictures
/// proxied, huge and malformed feeds refused with their reason, articles merged across sources, marks,
/// unread counts, paging by cursor, since and number, search in Chinese, and other people's personal sources.
@Suite struct NewsAPITests {
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
                    "--fetch-allow", "\(FeedOrigin.host)/32", "--news-refresh", "0", "--podcast-refresh",
                    "off",
                ])
            _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
            _ = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
            let admin = try await server.signIn(["email": "ann@example.com"])
            let bob = try await server.signIn(["email": "bob@example.com"])
            return World(server: server, origin: origin, admin: admin, bob: bob)
        }

        func channel(_ title: String, token: String) async throws -> String {
            let reply = try await server.call(
                "POST", "/v1/news/channels", json: ["title": title], token: token)
            #expect(reply.status == 201, "\(reply.json)")
            return reply.data["id"] as? String ?? ""
        }

        func source(_ url: URL, channel: String, token: String) async throws -> Reply {
            try await server.call(
                "POST", "/v1/news/sources", json: ["url": url.absoluteString, "channelId": channel],
                token: token)
        }

        func articles(_ channel: String, _ query: String = "", token: String) async throws -> Reply {
            try await server.call("GET", "/v1/news/channels/\(channel)/articles?\(query)", token: token)
        }

        func unread(_ channel: String, token: String) async throws -> Int {
            let list = try await server.call("GET", "/v1/news/channels", token: token).list
            return list.first { $0["id"] as? String == channel }?["unreadCount"] as? Int ?? -1
        }
    }

    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func rfc822(_ day: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: start.addingTimeInterval(Double(day) * 3_600))
    }

    static func iso(_ day: Int) -> String {
        ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(day) * 3_600))
    }

    struct Item {
        var guid: String
        var title: String
        var hour: Int
        var html = "<p>Plain text.</p>"
        var link: String?
    }

    static func rss(_ title: String, _ items: [Item]) -> String {
        let entries = items.map { item in
            """
            <item><guid isPermaLink="false">\(item.guid)</guid><title>\(item.title)</title>
            <link>\(item.link ?? "https://news.example.com/\(item.guid)")</link>
            <description><![CDATA[\(item.html)]]></description><pubDate>\(rfc822(item.hour))</pubDate></item>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>\(title)</title><link>https://news.example.com/</link>
            \(entries.joined(separator: "\n"))
            </channel></rss>
            """
    }

    static func atom(_ title: String, _ items: [Item]) -> String {
        let entries = items.map { item in
            """
            <entry><id>urn:uuid:\(item.guid)</id><title>\(item.title)</title>
            <link href="\(item.link ?? "https://atom.example.com/\(item.guid)")"/>
            <updated>\(iso(item.hour))</updated><content type="html"><![CDATA[\(item.html)]]></content></entry>
            """
        }
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>\(title)</title><id>urn:feed:\(title)</id>
            <updated>\(iso(0))</updated>
            \(entries.joined(separator: "\n"))
            </feed>
            """
    }

    static func jsonFeed(_ title: String, _ items: [Item]) throws -> String {
        let object: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1", "title": title,
            "items": items.map { item in
                [
                    "id": item.guid, "title": item.title, "content_html": item.html,
                    "url": item.link ?? "https://json.example.com/\(item.guid)",
                    "date_published": iso(item.hour),
                ]
            },
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func titles(_ reply: Reply) -> [String] {
        (reply.data["list"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    static func rows(_ reply: Reply) -> [[String: Any]] { reply.data["list"] as? [[String: Any]] ?? [] }

    @Test func theThreeFormatsAreReadAndAChangingSourceIsFollowed() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        let channel = try await world.channel("科技", token: world.admin)
        let rssURL = try world.origin.put(
            "news-rss-\(tag).xml",
            Self.rss(
                "RSS 新闻",
                [Item(guid: "r1", title: "RSS one", hour: 1), Item(guid: "r2", title: "RSS two", hour: 2)]))
        let atomURL = try world.origin.put(
            "news-atom-\(tag).xml",
            Self.atom("Atom news", [Item(guid: "a1-\(tag)", title: "Atom one", hour: 3)]))
        let jsonURL = try world.origin.put(
            "news-json-\(tag).json",
            try Self.jsonFeed("JSON news", [Item(guid: "j1", title: "JSON one", hour: 4)]))
        for url in [rssURL, atomURL, jsonURL] {
            let added = try await world.source(url, channel: channel, token: world.admin)
            #expect(added.status == 201, "\(added.json)")
            #expect(added.data["lastError"] == nil || added.data["lastError"] is NSNull)
        }
        let again = try await world.source(rssURL, channel: channel, token: world.admin)
        #expect(again.status == 409)
        var page = try await world.articles(channel, token: world.admin)
        #expect(Self.titles(page) == ["JSON one", "Atom one", "RSS two", "RSS one"])
        let sourceTitles = Set(Self.rows(page).compactMap { $0["sourceTitle"] as? String })
        #expect(sourceTitles == ["RSS 新闻", "Atom news", "JSON news"])

        // The RSS source changes: one article added, one updated; a refresh writes both, no duplicate.
        try world.origin.put(
            "news-rss-\(tag).xml",
            Self.rss(
                "RSS 新闻",
                [
                    Item(guid: "r1", title: "RSS one, corrected", hour: 1),
                    Item(guid: "r2", title: "RSS two", hour: 2),
                    Item(guid: "r3", title: "RSS three", hour: 5),
                ]))
        let sources = try await world.server.call("GET", "/v1/news/sources", token: world.admin).list
        let rssID = try #require(
            sources.first { $0["url"] as? String == rssURL.absoluteString }?["id"] as? String)
        let refreshed = try await world.server.call(
            "POST", "/v1/news/sources/\(rssID)/refresh", token: world.admin)
        #expect(refreshed.status == 200, "\(refreshed.json)")
        page = try await world.articles(channel, token: world.admin)
        #expect(Self.titles(page) == ["RSS three", "JSON one", "Atom one", "RSS two", "RSS one, corrected"])
        // Unchanged since: a 304, nothing written.
        let before = try await world.origin.stats().requests("/docs/news-rss-\(tag).xml")
        _ = try await world.server.call("POST", "/v1/news/sources/\(rssID)/refresh", token: world.admin)
        #expect(try await world.origin.stats().requests("/docs/news-rss-\(tag).xml") == before + 1)
        #expect(Self.titles(try await world.articles(channel, token: world.admin)).count == 5)
    }

    @Test func hostileContentIsSanitizedAndItsPicturesProxied() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.append(Data(repeating: 7, count: 200))
        let pictureURL = try world.origin.put("news-pic-\(tag).png", png)
        let svgURL = try world.origin.put(
            "news-pic-\(tag).svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"
        )
        let html = """
            <p>Story<script>alert('x')</script></p>
            <img src="\(pictureURL.absoluteString)" onerror="alert(2)" alt="photo">
            <img src="\(svgURL.absoluteString)">
            <img src="\(world.origin.forbiddenURL("/inside.png").absoluteString)">
            <iframe src="https://evil.example.com/frame"></iframe>
            <img src="https://tracker.example.com/pixel.gif" width="1" height="1">
            <video src="https://cdn.example.com/clip.mp4" poster="\(pictureURL.absoluteString)"></video>
            """
        let url = try world.origin.put(
            "news-hostile-\(tag).xml",
            Self.rss("Hostile", [Item(guid: "h1", title: "Hostile", hour: 1, html: html)]))
        let channel = try await world.channel("头条", token: world.admin)
        #expect(try await world.source(url, channel: channel, token: world.admin).status == 201)
        let row = try #require(Self.rows(try await world.articles(channel, token: world.admin)).first)
        #expect(row["hasVideo"] as? Bool == true)
        let id = try #require(row["id"] as? String)
        let article = try await world.server.call("GET", "/v1/news/articles/\(id)", token: world.admin)
        let content = try #require(article.data["content"] as? String)
        for banned in ["<script", "onerror", "<iframe", "tracker.example.com", "alert", "evil.example.com"] {
            #expect(!content.contains(banned), "\(banned) survived: \(content)")
        }
        #expect(!content.contains("127.0.0.2"), "a picture's origin leaked: \(content)")
        let images = try #require(article.data["images"] as? [String])
        #expect(images.count == 3, "\(images)")
        #expect(images.allSatisfy { $0.hasPrefix("/v1/news/images/") })
        #expect(content.contains(images[0]))
        let videos = try #require(article.data["videos"] as? [[String: Any]])
        #expect(videos.first?["url"] as? String == "https://cdn.example.com/clip.mp4")
        #expect((videos.first?["poster"] as? String)?.hasPrefix("/v1/news/images/") == true)

        // The proxy serves the PNG (no sign-in needed), refuses the SVG, and knows no other token.
        let (status, data, response) = try await Self.get(world.server, images[0])
        #expect(status == 200)
        #expect(data == png)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(response.value(forHTTPHeaderField: "Cache-Control")?.contains("max-age") == true)
        let (svgStatus, _, _) = try await Self.get(world.server, images[1])
        #expect(svgStatus == 415)
        // A picture on a private address (127.0.0.1, not allowed) is refused, and never asked for.
        let (inside, _, _) = try await Self.get(world.server, images[2])
        #expect(inside == 503)
        #expect(try await world.origin.stats().forbiddenRequests == 0)
        let (unknown, _, _) = try await Self.get(
            world.server, "/v1/news/images/" + String(repeating: "ab", count: 32))
        #expect(unknown == 404)
        let (malformed, _, _) = try await Self.get(world.server, "/v1/news/images/not-a-token")
        #expect(malformed == 400)
    }

    static func get(_ server: TestServer, _ path: String) async throws -> (Int, Data, HTTPURLResponse) {
        let (data, response) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
        return ((response as! HTTPURLResponse).statusCode, data, response as! HTTPURLResponse)
    }

    @Test func hugeAndMalformedFeedsAreRefusedWithTheirReason() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        let channel = try await world.channel("娱乐", token: world.admin)
        let huge = try await world.source(
            world.origin.url("/big?bytes=8000000"), channel: channel, token: world.admin)
        #expect(huge.status == 413, "\(huge.json)")
        #expect(huge.message.contains("larger"), "\(huge.message)")
        let broken = try world.origin.put(
            "news-broken-\(tag).xml", "<rss version=\"2.0\"><channel><title>x</title><item>")
        let refused = try await world.source(broken, channel: channel, token: world.admin)
        #expect(refused.status == 400, "\(refused.json)")
        #expect(refused.message.hasPrefix("The feed cannot be used"))

        // A source that worked and turns bad keeps its articles and shows why.
        let url = try world.origin.put(
            "news-turns-\(tag).xml", Self.rss("Turns", [Item(guid: "t1", title: "Fine", hour: 1)]))
        let added = try await world.source(url, channel: channel, token: world.admin)
        let id = try #require(added.data["id"] as? String)
        try world.origin.put(
            "news-turns-\(tag).xml", "{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [")
        let refreshed = try await world.server.call(
            "POST", "/v1/news/sources/\(id)/refresh", token: world.admin)
        #expect(refreshed.status == 200)
        let reason = try #require(refreshed.data["lastError"] as? String)
        #expect(reason.hasPrefix("The feed cannot be used"))
        let listed = try await world.server.call("GET", "/v1/news/sources", token: world.admin).list
        #expect(listed.first { $0["id"] as? String == id }?["lastError"] as? String == reason)
        #expect(Self.titles(try await world.articles(channel, token: world.admin)) == ["Fine"])
    }

    @Test func anArticleInTwoSourcesIsOneArticle() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        let link = "https://shared.example.com/story-\(tag)"
        let first = try world.origin.put(
            "news-dup1-\(tag).xml",
            Self.rss("Wire A", [Item(guid: "a-1", title: "Same story", hour: 1, link: link)]))
        let second = try world.origin.put(
            "news-dup2-\(tag).json",
            try Self.jsonFeed(
                "Wire B", [Item(guid: "b-9", title: "Same story again", hour: 2, link: link + "#top")]))
        let top = try await world.channel("头条", token: world.admin)
        let tech = try await world.channel("科技", token: world.admin)
        #expect(try await world.source(first, channel: top, token: world.admin).status == 201)
        #expect(try await world.source(second, channel: top, token: world.admin).status == 201)
        #expect(try await world.source(second, channel: tech, token: world.admin).status == 201)
        let inTop = Self.rows(try await world.articles(top, token: world.admin))
        let inTech = Self.rows(try await world.articles(tech, token: world.admin))
        #expect(inTop.count == 1)
        #expect(inTech.count == 1)
        #expect(inTop.first?["id"] as? String == inTech.first?["id"] as? String)
        // Read in one channel, read in the other.
        let id = try #require(inTop.first?["id"] as? String)
        _ = try await world.server.call(
            "PUT", "/v1/news/articles/\(id)/read", json: ["read": true], token: world.bob)
        #expect(try await world.unread(tech, token: world.bob) == 0)
        #expect(try await world.unread(tech, token: world.admin) == 1)
    }

    @Test func marksUnreadCountsAndPaging() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        let items = (1...25).map { Item(guid: "p\($0)", title: "Story \($0)", hour: $0) }
        let name = "news-page-\(tag).xml"
        let url = try world.origin.put(name, Self.rss("Pages", items))
        let channel = try await world.channel("财经", token: world.admin)
        #expect(try await world.source(url, channel: channel, token: world.admin).status == 201)
        #expect(try await world.unread(channel, token: world.bob) == 25)

        // Load more by cursor: 10, 10, 5, then the end.
        var seen: [String] = []
        var cursor: String?
        var newest: String?
        repeat {
            let page = try await world.articles(
                channel, "size=10" + (cursor.map { "&cursor=\($0)" } ?? ""), token: world.bob)
            #expect(page.status == 200, "\(page.json)")
            seen += Self.titles(page)
            if newest == nil { newest = page.data["newest"] as? String }
            cursor = page.data["next"] as? String
        } while cursor != nil && seen.count < 40
        #expect(seen == (1...25).reversed().map { "Story \($0)" })
        // By number.
        #expect(Self.titles(try await world.articles(channel, "page=3&size=10", token: world.bob)).count == 5)
        #expect(
            Self.titles(try await world.articles(channel, "page=2&size=10", token: world.bob)).first
                == "Story 15")
        // Pull to refresh: nothing new, then two new ones.
        let since = try #require(newest)
        #expect(Self.titles(try await world.articles(channel, "since=\(since)", token: world.bob)).isEmpty)
        try world.origin.put(
            name,
            Self.rss(
                "Pages",
                items + [
                    Item(guid: "p26", title: "Story 26", hour: 26),
                    Item(guid: "p27", title: "Story 27", hour: 27),
                ]))
        let sources = try await world.server.call("GET", "/v1/news/sources", token: world.admin).list
        let sourceID = try #require(
            sources.first { $0["url"] as? String == url.absoluteString }?["id"] as? String)
        _ = try await world.server.call("POST", "/v1/news/sources/\(sourceID)/refresh", token: world.admin)
        let pulled = try await world.articles(channel, "since=\(since)", token: world.bob)
        #expect(Self.titles(pulled) == ["Story 27", "Story 26"])
        #expect(try await world.unread(channel, token: world.bob) == 27)
        let bad = try await world.articles(channel, "cursor=abc", token: world.bob)
        #expect(bad.status == 400)

        // Marks: read, hidden, saved.
        let rows = Self.rows(try await world.articles(channel, "size=3", token: world.bob))
        let ids = rows.compactMap { $0["id"] as? String }
        let read = try await world.server.call(
            "PUT", "/v1/news/articles/\(ids[0])/read", json: ["read": true], token: world.bob)
        #expect(read.data["read"] as? Bool == true)
        #expect(try await world.unread(channel, token: world.bob) == 26)
        let hidden = try await world.server.call(
            "PUT", "/v1/news/articles/\(ids[1])/hidden", json: ["hidden": true], token: world.bob)
        #expect(hidden.status == 200)
        #expect(try await world.unread(channel, token: world.bob) == 25)
        #expect(!Self.titles(try await world.articles(channel, token: world.bob)).contains("Story 26"))
        #expect(Self.titles(try await world.articles(channel, token: world.admin)).contains("Story 26"))
        let saved = try await world.server.call(
            "PUT", "/v1/news/articles/\(ids[2])/saved", json: ["saved": true], token: world.bob)
        #expect(saved.data["saved"] as? Bool == true)
        let savedList = try await world.server.call("GET", "/v1/news/saved", token: world.bob)
        #expect(Self.titles(savedList) == ["Story 25"])
        #expect(Self.titles(try await world.server.call("GET", "/v1/news/saved", token: world.admin)).isEmpty)

        // Read all up to story 20: 20 and older read, 21 to 25 not (27 read, 26 hidden).
        let upTo = try #require(
            Self.rows(try await world.articles(channel, "page=7&size=1", token: world.bob)).first?["id"]
                as? String)
        let marked = try await world.server.call(
            "POST", "/v1/news/channels/\(channel)/read-all", json: ["upTo": upTo], token: world.bob)
        #expect(marked.status == 200, "\(marked.json)")
        #expect(marked.data["unreadCount"] as? Int == 5)
        let afterLine = Self.rows(try await world.articles(channel, "size=10", token: world.bob))
        #expect(
            afterLine.map { $0["read"] as? Bool ?? false } == [
                true, false, false, false, false, false, true, true, true, true,
            ])
        // Marked unread by hand below the line: unread again.
        let below = try #require(afterLine.last?["id"] as? String)
        let unmarked = try await world.server.call(
            "PUT", "/v1/news/articles/\(below)/read", json: ["read": false], token: world.bob)
        #expect(unmarked.data["read"] as? Bool == false)
        let all = try await world.server.call(
            "POST", "/v1/news/channels/\(channel)/read-all", json: [String: Any](), token: world.bob)
        #expect(all.data["unreadCount"] as? Int == 0)
        #expect(
            Self.rows(try await world.articles(channel, token: world.bob)).allSatisfy {
                $0["read"] as? Bool == true
            })
        #expect(try await world.unread(channel, token: world.admin) == 27)
    }

    @Test func searchFindsTitlesAndContentInChineseAndEnglish() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        let url = try world.origin.put(
            "news-search-\(tag).xml",
            Self.rss(
                "搜索",
                [
                    Item(guid: "s1", title: "人工智能的新进展", hour: 1, html: "<p>研究人员发布了新的模型。</p>"),
                    Item(guid: "s2", title: "Weather today", hour: 2, html: "<p>北京明天有雨 and wind</p>"),
                    Item(guid: "s3", title: "Football", hour: 3, html: "<p>A match report</p>"),
                ]))
        let channel = try await world.channel("搜索", token: world.admin)
        #expect(try await world.source(url, channel: channel, token: world.admin).status == 201)
        func search(_ q: String) async throws -> [String] {
            let escaped = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let reply = try await world.server.call("GET", "/v1/news/search?q=\(escaped)", token: world.bob)
            #expect(reply.status == 200, "\(reply.json)")
            return Self.titles(reply)
        }
        #expect(try await search("智能") == ["人工智能的新进展"])
        #expect(try await search("模型") == ["人工智能的新进展"])
        #expect(try await search("明天") == ["Weather today"])
        #expect(try await search("weath") == ["Weather today"])
        #expect(try await search("match") == ["Football"])
        #expect(try await search("不存在").isEmpty)
    }

    @Test func otherPeoplesPersonalChannelsAndSourcesAreRefused() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        let shared = try await world.channel("头条", token: world.admin)
        let mine = try await world.channel("Bob's", token: world.bob)
        let url = try world.origin.put(
            "news-own-\(tag).xml", Self.rss("Bob's feed", [Item(guid: "o1", title: "Only Bob's", hour: 1)]))
        // Bob cannot add to or change the shared channel.
        #expect(try await world.source(url, channel: shared, token: world.bob).status == 403)
        let rename = try await world.server.call(
            "PATCH", "/v1/news/channels/\(shared)", json: ["title": "Mine"], token: world.bob)
        #expect(rename.status == 403)
        let added = try await world.source(url, channel: mine, token: world.bob)
        #expect(added.status == 201, "\(added.json)")
        #expect(added.data["personal"] as? Bool == true)
        let sourceID = try #require(added.data["id"] as? String)
        let article = try #require(
            Self.rows(try await world.articles(mine, token: world.bob)).first?["id"] as? String)

        // Ann, an administrator, sees neither the channel, nor the source, nor the article.
        let annChannels = try await world.server.call("GET", "/v1/news/channels", token: world.admin).list
        #expect(!annChannels.contains { $0["id"] as? String == mine })
        #expect(try await world.articles(mine, token: world.admin).status == 404)
        let annSources = try await world.server.call("GET", "/v1/news/sources", token: world.admin).list
        #expect(!annSources.contains { $0["id"] as? String == sourceID })
        #expect(
            try await world.server.call("DELETE", "/v1/news/sources/\(sourceID)", token: world.admin).status
                == 404)
        #expect(
            try await world.server.call("POST", "/v1/news/sources/\(sourceID)/refresh", token: world.admin)
                .status == 404)
        #expect(
            try await world.server.call("DELETE", "/v1/news/channels/\(mine)", token: world.admin).status
                == 404)
        #expect(
            try await world.server.call("GET", "/v1/news/articles/\(article)", token: world.admin).status
                == 404)
        #expect(
            try await world.server.call(
                "PUT", "/v1/news/articles/\(article)/saved", json: ["saved": true], token: world.admin
            )
            .status == 404)
        #expect(
            try await world.source(url, channel: mine, token: world.admin).status == 404)
        let searched = try await world.server.call("GET", "/v1/news/search?q=Only", token: world.admin)
        #expect(Self.titles(searched).isEmpty)
        #expect(
            Self.titles(try await world.server.call("GET", "/v1/news/search?q=Only", token: world.bob)) == [
                "Only Bob's"
            ])
        // Refusals in Chinese too.
        let chinese = try await world.server.call(
            "GET", "/v1/news/channels/\(mine)/articles", token: world.admin,
            headers: ["Accept-Language": "zh-CN"])
        #expect(chinese.message == "这个频道不存在。")
        // Bob deletes his own source: its article goes.
        #expect(
            try await world.server.call("DELETE", "/v1/news/sources/\(sourceID)", token: world.bob).status
                == 200)
        #expect(
            try await world.server.call("GET", "/v1/news/articles/\(article)", token: world.bob).status == 404
        )
        // Bob's channel goes with what is left in it; the shared one stays.
        #expect(
            try await world.server.call("DELETE", "/v1/news/channels/\(mine)", token: world.bob).status == 200
        )
        let bobChannels = try await world.server.call("GET", "/v1/news/channels", token: world.bob).list
        #expect(bobChannels.compactMap { $0["id"] as? String } == [shared])
        // Nobody signed in: refused.
        #expect(try await world.server.call("GET", "/v1/news/channels").status == 401)
    }

    @Test func aPersonHasAtMost20ChannelsAnd50Sources() async throws {
        let world = try await World.start()
        let tag = UUID().uuidString.prefix(8)
        var channels: [String] = []
        for n in 1...20 { channels.append(try await world.channel("Mine \(n)", token: world.bob)) }
        let refused = try await world.server.call(
            "POST", "/v1/news/channels", json: ["title": "One more"], token: world.bob)
        #expect(refused.status == 409)
        #expect(refused.message.contains("20 channels"), "\(refused.message)")
        let long = try await world.server.call(
            "POST", "/v1/news/channels", json: ["title": String(repeating: "长", count: 41)],
            token: world.admin)
        #expect(long.status == 400)
        let url = try world.origin.put(
            "news-limit-\(tag).xml", Self.rss("Limit", [Item(guid: "l1", title: "Limit", hour: 1)]))
        for n in 0..<50 {
            let added = try await world.source(
                world.origin.url("/docs/news-limit-\(tag).xml?copy=\(n)"), channel: channels[n % 20],
                token: world.bob)
            #expect(added.status == 201, "\(n): \(added.json)")
        }
        let fiftyFirst = try await world.source(url, channel: channels[0], token: world.bob)
        #expect(fiftyFirst.status == 409)
        #expect(fiftyFirst.message.contains("50 sources"), "\(fiftyFirst.message)")
        // One article however many of the 50 sources carry it.
        let found = try await world.server.call("GET", "/v1/news/search?q=Limit", token: world.bob)
        #expect(Self.titles(found) == ["Limit"])
    }
}
