import Foundation
import OriginTestSupport
import ServerTestSupport
import Storage
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The gPodder sync API as AntennaPod calls it, over the real server: sign in (account password, app password),
/// register a device, upload subscriptions (one the server does not have yet is kept until an administrator adds
/// the feed), changes since a time, play actions that become places read in v1 and v1 places read back as plays,
/// and the refusals (another person's username, bad JSON, no or wrong credentials, an ended session).
@Suite struct GPodderAPITests {
    /// A gPodder answer: status, headers and the JSON body.
    struct Answer {
        let status: Int
        let body: Any?
        /// Header lines as sent, names in lower case.
        let headers: [String: String]
        var object: [String: Any] { body as? [String: Any] ?? [:] }
        var list: [[String: Any]] { body as? [[String: Any]] ?? [] }
        var message: String { object["message"] as? String ?? "" }
        var actions: [[String: Any]] { object["actions"] as? [[String: Any]] ?? [] }
        var cookie: String? {
            guard let header = headers["set-cookie"],
                let range = header.range(of: #"sessionid=[0-9a-f]{64}"#, options: .regularExpression)
            else { return nil }
            return String(header[range])
        }
    }

    /// Calls through curl, which (unlike Foundation's URLSession on Linux) answers a 401 asking for Basic at once
    /// and keeps no cookies: each call says how it signs in.
    static func call(
        _ server: TestServer, _ method: String, _ path: String, json: Any? = nil, raw: String? = nil,
        basic: (String, String)? = nil, cookie: String? = nil
    ) async throws -> Answer {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var arguments = [
            "-s", "-X", method, "-D", folder + "/headers", "-o", folder + "/body", "-w", "%{http_code}",
            "http://127.0.0.1:\(server.port)\(path)",
        ]
        if let json {
            try JSONSerialization.data(withJSONObject: json).write(
                to: URL(fileURLWithPath: folder + "/request"))
        } else if let raw {
            try Data(raw.utf8).write(to: URL(fileURLWithPath: folder + "/request"))
        }
        if json != nil || raw != nil {
            arguments += ["-H", "Content-Type: application/json", "--data-binary", "@" + folder + "/request"]
        }
        if let (username, password) = basic { arguments += ["-u", "\(username):\(password)"] }
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        let finalArguments = arguments
        let status = try await offThread { () -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = finalArguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let out = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: out, as: UTF8.self)
        }
        var headers: [String: String] = [:]
        let headerText = (try? String(contentsOfFile: folder + "/headers", encoding: .utf8)) ?? ""
        for line in headerText.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let body = FileManager.default.contents(atPath: folder + "/body") ?? Data()
        return Answer(
            status: Int(status) ?? 0, body: try? JSONSerialization.jsonObject(with: body), headers: headers)
    }

    static func feed(title: String, guids: [String], origin: FeedOrigin) -> String {
        let items = guids.enumerated().map { index, guid in
            """
            <item><guid isPermaLink="false">\(guid)</guid><title>Episode \(guid)</title>
            <pubDate>Mon, 0\(index + 1) Jun 2026 08:00:00 +0000</pubDate>
            <enclosure url="\(origin.url("/bytes?size=1000&e=\(guid)").absoluteString.replacingOccurrences(of: "&", with: "&amp;"))" type="audio/mpeg" length="1000"/>
            <itunes:duration>2:00</itunes:duration></item>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <title>\(title)</title><itunes:category text="Arts"/>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """
    }

    /// gPodder's time for `seconds` from now.
    static func gpodderTime(_ offset: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: Date().addingTimeInterval(offset))
    }

