import Foundation
import MusicCore
import ServerTestSupport
import Testing

/// Every method `SubsonicAPI` declares, called in XML and in JSON over the real server, each answer checked
/// against the schema (and the JSON by the checks derived from it).
@Suite(.serialized) struct SubsonicMethodTests {
    /// Ids of the demo library, found through the API itself.
    struct Library {
        var artist: String
        var artistName: String
        var album: String
        var songs: [String]
        /// A song with KSC (word-timed) lyrics.
        var karaoke: String
        var genre: String
    }

    static func library(_ rest: Rest) async throws -> Library {
        let found = try await rest.ok("search3", [("query", "雨后彩虹")])
        let karaoke = try #require(Rest.ids(found["searchResult3"]["song"]).first)
        let albums = try await rest.ok("getAlbumList2", [("type", "alphabeticalByName"), ("size", "500")])
        let firstAlbum = try #require(
            (albums["albumList2"]["album"] as? [[String: Any]])?.first {
                $0["name"] as? String == "Northern Lights"
            })
        let album = try await rest.ok("getAlbum", [("id", firstAlbum["id"] as! String)])
        return Library(
            artist: firstAlbum["artistId"] as! String, artistName: firstAlbum["artist"] as! String,
            album: firstAlbum["id"] as! String, songs: Rest.ids(album["album"]["song"]), karaoke: karaoke,
            genre: "Jazz")
    }

    @Test func everyMethodAnswersInXMLAndJSONAsTheSchemaSays() async throws {
        let (server, admin) = try await SubsonicWorld.shared.server()
        let log = AnswerLog()
        let rest = Rest(server: server, person: try await SubsonicWorld.shared.newPerson(), log: log)
        let root = Rest(server: server, person: admin, log: log)
        let library = try await Self.library(rest)
        let songs = library.songs
        try #require(songs.count >= 3)
        let made = try await rest.ok(
            "createPlaylist", [("name", "For the tests")] + songs.prefix(2).map { ("songId", $0) })
        let playlist = try #require(made["playlist"]["id"] as? String)
        let extra = [
            try #require(
                try await rest.ok("createPlaylist", [("name", "To delete, XML")])["playlist"]["id"] as? String
            ),
            try #require(
                try await rest.ok("createPlaylist", [("name", "To delete, JSON")])["playlist"]["id"]
                    as? String),
        ]

        // Two stations to change and remove, one per format.
        for name in ["Radio XML", "Radio JSON"] {
            try await root.ok(
                "createInternetRadioStation",
                [("name", name), ("streamUrl", "https://radio.example.com/live")])
        }
        let listed =
            try await rest.ok("getInternetRadioStations")["internetRadioStations"]["internetRadioStation"]
            as? [[String: Any]] ?? []
        let stations = try ["Radio XML", "Radio JSON"].map { name in
            try #require(listed.first { $0["name"] as? String == name }?["id"] as? String)
        }

        // The calls of each method: one per format, with what it needs.
        var calls: [(method: String, parameters: [(String, String)], admin: Bool)] = [
            ("ping", [], false), ("getLicense", [], false), ("getOpenSubsonicExtensions", [], false),
            ("tokenInfo", [], false), ("getMusicFolders", [], false), ("getIndexes", [], false),
            ("getMusicDirectory", [("id", library.artist)], false),
            ("getMusicDirectory", [("id", library.album)], false),
            ("getGenres", [], false), ("getArtists", [], false),
            ("getArtist", [("id", library.artist)], false),
            ("getAlbum", [("id", library.album)], false), ("getSong", [("id", songs[0])], false),
            ("getArtistInfo", [("id", library.artist)], false), ("getArtistInfo2", [("id", songs[0])], false),
            ("getAlbumInfo", [("id", library.album)], false), ("getAlbumInfo2", [("id", songs[0])], false),
            ("getSimilarSongs", [("id", library.artist), ("count", "5")], false),
            ("getSimilarSongs2", [("id", library.album), ("count", "5")], false),
            ("getTopSongs", [("artist", library.artistName)], false),
            ("getTopSongs", [("id", library.artist), ("count", "2")], false),
            ("star", [("id", songs[0]), ("albumId", library.album), ("artistId", library.artist)], false),
            ("setRating", [("id", library.album), ("rating", "5")], false),
            ("setRating", [("id", songs[0]), ("rating", "3")], false),
            ("scrobble", [("id", songs[0]), ("submission", "true")], false),
            ("scrobble", [("id", songs[1]), ("submission", "false")], false),
            ("getNowPlaying", [], false),
            ("getRandomSongs", [("size", "3")], false),
            ("getSongsByGenre", [("genre", library.genre)], false),
            ("getStarred", [], false), ("getStarred2", [], false),
            ("search2", [("query", "雨")], false), ("search3", [("query", "rain")], false),
            ("search3", [("query", ""), ("songCount", "5")], false),
            ("getPlaylists", [], false), ("getPlaylist", [("id", playlist)], false),
            ("createPlaylist", [("playlistId", playlist)] + songs.map { ("songId", $0) }, false),
            (
                "updatePlaylist",
                [("playlistId", playlist), ("comment", "road trip"), ("songIndexToRemove", "0")], false
            ),
            ("getLyrics", [("artist", "Mika"), ("title", "3 A.M.")], false),
            ("getLyricsBySongId", [("id", library.karaoke)], false),
            ("getLyricsBySongId", [("id", library.karaoke), ("enhanced", "true")], false),
            ("createBookmark", [("id", songs[1]), ("position", "61500"), ("comment", "the chorus")], false),
            ("getBookmarks", [], false), ("deleteBookmark", [("id", songs[1])], false),
            (
                "savePlayQueue", songs.map { ("id", $0) } + [("current", songs[1]), ("position", "1200")],
                false
            ),
            ("getPlayQueue", [], false),
            ("savePlayQueueByIndex", [("id", songs[0]), ("id", songs[0]), ("currentIndex", "1")], false),
            ("getPlayQueueByIndex", [], false), ("getUser", [("username", rest.person.nickname)], false),
            ("getScanStatus", [], false), ("startScan", [], true), ("getShares", [], false),
            ("getUsers", [], false), ("getUsers", [], true), ("getInternetRadioStations", [], false),
            (
                "createInternetRadioStation",
                [("name", "Lo-fi"), ("streamUrl", "http://stream.example.org:8000/lofi.mp3")], true
            ),
            ("unstar", [("id", songs[0])], false),
        ]
        for type in [
            "random", "newest", "highest", "frequent", "recent", "alphabeticalByName", "alphabeticalByArtist",
            "starred",
        ] {
            calls.append(("getAlbumList", [("type", type), ("size", "3")], false))
            calls.append(("getAlbumList2", [("type", type), ("size", "3")], false))
        }
        calls.append(
            ("getAlbumList2", [("type", "byYear"), ("fromYear", "2023"), ("toYear", "2018")], false))
        calls.append(("getAlbumList", [("type", "byGenre"), ("genre", "Jazz")], false))
        for json in [false, true] {
            for (method, parameters, asAdmin) in calls {
                let declared = try #require(SubsonicAPI.method(named: method), "\(method) is not declared")
                let reply = try await (asAdmin ? root : rest).call(method, parameters, json: json)
                #expect(reply.status == 200)
                if json {
                    #expect(reply.contentType.hasPrefix("application/json"), "\(method)")
                    #expect(reply.isOK, "\(method): \(reply.text.prefix(300))")
                    if case .document(let payload?) = declared.answer {
                        #expect(reply.response[payload] != nil, "\(method) answers without \(payload)")
                    } else {
                        #expect(
                            Set(reply.response.keys) == [
                                "status", "version", "type", "serverVersion", "openSubsonic",
                            ])
                    }
                } else {
                    #expect(reply.contentType == "text/xml; charset=utf-8", "\(method)")
                    #expect(reply.text.contains(#"status="ok""#), "\(method): \(reply.text.prefix(300))")
                    if case .document(let payload?) = declared.answer {
                        #expect(reply.text.contains("<\(payload)"), "\(method) answers without <\(payload)>")
                    }
                }
            }
            let station = stations[json ? 1 : 0]
            for (method, parameters) in [
                (
                    "updateInternetRadioStation",
                    [
                        ("id", station), ("name", "Renamed"), ("streamUrl", "https://radio.example.com/new"),
                        ("homepageUrl", "https://radio.example.com"),
                    ]
                ), ("deleteInternetRadioStation", [("id", station)]),
            ] {
                let reply = try await root.call(method, parameters, json: json)
                #expect(json ? reply.isOK : reply.text.contains(#"status="ok""#), "\(method): \(reply.text)")
            }
            let deleted = try await rest.call("deletePlaylist", [("id", extra[json ? 1 : 0])], json: json)
            #expect(json ? deleted.isOK : deleted.text.contains(#"status="ok""#))
        }
        // Every method that answers a document was called (media methods have tests of their own; the podcast
        // methods need a feed origin, so SubsonicPodcastTests calls them, its answers validated the same way).
        let called = Set(
            calls.map(\.method) + [
                "deletePlaylist", "updateInternetRadioStation", "deleteInternetRadioStation",
            ] + SubsonicPodcastTests.methods)
        let documents = SubsonicAPI.methods.filter { $0.unsupported == nil && $0.answer != .media }.map(
            \.name)
        #expect(Set(documents).subtracting(called).sorted() == [], "methods without a test call")
        try await log.validate()
    }

    @Test func unsupportedMethodsSayItInTheEnvelope() async throws {
        let (server, _) = try await SubsonicWorld.shared.server()
        let log = AnswerLog()
        let rest = Rest(server: server, person: try await SubsonicWorld.shared.newPerson(), log: log)
        let unsupported = SubsonicAPI.methods.filter { $0.unsupported != nil }
        #expect(unsupported.map(\.name).contains("jukeboxControl"))
        #expect(!unsupported.map(\.name).contains("getPodcasts"))
        #expect(unsupported.map(\.name).contains("getChatMessages"))
        #expect(unsupported.map(\.name).contains("createUser"))
        for method in unsupported {
            let reply = try await rest.call(method.name)
            #expect(reply.errorCode == 0, "\(method.name)")
            #expect(reply.errorMessage == method.unsupported, "\(method.name)")
            let xml = try await rest.call(method.name, json: false)
            #expect(xml.xmlErrorCode == 0, "\(method.name)")
        }
        try await log.validate()
    }
}
