import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Books made by ffmpeg in a folder, served by a real server with `--audiobooks`: a folder of parts in natural
/// order with a cover.jpg, an m4b with three chapters and an embedded cover, a series named by its folder, and a
/// link out of the folder that is refused. Books list as podcasts of the kind `audiobook`; parts are episodes
/// with chapters, streamed from their files with Range; progress on a part is resumed; a rescan adds and
/// removes books.
@Suite struct AudiobookAPITests {
    static func ffmpeg(_ arguments: [String]) throws {
        try FFmpeg.installed!.run(["-v", "error", "-y"] + arguments)
    }

    /// A second of tone as mp3 with tags.
    static func part(_ path: String, seconds: Int = 1, tags: [String: String] = [:]) throws {
        try ffmpeg(
            ["-f", "lavfi", "-i", "sine=d=\(seconds)"]
                + tags.sorted { $0.key < $1.key }.flatMap {
                    ["-metadata", "\($0.key)=\($0.value)"]
                } + ["-c:a", "libmp3lame", "-b:a", "32k", path])
    }

    /// The audiobooks folder of the tests, and a folder outside it that a link points into.
    static func library() throws -> (folder: String, outside: String) {
        let folder = temporaryFolder()
        let outside = temporaryFolder()
        let walk = folder + "/The Long Walk"
        try FileManager.default.createDirectory(atPath: walk, withIntermediateDirectories: true)
        for number in [10, 2, 1] {
            try part(
                walk + "/Part \(number).mp3",
                tags: ["album": "The Long Walk", "artist": "Stephen K", "composer": "Nora Reader"])
        }
        try ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=32x32:d=1", "-frames:v", "1", walk + "/cover.jpg"])
        // An m4b with chapters and an embedded cover.
        try MP4ChaptersTestText.chapters.write(
            toFile: outside + "/chapters.txt", atomically: true, encoding: .utf8)
        try ffmpeg([
            "-f", "lavfi", "-i", "sine=d=6", "-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-i",
            outside + "/chapters.txt", "-map", "0:a", "-map", "1:v", "-frames:v", "1", "-c:v", "png",
            "-disposition:v", "attached_pic", "-map_metadata", "2", "-c:a", "aac", "-b:a", "32k",
            folder + "/Three Body.m4b",
        ])
        let series = folder + "/Expanse 02 - Caliban"
        try FileManager.default.createDirectory(atPath: series, withIntermediateDirectories: true)
        try part(series + "/01.mp3", tags: ["artist": "James C"])
        // A link to a book outside the folder.
        try FileManager.default.createDirectory(
            atPath: outside + "/Secret", withIntermediateDirectories: true)
        try part(outside + "/Secret/1.mp3")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Secret", withDestinationPath: outside + "/Secret")
        return (folder, outside)
    }

    struct World {
        let server: TestServer
        let folder: String
        let admin: String
        let bob: String

        static func start() async throws -> World {
            let (folder, _) = try library()
            let server = try await TestServer.start(
                .empty,
                extraArguments: [
                    "--audiobooks", folder, "--podcast-refresh", "off",
                ])
            _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
            _ = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
            return World(
                server: server, folder: folder, admin: try await server.signIn(["email": "ann@example.com"]),
                bob: try await server.signIn(["email": "bob@example.com"]))
        }

        func books() async throws -> [[String: Any]] {
            let reply = try await server.call("GET", "/v1/podcasts?kind=audiobook&size=50")
            #expect(reply.status == 200, "\(reply.json)")
            return reply.data["data"] as? [[String: Any]] ?? []
        }

        func parts(_ id: String, token: String? = nil) async throws -> [[String: Any]] {
            let reply = try await server.call("GET", "/v1/podcasts/\(id)/episodes?size=50", token: token)
            #expect(reply.status == 200, "\(reply.json)")
            return reply.data["data"] as? [[String: Any]] ?? []
        }
    }