    @Test func anAntennaPodStyleSyncWorksBothWaysWithV1() async throws {
        let origin = try await FeedOrigin.start()
        let server = try await TestServer.start(
            .empty,
            extraArguments: [
                "--fetch-allow", "\(FeedOrigin.host)/32", "--podcast-refresh", "off",
            ])
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        _ = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
        let ann = try await server.signIn(["email": "ann@example.com"])
        let bob = try await server.signIn(["email": "bob@example.com"])
        let feedURL = try origin.put(
            "gp-\(UUID().uuidString).xml", Self.feed(title: "同步测试 Sync", guids: ["a", "b"], origin: origin))
        let otherURL = try origin.put(
            "gp-\(UUID().uuidString).xml",
            Self.feed(title: "Another", guids: ["x"], origin: origin).replacingOccurrences(
                of: "text=\"Arts\"", with: "text=\"News\""))

        // Sign in with the account's email and password; the username in the address may be the nickname.
        let login = try await Self.call(
            server, "POST", "/api/2/auth/Bob/login.json", basic: ("bob@example.com", "correct horse"))
        #expect(login.status == 200, "\(login.object)")
        let cookie = try #require(login.cookie)

        // Register the device, then list devices.
        let device = try await Self.call(
            server, "POST", "/api/2/devices/Bob/antennapod-1.json",
            json: ["caption": "Pixel", "type": "mobile"],
            cookie: cookie)
        #expect(device.status == 200, "\(device.object)")
        let devices = try await Self.call(server, "GET", "/api/2/devices/Bob.json", cookie: cookie)
        #expect(devices.status == 200)
        #expect(devices.list.first?["id"] as? String == "antennapod-1")
        #expect(devices.list.first?["caption"] as? String == "Pixel")
        #expect(devices.list.first?["type"] as? String == "mobile")

        // Bob is no administrator: a feed the server lacks waits; an address that is none is refused as "".
        let upload = try await Self.call(
            server, "POST", "/api/2/subscriptions/Bob/antennapod-1.json",
            json: ["add": [feedURL.absoluteString, "not an address"], "remove": []], cookie: cookie)
        #expect(upload.status == 200, "\(upload.object)")
        #expect((upload.object["update_urls"] as? [[String]]) == [["not an address", ""]])
        let changes = try await Self.call(
            server, "GET", "/api/2/subscriptions/Bob/antennapod-1.json?since=0", cookie: cookie)
        #expect(changes.object["add"] as? [String] == [feedURL.absoluteString])
        let since = try #require(changes.object["timestamp"] as? Int)
        #expect(
            try await server.call("GET", "/v1/podcasts/subscribed", token: bob).data["total"] as? Int == 0)

        // An administrator adds the feed: the waiting subscription is applied.
        let added = try await server.call(
            "POST", "/v1/podcasts", json: ["url": feedURL.absoluteString], token: ann)
        #expect(added.status == 201, "\(added.json)")
        let podcastID = try #require(added.data["id"] as? String)
        let subscribed = try await server.call("GET", "/v1/podcasts/subscribed", token: bob)
        #expect((subscribed.data["data"] as? [[String: Any]])?.first?["id"] as? String == podcastID)

