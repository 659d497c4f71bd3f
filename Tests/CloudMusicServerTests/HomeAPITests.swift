import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The home screen end to end: modules built from real data, personal ones, a person's own order, the
/// administrator's choice, and the cached answer following the changes that matter.
@Suite struct HomeAPITests {
    @Test func theHomeIsBuiltFromTheLibrarySheetsAndAds() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server

        // An empty banner and no public sheets: those modules are left out.
        var home = try await world.home(token: nil)
        #expect(home.map(\.type) == ["recommendedSongs", "newAlbums", "categories"])

        let banner = try await world.ad("Banner", position: 10, file: TestMedia.png())
        let sheet = try await server.call(
            "POST", "/v1/sheets", json: ["title": "Late night", "tags": ["Jazz"]], token: world.bob)
        #expect(sheet.status == 201)
        let sheetID = sheet.data["id"] as! String
        let added = try await server.call(
            "POST", "/v1/sheets/\(sheetID)/relations", json: ["songIds": [world.songs["Blue One"]!]],
            token: world.bob)
        #expect(added.status == 200)
        #expect(
            try await server.call("POST", "/v1/collections", json: ["sheetId": sheetID], token: world.cy)
                .status == 201)

        // The banner shows at once (an ad change is a home change); hot sheets within their minute.
        home = try await world.home(token: nil)
        #expect(home.first?.type == "banner")
        #expect(home.first?.items.first?["id"] as? String == banner["id"] as? String)
        let sheetsShown = try await eventually {
            try await world.home(token: nil).contains { $0.type == "hotSheets" }
        }
        #expect(sheetsShown)
        home = try await world.home(token: nil)
        #expect(home.map(\.type) == ["banner", "hotSheets", "recommendedSongs", "newAlbums", "categories"])
        let hot = home[1]
        #expect(hot.items.first?["title"] as? String == "Late night")
        #expect(hot.items.first?["collectsCount"] as? Int == 1)
        #expect(hot.items.first?["collected"] == nil, "the shared module carries nobody's own fields")
        let albums = home.first { $0.type == "newAlbums" }!
        #expect(
            Set(albums.items.compactMap { $0["title"] as? String }) == ["Blue", "Loud", "Louder", "Candy"])
        let categories = home.first { $0.type == "categories" }!
        #expect(Set(categories.items.compactMap { $0["name"] as? String }) == ["Jazz", "Rock", "Pop"])

        let reply = try await server.call("GET", "/v1/home")
        let more = Dictionary(
            uniqueKeysWithValues: reply.list.map { ($0["moduleType"] as! String, $0["more"] as? String) })
        #expect(more["hotSheets"] == "v1/sheets?order=hot")
        #expect(more["newAlbums"] == "v1/albums?sort=recent")
        #expect(more["categories"] == "v1/categories")
        #expect(reply.list.allSatisfy { $0["id"] as? String == $0["moduleType"] as? String })

        // The answer carries a validator: the same home is a 304.
        let (_, _, response) = try await server.request("/v1/home")
        let etag = try #require(response.value(forHTTPHeaderField: "ETag"))
        #expect(response.value(forHTTPHeaderField: "Vary") == "Authorization")
        #expect(try await server.request("/v1/home", headers: ["If-None-Match": etag]).0 == 304)
        #expect(
            try await server.call("DELETE", "/v1/admin/ads/\(banner["id"]!)", token: world.ann).status == 200)
        let (status, _, changed) = try await server.request("/v1/home", headers: ["If-None-Match": etag])
        #expect(status == 200 && changed.value(forHTTPHeaderField: "ETag") != etag)
        #expect(try await world.home(token: nil).first?.type == "hotSheets")
    }

    @Test func aSignedInHomeIsPersonal() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        // Rock is what the others play; Bob plays Jazz.
        try await world.play("Loud One", token: world.cy)
        try await world.play("Loud One", token: world.ann)
        try await world.play("Blue Two", token: world.bob)
        try await world.play("Blue One", token: world.bob)

        let bob = try await world.home(token: world.bob)
        #expect(
            bob.map(\.type) == [
                "dailySongs", "personalRadio", "recommendedSongs", "newAlbums", "categories",
                "recentlyPlayed",
            ])
        // 每日推荐 starts Bob's songs of the day; 私人FM the radio's first songs.
        let daily = try await world.server.call("GET", "/v1/recommendations/songs", token: world.bob)
        let dailyIDs = (daily.data["songs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(bob[0].items.compactMap { $0["id"] as? String } == Array(dailyIDs.prefix(6)))
        #expect((1...3).contains(bob[1].items.count))
        let recommended = bob.first { $0.type == "recommendedSongs" }!.items.compactMap {
            $0["title"] as? String
        }
        #expect(Set(recommended) == ["Blue One", "Blue Two"], "Bob's genre only: \(recommended)")
        let recent = bob.first { $0.type == "recentlyPlayed" }!
        #expect(Set(recent.items.compactMap { $0["title"] as? String }) == ["Blue One", "Blue Two"])

        // A visitor gets the most played songs of the library; Cy those of Rock.
        let visitor = try await world.home(token: nil)
        #expect(!visitor.contains { $0.type == "recentlyPlayed" })
        let popular = visitor.first { $0.type == "recommendedSongs" }!.items.compactMap {
            $0["title"] as? String
        }
        #expect(popular.first == "Loud One")
        let cy = try await world.home(token: world.cy)
        let cyRecommended = cy.first { $0.type == "recommendedSongs" }!.items.compactMap {
            $0["title"] as? String
        }
        #expect(cyRecommended == ["Loud One", "Louder"])

        // A new play shows in recently played at once.
        try await world.play("Sweet", token: world.bob)
        let after = try await world.home(token: world.bob).first { $0.type == "recentlyPlayed" }!
        #expect(Set(after.items.compactMap { $0["title"] as? String }) == ["Blue One", "Blue Two", "Sweet"])
        let (_, _, response) = try await world.server.request(
            "/v1/home", headers: ["Authorization": world.bob])
        #expect(response.value(forHTTPHeaderField: "Cache-Control") == "private, no-cache")
        #expect(response.value(forHTTPHeaderField: "Vary") == "Authorization")
        let (_, _, shared) = try await world.server.request("/v1/home")
        #expect(shared.value(forHTTPHeaderField: "Cache-Control") == "public, no-cache")
        #expect(shared.value(forHTTPHeaderField: "Vary") == "Authorization")
    }

    @Test func eachPersonOrdersAndHidesModulesForThemselves() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        try await world.play("Blue One", token: world.bob)
        try await world.play("Sweet", token: world.cy)

        var layout = try await server.call("GET", "/v1/home/layout", token: world.bob)
        #expect(layout.status == 200)
        #expect(layout.data["customized"] as? Bool == false)
        let usual = (layout.data["modules"] as? [[String: Any]] ?? []).compactMap {
            $0["moduleType"] as? String
        }
        #expect(
            usual == [
                "banner", "dailySongs", "personalRadio", "hotSheets", "recommendedSheets", "recommendedSongs",
                "newAlbums", "categories", "recentlyPlayed", "videos", "products", "continueListening",
                "newEpisodes",
            ])

        let saved = try await server.call(
            "PUT", "/v1/home/layout",
            json: [
                "modules": [
                    ["moduleType": "recentlyPlayed"], ["moduleType": "categories"],
                    ["moduleType": "recommendedSongs", "hidden": true],
                ]
            ], token: world.bob)
        #expect(saved.status == 200, "\(saved.json)")
        #expect(saved.data["customized"] as? Bool == true)
        let order = (saved.data["modules"] as? [[String: Any]] ?? []).map {
            "\($0["moduleType"] as! String)\($0["hidden"] as? Bool == true ? " (hidden)" : "")"
        }
        #expect(
            order == [
                "recentlyPlayed", "categories", "recommendedSongs (hidden)", "banner", "dailySongs",
                "personalRadio", "hotSheets", "recommendedSheets", "newAlbums", "videos", "products",
                "continueListening", "newEpisodes",
            ])
        #expect(
            try await world.home(token: world.bob).map(\.type) == [
                "recentlyPlayed", "categories", "dailySongs", "personalRadio", "newAlbums",
            ])

        // Nobody else's home changes, and nobody sees or sets another's layout.
        #expect(
            try await world.home(token: world.cy).map(\.type) == [
                "dailySongs", "personalRadio", "recommendedSongs", "newAlbums", "categories",
                "recentlyPlayed",
            ])
        layout = try await server.call("GET", "/v1/home/layout", token: world.cy)
        #expect(layout.data["customized"] as? Bool == false)
        #expect(
            try await world.home(token: nil).map(\.type) == ["recommendedSongs", "newAlbums", "categories"])
        #expect(try await server.call("GET", "/v1/home/layout").status == 401)
        #expect(try await server.call("PUT", "/v1/home/layout", json: ["modules": []]).status == 401)

        // Bad input.
        let unknown = try await server.call(
            "PUT", "/v1/home/layout", json: ["modules": [["moduleType": "weather"]]], token: world.bob)
        #expect(
            unknown.status == 400 && unknown.message.contains("'weather' is not a home module"),
            "\(unknown.json)")
        let twice = try await server.call(
            "PUT", "/v1/home/layout",
            json: ["modules": [["moduleType": "banner"], ["moduleType": "banner"]]],
            token: world.bob)
        #expect(twice.status == 400 && twice.message.contains("twice"), "\(twice.json)")
        let shapeless = try await server.call(
            "PUT", "/v1/home/layout", json: ["modules": "banner"], token: world.bob)
        #expect(shapeless.status == 400)

        // A module the administrator turns off leaves every layout, and cannot be placed.
        let off = try await server.call(
            "PUT", "/v1/admin/home", json: ["modules": [["moduleType": "categories", "enabled": false]]],
            token: world.ann)
        #expect(off.status == 200, "\(off.json)")
        #expect(
            try await world.home(token: world.bob).map(\.type) == [
                "recentlyPlayed", "dailySongs", "personalRadio", "newAlbums",
            ])
        let placed = try await server.call(
            "PUT", "/v1/home/layout", json: ["modules": [["moduleType": "categories"]]], token: world.bob)
        #expect(placed.status == 400 && placed.message.contains("not on the home screen"), "\(placed.json)")

        // Back to the usual order.
        let reset = try await server.call("DELETE", "/v1/home/layout", token: world.bob)
        #expect(reset.status == 200 && reset.data["customized"] as? Bool == false)
        #expect(
            try await world.home(token: world.bob).map(\.type) == [
                "dailySongs", "personalRadio", "recommendedSongs", "newAlbums", "recentlyPlayed",
            ])
    }

    @Test func administratorsChooseTheModulesTheirOrderTitlesAndSizes() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        let settings = try await server.call("GET", "/v1/admin/home", token: world.ann)
        #expect(settings.status == 200)
        #expect(settings.list.count == 13)
        #expect(settings.list.first?["moduleType"] as? String == "banner")
        #expect(settings.list.allSatisfy { $0["enabled"] as? Bool == true })

        let saved = try await server.call(
            "PUT", "/v1/admin/home",
            json: [
                "modules": [
                    ["moduleType": "categories", "enabled": true, "title": "分类", "size": 2],
                    ["moduleType": "recommendedSongs", "enabled": false],
                ]
            ], token: world.ann)
        #expect(saved.status == 200, "\(saved.json)")
        #expect(
            saved.list.compactMap { $0["moduleType"] as? String } == [
                "categories", "recommendedSongs", "banner", "dailySongs", "personalRadio", "hotSheets",
                "recommendedSheets", "newAlbums", "recentlyPlayed", "videos", "products", "continueListening",
                "newEpisodes",
            ])
        let home = try await world.home(token: nil)
        #expect(home.map(\.type) == ["categories", "newAlbums"])
        #expect(home[0].title == "分类" && home[0].items.count == 2)

        // Only administrators, and only sensible settings.
        #expect(try await server.call("GET", "/v1/admin/home", token: world.bob).status == 403)
        #expect(
            try await server.call("PUT", "/v1/admin/home", json: ["modules": []], token: world.bob).status
                == 403)
        let tooBig = try await server.call(
            "PUT", "/v1/admin/home",
            json: ["modules": [["moduleType": "banner", "enabled": true, "size": 0]]],
            token: world.ann)
        #expect(tooBig.status == 400 && tooBig.message.contains("'size'"), "\(tooBig.json)")
        let unknown = try await server.call(
            "PUT", "/v1/admin/home", json: ["modules": [["moduleType": "ads", "enabled": true]]],
            token: world.ann)
        #expect(unknown.status == 400, "\(unknown.json)")
        // A title left out goes back to the usual one.
        let plain = try await server.call(
            "PUT", "/v1/admin/home", json: ["modules": [["moduleType": "categories", "enabled": true]]],
            token: world.ann)
        #expect(plain.list.first?["title"] as? String == "Categories")
    }

    @Test func sheetsForAPersonHoldWhatTheyPlayedAndTheVideoRowShowsWithVideos() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        // Cy's public sheet holds the Jazz songs Bob plays; Bob's own sheet and private ones never show.
        for (title, token, isPrivate) in [
            ("Cy's jazz", world.cy, false), ("Cy's secret", world.cy, true),
            ("Bob's own", world.bob, false),
        ] {
            let sheet = try await server.call(
                "POST", "/v1/sheets", json: ["title": title, "isPrivate": isPrivate], token: token)
            let id = sheet.data["id"] as! String
            try await server.call(
                "POST", "/v1/sheets/\(id)/relations",
                json: ["songIds": [world.songs["Blue One"]!, world.songs["Blue Two"]!]], token: token)
        }
        #expect(!(try await world.home(token: world.bob)).contains { $0.type == "recommendedSheets" })
        try await world.play("Blue One", token: world.bob)
        let home = try await world.home(token: world.bob)
        let sheets = try #require(home.first { $0.type == "recommendedSheets" })
        #expect(sheets.items.compactMap { $0["title"] as? String } == ["Cy's jazz"])
        #expect(!(try await world.home(token: nil)).contains { $0.type == "recommendedSheets" })
        // No videos in this library: no video row; one uploaded shows in the next minute's home.
        #expect(!home.contains { $0.type == "videos" })
    }
}
