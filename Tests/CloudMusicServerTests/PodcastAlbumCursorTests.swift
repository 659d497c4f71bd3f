import Foundation
import HTTPServer
import MusicCore
import OriginTestSupport
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// The album page by key (`cursor` in, `nextCursor` out) over the real server: episodes sharing a date and
/// episodes without one, in both orders, walked by cursor and by number to the same sequence with the same
/// page numbers; a cursor of another podcast or order, or one altered by hand, refused with a 400 that says so.
@Suite struct PodcastAlbumCursorTests {
    /// 13 dated episodes, three or four to a date (ties broken by id), and two without a date: 15 in all.
    static func feed(title: String, origin: FeedOrigin) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let audio = origin.url("/bytes?size=1000").absoluteString.replacingOccurrences(of: "&", with: "&amp;")
        let items = (0..<15).map { n in
            // Episodes 4 and 9 have no date; the others share a date with two or three more.
            let date =
                n == 4 || n == 9
                ? ""
                : "<pubDate>\(formatter.string(from: start.addingTimeInterval(Double(n / 4) * 86_400)))</pubDate>"
            return """
                <item><guid isPermaLink="false">e\(n)</guid><title>E\(n)</title>\(date)
                <enclosure url="\(audio)" type="audio/mpeg" length="1000"/></item>
                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>\(title)</title><link>https://example.com/</link>
            <description>Ties</description>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """
    }

    /// One album page's episodes (title, date, id) and its list fields.
    struct Listed {
        var titles: [String]
        var keys: [(date: String?, id: Int)]
        var page: Int?
        var next: Int?
        var nextCursor: String?
        var total: Int?
    }

    static func page(_ server: TestServer, _ path: String) async throws -> Listed {
        let reply = try await server.call("GET", path)
        try #require(reply.status == 200, "\(path): \(reply.json)")
        let items = reply.data["data"] as? [[String: Any]] ?? []
        return Listed(
            titles: items.map { $0["title"] as? String ?? "" },
            keys: items.map { ($0["publishedAt"] as? String, Int($0["id"] as? String ?? "") ?? 0) },
            page: reply.data["page"] as? Int, next: reply.data["next"] as? Int,
            nextCursor: reply.data["nextCursor"] as? String, total: reply.data["total"] as? Int)
    }

    static func add(_ world: PodcastAPITests.World, title: String) async throws -> String {
        let url = try world.origin.put(
            "ties-\(UUID().uuidString).xml", feed(title: title, origin: world.origin))
        let added = try await world.add(url)
        try #require(added.status == 201, "\(added.json)")
        return try #require(added.data["id"] as? String)
    }

