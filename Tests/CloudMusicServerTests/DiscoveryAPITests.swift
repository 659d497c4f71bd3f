import Foundation
import MusicCore
import ServerTestSupport
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Categories, update checks, terms and the demo's discovery content, end to end.
@Suite struct DiscoveryAPITests {
    @Test func categoriesHaveAPictureAndCounts() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        for (title, tags) in [("Smooth", ["jazz", "night"]), ("Private jazz", ["Jazz"])] {
            let sheet = try await server.call(
                "POST", "/v1/sheets",
                json: ["title": title, "tags": tags, "isPrivate": title.hasPrefix("Private")],
                token: world.bob)
            #expect(sheet.status == 201, "\(sheet.json)")
        }
        try await world.play("Blue Two", token: world.cy)

        let reply = try await server.call("GET", "/v1/categories")
        #expect(reply.status == 200)
        let byName = Dictionary(uniqueKeysWithValues: reply.items.map { ($0["name"] as! String, $0) })
        #expect(Set(byName.keys) == ["Jazz", "Rock", "Pop"])
        let jazz = try #require(byName["Jazz"])
        #expect(jazz["songsCount"] as? Int == 2)
        #expect(jazz["albumsCount"] as? Int == 1)
        #expect(jazz["sheetsCount"] as? Int == 1, "public sheets tagged jazz, letter case ignored")
        let rock = try #require(byName["Rock"])
        #expect(rock["albumsCount"] as? Int == 2 && rock["sheetsCount"] as? Int == 0)
        // The picture is the cover of the genre's most played album.
        let album = try await server.call("GET", "/v1/songs/\(world.songs["Blue Two"]!)")
        let albumID = try #require((album.data["album"] as? [String: Any])?["id"] as? String)
        #expect(jazz["icon"] as? String == "v1/albums/\(albumID)/cover")
        #expect(reply.items.first?["songsCount"] as? Int == 2)

