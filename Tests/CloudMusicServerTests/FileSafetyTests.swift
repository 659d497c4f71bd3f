import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// Files the database names are served only from inside the music and data folders: a scanned file later
/// swapped for a symbolic link to a file outside (an attack through a shared or synced music folder) is
/// never sent, before or after a rescan.
@Suite(.serialized) struct FileSafetyTests {
    /// A music folder with a song, its LRC sidecar and a folder cover, and a secret outside it.
    static func library() throws -> (root: String, secret: String) {
        let root = temporaryFolder()
        try makeTrack(
            root + "/Band/Live/01.mp3", title: "One", artist: "Band", album: "Live", track: 1, seconds: 2)
        FileManager.default.createFile(
            atPath: root + "/Band/Live/01.lrc", contents: Data("[00:00.50]the first line\n".utf8))
        try FFmpeg.installed!.run(
            [
                "-f", "lavfi", "-i", "testsrc=size=300x300:duration=1", "-frames:v", "1",
                root + "/Band/Live/cover.jpg",
            ])
        let secret = temporaryFolder() + "/secret.txt"
        try FileManager.default.createDirectory(
            atPath: (secret as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("root:x:0:0:secret\n".utf8).write(to: URL(fileURLWithPath: secret))
        return (root, secret)
    }

    static func swap(_ path: String, for target: String) throws {
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    static func leaks(_ data: Data) -> Bool { String(decoding: data, as: UTF8.self).contains("root:x:0:0") }

    @Test func aSymlinkSwappedInAfterTheScanIsNeverServed() async throws {
        let (root, secret) = try Self.library()
        let server = try await TestServer.start(.empty, extraArguments: ["--music", root])
        defer { _ = server.stop() }
        try await server.waitForScan()
        let song = try #require(
            ((try await server.json("/v1/songs"))["data"] as? [String: Any])?["data"] as? [[String: Any]]
        ).first
        let songID = try #require(song?["id"] as? String)
        let albumID = try #require((song?["album"] as? [String: Any])?["id"] as? String)
        // Served before the swap.
        #expect(try await server.request("/v1/albums/\(albumID)/cover").0 == 200)
        #expect(try await server.request("/v1/songs/\(songID)/stream").0 == 200)

        try Self.swap(root + "/Band/Live/cover.jpg", for: secret)
        try Self.swap(root + "/Band/Live/01.lrc", for: secret)
        for path in [
            "/v1/albums/\(albumID)/cover", "/v1/albums/\(albumID)/cover?size=256",
            "/v1/songs/\(songID)/cover", "/v1/songs/\(songID)/cover?size=256", "/v1/songs/\(songID)/lyric",
            "/v1/songs/\(songID)",
        ] {
            let (status, body, _) = try await server.request(path)
            #expect(!Self.leaks(body), "\(path) answered \(status) with the file outside the music folder")
        }
        // The song itself, swapped too: neither the original bytes path nor a transcode reads the secret.
        try Self.swap(root + "/Band/Live/01.mp3", for: secret)
        for path in ["/v1/songs/\(songID)/stream", "/v1/songs/\(songID)/stream?format=mp3"] {
            let (status, body, _) = try await server.request(path)
            #expect(status == 404, "\(path) answered \(status)")
            #expect(!Self.leaks(body))
        }

        // A complete rescan skips the links and forgets the folder cover.
        let admin = try await server.signUp(["email": "admin@example.com"], nickname: "Admin")
        _ = admin
        let token = try await server.signIn(["email": "admin@example.com"])
        try await server.rescan(adminToken: token)
        let (coverStatus, coverBody, _) = try await server.request("/v1/albums/\(albumID)/cover")
        #expect(coverStatus == 404 && !Self.leaks(coverBody))
        #expect(try await server.request("/v1/songs/\(songID)").0 == 404)
    }

    @Test func aFolderSwappedForALinkOutsideIsRefusedToo() async throws {
        let (root, secret) = try Self.library()
        let server = try await TestServer.start(.empty, extraArguments: ["--music", root])
        defer { _ = server.stop() }
        try await server.waitForScan()
        let album = try #require(
            ((try await server.json("/v1/albums"))["data"] as? [String: Any])?["data"] as? [[String: Any]]
        ).first
        let albumID = try #require(album?["id"] as? String)
        // The album's folder becomes a link to a folder outside that holds a "cover.jpg" with the secret.
        let outside = (secret as NSString).deletingLastPathComponent
        try FileManager.default.copyItem(atPath: secret, toPath: outside + "/cover.jpg")
        try FileManager.default.moveItem(atPath: root + "/Band/Live", toPath: root + "/Band/.moved")
        try FileManager.default.createSymbolicLink(atPath: root + "/Band/Live", withDestinationPath: outside)
        let (status, body, _) = try await server.request("/v1/albums/\(albumID)/cover")
        #expect(!Self.leaks(body), "the cover answered \(status) with a file outside the music folder")
    }
}