    @Test func cursorsWalkTheAlbumAsPagesDoWithTiesAndUndatedEpisodesInBothOrders() async throws {
        let world = try await PodcastAPITests.World.start()
        let id = try await Self.add(world, title: "Ties")
        for sort in ["newest", "oldest"] {
            // Size 1 and 2 end pages on undated episodes (a key without a date) in both orders; 15 episodes in
            // pages of 4 end short, in pages of 5 full (and then no empty page follows).
            for size in [1, 2, 4, 5] {
                var byNumber: [Listed] = []
                for number in 1...((15 + size - 1) / size) {
                    byNumber.append(
                        try await Self.page(
                            world.server,
                            "/v1/podcasts/\(id)/episodes?sort=\(sort)&size=\(size)&page=\(number)"))
                }
                var byCursor = [
                    try await Self.page(world.server, "/v1/podcasts/\(id)/episodes?sort=\(sort)&size=\(size)")
                ]
                while let cursor = byCursor.last?.nextCursor, byCursor.count <= 40 {
                    byCursor.append(
                        try await Self.page(
                            world.server,
                            "/v1/podcasts/\(id)/episodes?sort=\(sort)&size=\(size)&cursor=\(cursor)"))
                }
                #expect(byCursor.map(\.titles) == byNumber.map(\.titles), "\(sort) \(size)")
                #expect(byCursor.map(\.page) == byNumber.map(\.page), "\(sort) \(size)")
                #expect(byCursor.map(\.next) == byNumber.map(\.next), "\(sort) \(size)")
                #expect(byCursor.map(\.page) == Array(1...byNumber.count).map { Optional($0) })
                #expect(byCursor.allSatisfy { $0.total == 15 })
                // The last page has no cursor even when it is full; every other page has one.
                #expect(
                    byCursor.last?.nextCursor == nil
                        && byCursor.dropLast().allSatisfy { $0.nextCursor != nil })

                let titles = byCursor.flatMap(\.titles)
                #expect(Set(titles).count == 15 && titles.count == 15, "\(sort) \(size): \(titles)")
                // The order: by date then id, undated episodes first oldest-first and last newest-first.
                let keys = byCursor.flatMap(\.keys)
                let undated = keys.filter { $0.date == nil }.map(\.id)
                let dated = keys.filter { $0.date != nil }
                #expect(undated.count == 2)
                if sort == "oldest" {
                    #expect(keys.prefix(2).map(\.id) == undated && undated == undated.sorted())
                    #expect(
                        dated.map { "\($0.date!) \(String(format: "%09d", $0.id))" }
                            == dated.map { "\($0.date!) \(String(format: "%09d", $0.id))" }.sorted())
                } else {
                    #expect(keys.suffix(2).map(\.id) == undated && undated == undated.sorted(by: >))
                    let texts = dated.map { "\($0.date!) \(String(format: "%09d", $0.id))" }
                    #expect(texts == texts.sorted(by: >))
                }
            }
        }
        // Ties really are there: four episodes on the first day.
        let oldest = try await Self.page(world.server, "/v1/podcasts/\(id)/episodes?sort=oldest&size=20")
        #expect(Set(oldest.keys.compactMap(\.date)).count == 4)
    }

    @Test func cursorsOfAnotherAlbumOrOrderOrAlteredByHandAreRefused() async throws {
        let world = try await PodcastAPITests.World.start()
        let server = world.server
        let one = try await Self.add(world, title: "One")
        let two = try await Self.add(world, title: "Two")
        let first = try await Self.page(server, "/v1/podcasts/\(one)/episodes?size=4")
        let cursor = try #require(first.nextCursor)

        func refused(_ path: String, saying words: String) async throws {
            let reply = try await server.call("GET", path)
            #expect(reply.status == 400, "\(path): \(reply.json)")
            #expect((reply.json["status"] as? Int ?? 0) != 0)
            #expect(reply.message.contains(words), "\(path): \(reply.message)")
        }
        try await refused(
            "/v1/podcasts/\(two)/episodes?size=4&cursor=\(cursor)", saying: "another podcast")
        try await refused(
            "/v1/podcasts/\(one)/episodes?sort=oldest&size=4&cursor=\(cursor)", saying: "newest-first")
        // Another offset (page number) or another key, with the signature left as it was.
        var parts = cursor.split(separator: ".").map(String.init)
        parts[2] = "400"
        try await refused(
            "/v1/podcasts/\(one)/episodes?size=4&cursor=\(parts.joined(separator: "."))",
            saying: "not one this server")
        parts = cursor.split(separator: ".").map(String.init)
        parts[4] = String((Int(parts[4]) ?? 0) + 1)
        try await refused(
            "/v1/podcasts/\(one)/episodes?size=4&cursor=\(parts.joined(separator: "."))",
            saying: "not one this server")
        try await refused("/v1/podcasts/\(one)/episodes?cursor=12.n.4.x", saying: "nextCursor")
        try await refused("/v1/podcasts/\(one)/episodes?cursor=%27%3B--", saying: "nextCursor")
        // The cursor as it was given still opens page 2.
        let second = try await Self.page(server, "/v1/podcasts/\(one)/episodes?size=4&cursor=\(cursor)")
        #expect(second.page == 2 && second.next == 3 && second.titles.count == 4)
        #expect(Set(second.titles).isDisjoint(with: first.titles))
    }

    @Test func aCursorPageIsWrittenAsJSONEncoderWouldWriteIt() throws {
        let episode = PodcastEpisode(
            id: "7", podcastId: "3", podcastTitle: "Show", title: "E", detail: "", publishedAt: nil,
            duration: nil,
            uri: "v1/episodes/7/stream", enclosureUrl: "https://example.com/a.mp3", enclosureType: nil,
            enclosureLength: nil, season: nil, episode: nil, chaptersUrl: nil, transcriptUrl: nil,
            imageUrl: nil,
            downloaded: false, progress: nil, createdAt: "2026-12-01T00:00:00Z",
            updatedAt: "2026-12-01T00:00:00Z")
        for (page, cursor) in [(1, "3.n.20.1767225600.9.ab" as String?), (2, nil)] {
            let value = EpisodePage(data: [episode], total: 21, page: page, size: 20, nextCursor: cursor)
            var writer = JSONWriter()
            value.writeJSON(to: &writer)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(
                String(decoding: writer.bytes, as: UTF8.self)
                    == String(decoding: try encoder.encode(value), as: UTF8.self))
        }
    }
}