        // Pages, and the sheets of a category by its name.
        let page = try await server.call("GET", "/v1/categories?size=1&page=2")
        #expect(page.items.count == 1 && page.data["total"] as? Int == 3 && page.data["pages"] as? Int == 3)
        let tagged = try await server.call("GET", "/v1/sheets?tag=Jazz")
        #expect(tagged.items.compactMap { $0["title"] as? String } == ["Smooth"])
        #expect(try await server.call("GET", "/v1/categories?size=0").status == 400)
    }

    @Test func anUpdateCheckAnswersOnlyANewerVersion() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        func publish(
            _ version: String, force: Bool = false, platform: String = "android", token: String? = nil
        )
            async throws -> Reply
        {
            try await server.call(
                "POST", "/v1/admin/app_versions",
                json: [
                    "platform": platform, "version": version, "build": 100, "notes": "Notes of \(version)",
                    "uri": "https://example.com/app-\(version).apk", "force": force,
                ], token: token ?? world.ann)
        }
        func latest(_ version: String, platform: String = "android") async throws -> Reply {
            try await server.call("GET", "/v1/app_versions/latest?platform=\(platform)&version=\(version)")
        }

        // Nothing published: nothing to update to.
        var check = try await latest("1.0.0")
        #expect(
            check.status == 200 && check.json.keys.contains("data") && check.json["data"] is NSNull,
            "\(check.json)")

        for (version, force) in [
            ("1.2.0", false), ("1.5.0", true), ("1.9.0", false), ("1.10.0", false), ("2.0.0-beta.1", false),
        ] {
            let published = try await publish(version, force: force)
            #expect(published.status == 201, "\(published.json)")
        }
        // 1.10.0 is after 1.9.0 (numbers, not text), and a pre-release of 2.0.0 is after 1.10.0.
        check = try await latest("1.9.0")
        #expect(check.data["version"] as? String == "2.0.0-beta.1")
        #expect(check.data["force"] as? Bool == false)
        #expect(check.data["notes"] as? String == "Notes of 2.0.0-beta.1")
        #expect(check.data["uri"] as? String == "https://example.com/app-2.0.0-beta.1.apk")
        #expect(check.data["build"] as? Int == 100)
        // A forced version between the app's and the newest forces the update.
        check = try await latest("1.2")
        #expect(check.data["version"] as? String == "2.0.0-beta.1" && check.data["force"] as? Bool == true)
        check = try await latest("v1.5.0")
        #expect(check.data["force"] as? Bool == false)
        // Up to date, or ahead: null data.
        check = try await latest("2.0.0-beta.1")
        #expect(check.status == 200 && check.json["data"] is NSNull)
        check = try await latest("2.0.0")
        #expect(check.json["data"] is NSNull)
        // Other platforms have their own versions.
        check = try await latest("0.1.0", platform: "ios")
        #expect(check.json["data"] is NSNull)

        // Bad input.
        for bad in ["1.x", "abc", "1.2.3.4", "01.2.3", "1..2", "", "1.2.3-"] {
            let reply = try await server.call(
                "GET",
                "/v1/app_versions/latest?platform=android&version=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            )
            #expect(reply.status == 400, "'\(bad)': \(reply.json)")
        }
        let notAVersion = try await latest("1.x")
        #expect(notAVersion.message.contains("must be a version such as 1.2.3"), "\(notAVersion.json)")
        #expect(try await server.call("GET", "/v1/app_versions/latest?version=1.0.0").status == 400)
        #expect(
            try await server.call("GET", "/v1/app_versions/latest?platform=windows&version=1.0.0").status
                == 400)
        let again = try await publish("1.2")
        #expect(again.status == 409 && again.message.contains("already published"), "\(again.json)")
        #expect(try await publish("next").status == 400)
        #expect(try await publish("3.0.0", token: world.bob).status == 403)

        // Administrators list, change and withdraw versions.
        let list = try await server.call("GET", "/v1/admin/app_versions?platform=android", token: world.ann)
        #expect(list.data["total"] as? Int == 5)
        let forcedID = try #require(
            list.items.first { $0["version"] as? String == "1.5.0" }?["id"] as? String)
        let unforced = try await server.call(
            "PATCH", "/v1/admin/app_versions/\(forcedID)", json: ["force": false, "uri": NSNull()],
            token: world.ann)
        #expect(unforced.status == 200 && unforced.data["uri"] == nil, "\(unforced.json)")
        #expect(try await latest("1.2.0").data["force"] as? Bool == false)
        let betaID = try #require(
            list.items.first { $0["version"] as? String == "2.0.0-beta.1" }?["id"] as? String)
        #expect(
            try await server.call("DELETE", "/v1/admin/app_versions/\(betaID)", token: world.ann).status
                == 200)
        #expect(try await latest("1.9.0").data["version"] as? String == "1.10.0")
        #expect(
            try await server.call("DELETE", "/v1/admin/app_versions/\(betaID)", token: world.ann).status
                == 404)
    }

    @Test func termsAreVersionedAndAcceptedPerVersion() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        func profile(_ id: String, token: String?) async throws -> [String: Any] {
            try await server.call("GET", "/v1/users/\(id)", token: token).data
        }
        func publish(_ kind: String, _ title: String) async throws -> String {
            let reply = try await server.call(
                "POST", "/v1/admin/terms",
                json: ["kind": kind, "title": title, "text": "\(title)\n\nThe text."],
                token: world.ann)
            #expect(reply.status == 201, "\(reply.json)")
            return reply.data["id"] as? String ?? ""
        }

        // Nothing published: nothing to accept.
        var status = try await server.call("GET", "/v1/terms", token: world.bob)
        #expect((status.data["terms"] as? [Any])?.isEmpty == true && status.data["accepted"] as? Bool == true)
        #expect(try await profile(world.bobID, token: world.bob)["termsAccepted"] as? Bool == true)

        let privacy1 = try await publish("privacy", "Privacy policy")
        let user1 = try await publish("user", "User agreement")
        status = try await server.call("GET", "/v1/terms")
        #expect(status.data["accepted"] == nil)
        let terms = status.data["terms"] as? [[String: Any]] ?? []
        #expect(terms.map { "\($0["kind"]!) \($0["version"]!)" } == ["privacy 1", "user 1"])
        #expect((terms.first?["text"] as? String)?.contains("The text.") == true)
        #expect(terms.first?["accepted"] == nil)

        // Only the person sees whether they accepted.
        #expect(try await profile(world.bobID, token: world.bob)["termsAccepted"] as? Bool == false)
        #expect(try await profile(world.bobID, token: world.cy)["termsAccepted"] == nil)
        #expect(try await profile(world.bobID, token: nil)["termsAccepted"] == nil)

        var accepted = try await server.call(
            "POST", "/v1/terms/acceptances", json: ["termsIds": [privacy1]], token: world.bob)
        #expect(accepted.status == 201 && accepted.data["accepted"] as? Bool == false, "\(accepted.json)")
        accepted = try await server.call(
            "POST", "/v1/terms/acceptances", json: ["termsIds": [privacy1, user1]], token: world.bob)
        #expect(accepted.data["accepted"] as? Bool == true, "\(accepted.json)")
        #expect(try await profile(world.bobID, token: world.bob)["termsAccepted"] as? Bool == true)
        #expect(try await profile(world.cyID, token: world.cy)["termsAccepted"] as? Bool == false)
        let mine = try await server.call("GET", "/v1/terms/acceptances", token: world.bob)
        #expect(mine.list.count == 2 && mine.list.allSatisfy { $0["acceptedAt"] is String })

        // A new version must be accepted again; the old one cannot be any more.
        let privacy2 = try await publish("privacy", "Privacy policy, revised")
        #expect(try await profile(world.bobID, token: world.bob)["termsAccepted"] as? Bool == false)
        status = try await server.call("GET", "/v1/terms", token: world.bob)
        let current = status.data["terms"] as? [[String: Any]] ?? []
        #expect(current.map { "\($0["kind"]!) \($0["version"]!)" } == ["privacy 2", "user 1"])
        #expect(current.map { $0["accepted"] as? Bool } == [false, true])
        let stale = try await server.call(
            "POST", "/v1/terms/acceptances", json: ["termsIds": [privacy1]], token: world.bob)
        #expect(stale.status == 409 && stale.message.contains("no longer the current one"), "\(stale.json)")
        accepted = try await server.call(
            "POST", "/v1/terms/acceptances", json: ["termsIds": [privacy2]], token: world.bob)
        #expect(accepted.data["accepted"] as? Bool == true)
        #expect(try await profile(world.bobID, token: world.bob)["termsAccepted"] as? Bool == true)

        // Bad input and who may do what.
        #expect(
            try await server.call(
                "POST", "/v1/terms/acceptances", json: ["termsIds": ["999"]], token: world.bob
            ).status == 404)
        #expect(
            try await server.call("POST", "/v1/terms/acceptances", json: ["termsIds": []], token: world.bob)
                .status == 400)
        #expect(
            try await server.call("POST", "/v1/terms/acceptances", json: ["termsIds": [privacy2]]).status
                == 401)
        let notAdmin = try await server.call(
            "POST", "/v1/admin/terms", json: ["kind": "user", "title": "Mine", "text": "x"], token: world.bob)
        #expect(notAdmin.status == 403)
        let history = try await server.call("GET", "/v1/admin/terms?kind=privacy", token: world.ann)
        #expect(history.items.compactMap { $0["version"] as? Int } == [2, 1])
    }

    @Test func aNewDemoInstallShowsASplashBannersAndAVersion() async throws {
        // The demo library made once per machine (as the SDK's tests do), linked into a fresh data folder.
        let demo = FileManager.default.temporaryDirectory.appendingPathComponent("cloudmusic-kit-demo").path
        if !FileManager.default.fileExists(atPath: demo + "/.complete") {
            let (code, _, errors) = try await runServerCommand(["demo", demo])
            try #require(code == 0, "\(errors)")
        }
        let data = temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: data + "/demo-library", withDestinationPath: demo)
        let server = try await TestServer.start(.builtInDemo, extraArguments: ["--data", data])
        defer { _ = server.stop() }

        let splash = try await server.call("GET", "/v1/ads?position=0")
        #expect(splash.items.count == 1)
        #expect(splash.items.first?["height"] as? Int == 1920)
        let banners = try await server.call("GET", "/v1/ads?position=10")
        #expect(banners.items.count == 3)
        for ad in banners.items {
            let (status, bytes, _) = try await server.request("/" + (ad["icon"] as! String))
            #expect(status == 200 && bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        }
        let update = try await server.call(
            "GET", "/v1/app_versions/latest?platform=web&version=\(CloudMusicVersion.current)")
        #expect(update.data["version"] as? String == "1.1.0")
        try await server.waitForScan()
        let home = try await server.call("GET", "/v1/home")
        #expect(home.list.first?["moduleType"] as? String == "banner")

        // A second start adds nothing again.
        #expect(server.stop() == 0)
        let again = try await TestServer.start(.builtInDemo, extraArguments: ["--data", data])
        defer { _ = again.stop() }
        #expect(try await again.call("GET", "/v1/ads?position=10").items.count == 3)
        #expect(
            try await again.call("GET", "/v1/app_versions/latest?platform=ios&version=1.0.0").data["version"]
                as? String == "1.1.0")
    }
}

