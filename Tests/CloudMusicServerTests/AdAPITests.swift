import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Ads end to end: time windows, order, the splash answer's ETag, media with Range, and refusals.
@Suite struct AdAPITests {
    @Test func onlyAdsInsideTheirWindowShowInTheirOrder() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        let png = TestMedia.png()
        let first = try await world.ad("First", position: 10, file: png)
        let second = try await world.ad(
            "Second", position: 10, file: png, extra: ["link": "https://example.com/a"])
        _ = try await world.ad(
            "Ended", position: 10, file: png,
            extra: ["startsAt": isoMoment(-7200), "endsAt": isoMoment(-3600)])
        _ = try await world.ad("Later", position: 10, file: png, extra: ["startsAt": isoMoment(3600)])
        _ = try await world.ad("Splash", position: 0, file: TestMedia.png("blue", width: 90, height: 160))
        // Starts showing in a few seconds: long enough for the next request to come first on a loaded machine.
        let soon = try await world.ad("Soon", position: 10, file: png, extra: ["startsAt": isoMoment(12)])

        var banners = try await server.call("GET", "/v1/ads?position=10")
        #expect(banners.status == 200)
        #expect(banners.items.map { $0["title"] as? String } == ["First", "Second"])
        #expect(banners.items[1]["link"] as? String == "https://example.com/a")
        #expect(banners.items[1]["uri"] as? String == "https://example.com/a")
        #expect(first["style"] as? Int == 0 && first["width"] as? Int == 64 && first["height"] as? Int == 32)
        #expect((first["icon"] as? String)?.hasPrefix("v1/ads/\(first["id"]!)/icon?v=") == true)

        // Administrators see every ad, those outside their window too.
        let all = try await server.call("GET", "/v1/admin/ads?position=10", token: world.ann)
        #expect(all.data["total"] as? Int == 5)
        #expect(try await server.call("GET", "/v1/admin/ads", token: world.bob).status == 403)
        #expect(try await server.call("GET", "/v1/admin/ads").status == 401)

        // An ad starts showing when its window opens, although the list was answered (and kept) before.
        let appeared = try await eventually {
            try await server.call("GET", "/v1/ads?position=10").items.contains {
                $0["id"] as? String == soon["id"] as? String
            }
        }
        #expect(appeared)

