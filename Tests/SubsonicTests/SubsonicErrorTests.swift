import Foundation
import MusicCore
import ServerTestSupport
import Testing

/// Each Subsonic error code the server uses, in XML and in JSON, always with HTTP 200 and a message a person
/// can act on. (41 and 42 never occur: every app password works as a token base, and every mechanism is
/// supported; 60 is the original server's trial.)
@Suite struct SubsonicErrorTests {
    @Test func eachErrorCodeInXMLAndJSON() async throws {
        let (server, _) = try await SubsonicWorld.shared.server()
        let log = AnswerLog()
        let person = try await SubsonicWorld.shared.newPerson()
        let other = try await SubsonicWorld.shared.newPerson()
        let rest = Rest(server: server, person: person, log: log)
        let theirs = Rest(server: server, person: other, log: log)
        let songs = Rest.ids(try await rest.ok("getRandomSongs", [("size", "2")])["randomSongs"]["song"])
        let shared = try #require(
            try await theirs.ok("createPlaylist", [("name", "Theirs"), ("songId", songs[0])])["playlist"][
                "id"] as? String)
        try await theirs.ok("updatePlaylist", [("playlistId", shared), ("public", "true")])
        let hidden = try #require(
            try await theirs.ok("createPlaylist", [("name", "Hidden")])["playlist"]["id"] as? String)
        func version(_ v: String) -> Auth {
            .parameters([("u", person.nickname), ("p", person.appPassword), ("v", v), ("c", "t")])
        }

        let cases: [(code: Int, method: String, parameters: [(String, String)], auth: Auth)] = [
            (0, "getEverything", [], .password),
            (0, "getAlbumList2", [("type", "newest"), ("size", "ten")], .password),
            (0, "getAlbumList2", [("type", "bestOfTheBest")], .password),
            (0, "setRating", [("id", songs[0]), ("rating", "7")], .password),
            (0, "jukeboxControl", [("action", "status")], .password),
            (0, "scrobble", [("id", songs[0]), ("time", "1"), ("time", "2")], .password),
            (10, "getAlbum", [], .password),
            (10, "getAlbumList2", [("type", "byYear"), ("fromYear", "2000")], .password),
            (10, "ping", [], .parameters([("u", person.nickname), ("p", person.appPassword), ("c", "t")])),
            (10, "savePlayQueueByIndex", [("id", songs[0]), ("currentIndex", "1")], .password),
            (20, "ping", [], version("0.9.0")),
            (30, "ping", [], version("2.0.0")),
            (
                40, "ping", [],
                .parameters([("u", person.nickname), ("p", "not it"), ("v", "1.16.1"), ("c", "t")])
            ),
            (
                43, "ping", [],
                .parameters([
                    ("apiKey", person.appPassword), ("u", person.nickname), ("v", "1.16.1"), ("c", "t"),
                ])
            ),
            (44, "ping", [], .parameters([("apiKey", "nope"), ("v", "1.16.1"), ("c", "t")])),
            (50, "startScan", [], .password),
            (50, "getUser", [("username", other.nickname)], .password),
            (50, "updatePlaylist", [("playlistId", shared), ("name", "Mine now")], .password),
            (50, "getPlaylists", [("username", other.nickname)], .password),
            (70, "getSong", [("id", "tr-999999")], .password),
            (70, "getAlbum", [("id", "abc")], .password),
            (70, "getAlbum", [("id", songs[0])], .password),
            (70, "getPlaylist", [("id", hidden)], .password),
            (70, "getMusicDirectory", [("id", "ar-999999")], .password),
            (70, "star", [("id", "tr-999999")], .password),
            (70, "getArtists", [("musicFolderId", "2")], .password),
        ]
        for json in [false, true] {
            for (code, method, parameters, auth) in cases {
                let reply = try await rest.call(method, parameters, json: json, auth: auth)
                #expect(reply.status == 200, "\(method)")
                if json {
                    #expect(reply.response["status"] as? String == "failed", "\(method) \(parameters)")
                    #expect(reply.errorCode == code, "\(method) \(parameters): \(reply.text)")
                    #expect(reply.errorMessage.count > 10, "\(method): a message a person can act on")
                } else {
                    #expect(reply.xmlErrorCode == code, "\(method) \(parameters): \(reply.text)")
                    #expect(reply.text.contains(#"status="failed""#))
                }
            }
        }
        // Media methods answer errors in the asked format too (clients look at the content type).
        let stream = try await rest.call("stream", [("id", "tr-999999")])
        #expect(stream.contentType.hasPrefix("application/json") && stream.errorCode == 70)
        let cover = try await rest.call("getCoverArt", [("id", "al-999999")], json: false)
        #expect(cover.contentType.hasPrefix("text/xml") && cover.xmlErrorCode == 70)
        // JSONP, and a callback that is not a JavaScript name.
        let jsonp = try await rest.call("ping", [("f", "jsonp"), ("callback", "handle.answer")], json: false)
        #expect(jsonp.contentType.hasPrefix("application/javascript"))
        #expect(jsonp.text.hasPrefix("handle.answer({\"subsonic-response\":") && jsonp.text.hasSuffix("})"))
        let badCallback = try await rest.call(
            "ping", [("f", "jsonp"), ("callback", "alert(1)")], json: false)
        #expect(badCallback.contentType.hasPrefix("application/json") && badCallback.errorCode == 0)
        try await log.validate()
    }
}
