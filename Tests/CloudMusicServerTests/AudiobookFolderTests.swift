import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// Books in disc folders (CD1/CD2, "Disc 1", "Part 2"): one book, its parts in disc then file order, naturally
/// sorted, a disc folder linking out of the audiobooks folder refused. Files are made by ffmpeg and served by a
/// real server.
@Suite struct AudiobookFolderTests {
    @Test func discFoldersAreKnownByTheirNames() {
        for disc in [
            "CD1", "cd 02", "Disc 1", "disc_3", "Disk2", "Part 2", "Vol. 4", "01", "7 - The End", "第2卷",
        ] {
            #expect(AudiobookScanner.isDiscName(disc), "\(disc)")
        }
        for other in ["Extras", "Book 1", "2001 A Space Odyssey", "卷三", "Covers", "CDs"] {
            #expect(!AudiobookScanner.isDiscName(other), "\(other)")
        }
    }

    @Test func aBookFolderWithDiscFoldersIsOneBookWithItsPartsInDiscOrder() throws {
        let folder = temporaryFolder()
        let outside = temporaryFolder()
        let book = folder + "/Nested"
        let files = [
            "CD10/01.mp3", "CD2/10.mp3", "CD2/2.mp3", "CD1/01.mp3", "CD1/02.mp3", "Extras/bonus.mp3",
            "CD1/cover.jpg",
        ]
        for file in files {
            let path = book + "/" + file
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(file.utf8).write(to: URL(fileURLWithPath: path))
        }
        // A disc folder that links out of the audiobooks folder is refused like a file that does.
        try FileManager.default.createDirectory(atPath: outside + "/CD3", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: outside + "/CD3/1.mp3"))
        try FileManager.default.createSymbolicLink(
            atPath: book + "/CD3", withDestinationPath: outside + "/CD3")
        let scanner = try #require(AudiobookScanner(folder: folder))
        let (books, failed) = scanner.find()
        #expect(books.map(\.key) == ["Nested"])
        #expect(
            books.first?.parts == [
                "Nested/CD1/01.mp3", "Nested/CD1/02.mp3", "Nested/CD2/2.mp3", "Nested/CD2/10.mp3",
                "Nested/CD10/01.mp3",
            ])
        #expect(books.first?.cover == "Nested/CD1/cover.jpg")
        #expect(
            failed.count == 1 && failed.allSatisfy { $0.contains("outside the audiobooks folder") },
            "\(failed)")
        // A cover beside the discs wins over one inside a disc.
        try Data("jpg".utf8).write(to: URL(fileURLWithPath: book + "/folder.jpg"))
        #expect(scanner.find().books.first?.cover == "Nested/folder.jpg")
        #expect(AudiobookScanner.partName("Nested/CD2/10.mp3") == "CD2 · 10")
        #expect(AudiobookScanner.partName("Nested/10.mp3") == "10")
    }

    struct World {
        let server: TestServer
        let folder: String
        let admin: String
        let bob: String

        /// A server on a folder of two books: "Nested" in disc folders, and "Plain".
        static func start() async throws -> World {
            let folder = temporaryFolder()
            let nested = folder + "/Nested"
            for (disc, file, title) in [
                ("Disc 2", "1.mp3", "Two One"), ("Disc 1", "2.mp3", "One Two"),
                ("Disc 1", "1.mp3", "One One"),
                ("Disc 10", "1.mp3", "Ten One"), ("Disc 1", "10.mp3", "One Ten"),
            ] {
                try FileManager.default.createDirectory(
                    atPath: nested + "/" + disc, withIntermediateDirectories: true)
                try AudiobookAPITests.part(
                    nested + "/\(disc)/\(file)",
                    tags: ["album": "Nested Book", "artist": "A", "title": title])
            }
            try FileManager.default.createDirectory(
                atPath: folder + "/Plain", withIntermediateDirectories: true)
            try AudiobookAPITests.part(folder + "/Plain/1.mp3", tags: ["album": "Plain Book"])
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

        func scan() async throws -> Reply {
            let reply = try await server.call("POST", "/v1/audiobooks/scan", token: admin)
            #expect(reply.status == 200, "\(reply.json)")
            return reply
        }

        /// The books by title, with their ids.
        func books() async throws -> [String: String] {
            let reply = try await server.call("GET", "/v1/podcasts?kind=audiobook&size=50")
            var books: [String: String] = [:]
            for book in reply.data["data"] as? [[String: Any]] ?? [] {
                books[book["title"] as? String ?? ""] = book["id"] as? String
            }
            return books
        }
    }

    @Test func nestedPartsListInDiscOrderAndStreamFromTheirFiles() async throws {
        let world = try await World.start()
        defer { _ = world.server.stop() }
        _ = try await world.scan()
        let id = try #require(try await world.books()["Nested Book"])
        for sort in ["newest", "oldest"] {  // A book's parts are in their order whatever the sort.
            let reply = try await world.server.call("GET", "/v1/podcasts/\(id)/episodes?size=2&sort=\(sort)")
            var titles = (reply.data["data"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            var cursor = reply.data["nextCursor"] as? String
            while let next = cursor {
                let page = try await world.server.call(
                    "GET", "/v1/podcasts/\(id)/episodes?size=2&sort=\(sort)&cursor=\(next)")
                #expect(page.status == 200, "\(page.json)")
                titles += (page.data["data"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
                cursor = page.data["nextCursor"] as? String
            }
            #expect(titles == ["One One", "One Two", "One Ten", "Two One", "Ten One"], "\(sort)")
        }
        let parts = try await world.server.call("GET", "/v1/podcasts/\(id)/episodes?size=10")
        let last = try #require((parts.data["data"] as? [[String: Any]])?.last)
        let uri = try #require(last["uri"] as? String)
        let (status, bytes, _) = try await world.server.request("/" + uri)
        #expect(status == 200)
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: world.folder + "/Nested/Disc 10/1.mp3"))))
    }
}
