import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// Bad input gets a sentence that names what to change; what was found by the outside probe stays fixed.
@Suite(.serialized) struct BadInputTests {
    /// A server on a small library with Ann signed in: the server, her token and the first song's id.
    static func libraryWithAnn() async throws -> (TestServer, String, String) {
        let root = try LibraryAPITests.library()
        let server = try await TestServer.start(.empty, extraArguments: ["--music", root])
        try await server.waitForScan()
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let ann = try await server.signIn(["email": "ann@example.com"])
        let songs = try await server.call("GET", "/v1/songs")
        return (server, ann, try #require(songs.items.first?["id"] as? String))
    }

    @Test func wrongTypesAndValuesNameTheFieldAndWhatItTakes() async throws {
        let (server, ann, id) = try await Self.libraryWithAnn()
        defer { _ = server.stop() }

        for (body, message) in [
            (#"{"songIds":["\#(id)"],"position":1.5}"#, "The field 'position' should be a whole number."),
            (#"{"songIds":["\#(id)"],"position":"12"}"#, "The field 'position' should be a whole number."),
            (#"{"songIds":["\#(id)"],"position":1e30}"#, "The field 'position' should be a whole number."),
            (#"{"songIds":"\#(id)"}"#, "The field 'songIds' should be a list."),
            (
                #"{"songIds":["\#(id)"],"loopMode":"zigzag"}"#,
                "The field 'loopMode' must be one of: list, single, shuffle."
            ),
            (#"{"songIds":["\#(id)"],"#, "The request body is not valid JSON."),
        ] {
            let reply = try await server.call("PUT", "/v1/queue", body: Data(body.utf8), token: ann)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.message == message, "\(body)")
        }
        let code = try await server.call(
            "POST", "/v1/codes", json: ["email": "bob@example.com", "purpose": "nope"])
        #expect(code.message == "The field 'purpose' must be one of: login, reset, register.")

        // Numbers in the address are written as JSON writes them: 0x10 is not sixteen seconds, 1e2 is a hundred.
        for offset in ["0x10", "inf", "-1", "86401", "1e5", "1e"] {
            let (status, body, _) = try await server.request("/v1/songs/\(id)/stream?timeOffset=\(offset)")
            #expect(status == 400, "timeOffset=\(offset)")
            #expect(String(decoding: body, as: UTF8.self).contains("decimal number from 0 to 86400"))
        }
        #expect(try await server.request("/v1/songs/\(id)/stream?timeOffset=1.5&format=mp3").0 == 200)
        #expect(try await server.request("/v1/songs/\(id)/stream?timeOffset=1e0&format=mp3").0 == 200)
    }

    @Test func idsAndBoundsInABodyAreCheckedBeforeAnyHandlerAndNothingIsStored() async throws {
        let (server, ann, id) = try await Self.libraryWithAnn()
        defer { _ = server.stop() }
        let sheet = try await server.call("POST", "/v1/sheets", json: ["title": "Mine"], token: ann)
        let sheetID = try #require(sheet.data["id"] as? String)

        let many = (1...1_001).map { "\"\($0)\"" }.joined(separator: ",")
        for (body, message) in [
            (
                #"{"songIds":["abc"]}"#,
                "The field 'songIds[0]' must be an id (digits, as the API gives them)."
            ),
            (
                #"{"songIds":["\#(id)","0\#(id)"]}"#,
                "The field 'songIds[1]' must be an id (digits, as the API gives them)."
            ),
            (#"{"songIds":[\#(id)]}"#, "The field 'songIds[0]' should be a string."),
            (#"{"songIds":[]}"#, "Name at least one song in 'songIds'."),
            (#"{"songIds":[\#(many)]}"#, "Send at most 1000 songs at a time."),
        ] {
            let reply = try await server.call(
                "POST", "/v1/sheets/\(sheetID)/relations", body: Data(body.utf8), token: ann)
            #expect(reply.status == 400, "\(body.prefix(40))")
            #expect(reply.message == message, "\(body.prefix(40))")
        }
        let stored = try await server.call("GET", "/v1/sheets/\(sheetID)", token: ann)
        #expect(stored.data["songsCount"] as? Int == 0)

        // A person, a comment's target and a moment's text: each refused at the edge, in the field's words.
        let follow = try await server.call("POST", "/v1/friends", json: ["userId": "me"], token: ann)
        #expect(follow.status == 400)
        #expect(follow.message == "The field 'userId' must be an id (digits, as the API gives them).")
        let comment = try await server.call(
            "POST", "/v1/comments", json: ["content": "Hi", "songId": "1 OR 1=1"], token: ann)
        #expect(comment.status == 400)
        #expect(comment.message == "The field 'songId' must be an id (digits, as the API gives them).")
        let moment = try await server.call(
            "POST", "/v1/feeds", json: ["content": String(repeating: "字", count: 2_001)], token: ann)
        #expect(moment.status == 400)
        #expect(moment.message == "A moment can be at most 2000 characters; this one has 2001.")
        let images = (0..<10).map { _ in ["uri": "/v1/files/x.jpg"] }
        let crowded = try await server.call("POST", "/v1/feeds", json: ["images": images], token: ann)
        #expect(crowded.status == 400)
        #expect(crowded.message == "A moment can have at most 9 pictures.")
        let feeds = try await server.call("GET", "/v1/feeds", token: ann)
        #expect(feeds.items.isEmpty)
    }

    @Test func aPNGFolderCoverIsSentAsPNG() async throws {
        let root = temporaryFolder()
        try makeTrack(
            root + "/Band/Live/01.mp3", title: "One", artist: "Band", album: "Live", track: 1, seconds: 2)
        try FFmpeg.installed!.run(
            [
                "-f", "lavfi", "-i", "testsrc=size=300x300:duration=1", "-frames:v", "1",
                root + "/Band/Live/cover.png",
            ])
        let server = try await TestServer.start(.empty, extraArguments: ["--music", root])
        defer { _ = server.stop() }
        try await server.waitForScan()
        let songs = try await server.call("GET", "/v1/songs")
        let song = try #require(songs.items.first)
        let songID = try #require(song["id"] as? String)
        let albumID = try #require((song["album"] as? [String: Any])?["id"] as? String)
        for path in ["/v1/songs/\(songID)/cover", "/v1/albums/\(albumID)/cover"] {
            let (status, body, response) = try await server.request(path)
            #expect(status == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/png", "\(path)")
            #expect(body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        // A resized copy is a JPEG, and says so.
        let (_, small, response) = try await server.request("/v1/albums/\(albumID)/cover?size=64")
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(small.starts(with: [0xFF, 0xD8]))
    }
}