        // An administrator's app subscribing to an unknown feed adds it (Basic on every request, as AntennaPod).
        let annBasic = ("ann@example.com", "correct horse")
        let annUpload = try await Self.call(
            server, "POST", "/api/2/subscriptions/Ann/phone.json", json: ["add": [otherURL.absoluteString]],
            basic: annBasic)
        #expect(annUpload.status == 200, "\(annUpload.object)")
        let everything = try await server.call("GET", "/v1/podcasts", token: ann)
        #expect(everything.data["total"] as? Int == 2)
        #expect(
            try await server.call("GET", "/v1/podcasts/subscribed", token: ann).data["total"] as? Int == 1)

        // Categories come from the feeds' iTunes categories (the other feed names "News").
        let categories = try await server.call("GET", "/v1/podcasts/categories")
        #expect(categories.status == 200, "\(categories.json)")
        let named = categories.json["data"] as? [[String: Any]] ?? []
        #expect(named.first { $0["name"] as? String == "Arts" }?["podcastsCount"] as? Int == 1, "\(named)")
        let arts = try await server.call("GET", "/v1/podcasts?category=Arts")
        #expect((arts.data["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [podcastID])

        // A v1 unsubscription is a removal in the changes since.
        let off = try await server.call("DELETE", "/v1/podcasts/\(podcastID)/subscription", token: bob)
        #expect(off.status == 200, "\(off.json)")
        let removed = try await Self.call(
            server, "GET", "/api/2/subscriptions/Bob/antennapod-1.json?since=\(since)", cookie: cookie)
        #expect(removed.object["remove"] as? [String] == [feedURL.absoluteString])
        #expect((removed.object["add"] as? [String])?.isEmpty == true)
        let again = try await Self.call(
            server, "POST", "/api/2/subscriptions/Bob/antennapod-1.json",
            json: ["add": [feedURL.absoluteString]],
            cookie: cookie)
        #expect(again.status == 200)

        // Play actions become places; a download of another episode and a play of an unknown one are kept.
        let episodes = try await server.call(
            "GET", "/v1/podcasts/\(podcastID)/episodes?sort=oldest", token: bob)
        let list = episodes.data["data"] as? [[String: Any]] ?? []
        let first = try #require(list.first)
        let second = try #require(list.last)
        let firstID = try #require(first["id"] as? String)
        let secondID = try #require(second["id"] as? String)
        let actions: [[String: Any]] = [
            [
                "podcast": feedURL.absoluteString, "episode": first["enclosureUrl"] as! String, "guid": "a",
                "action": "play", "timestamp": Self.gpodderTime(-60), "started": 0, "position": 30,
                "total": 120,
                "device": "antennapod-1",
            ],
            [
                "podcast": feedURL.absoluteString, "episode": second["enclosureUrl"] as! String,
                "action": "download",
                "timestamp": Self.gpodderTime(-50), "device": "antennapod-1",
            ],
            [
                "podcast": "https://elsewhere.example/feed.xml", "episode": "https://elsewhere.example/1.mp3",
                "action": "play", "timestamp": Self.gpodderTime(-40), "started": 0, "position": 12,
                "total": 99,
                "device": "antennapod-1",
            ],
        ]
        let sent = try await Self.call(
            server, "POST", "/api/2/episodes/Bob.json", json: actions, cookie: cookie)
        #expect(sent.status == 200, "\(sent.object)")
        #expect((sent.object["update_urls"] as? [Any])?.isEmpty == true)
        let place = try await server.call("GET", "/v1/episodes/\(firstID)/progress", token: bob)
        #expect(place.data["position"] as? Double == 30, "\(place.json)")
        #expect(place.data["finished"] as? Bool == false)

        let read = try await Self.call(server, "GET", "/api/2/episodes/Bob.json?since=0", cookie: cookie)
        #expect(read.status == 200)
        let readActions = read.actions
        let play = readActions.first { $0["guid"] as? String == "a" }
        #expect(play?["action"] as? String == "play" && play?["position"] as? Int == 30)
        #expect(play?["device"] as? String == "antennapod-1" && play?["total"] as? Int == 120)
        #expect(readActions.contains { $0["action"] as? String == "download" })
        #expect(readActions.contains { $0["podcast"] as? String == "https://elsewhere.example/feed.xml" })
        let onlyThis = try await Self.call(
            server, "GET",
            "/api/2/episodes/Bob.json?since=0&aggregated=true&podcast=\(feedURL.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
            cookie: cookie)
        #expect(onlyThis.actions.count == 2, "\(onlyThis.actions)")
        let readAt = try #require(read.object["timestamp"] as? Int)

        // An older play does not move the place: the later one wins, as in v1.
        var older = actions[0]
        older["timestamp"] = Self.gpodderTime(-3_600)
        older["position"] = 5
        _ = try await Self.call(server, "POST", "/api/2/episodes/Bob.json", json: [older], cookie: cookie)
        let kept = try await server.call("GET", "/v1/episodes/\(firstID)/progress", token: bob)
        #expect(kept.data["position"] as? Double == 30)

        // A place written through v1 is a play in the actions since.
        let written = try await server.call(
            "PUT", "/v1/episodes/\(secondID)/progress", json: ["position": 45], token: bob)
        #expect(written.status == 200, "\(written.json)")
        let later = try await Self.call(
            server, "GET", "/api/2/episodes/Bob.json?since=\(readAt)", cookie: cookie)
        let v1Play = later.actions.first { $0["guid"] as? String == "b" && $0["action"] as? String == "play" }
        #expect(v1Play?["position"] as? Int == 45, "\(later.actions)")
        #expect(v1Play?["episode"] as? String == second["enclosureUrl"] as? String)
    }

    /// Actions kept as sent (not a place in a known episode) keep only the newest of each kind on each episode:
    /// the table grows with episodes, not with every upload, and a late older action changes nothing.
    @Test func storedActionsKeepTheNewestOfEachKind() async throws {
        let server = try await TestServer.start(.empty, extraArguments: ["--podcast-refresh", "off"])
        _ = try await server.signUp(["email": "cy@example.com"], nickname: "Cy")
        let login = try await Self.call(
            server, "POST", "/api/2/auth/Cy/login.json", basic: ("cy@example.com", "correct horse"))
        let cookie = try #require(login.cookie)
        func action(_ kind: String, _ episode: Int, at offset: TimeInterval, position: Int = 0) -> [String:
            Any]
        {
            var action: [String: Any] = [
                "podcast": "https://elsewhere.example/feed.xml",
                "episode": "https://elsewhere.example/\(episode).mp3",
                "action": kind, "timestamp": Self.gpodderTime(offset), "device": "kasts",
            ]
            if kind == "play" { action.merge(["started": 0, "position": position, "total": 600]) { $1 } }
            return action
        }
        for batch in [
            [action("play", 1, at: -300, position: 10), action("download", 1, at: -290)],
            [action("play", 1, at: -200, position: 20), action("play", 2, at: -190, position: 5)],
            [action("play", 1, at: -100, position: 30), action("download", 1, at: -90)],
            // Uploaded late, taken earlier than what is kept: nothing changes.
            [action("play", 1, at: -250, position: 15)],
        ] {
            let sent = try await Self.call(
                server, "POST", "/api/2/episodes/Cy.json", json: batch, cookie: cookie)
            #expect(sent.status == 200, "\(sent.object)")
        }
        let read = try await Self.call(server, "GET", "/api/2/episodes/Cy.json?since=0", cookie: cookie)
        let summary = read.actions.map {
            "\($0["episode"] as? String ?? "?") \($0["action"] as? String ?? "?") \($0["position"] as? Int ?? -1)"
        }.sorted()
        #expect(
            summary == [
                "https://elsewhere.example/1.mp3 download -1", "https://elsewhere.example/1.mp3 play 30",
                "https://elsewhere.example/2.mp3 play 5",
            ], "\(read.actions)")
    }

    @Test func refusalsAreClear() async throws {
        let server = try await TestServer.start(.empty)
        let annID = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let bobID = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
        let bob = try await server.signIn(["email": "bob@example.com"])
        _ = annID

        // No credentials, wrong ones: 401, asking for Basic.
        let none = try await Self.call(server, "GET", "/api/2/devices/Bob.json")
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"]?.hasPrefix("Basic") == true)
        #expect(none.message.contains("Sign in first"))
        let wrong = try await Self.call(
            server, "POST", "/api/2/auth/Bob/login.json", basic: ("bob@example.com", "wrong horse"))
        #expect(wrong.status == 401, "\(wrong.object)")

        // An app password signs in too, with the nickname as username.
        let made = try await server.call(
            "POST", "/v1/users/\(bobID)/app_passwords", json: ["name": "phone"], token: bob)
        let appPassword = try #require(made.data["password"] as? String)
        let login = try await Self.call(
            server, "POST", "/api/2/auth/Bob/login.json", basic: ("Bob", appPassword))
        #expect(login.status == 200, "\(login.object)")
        let cookie = try #require(login.cookie)

        // Another person's username in the address: 403, whether signing in or signed in.
        let others = try await Self.call(server, "GET", "/api/2/devices/Ann.json", cookie: cookie)
        #expect(others.status == 403)
        #expect(others.message.contains("another person"))
        let othersLogin = try await Self.call(
            server, "POST", "/api/2/auth/ann@example.com/login.json", basic: ("Bob", appPassword))
        #expect(othersLogin.status == 403)

        // Bad JSON, a bad action, too many changes, another format.
        let bad = try await Self.call(
            server, "POST", "/api/2/episodes/Bob.json", raw: "[{nope", cookie: cookie)
        #expect(bad.status == 400 && !bad.message.isEmpty, "\(bad.object)")
        let badAction = try await Self.call(
            server, "POST", "/api/2/episodes/Bob.json",
            json: [["podcast": "https://a.example/f", "episode": "https://a.example/1", "action": "dance"]],
            cookie: cookie)
        #expect(
            badAction.status == 400 && badAction.message.contains("play, download"), "\(badAction.object)")
        let tooMany = try await Self.call(
            server, "POST", "/api/2/subscriptions/Bob/d.json",
            json: ["add": (0..<2_001).map { "https://a.example/\($0)" }], cookie: cookie)
        #expect(tooMany.status == 413, "\(tooMany.object)")
        let opml = try await Self.call(server, "GET", "/api/2/subscriptions/Bob/d.opml", cookie: cookie)
        #expect(opml.status == 404)
        let badSince = try await Self.call(
            server, "GET", "/api/2/subscriptions/Bob/d.json?since=yesterday", cookie: cookie)
        #expect(badSince.status == 400)

        // A session that has expired, and one that was closed, sign in no more.
        let database = try Database(path: server.dataFolder + "/cloudmusic.sqlite")
        try database.write { db in _ = try db.execute("UPDATE gpodder_sessions SET expires_at = 0") }
        let expired = try await Self.call(server, "GET", "/api/2/devices/Bob.json", cookie: cookie)
        #expect(expired.status == 401, "\(expired.object)")
        let fresh = try await Self.call(
            server, "POST", "/api/2/auth/Bob/login.json", basic: ("Bob", appPassword))
        let freshCookie = try #require(fresh.cookie)
        #expect(
            try await Self.call(server, "GET", "/api/2/devices/Bob.json", cookie: freshCookie).status == 200)
        let out = try await Self.call(server, "POST", "/api/2/auth/Bob/logout.json", cookie: freshCookie)
        #expect(out.status == 200)
        #expect(
            try await Self.call(server, "GET", "/api/2/devices/Bob.json", cookie: freshCookie).status == 401)
    }
}