        // Reordering puts the listed ads first; the others follow as they were.
        let ordered = try await server.call(
            "PUT", "/v1/admin/ads/order", json: ["position": 10, "adIds": [soon["id"]!, second["id"]!]],
            token: world.ann)
        #expect(ordered.status == 200, "\(ordered.json)")
        banners = try await server.call("GET", "/v1/ads?position=10")
        #expect(banners.items.map { $0["title"] as? String } == ["Soon", "Second", "First"])
        #expect(banners.items.map { $0["sort"] as? Int } == [0, 1, 2])
        let stranger = try await server.call(
            "PUT", "/v1/admin/ads/order", json: ["position": 0, "adIds": [first["id"]!]], token: world.ann)
        #expect(
            stranger.status == 400 && stranger.message.contains("not one of position 0"), "\(stranger.json)")

        // An edit moves an ad out of its window; another one clears the end again.
        let ended = try await server.call(
            "PATCH", "/v1/admin/ads/\(first["id"]!)",
            json: ["endsAt": isoMoment(-60), "startsAt": isoMoment(-120)],
            token: world.ann)
        #expect(ended.status == 200, "\(ended.json)")
        banners = try await server.call("GET", "/v1/ads?position=10")
        #expect(banners.items.map { $0["title"] as? String } == ["Soon", "Second"])
        let reopened = try await server.call(
            "PATCH", "/v1/admin/ads/\(first["id"]!)", json: ["endsAt": NSNull(), "title": "First again"],
            token: world.ann)
        #expect(reopened.status == 200 && reopened.data["endsAt"] == nil, "\(reopened.json)")
        banners = try await server.call("GET", "/v1/ads?position=10")
        #expect(banners.items.map { $0["title"] as? String } == ["Soon", "Second", "First again"])

        // Every position at once, splash first.
        let everything = try await server.call("GET", "/v1/ads")
        #expect(everything.items.first?["title"] as? String == "Splash")
        #expect(everything.data["total"] as? Int == 4)

        // Deleting takes the ad and its picture away.
        let id = second["id"] as! String
        #expect(try await server.call("DELETE", "/v1/admin/ads/\(id)", token: world.ann).status == 200)
        #expect(try await server.request("/v1/ads/\(id)/icon").0 == 404)
        #expect(try await server.call("DELETE", "/v1/admin/ads/\(id)", token: world.ann).status == 404)
        // The file is shared with the other ads (same content): it stays while they use it.
        #expect(try await server.request(mediaPath(first["icon"] as! String)).0 == 200)
    }

    @Test func theSplashAnswerCanBeKeptAndCheckedWithItsETag() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        let splash = try await world.ad(
            "Splash", position: 0, file: TestMedia.png("green", width: 90, height: 160))

        let (status, _, response) = try await server.request("/v1/ads?position=0")
        #expect(status == 200)
        let etag = try #require(response.value(forHTTPHeaderField: "ETag"))
        #expect(response.value(forHTTPHeaderField: "Cache-Control") == "public, no-cache")
        let (again, body, _) = try await server.request(
            "/v1/ads?position=0", headers: ["If-None-Match": etag])
        #expect(again == 304 && body.isEmpty)
        let (listed, _, _) = try await server.request(
            "/v1/ads?position=0", headers: ["If-None-Match": "\"x\", \(etag)"])
        #expect(listed == 304)

        // A change is a new answer with a new tag.
        let changed = try await server.call(
            "PATCH", "/v1/admin/ads/\(splash["id"]!)", json: ["title": "Splash 2"], token: world.ann)
        #expect(changed.status == 200)
        let (fresh, data, freshResponse) = try await server.request(
            "/v1/ads?position=0", headers: ["If-None-Match": etag])
        #expect(fresh == 200)
        #expect(freshResponse.value(forHTTPHeaderField: "ETag") != etag)
        #expect(String(decoding: data, as: UTF8.self).contains("Splash 2"))

        // The picture is a file with its own validator and Range.
        let icon = mediaPath(splash["icon"] as! String)
        let (pictureStatus, picture, pictureResponse) = try await server.request(icon)
        #expect(pictureStatus == 200)
        #expect(pictureResponse.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let pictureTag = try #require(pictureResponse.value(forHTTPHeaderField: "ETag"))
        #expect(try await server.request(icon, headers: ["If-None-Match": pictureTag]).0 == 304)
        let (partial, part, _) = try await server.request(icon, headers: ["Range": "bytes=0-9"])
        #expect(partial == 206 && part.count == 10)
    }

    @Test func videoAdsAreProbedAndStreamed() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let server = world.server
        let video = try await world.ad(
            "Clip", position: 0, style: 10, file: TestMedia.mp4, extra: ["link": "https://example.com/v"])
        #expect(video["style"] as? Int == 10)
        #expect(video["width"] as? Int == 160 && video["height"] as? Int == 120)
        let duration = try #require(video["duration"] as? Int)
        #expect((1_800...2_200).contains(duration), "\(duration)")
        let uri = try #require(video["uri"] as? String)
        #expect(uri.hasPrefix("v1/ads/\(video["id"]!)/video?v="))
        #expect(video["link"] as? String == "https://example.com/v")

        let (status, bytes, response) = try await server.request(
            mediaPath(uri), headers: ["Range": "bytes=4-11"])
        #expect(status == 206)
        #expect(String(decoding: bytes, as: UTF8.self) == "ftypisom")
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "video/mp4")
        let (whole, all, _) = try await server.request(mediaPath(uri))
        #expect(whole == 200 && all == TestMedia.mp4)
        // Its picture is a frame of the video.
        let (posterStatus, poster, _) = try await server.request(mediaPath(video["icon"] as! String))
        #expect(posterStatus == 200 && poster.starts(with: [0xFF, 0xD8, 0xFF]))

        // A picture ad has no video; replacing a video ad's file with a picture makes it an image ad.
        let picture = try await world.ad("Still", position: 10, file: TestMedia.png())
        #expect(try await server.request("/v1/ads/\(picture["id"]!)/video").0 == 404)
        let replaced = try await world.form(
            "PUT", "/v1/admin/ads/\(video["id"]!)/media", fields: [:], file: TestMedia.png("yellow"),
            token: world.ann)
        #expect(replaced.status == 200, "\(replaced.json)")
        #expect(replaced.data["style"] as? Int == 0 && replaced.data["duration"] == nil)
        #expect(replaced.data["uri"] as? String == "https://example.com/v")
        #expect(try await server.request(mediaPath(uri)).0 == 404)
        let files = try FileManager.default.contentsOfDirectory(atPath: server.dataFolder + "/ads")
        #expect(!files.contains { $0.hasSuffix(".mp4") }, "\(files)")
    }

    @Test func badAdsAreRefusedWithMessagesAPersonCanActOn() async throws {
        let world = try await DiscoveryWorld.start()
        defer { _ = world.server.stop() }
        let png = TestMedia.png()
        func create(_ fields: [String: String], file: Data? = TestMedia.png(), token: String? = nil)
            async throws -> Reply
        {
            try await world.form(
                "POST", "/v1/admin/ads", fields: ["title": "Ad", "position": "10"].merging(fields) { $1 },
                file: file,
                token: token ?? world.ann)
        }
        let backwards = try await create(["startsAt": isoMoment(3600), "endsAt": isoMoment(60)])
        #expect(backwards.status == 400 && backwards.message.contains("end"), "\(backwards.json)")
        let equal = try await create([
            "startsAt": "2030-01-01T00:00:00Z", "endsAt": "2030-01-01T08:00:00+08:00",
        ])
        #expect(equal.status == 400, "\(equal.json)")
        let badDate = try await create(["startsAt": "tomorrow"])
        #expect(badDate.status == 400 && badDate.message.contains("2025-05-01T08:00:00Z"), "\(badDate.json)")
        let badPosition = try await create(["position": "5"])
        #expect(
            badPosition.status == 400 && badPosition.message.contains("0 (splash)"), "\(badPosition.json)")
        let badStyle = try await create(["style": "30"])
        #expect(badStyle.status == 400 && badStyle.message.contains("10 (video)"), "\(badStyle.json)")
        let noTitle = try await create(["title": " "])
        #expect(noTitle.status == 400, "\(noTitle.json)")
        let noFile = try await create([:], file: nil)
        #expect(noFile.status == 400 && noFile.message.contains("'file'"), "\(noFile.json)")
        let json = try await world.server.call(
            "POST", "/v1/admin/ads", json: ["title": "Ad"], token: world.ann)
        #expect(json.status == 400 && json.message.contains("multipart"), "\(json.json)")

        // A "video" that is not a video, a video without pictures, text, and files that do not fit the style.
        let fake = try await create(["style": "10"], file: TestMedia.fakeMP4)
        #expect(fake.status == 415 && fake.message.contains("neither a picture nor a video"), "\(fake.json)")
        let audio = try await create(["style": "10"], file: TestMedia.m4a)
        #expect(audio.status == 415 && audio.message.contains("no video"), "\(audio.json)")
        let text = try await create([:], file: Data("hello, not a picture".utf8))
        #expect(text.status == 415, "\(text.json)")
        let pictureAsVideo = try await create(["style": "10"], file: png)
        #expect(
            pictureAsVideo.status == 400 && pictureAsVideo.message.contains("needs a video"),
            "\(pictureAsVideo.json)")
        let videoAsPicture = try await create(["style": "0"], file: TestMedia.mp4)
        #expect(
            videoAsPicture.status == 400 && videoAsPicture.message.contains("style must be 10"),
            "\(videoAsPicture.json)")
        let appWithoutLink = try await create(["style": "20"])
        #expect(
            appWithoutLink.status == 400 && appWithoutLink.message.contains("'link'"),
            "\(appWithoutLink.json)")
        let script = try await create(["link": "javascript:alert(1)"])
        #expect(script.status == 400, "\(script.json)")

        // Only administrators.
        #expect(try await create([:], token: world.bob).status == 403)

        // Nothing of the refused ads is left: no row, no file.
        let all = try await world.server.call("GET", "/v1/admin/ads", token: world.ann)
        #expect(all.data["total"] as? Int == 0, "\(all.json)")
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: world.server.dataFolder + "/ads")) ?? []
        #expect(files.isEmpty, "\(files)")

        // Changes are checked too.
        let ad = try await world.ad("Good", position: 10, file: png, extra: ["startsAt": isoMoment(-60)])
        let id = ad["id"] as! String
        let early = try await world.server.call(
            "PATCH", "/v1/admin/ads/\(id)", json: ["endsAt": isoMoment(-3600)], token: world.ann)
        #expect(early.status == 400 && early.message.contains("before it starts"), "\(early.json)")
        let toVideo = try await world.server.call(
            "PATCH", "/v1/admin/ads/\(id)", json: ["style": 10], token: world.ann)
        #expect(toVideo.status == 400, "\(toVideo.json)")
        let elsewhere = try await world.server.call(
            "PATCH", "/v1/admin/ads/\(id)", json: ["position": 7], token: world.ann)
        #expect(elsewhere.status == 400, "\(elsewhere.json)")
        #expect(
            try await world.server.call("PATCH", "/v1/admin/ads/999", json: ["title": "x"], token: world.ann)
                .status == 404)
        #expect(try await world.server.call("GET", "/v1/ads?position=3").status == 400)
        #expect(try await world.server.request("/v1/ads/abc/icon").0 == 404)
    }
}

/// A media address from a model (`v1/ads/1/icon?v=...`) as a request path.
func mediaPath(_ uri: String) -> String { "/" + uri }