/// Issue 16: a song's clicks change, counted on its detail and on a stream's start, once per viewer in 30 s.
@Suite struct SongClickTests {
    @Test func detailAndStreamStartCountOncePerViewerIn30Seconds() async throws {
        let world = try await DiscoveryWorld.start()
        let server = world.server
        let id = try #require(world.songs.values.sorted().first)
        let first = try await server.call("GET", "/v1/songs/\(id)")
        #expect(first.data["clicksCount"] as? Int == 1)
        let again = try await server.call("GET", "/v1/songs/\(id)")
        #expect(again.data["clicksCount"] as? Int == 1, "the same viewer within 30 s")
        // Ann starts the stream: a click; the rest of the song by Range, and Ann's detail after it, are not.
        let (status, _, _) = try await server.request(
            "/v1/songs/\(id)/stream", headers: ["Range": "bytes=0-99", "Authorization": world.ann])
        #expect(status == 206)
        let (later, _, _) = try await server.request(
            "/v1/songs/\(id)/stream", headers: ["Range": "bytes=100-199", "Authorization": world.ann])
        #expect(later == 206)
        let ann = try await server.call("GET", "/v1/songs/\(id)", token: world.ann)
        #expect(ann.data["clicksCount"] as? Int == 2)
        let bob = try await server.call("GET", "/v1/songs/\(id)", token: world.bob)
        #expect(bob.data["clicksCount"] as? Int == 3)
        // Written every few seconds: the list, which reads only the database, catches up.
        let written = try await server.waitFor("/v1/songs?size=100") { data in
            (data["data"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }?["clicksCount"]
                as? Int == 3
        }
        #expect(written)
    }
}
