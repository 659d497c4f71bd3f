import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Makes a short video with ffmpeg: test pictures and a tone, H.264/AAC unless `codecs` says otherwise.
func makeVideo(
    _ path: String, seconds: Int = 2, size: String = "320x240", title: String? = nil, artist: String? = nil,
    codecs: [String] = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"]
) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    var arguments = [
        "-f", "lavfi", "-i", "testsrc=size=\(size):rate=12:duration=\(seconds)", "-f", "lavfi", "-i",
        "sine=frequency=440:duration=\(seconds)", "-map", "0:v", "-map", "1:a", "-shortest",
    ]
    arguments += codecs
    if let title { arguments += ["-metadata", "title=\(title)"] }
    if let artist { arguments += ["-metadata", "artist=\(artist)"] }
    try FFmpeg.installed!.run(arguments + [path])
}

extension TestServer {
    /// Waits until a videos scan newer than `after` (a report id) has finished; answers its report.
    @discardableResult
    func waitForVideoScan(after: String? = nil, token: String? = nil) async throws -> [String: Any] {
        // Up to three minutes: probing and stills compete with every other test on two loaded cores.
        for _ in 0..<1_800 {
            let status = try await call("GET", "/v1/videos/scan", token: token).data
            if status["running"] as? Bool == false, let report = status["lastReport"] as? [String: Any],
                after == nil || report["id"] as? String != after
            {
                return report
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the videos scan did not finish")
        return [:]
    }

    /// Starts a videos scan as an administrator and waits for its report.
    func rescanVideos(token: String) async throws -> [String: Any] {
        let before =
            try await call("GET", "/v1/videos/scan", token: token).data["lastReport"] as? [String: Any]
        let started = try await call("POST", "/v1/videos/scan", token: token)
        #expect(started.status == 202, "\(started.json)")
        return try await waitForVideoScan(after: before?["id"] as? String, token: token)
    }

    /// Waits until `condition` holds for what `path` answers (counts written every few seconds).
    func waitFor(_ path: String, token: String? = nil, _ condition: ([String: Any]) -> Bool) async throws
        -> Bool
    {
        for _ in 0..<300 {
            if condition(try await call("GET", path, token: token).data) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}

/// Videos over the real server: a videos folder scanned like music (an MP4 MV of a song of the library, an
/// MKV without a song, a file that is not a video), lists, details and clicks, the still, streams with Range
/// and the MP4 conversion, likes, administrators' uploads and deletions, and incremental rescans.
@Suite struct VideoAPITests {
    struct World {
        let server: TestServer
        let videos: String
        let admin: String
        let bob: String
        /// Video ids by title.
        let ids: [String: String]

        static func start() async throws -> World {
            let (music, videos) = try await offPool {
                let music = temporaryFolder()
                try makeTrack(
                    music + "/Ann Band/Alpha/01.mp3", title: "Alpha One", artist: "Ann Band", album: "Alpha")
                try makeTrack(
                    music + "/Bo/Beta/01.mp3", title: "Beta One", artist: "Bo", album: "Beta", frequency: 660)
                let videos = temporaryFolder()
                // No tags: the file name says "Artist - Title", and "(MV)" is left out to find the song.
                try makeVideo(videos + "/Ann Band - Alpha One (MV).mp4")
                try makeVideo(videos + "/clips/Clip.mkv", seconds: 3, size: "240x320", title: "Night Clip")
                FileManager.default.createFile(
                    atPath: videos + "/broken.mp4", contents: Data("this is not a video".utf8))
                FileManager.default.createFile(atPath: videos + "/notes.txt", contents: Data("ignored".utf8))
                return (music, videos)
            }
            let server = try await TestServer.start(
                .empty, extraArguments: ["--music", music, "--videos", videos])
            try await server.waitForScan()
            let report = try await server.waitForVideoScan()
            #expect(report["filesSeen"] as? Int == 3, "\(report)")
            #expect(report["added"] as? Int == 2, "\(report)")
            #expect(report["failed"] as? Int == 1, "\(report)")
            _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
            _ = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
            let admin = try await server.signIn(["email": "ann@example.com"])
            let bob = try await server.signIn(["email": "bob@example.com"])
            let list = try await server.call("GET", "/v1/videos")
            var ids: [String: String] = [:]
            for video in list.items { ids[video["title"] as! String] = video["id"] as? String }
            return World(server: server, videos: videos, admin: admin, bob: bob, ids: ids)
        }
    }

    @Test func scannedVideosAreListedWithTheirSongsStillsAndErrors() async throws {
        let world = try await World.start()
        let server = world.server
        #expect(Set(world.ids.keys) == ["Alpha One (MV)", "Night Clip"])

        let mv = try await server.call("GET", "/v1/videos/\(world.ids["Alpha One (MV)"]!)")
        #expect(mv.status == 200, "\(mv.json)")
        #expect(mv.data["width"] as? Int == 320 && mv.data["height"] as? Int == 240)
        #expect(abs((mv.data["duration"] as? Int ?? 0) - 2_000) < 300)
        #expect(mv.data["format"] as? String == "mp4")
        #expect(mv.data["videoCodec"] as? String == "h264" && mv.data["audioCodec"] as? String == "aac")
        #expect((mv.data["song"] as? [String: Any])?["title"] as? String == "Alpha One")
        #expect((mv.data["singer"] as? [String: Any])?["name"] as? String == "Ann Band")
        #expect(mv.data["commentsCount"] as? Int == 0 && mv.data["likesCount"] as? Int == 0)
        #expect(mv.data["liked"] == nil)
        // An H.264/AAC MP4 plays in browsers as it is.
        #expect(mv.data["compatibleUri"] as? String == mv.data["uri"] as? String)

        let clip = try await server.call("GET", "/v1/videos/\(world.ids["Night Clip"]!)", token: world.bob)
        #expect(clip.data["song"] == nil && clip.data["singer"] == nil)
        #expect(clip.data["format"] as? String == "mkv")
        #expect(clip.data["liked"] as? Bool == false)
        #expect((clip.data["compatibleUri"] as? String)?.hasSuffix("/stream?format=mp4") == true)

        let icon = try #require(mv.data["icon"] as? String)
        let (status, still, response) = try await server.request("/" + icon)
        #expect(status == 200)
        #expect(still.prefix(2) == Data([0xFF, 0xD8]))
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")

        for path in [
            "/v1/videos/999999", "/v1/videos/abc", "/v1/videos/999999/stream", "/v1/videos/999999/cover",
        ] {
            let missing = try await server.call("GET", path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.message == "That video does not exist.", "\(path)")
        }
        let bad = try await server.call("GET", "/v1/videos?order=best")
        #expect(bad.status == 400)
        #expect(bad.message == "'order' must be one of: new, hot.")
        let scan = try await server.call("GET", "/v1/videos/scan", token: world.admin)
        let issues = (scan.data["lastReport"] as? [String: Any])?["issues"] as? [[String: Any]] ?? []
        #expect(issues.count == 1)
        #expect((issues.first?["path"] as? String)?.hasSuffix("broken.mp4") == true)
        let refused = try await server.call("POST", "/v1/videos/scan", token: world.bob)
        #expect(refused.status == 403)
    }

    /// Issue 16: comments on videos go through v1/comments with `videoId`, count on the video, and go with it.
    @Test func commentsOnAVideoCountAndGoWithIt() async throws {
        let world = try await World.start()
        let server = world.server
        let id = world.ids["Night Clip"]!
        let first = try await server.call(
            "POST", "/v1/comments", json: ["content": "What a clip", "videoId": id], token: world.bob)
        #expect(first.status == 201, "\(first.json)")
        #expect(first.data["videoId"] as? String == id)
        let commentID = try #require(first.data["id"] as? String)
        let reply = try await server.call(
            "POST", "/v1/comments", json: ["content": "Agreed", "parentId": commentID], token: world.admin)
        #expect(reply.status == 201)
        #expect(reply.data["videoId"] as? String == id)
        let list = try await server.call("GET", "/v1/comments?videoId=\(id)")
        #expect(list.status == 200)
        #expect(list.items.map { $0["content"] as? String } == ["Agreed", "What a clip"])
        let video = try await server.call("GET", "/v1/videos/\(id)")
        #expect(video.data["commentsCount"] as? Int == 2)
        // The comment on the video notified no one but the one replied to.
        let inbox = try await server.call("GET", "/v1/notifications", token: world.bob)
        let quoted = inbox.items.compactMap { $0["comment"] as? [String: Any] }
        #expect(quoted.contains { $0["videoId"] as? String == id })
        // Bad input: a video that does not exist, two things at once.
        let missing = try await server.call(
            "POST", "/v1/comments", json: ["content": "Hello", "videoId": "999999"], token: world.bob)
        #expect(missing.status == 404)
        #expect(missing.message == "That video does not exist.")
        let both = try await server.call(
            "POST", "/v1/comments", json: ["content": "Hello", "videoId": id, "songId": "1"], token: world.bob
        )
        #expect(both.status == 400)
        // The video's file removed and the folder rescanned, its comments are gone.
        try FileManager.default.removeItem(atPath: world.videos + "/clips/Clip.mkv")
        let report = try await server.rescanVideos(token: world.admin)
        #expect(report["removed"] as? Int == 1, "\(report)")
        #expect(try await server.call("GET", "/v1/comments/\(commentID)").status == 404)
    }

    @Test func aViewCountsAsAClickOncePerViewerIn30Seconds() async throws {
        let world = try await World.start()
        let id = world.ids["Night Clip"]!
        let first = try await world.server.call("GET", "/v1/videos/\(id)")
        #expect(first.data["clicksCount"] as? Int == 1)
        let again = try await world.server.call("GET", "/v1/videos/\(id)")
        #expect(again.data["clicksCount"] as? Int == 1)
        let bob = try await world.server.call("GET", "/v1/videos/\(id)", token: world.bob)
        #expect(bob.data["clicksCount"] as? Int == 2)
        let bobAgain = try await world.server.call("GET", "/v1/videos/\(id)", token: world.bob)
        #expect(bobAgain.data["clicksCount"] as? Int == 2)
        // Written every few seconds: the list (which shows only written counts) catches up.
        let written = try await world.server.waitFor("/v1/videos") { data in
            (data["data"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }?["clicksCount"]
                as? Int == 2
        }
        #expect(written)
        let hot = try await world.server.call("GET", "/v1/videos?order=hot")
        #expect(hot.ids.first == id)
    }

    @Test func streamsTheOriginalWithRangeAndConvertsToMP4() async throws {
        let world = try await World.start()
        let server = world.server
        let mv = world.ids["Alpha One (MV)"]!
        let (status, part, response) = try await server.request(
            "/v1/videos/\(mv)/stream", headers: ["Range": "bytes=0-99"])
        #expect(status == 206)
        #expect(part.count == 100)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "video/mp4")
        #expect(String(decoding: part[4..<8], as: UTF8.self) == "ftyp")

        let clip = world.ids["Night Clip"]!
        let (original, mkv, originalResponse) = try await server.request("/v1/videos/\(clip)/stream")
        #expect(original == 200)
        #expect(originalResponse.value(forHTTPHeaderField: "Content-Type") == "video/x-matroska")
        #expect(mkv.prefix(4) == Data([0x1A, 0x45, 0xDF, 0xA3]))
        let (converted, mp4, convertedResponse) = try await server.request(
            "/v1/videos/\(clip)/stream?format=mp4")
        #expect(converted == 200)
        #expect(convertedResponse.value(forHTTPHeaderField: "Content-Type") == "video/mp4")
        #expect(String(decoding: mp4.prefix(8).suffix(4), as: UTF8.self) == "ftyp")
        // Fragmented, so it plays as it arrives.
        #expect(mp4.range(of: Data("moof".utf8)) != nil)
        let file = temporaryFolder() + "/converted.mp4"
        FileManager.default.createFile(atPath: file, contents: mp4)
        let probe = try VideoMedia.probe(file)
        #expect(probe.videoCodec == "h264" && probe.audioCodec == "aac")
        #expect(probe.width == 240 && probe.height == 320)

        let badOffset = try await server.call("GET", "/v1/videos/\(clip)/stream?format=mp4&timeOffset=-1")
        #expect(badOffset.status == 400)
    }

    @Test func likesAreOnePerPersonAndNeedASignIn() async throws {
        let world = try await World.start()
        let server = world.server
        let id = world.ids["Alpha One (MV)"]!
        let liked = try await server.call("PUT", "/v1/videos/\(id)/like", token: world.bob)
        #expect(liked.status == 200, "\(liked.json)")
        #expect(liked.data["likesCount"] as? Int == 1 && liked.data["liked"] as? Bool == true)
        let twice = try await server.call("PUT", "/v1/videos/\(id)/like", token: world.bob)
        #expect(twice.data["likesCount"] as? Int == 1)
        let byAnn = try await server.call("PUT", "/v1/videos/\(id)/like", token: world.admin)
        #expect(byAnn.data["likesCount"] as? Int == 2)
        let hot = try await server.call("GET", "/v1/videos?order=hot", token: world.bob)
        #expect(hot.ids.first == id)
        #expect(hot.items.first?["liked"] as? Bool == true)
        let unliked = try await server.call("DELETE", "/v1/videos/\(id)/like", token: world.bob)
        #expect(unliked.data["likesCount"] as? Int == 1 && unliked.data["liked"] as? Bool == false)
        let anonymous = try await server.call("PUT", "/v1/videos/\(id)/like")
        #expect(anonymous.status == 401)
        let missing = try await server.call("PUT", "/v1/videos/999999/like", token: world.bob)
        #expect(missing.status == 404)
    }

    @Test func administratorsUploadVideosAndAnythingElseIsRefused() async throws {
        let world = try await World.start()
        let server = world.server
        let (video, audio) = try await offPool {
            let folder = temporaryFolder()
            try makeVideo(folder + "/upload.mov", seconds: 1, title: "Tagged Title")
            try makeTrack(folder + "/song.m4a", title: "Only Audio")
            return (
                try Data(contentsOf: URL(fileURLWithPath: folder + "/upload.mov")),
                try Data(contentsOf: URL(fileURLWithPath: folder + "/song.m4a"))
            )
        }
        let text = try await server.upload(
            "/v1/videos", file: Data("not a video at all".utf8), fileName: "x.mp4", token: world.admin)
        #expect(text.status == 415)
        #expect(text.message.contains("not a video"))
        let sound = try await server.upload(
            "/v1/videos", file: audio, fileName: "song.mp4", token: world.admin)
        #expect(sound.status == 415, "an audio file with a video's name is not a video")
        let notAdmin = try await server.upload(
            "/v1/videos", file: video, fileName: "upload.mov", token: world.bob)
        #expect(notAdmin.status == 403)

        let added = try await server.upload(
            "/v1/videos", file: video, fileName: "upload.mov", token: world.admin)
        #expect(added.status == 201, "\(added.json)")
        #expect(added.data["title"] as? String == "Tagged Title")
        #expect(added.data["icon"] is String)
        let id = try #require(added.data["id"] as? String)
        let again = try await server.upload(
            "/v1/videos", file: video, fileName: "upload.mov", token: world.admin)
        #expect(again.data["id"] as? String == id, "the same content is the same video")
        let list = try await server.call("GET", "/v1/videos")
        #expect(list.data["total"] as? Int == 3)
        #expect(list.ids.first == id)

        let scanned = try await server.call(
            "DELETE", "/v1/videos/\(world.ids["Night Clip"]!)", token: world.admin)
        #expect(scanned.status == 409)
        let byBob = try await server.call("DELETE", "/v1/videos/\(id)", token: world.bob)
        #expect(byBob.status == 403)
        let deleted = try await server.call("DELETE", "/v1/videos/\(id)", token: world.admin)
        #expect(deleted.status == 200)
        let gone = try await server.call("GET", "/v1/videos/\(id)")
        #expect(gone.status == 404)
        let rescan = try await server.rescanVideos(token: world.admin)
        #expect(rescan["added"] as? Int == 0, "an upload never enters a folder scan")
    }

    @Test func rescansAreIncremental() async throws {
        let world = try await World.start()
        let server = world.server
        let unchanged = try await server.rescanVideos(token: world.admin)
        #expect(unchanged["unchanged"] as? Int == 2, "\(unchanged)")
        #expect(unchanged["added"] as? Int == 0 && unchanged["updated"] as? Int == 0)

        try await offPool {
            try makeVideo(
                world.videos + "/Bo - Beta One.webm", seconds: 1,
                codecs: ["-c:v", "libvpx", "-c:a", "libvorbis"])
            try FileManager.default.removeItem(atPath: world.videos + "/clips/Clip.mkv")
        }
        let changed = try await server.rescanVideos(token: world.admin)
        #expect(changed["added"] as? Int == 1 && changed["removed"] as? Int == 1, "\(changed)")
        let list = try await server.call("GET", "/v1/videos")
        #expect(Set(list.items.compactMap { $0["title"] as? String }) == ["Alpha One (MV)", "Beta One"])
        let webm = try #require(list.items.first { $0["title"] as? String == "Beta One" })
        #expect((webm["song"] as? [String: Any])?["title"] as? String == "Beta One")
        #expect(webm["format"] as? String == "webm")
    }
}

/// The demo's videos and the videos folders option.
@Suite struct DemoVideoTests {
    @Test func serveWithoutFoldersServesTheDemosTwoVideosOfItsSongs() async throws {
        let server = try await TestServer.start(.builtInDemo)
        try await server.waitForScan()
        let report = try await server.waitForVideoScan()
        #expect(report["added"] as? Int == 2 && report["failed"] as? Int == 0, "\(report)")
        let list = try await server.call("GET", "/v1/videos")
        #expect(list.data["total"] as? Int == 2)
        let songs = Set(list.items.compactMap { ($0["song"] as? [String: Any])?["title"] as? String })
        #expect(songs == ["霓虹灯下", "Northern Lights"], "\(list.json)")
        #expect(Set(list.items.compactMap { $0["format"] as? String }) == ["mp4", "mkv"])
        for video in list.items {
            #expect(abs((video["duration"] as? Int ?? 0) - 6_000) < 500)
            #expect(video["icon"] is String)
        }
        #expect(server.stop() == 0)
    }

    @Test func videosFoldersComeFromFlagsOrTheEnvironment() throws {
        let environment = ["HOME": "/home/ann", "CLOUDMUSIC_VIDEOS": "/e1:/e2"]
        let (_, fromEnvironment) = try CommandLineParser.parse(["serve"], environment: environment)
        #expect(fromEnvironment.videoFolders == ["/e1", "/e2"])
        let (_, fromFlags) = try CommandLineParser.parse(
            ["--videos", "/a", "--videos=/b"], environment: environment)
        #expect(fromFlags.videoFolders == ["/a", "/b"])
        #expect(CommandLineParser.helpText(version: "1").contains("--videos"))
        #expect(
            LibraryGenerator.demoVideosFolder(forLibrary: "/data/demo-library") == "/data/demo-library-videos"
        )
    }
}

/// The click counter on its own, with a clock the test moves.
@Suite struct ViewerClicksTests {
    @Test func countsOncePerViewerPerWindowAndWritesInBatches() throws {
        let database = try makeLibraryDatabase()
        let clock = TestClock(1_000)
        let counted = LockedCounts()
        let clicks = ViewerClicks(
            database: database, writers: [.song: { _, counts in counted.add(counts) }], clock: { clock.now })
        let ann = ClickViewer.user(1)
        let guest = ClickViewer(userID: nil, address: "10.0.0.1")
        #expect(clicks.view(.song, id: 5, by: ann) == 1)
        clock.now += 29
        #expect(clicks.view(.song, id: 5, by: ann) == 1)
        #expect(clicks.view(.song, id: 5, by: guest) == 2)
        #expect(clicks.view(.video, id: 5, by: ann) == 1, "another kind is another thing")
        clock.now += 1
        #expect(clicks.view(.song, id: 5, by: ann) == 3)
        try clicks.flush()
        #expect(counted.value == [5: 3])
        #expect(clicks.unwritten(.song, id: 5) == 0)
        #expect(clicks.view(.song, id: 5, by: guest) == 0, "within 30 s of the guest's last counted view")
    }

    final class LockedCounts: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [Int64: Int] = [:]
        func add(_ more: [Int64: Int]) { lock.withLock { counts.merge(more, uniquingKeysWith: +) } }
        var value: [Int64: Int] { lock.withLock { counts } }
    }
}
