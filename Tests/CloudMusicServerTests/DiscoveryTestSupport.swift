import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server with a small library of five songs in three genres and three people: Ann (the first, so an
/// administrator), Bob and Cy, for the discovery features (ads, home, categories, versions, terms).
struct DiscoveryWorld {
    let server: TestServer
    /// Song ids by title.
    let songs: [String: String]
    let ann: String
    let bob: String
    let bobID: String
    let cy: String
    let cyID: String

    static let tracks: [(title: String, album: String, genre: String)] = [
        ("Blue One", "Blue", "Jazz"), ("Blue Two", "Blue", "Jazz"), ("Loud One", "Loud", "Rock"),
        ("Louder", "Louder", "Rock"), ("Sweet", "Candy", "Pop"),
    ]

    static func start() async throws -> DiscoveryWorld {
        let music = try await offPool {
            let root = temporaryFolder()
            for (index, track) in tracks.enumerated() {
                try makeTrack(
                    root + "/\(track.album)/\(index + 1).mp3", title: track.title,
                    artist: "Band \(track.album)",
                    album: track.album, track: index + 1, frequency: 300 + index * 110,
                    extra: ["-metadata", "genre=\(track.genre)"])
            }
            return root
        }
        let server = try await TestServer.start(.empty, extraArguments: ["--music", music])
        try await server.waitForScan()
        let list = try await server.call("GET", "/v1/songs?size=100")
        var songs: [String: String] = [:]
        for song in list.items { songs[song["title"] as! String] = song["id"] as? String }
        try #require(songs.count == tracks.count, "\(list.json)")
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let bobID = try await server.signUp(["email": "bob@example.com"], nickname: "Bob")
        let cyID = try await server.signUp(["email": "cy@example.com"], nickname: "Cy")
        return DiscoveryWorld(
            server: server, songs: songs, ann: try await server.signIn(["email": "ann@example.com"]),
            bob: try await server.signIn(["email": "bob@example.com"]), bobID: bobID,
            cy: try await server.signIn(["email": "cy@example.com"]), cyID: cyID)
    }

    /// Sends a multipart form: text `fields` and, when given, one file.
    @discardableResult
    func form(
        _ method: String, _ path: String, fields: [String: String], file: Data?,
        fileName: String = "file.bin",
        token: String?
    ) async throws -> Reply {
        let boundary = "cm-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body.append(
                Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
            body.append(Data(value.utf8))
            body.append(Data("\r\n".utf8))
        }
        if let file {
            body.append(
                Data(
                    ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n"
                        + "Content-Type: application/octet-stream\r\n\r\n").utf8))
            body.append(file)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return try await server.call(
            method, path, body: body, contentType: "multipart/form-data; boundary=\(boundary)", token: token)
    }

    /// Adds an ad as Ann and returns it.
    func ad(
        _ title: String, position: Int, style: Int = 0, file: Data, extra: [String: String] = [:]
    ) async throws -> [String: Any] {
        let reply = try await form(
            "POST", "/v1/admin/ads",
            fields: ["title": title, "position": String(position), "style": String(style)].merging(extra) {
                $1
            },
            file: file, token: ann)
        #expect(reply.status == 201, "\(reply.json)")
        return reply.data
    }

    /// Plays a song as the person with `token`.
    func play(_ title: String, token: String) async throws {
        let reply = try await server.call("POST", "/v1/plays", json: ["songId": songs[title]!], token: token)
        #expect(reply.status == 201, "\(reply.json)")
    }

    /// The home modules as `token` sees them: type, title and item ids (or titles for songs).
    func home(token: String?) async throws -> [(type: String, title: String, items: [[String: Any]])] {
        let reply = try await server.call("GET", "/v1/home", token: token)
        #expect(reply.status == 200, "\(reply.json)")
        return reply.list.map {
            (
                $0["moduleType"] as? String ?? "", $0["title"] as? String ?? "",
                $0["items"] as? [[String: Any]] ?? []
            )
        }
    }
}

/// Media made by ffmpeg for the tests, once per run.
enum TestMedia {
    static let folder = temporaryFolder()

    static func make(_ name: String, _ arguments: [String]) -> Data {
        let path = folder + "/" + name
        if !FileManager.default.fileExists(atPath: path) {
            try! FFmpeg.installed!.run(arguments + [path])
        }
        return try! Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func png(_ color: String = "red", width: Int = 64, height: Int = 32) -> Data {
        make(
            "\(color)-\(width)x\(height).png",
            ["-f", "lavfi", "-i", "color=c=\(color):s=\(width)x\(height)", "-frames:v", "1"])
    }

    /// Two seconds of a test picture with a tone: H.264 and AAC in MP4.
    static var mp4: Data {
        make(
            "clip.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=2", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt",
                "yuv420p",
                "-c:a", "aac", "-shortest",
            ])
    }

    /// Audio alone in an MP4 container: a container the server takes, without a video.
    static var m4a: Data {
        make("tone.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac"])
    }

    /// The signature of an MP4 file followed by bytes that are no video.
    static var fakeMP4: Data {
        Data([0, 0, 0, 0x18]) + Data("ftypisom".utf8) + Data(repeating: 0x41, count: 4_000)
    }
}

/// An ISO 8601 moment `seconds` from now.
func isoMoment(_ seconds: Int) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: Date().addingTimeInterval(TimeInterval(seconds)))
}

/// Waits for `condition` (checked every 100 ms) for at most `seconds`.
func eventually(_ seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(nanoseconds: 100_000_000)
    }
    return try await condition()
}