    @Test func booksListWithTheirMetadataPartsChaptersAndCovers() async throws {
        let world = try await World.start()
        defer { _ = world.server.stop() }
        let scan = try await world.server.call("POST", "/v1/audiobooks/scan", token: world.admin)
        #expect(scan.status == 200, "\(scan.json)")
        // The start's scan and this one ran one after the other: together they added the three books.
        let refused = scan.data["failed"] as? [String] ?? []
        #expect(refused.contains { $0.contains("Secret") && $0.contains("outside") }, "\(refused)")
        #expect(try await world.server.call("POST", "/v1/audiobooks/scan", token: world.bob).status == 403)

        let books = try await world.books()
        #expect(Set(books.compactMap { $0["title"] as? String }) == ["The Long Walk", "三体", "Caliban"])
        #expect(books.allSatisfy { $0["kind"] as? String == "audiobook" })
        let podcastsOnly = try await world.server.call("GET", "/v1/podcasts?kind=podcast")
        #expect((podcastsOnly.data["data"] as? [[String: Any]])?.isEmpty == true)

        let walk = try #require(books.first { $0["title"] as? String == "The Long Walk" })
        #expect(walk["author"] as? String == "Stephen K")
        #expect(walk["narrator"] as? String == "Nora Reader")
        #expect(walk["episodesCount"] as? Int == 3)
        let walkID = try #require(walk["id"] as? String)
        let parts = try await world.parts(walkID)
        #expect(parts.compactMap { $0["title"] as? String } == ["Part 1", "Part 2", "Part 10"])
        #expect(parts.allSatisfy { ($0["duration"] as? Int) == 1 })
        let caliban = try #require(books.first { $0["title"] as? String == "Caliban" })
        #expect(caliban["series"] as? String == "Expanse")
        #expect(caliban["seriesPart"] as? Double == 2)

        let body = try #require(books.first { $0["title"] as? String == "三体" })
        #expect(body["author"] as? String == "刘慈欣")
        #expect(body["narrator"] as? String == "冯雪松")
        #expect(body["year"] as? Int == 2008)
        #expect((body["detail"] as? String)?.contains("Earth") == true)
        let bodyID = try #require(body["id"] as? String)
        let bodyPart = try #require(try await world.parts(bodyID).first)
        let partID = try #require(bodyPart["id"] as? String)
        let chapters = try await world.server.call("GET", "/v1/audiobooks/parts/\(partID)/chapters")
        #expect(chapters.status == 200, "\(chapters.json)")
        let list = chapters.data["chapters"] as? [[String: Any]] ?? []
        #expect(list.compactMap { $0["title"] as? String } == ["第一章 开始", "Chapter Two", "Three"])
        #expect(list.compactMap { $0["start"] as? Double }.map { ($0 * 10).rounded() / 10 } == [0, 2, 4.5])
        // The episode page's chapters are the same.
        let episodeChapters = try await world.server.call("GET", "/v1/episodes/\(partID)/chapters")
        #expect((episodeChapters.data["chapters"] as? [[String: Any]])?.count == 3)
        // A folder's part is one chapter: itself.
        let firstPart = try #require(parts.first?["id"] as? String)
        let one = try await world.server.call("GET", "/v1/audiobooks/parts/\(firstPart)/chapters")
        #expect((one.data["chapters"] as? [[String: Any]])?.first?["title"] as? String == "Part 1")
        #expect(try await world.server.call("GET", "/v1/audiobooks/parts/999999/chapters").status == 404)

        // Covers: the folder's picture, the m4b's embedded one; through the podcasts' cover too.
        for id in [walkID, bodyID] {
            let (status, data, response) = try await world.server.request("/v1/audiobooks/\(id)/cover")
            #expect(status == 200)
            #expect(!data.isEmpty)
            #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("image/") == true)
            let (podcastStatus, _, _) = try await world.server.request("/v1/podcasts/\(id)/cover")
            #expect(podcastStatus == 200)
        }
        #expect((body["imageUrl"] as? String) == "v1/audiobooks/\(bodyID)/cover")

        // A part streams from its file, with Range.
        let uri = try #require(bodyPart["uri"] as? String)
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: world.folder + "/Three Body.m4b")[.size] as? Int)
        let (status, part, response) = try await world.server.request(
            "/" + uri, headers: ["Range": "bytes=0-99"])
        #expect(status == 206)
        #expect(part.count == 100)
        #expect(response.value(forHTTPHeaderField: "Content-Range") == "bytes 0-99/\(size)")
        let (whole, all, _) = try await world.server.request("/" + uri)
        #expect(whole == 200)
        #expect(all == (try Data(contentsOf: URL(fileURLWithPath: world.folder + "/Three Body.m4b"))))

        // Books are not refreshed as feeds.
        let refresh = try await world.server.call(
            "POST", "/v1/podcasts/\(bodyID)/refresh", token: world.admin)
        #expect(refresh.status == 400, "\(refresh.json)")
        let all2 = try await world.server.call("POST", "/v1/podcasts/refresh", token: world.admin)
        #expect(all2.data["failed"] as? Int == 0)
    }

    @Test func progressOnAPartIsResumedAndContinueListeningListsIt() async throws {
        let world = try await World.start()
        defer { _ = world.server.stop() }
        _ = try await world.server.call("POST", "/v1/audiobooks/scan", token: world.admin)
        let book = try #require(try await world.books().first { $0["title"] as? String == "The Long Walk" })
        let bookID = try #require(book["id"] as? String)
        let subscribed = try await world.server.call(
            "PUT", "/v1/podcasts/\(bookID)/subscription", token: world.bob)
        #expect(subscribed.data["subscribed"] as? Bool == true)
        let second = try #require(try await world.parts(bookID)[1]["id"] as? String)
        let saved = try await world.server.call(
            "PUT", "/v1/episodes/\(second)/progress", json: ["position": 0.5], token: world.bob)
        #expect(saved.status == 200, "\(saved.json)")
        // Another session of Bob's resumes it.
        let other = try await world.server.signIn(["email": "bob@example.com"])
        let progress = try await world.server.call("GET", "/v1/episodes/\(second)/progress", token: other)
        #expect(progress.data["position"] as? Double == 0.5)
        let resumed = try await world.server.call("GET", "/v1/episodes/continue", token: other)
        let first = try #require((resumed.data["data"] as? [[String: Any]])?.first)
        #expect(first["id"] as? String == second)
        #expect(first["podcastTitle"] as? String == "The Long Walk")
        let page = try await world.parts(bookID, token: other)
        #expect((page[1]["progress"] as? [String: Any])?["position"] as? Double == 0.5)
    }

    @Test func aRescanAddsNewBooksUpdatesChangedOnesAndRemovesGoneOnes() async throws {
        let world = try await World.start()
        defer { _ = world.server.stop() }
        _ = try await world.server.call("POST", "/v1/audiobooks/scan", token: world.admin)
        let again = try await world.server.call("POST", "/v1/audiobooks/scan", token: world.admin)
        #expect(again.data["unchanged"] as? Int == 3, "\(again.json)")
        #expect(again.data["added"] as? Int == 0)

        try FileManager.default.removeItem(atPath: world.folder + "/Expanse 02 - Caliban")
        let added = world.folder + "/Expanse 03 - Abaddon"
        try FileManager.default.createDirectory(atPath: added, withIntermediateDirectories: true)
        try Self.part(added + "/1.mp3", tags: ["album": "Abaddon's Gate"])
        try Self.part(world.folder + "/The Long Walk/Part 11.mp3", tags: ["album": "The Long Walk"])
        let rescan = try await world.server.call("POST", "/v1/audiobooks/scan", token: world.admin)
        #expect(rescan.data["added"] as? Int == 1, "\(rescan.json)")
        #expect(rescan.data["removed"] as? Int == 1)
        #expect(rescan.data["updated"] as? Int == 1)
        #expect(rescan.data["unchanged"] as? Int == 1)
        let books = try await world.books()
        #expect(
            Set(books.compactMap { $0["title"] as? String }) == ["The Long Walk", "三体", "Abaddon's Gate"])
        let abaddon = try #require(books.first { $0["title"] as? String == "Abaddon's Gate" })
        #expect(abaddon["seriesPart"] as? Double == 3)
        let walk = try #require(books.first { $0["title"] as? String == "The Long Walk" })
        let parts = try await world.parts(try #require(walk["id"] as? String))
        #expect(parts.compactMap { $0["title"] as? String } == ["Part 1", "Part 2", "Part 10", "Part 11"])
    }

    @Test func withoutAFolderAScanIsRefusedClearly() async throws {
        let server = try await TestServer.start(.empty)
        defer { _ = server.stop() }
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let admin = try await server.signIn(["email": "ann@example.com"])
        let scan = try await server.call("POST", "/v1/audiobooks/scan", token: admin)
        #expect(scan.status == 503, "\(scan.json)")
        #expect(scan.message.contains("--audiobooks"))
    }
}

/// The chapters of the tests' m4b (as ffmpeg's metadata file), with the book's tags.
enum MP4ChaptersTestText {
    static let chapters = """
        ;FFMETADATA1
        title=三体
        artist=刘慈欣
        composer=冯雪松
        comment=A book about Earth and Trisolaris.
        date=2008
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=2000
        title=第一章 开始
        [CHAPTER]
        TIMEBASE=1/1000
        START=2000
        END=4500
        title=Chapter Two
        [CHAPTER]
        TIMEBASE=1/1000
        START=4500
        END=6000
        title=Three

        """
}
