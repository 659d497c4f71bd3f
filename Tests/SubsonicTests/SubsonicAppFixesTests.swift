import Foundation
import MusicCore
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the popular apps call and what they send (issue 26): internet radio and getUsers, the scan status for
/// everyone, CORS, counts clamped, app passwords typed any way, big play queues, refusals of the HTTP layer in
/// the envelope, "I like" and now playing kept private, covers kept by caches.
@Suite struct SubsonicAppFixesTests {
    static func world(log: AnswerLog? = nil) async throws -> (Rest, Rest, TestServer) {
        let (server, admin) = try await SubsonicWorld.shared.server()
        let rest = Rest(server: server, person: try await SubsonicWorld.shared.sharedPerson(), log: log)
        return (rest, Rest(server: server, person: admin, log: log), server)
    }

    @Test func internetRadioIsWrittenByAdministratorsAndReadByEveryone() async throws {
        let log = AnswerLog()
        let (rest, admin, _) = try await Self.world(log: log)
        #expect(
            try await rest.call(
                "createInternetRadioStation",
                [("name", "Mine"), ("streamUrl", "https://radio.example.com/a")]
            ).errorCode == 50)
        try await admin.ok(
            "createInternetRadioStation",
            [
                ("name", "Jazz FM test"), ("streamUrl", "https://jazz.example.com/stream.mp3"),
                ("homepageUrl", "https://jazz.example.com"),
            ])
        let stations =
            try await rest.ok("getInternetRadioStations")["internetRadioStations"][
                "internetRadioStation"] as? [[String: Any]] ?? []
        let jazz = try #require(stations.first { $0["name"] as? String == "Jazz FM test" })
        #expect(jazz["streamUrl"] as? String == "https://jazz.example.com/stream.mp3")
        #expect(jazz["homePageUrl"] as? String == "https://jazz.example.com")
        #expect((jazz["id"] as? String)?.hasPrefix("ra-") == true)
        // Addresses the apps would fetch on the listener's own network, or that are no web address, are refused.
        for address in [
            "http://127.0.0.1:8080/x", "http://192.168.1.10/live", "http://[::1]/x", "file:///etc/passwd",
            "http://localhost/x", "https://user:secret@radio.example.com/x", "not an address",
        ] {
            let refused = try await admin.call(
                "createInternetRadioStation", [("name", "Bad"), ("streamUrl", address)])
            #expect(refused.errorCode == 0, "\(address)")
        }
        // Its name is written text like any other: no text-direction controls.
        let posing = try await admin.call(
            "createInternetRadioStation",
            [("name", "FM\u{202E}3pm"), ("streamUrl", "https://radio.example.com/b")])
        #expect(posing.errorCode == 0 && posing.errorMessage.contains("text-direction"))
        #expect(
            try await admin.call(
                "updateInternetRadioStation",
                [("id", "ra-999999"), ("name", "x"), ("streamUrl", "https://radio.example.com/x")]
            ).errorCode == 70)
        try await admin.ok("deleteInternetRadioStation", [("id", jazz["id"] as! String)])
        #expect(
            try await rest.ok("getInternetRadioStations")["internetRadioStations"]["internetRadioStation"]
                .map { Rest.ids($0) }?.contains(jazz["id"] as! String) != true)
        try await log.validate()
    }

    @Test func getUsersIsOneselfUnlessAdministrator() async throws {
        let log = AnswerLog()
        let (rest, admin, _) = try await Self.world(log: log)
        let mine = try await rest.ok("getUsers")["users"]["user"] as? [[String: Any]] ?? []
        #expect(mine.map { $0["username"] as? String } == [rest.person.nickname])
        let everyone = try await admin.ok("getUsers")["users"]["user"] as? [[String: Any]] ?? []
        #expect(everyone.count >= 2)
        #expect(everyone.contains { $0["username"] as? String == rest.person.nickname })
        #expect(
            everyone.contains {
                $0["username"] as? String == admin.person.nickname && $0["adminRole"] as? Bool == true
            })
        try await log.validate()
    }

    @Test func scanStatusIsForEveryoneAndStartingAScanForAdministrators() async throws {
        let (rest, _, _) = try await Self.world()
        let status = try await rest.ok("getScanStatus")
        #expect(status["scanStatus"]["scanning"] is Bool)
        #expect((status["scanStatus"]["count"] as? Int ?? 0) > 0)
        #expect(try await rest.call("startScan").errorCode == 50)
    }

    @Test func anyWebPageMayCallRest() async throws {
        let (rest, _, server) = try await Self.world()
        let ping = try await rest.call("ping", headers: ["Origin": "https://feishin.example.com"])
        #expect(ping.headers["access-control-allow-origin"] == "*")
        let failed = try await rest.call("getAlbum", headers: ["Origin": "https://feishin.example.com"])
        #expect(failed.errorCode == 10 && failed.headers["access-control-allow-origin"] == "*")
        var preflight = URLRequest(url: server.baseURL.appendingPathComponent("rest/stream.view"))
        preflight.httpMethod = "OPTIONS"
        preflight.setValue("https://feishin.example.com", forHTTPHeaderField: "Origin")
        preflight.setValue("GET", forHTTPHeaderField: "Access-Control-Request-Method")
        preflight.setValue("range", forHTTPHeaderField: "Access-Control-Request-Headers")
        let (_, response) = try await URLSession.shared.data(for: preflight)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 204)
        #expect(http.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == "*")
        #expect(http.value(forHTTPHeaderField: "Access-Control-Allow-Headers")?.contains("Range") == true)
        // The v1 API keeps its own rule (no origin allowed unless --cors-origin says).
        var v1 = URLRequest(url: server.baseURL.appendingPathComponent("v1/songs"))
        v1.setValue("https://feishin.example.com", forHTTPHeaderField: "Origin")
        let (_, v1Response) = try await URLSession.shared.data(for: v1)
        #expect(
            (v1Response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == nil)
        // Another HTTP method is told so in the envelope.
        var put = URLRequest(url: server.baseURL.appendingPathComponent("rest/ping.view"))
        put.httpMethod = "PUT"
        let (body, putResponse) = try await URLSession.shared.data(for: put)
        #expect((putResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(#"status="failed""#))
    }

    @Test func countsAndOffsetsOutOfRangeAreClamped() async throws {
        let log = AnswerLog()
        let (rest, _, _) = try await Self.world(log: log)
        let song = try #require(
            (try await rest.ok("getRandomSongs", [("size", "1")])["randomSongs"]["song"] as? [[String: Any]])?
                .first)
        let artist = try #require(song["artistId"] as? String)
        let top = try await rest.ok("getTopSongs", [("id", artist), ("count", "1000")])
        #expect(!Rest.ids(top["topSongs"]["song"]).isEmpty)
        try await rest.ok("getSimilarSongs2", [("id", artist), ("count", "100000")])
        let all = try await rest.ok(
            "search3", [("query", ""), ("songCount", "100000"), ("songOffset", "-5")])
        let fromStart = try await rest.ok("search3", [("query", ""), ("songCount", "50000")])
        #expect(Rest.ids(all["searchResult3"]["song"]) == Rest.ids(fromStart["searchResult3"]["song"]))
        #expect(!Rest.ids(all["searchResult3"]["song"]).isEmpty)
        let negative = try await rest.ok(
            "getAlbumList2", [("type", "newest"), ("offset", "-1"), ("size", "-3")])
        #expect(Rest.ids(negative["albumList2"]["album"]).isEmpty)
        let huge = try await rest.ok(
            "getAlbumList2", [("type", "newest"), ("size", "99999999999999999999999"), ("offset", "0")])
        #expect(!Rest.ids(huge["albumList2"]["album"]).isEmpty)
        // What is not a number at all is still refused.
        #expect(try await rest.call("getAlbumList2", [("type", "newest"), ("size", "many")]).errorCode == 0)
        try await log.validate()
    }

    @Test func appPasswordsWorkWithoutDashesAndInAnyCase() async throws {
        let (rest, _, _) = try await Self.world()
        let password = rest.person.appPassword
        let bare = password.replacingOccurrences(of: "-", with: "")
        for typed in [
            bare, password.uppercased(), bare.uppercased(), password.replacingOccurrences(of: "-", with: " "),
        ] {
            let asPassword = try await rest.call(
                "ping",
                auth: .parameters([("u", rest.person.nickname), ("p", typed), ("v", "1.16.1"), ("c", "t")]))
            #expect(asPassword.isOK, "p=\(typed)")
            let salt = "s\(typed.count)"
            let asToken = try await rest.call(
                "ping",
                auth: .parameters([
                    ("u", rest.person.nickname), ("t", md5Hex(typed + salt)), ("s", salt), ("v", "1.16.1"),
                    ("c", "t"),
                ]))
            #expect(asToken.isOK, "t of \(typed)")
            let asKey = try await rest.call(
                "ping", auth: .parameters([("apiKey", typed), ("v", "1.16.1"), ("c", "t")]))
            #expect(asKey.isOK, "apiKey=\(typed)")
        }
        // One letter off is still wrong.
        let wrong = String(bare.dropLast()) + (bare.last == "a" ? "b" : "a")
        #expect(
            try await rest.call(
                "ping",
                auth: .parameters([("u", rest.person.nickname), ("p", wrong), ("v", "1.16.1"), ("c", "t")])
            ).errorCode == 40)
    }

    @Test func bigPlayQueuesAndHTTPRefusalsInTheEnvelope() async throws {
        let (rest, _, server) = try await Self.world()
        let song = try #require(
            Rest.ids(try await rest.ok("getRandomSongs", [("size", "1")])["randomSongs"]["song"]).first)
        // "Play all" on a big library: 6,000 entries (over the old cap of 5,000), as a form.
        let ids = Array(repeating: ("id", song), count: 6_000)
        try await rest.ok("savePlayQueueByIndex", ids + [("currentIndex", "5999")], post: true)
        let queue = try await rest.ok("getPlayQueueByIndex")
        #expect(queue["playQueueByIndex"]["currentIndex"] as? Int == 5_999)
        #expect((queue["playQueueByIndex"]["entry"] as? [Any])?.count == 6_000)
        // More than 1,000 parameters in the address: refused by the HTTP layer, in the Subsonic envelope.
        let tooMany = try await rest.call("savePlayQueue", Array(repeating: ("id", song), count: 1_001))
        #expect(tooMany.status == 200 && tooMany.errorCode == 0)
        #expect(tooMany.errorMessage.contains("1000"))
        let tooManyXML = try await rest.call(
            "savePlayQueue", Array(repeating: ("id", song), count: 1_001), json: false)
        #expect(tooManyXML.xmlErrorCode == 0 && tooManyXML.contentType.hasPrefix("text/xml"))
        // A form larger than the body limit, the same.
        let huge = try await rest.call(
            "ping", [("comment", String(repeating: "x", count: 1_100_000))], post: true)
        #expect(huge.status == 200 && huge.xmlErrorCode == 0)
        // The v1 API keeps its own envelope.
        var v1 = URLRequest(
            url: URL(
                string: server.baseURL.absoluteString + "v1/songs?"
                    + Array(repeating: "a=1", count: 1_001).joined(separator: "&"))!)
        v1.httpMethod = "GET"
        let (_, response) = try await URLSession.shared.data(for: v1)
        #expect((response as? HTTPURLResponse)?.statusCode == 414)
    }

    @Test func iLikeIsPrivateAndNowPlayingIsForFollowers() async throws {
        let (rest, _, server) = try await Self.world()
        let other = Rest(server: server, person: try await SubsonicWorld.shared.newPerson())
        let song = try #require(
            Rest.ids(try await rest.ok("getRandomSongs", [("size", "1")])["randomSongs"]["song"]).first)
        try await rest.ok("star", [("id", song)])
        let mine = try await rest.ok("getPlaylists")["playlists"]["playlist"] as? [[String: Any]] ?? []
        let likes = try #require(mine.first { $0["name"] as? String == "I like" })
        #expect(likes["public"] as? Bool == false)
        let likesID = try #require(likes["id"] as? String)
        #expect(try await other.call("getPlaylist", [("id", likesID)]).errorCode == 70)
        // Its owner may show it.
        try await rest.ok("updatePlaylist", [("playlistId", likesID), ("public", "true")])
        #expect(Rest.ids(try await other.ok("getPlaylist", [("id", likesID)])["playlist"]["entry"]) == [song])

        // Now playing: one's own always; another's only once one follows them (the default setting).
        try await rest.ok("scrobble", [("id", song), ("submission", "false")])
        func playing(_ who: Rest) async throws -> [String] {
            (try await who.ok("getNowPlaying")["nowPlaying"]["entry"] as? [[String: Any]] ?? []).compactMap {
                $0["username"] as? String
            }
        }
        #expect(try await playing(rest).contains(rest.person.nickname))
        #expect(try await !playing(other).contains(rest.person.nickname))
        let (followed, _) = try await SubsonicWorld.v1(
            server, "POST", "/v1/friends", ["userId": rest.person.id], token: other.person.session)
        #expect(followed == 201)
        #expect(try await playing(other).contains(rest.person.nickname))
        // The setting: nobody hides it even from followers; everyone shows it to anyone.
        let path = "/v1/users/\(rest.person.id)/now_playing"
        #expect(
            (try await SubsonicWorld.v1(server, "GET", path, token: rest.person.session).1["data"]
                as? [String: Any])?[
                    "visibility"] as? String == "followers")
        #expect(
            try await SubsonicWorld.v1(
                server, "PUT", path, ["visibility": "nobody"], token: rest.person.session
            ).0 == 200)
        #expect(try await !playing(other).contains(rest.person.nickname))
        #expect(try await playing(rest).contains(rest.person.nickname), "one's own, always")
        #expect(
            try await SubsonicWorld.v1(
                server, "PUT", path, ["visibility": "nobody"], token: other.person.session
            ).0 == 403)
        #expect(
            try await SubsonicWorld.v1(
                server, "PUT", path, ["visibility": "sometimes"], token: rest.person.session
            ).0 == 400)
        #expect(
            try await SubsonicWorld.v1(
                server, "PUT", path, ["visibility": "followers"], token: rest.person.session
            ).0 == 200)
    }

    @Test func coversAreKeptByCachesWithTheirETag() async throws {
        let (rest, _, _) = try await Self.world()
        let album = try #require(
            (try await rest.ok("getAlbumList2", [("type", "alphabeticalByName"), ("size", "1")])[
                "albumList2"][
                    "album"] as? [[String: Any]])?.first?["id"] as? String)
        let cover = try await rest.call("getCoverArt", [("id", album)], json: false)
        #expect(cover.status == 200 && cover.contentType.hasPrefix("image/"))
        #expect(cover.headers["cache-control"] == "private, max-age=2592000")
        let etag = try #require(cover.headers["etag"])
        let again = try await rest.call(
            "getCoverArt", [("id", album)], json: false, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
    }

    /// A seek inside a transcoded stream, as ExoPlayer apps (DSub, Ultrasonic, Tempo) do it with a bit-rate
    /// limit: the estimated length up front, then a Range that starts ffmpeg at the matching time.
    @Test func transcodedStreamsHaveALengthAndSeek() async throws {
        let (rest, _, server) = try await Self.world()
        let flac = try #require(
            (try await rest.ok("search3", [("query", "Northern Lights"), ("songCount", "1")])[
                "searchResult3"]["song"] as? [[String: Any]])?.first)
        let id = flac["id"] as! String
        let duration = Double(flac["duration"] as! Int)
        let asked = [("id", id), ("format", "mp3"), ("maxBitRate", "64"), ("estimateContentLength", "true")]
        let whole = try await rest.call("stream", asked, json: false)
        let length = try #require(whole.headers["content-length"].flatMap { Int($0) })
        #expect(whole.status == 200 && whole.body.count == length)
        #expect(abs(Double(length) - duration * 64_000 / 8) < 64_000 / 8 * 1.5, "about duration x bit rate")
        #expect(whole.headers["accept-ranges"] == "bytes")
        // HEAD: the headers a GET sends, no body, no ffmpeg.
        var head = URLRequest(
            url: URL(
                string: server.baseURL.absoluteString + "rest/stream.view?"
                    + (asked + [
                        ("u", rest.person.nickname), ("p", rest.person.appPassword), ("v", "1.16.1"),
                        ("c", "t"),
                    ]).map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&"))!)
        head.httpMethod = "HEAD"
        let (_, headResponse) = try await URLSession.shared.data(for: head)
        let headHTTP = try #require(headResponse as? HTTPURLResponse)
        #expect(headHTTP.value(forHTTPHeaderField: "Content-Length") == String(length))
        #expect(headHTTP.value(forHTTPHeaderField: "Content-Type") == "audio/mpeg")
        // A seek to the middle: 206 with the rest of the estimate, which decodes to the second half.
        let middle = length / 2
        let tail = try await rest.call("stream", asked, json: false, headers: ["Range": "bytes=\(middle)-"])
        #expect(tail.status == 206)
        #expect(tail.headers["content-range"] == "bytes \(middle)-\(length - 1)/\(length)")
        #expect(tail.body.count == length - middle)
        let decoded = try await Self.decodedSeconds(tail.body)
        #expect(abs(decoded - duration / 2) < 2.5, "decoded \(decoded) s of \(duration) s")
        // Without a Range the whole transcode decodes to the song's length.
        #expect(abs(try await Self.decodedSeconds(whole.body) - duration) < 2.5)
        // A range past the end is 416 with the length.
        let past = try await rest.call(
            "stream", asked, json: false, headers: ["Range": "bytes=\(length + 10)-"])
        #expect(past.status == 416 && past.headers["content-range"] == "bytes */\(length)")
    }

    /// How many seconds of audio `bytes` decode to (ffmpeg, to 8 kHz mono samples).
    static func decodedSeconds(_ bytes: Data) async throws -> Double {
        let file = temporaryFolder() + "/part.mp3"
        try bytes.write(to: URL(fileURLWithPath: file))
        return try await offThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = [
                "-v", "error", "-i", file, "-f", "s16le", "-ac", "1", "-ar", "8000", "pipe:1",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let samples = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Double(samples.count) / 2 / 8_000
        }
    }

    /// Chinese names by pinyin: 周杰伦 under "Z" between Latin names, ordered by its full pinyin, and found by
    /// search3 and the v1 search from `zjl` and `zhoujielun`.
    @Test func chineseNamesAreIndexedSortedAndFoundByPinyin() async throws {
        let music = temporaryFolder()
        try await song(in: music, named: "1.mp3", title: "晴天", album: "叶惠美", artist: "周杰伦")
        try await song(in: music, named: "2.mp3", title: "江南", album: "第二天堂", artist: "林俊杰")
        try await song(in: music, named: "3.mp3", title: "Hello", album: "25", artist: "Zoe")
        try await song(in: music, named: "4.mp3", title: "Rolling", album: "21", artist: "Zhang")
        let server = try await TestServer.start(extraArguments: ["--music", music])
        defer { server.stop() }
        let admin = Rest(server: server, person: try await SubsonicWorld.person(on: server, index: 0))
        let artists = try await admin.ok("getArtists")["artists"]["index"] as? [[String: Any]] ?? []
        let byLetter = Dictionary(
            uniqueKeysWithValues: artists.map {
                (
                    $0["name"] as? String ?? "",
                    ($0["artist"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                )
            })
        // The demo library is there too (周末乐队, 林小雨): the order among these names is what counts.
        let mine: Set = ["Zhang", "周杰伦", "Zoe", "林俊杰", "林小雨"]
        #expect(
            byLetter["Z"]?.filter(mine.contains) == ["Zhang", "周杰伦", "Zoe"], "zhang < zhou < zoe: \(byLetter)"
        )
        #expect(byLetter["L"]?.filter(mine.contains) == ["林俊杰", "林小雨"], "lin jun jie < lin xiao yu")
        #expect(byLetter["#"].map { $0.filter(mine.contains) }?.isEmpty ?? true)
        for typed in ["zjl", "zhoujielun", "ZJL", "zhoujie"] {
            let found = try await admin.ok("search3", [("query", typed)])
            #expect(
                (found["searchResult3"]["artist"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
                    == ["周杰伦"], "\(typed)")
            #expect(
                (found["searchResult3"]["song"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
                    == ["晴天"], "\(typed)")
            let (status, v1) = try await SubsonicWorld.v1(server, "GET", "/v1/searches?q=\(typed)")
            #expect(status == 200)
            let data = v1["data"] as? [String: Any] ?? [:]
            #expect((data["artists"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["周杰伦"])
            #expect((data["songs"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["晴天"])
        }
        // Songs by pinyin of their own titles too: 晴天 is "qingtian".
        let sunny = try await admin.ok("search2", [("query", "qingtian")])
        #expect(
            (sunny["searchResult2"]["song"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == [
                "晴天"
            ])
    }

    /// ReplayGain, bpm, sort names, comments and bit depth from the tags; an artist who appears only on a
    /// track (feat.) is listed with the album they appear on and a cover; album info's notes and covers.
    @Test func tagDetailsAndTrackOnlyArtists() async throws {
        let music = temporaryFolder()
        let path = music + "/Gain.flac"
        let status = try await offThread { () -> Int32 in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = [
                "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=3",
                "-metadata", "title=Gain Test", "-metadata", "artist=Ann Lee feat. Bo Ma", "-metadata",
                "album=Loudness", "-metadata", "REPLAYGAIN_TRACK_GAIN=-6.54 dB", "-metadata",
                "REPLAYGAIN_TRACK_PEAK=0.988547", "-metadata", "REPLAYGAIN_ALBUM_GAIN=-7.10 dB", "-metadata",
                "REPLAYGAIN_ALBUM_PEAK=0.999", "-metadata", "BPM=128", "-metadata",
                "TITLESORT=Gain Test, The",
                "-metadata", "ARTISTSORT=Lee, Ann", "-metadata", "ALBUMSORT=Loudness War", "-metadata",
                "COMMENT=Recorded live", "-c:a", "flac", "-sample_fmt", "s32", path,
            ]
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        try #require(status == 0)
        let server = try await TestServer.start(extraArguments: ["--music", music])
        defer { server.stop() }
        let admin = Rest(server: server, person: try await SubsonicWorld.person(on: server, index: 0))
        let found = try #require(
            (try await admin.ok("search3", [("query", "Gain Test")])["searchResult3"]["song"]
                as? [[String: Any]])?
                .first)
        let song = try await admin.ok("getSong", [("id", found["id"] as! String)])["song"]
        let gain = song["replayGain"] as? [String: Any] ?? [:]
        #expect(gain["trackGain"] as? Double == -6.54 && gain["trackPeak"] as? Double == 0.988547)
        #expect(gain["albumGain"] as? Double == -7.1 && gain["albumPeak"] as? Double == 0.999)
        #expect(song["bpm"] as? Int == 128 && song["comment"] as? String == "Recorded live")
        #expect(song["sortName"] as? String == "Gain Test, The")
        #expect(song["bitDepth"] as? Int == 24)
        let album = try await admin.ok("getAlbum", [("id", found["albumId"] as! String)])["album"]
        #expect(album["sortName"] as? String == "Loudness War")
        let info = try await admin.ok("getAlbumInfo2", [("id", found["albumId"] as! String)])["albumInfo"]
        #expect(info["notes"] as? String == "Recorded live")
        #expect((info["largeImageUrl"] as? String)?.hasSuffix("/cover?size=1024") == true)
        // Bo Ma is on the track only: listed, with the album he appears on and a cover.
        let artists = (try await admin.ok("getArtists")["artists"]["index"] as? [[String: Any]] ?? []).flatMap
        {
            $0["artist"] as? [[String: Any]] ?? []
        }
        let bo = try #require(artists.first { $0["name"] as? String == "Bo Ma" })
        #expect(bo["coverArt"] as? String == bo["id"] as? String)
        let boAlbums = try await admin.ok("getArtist", [("id", bo["id"] as! String)])["artist"]["album"]
        #expect(Rest.ids(boAlbums) == [found["albumId"] as! String])
        #expect(artists.first { $0["name"] as? String == "Ann Lee" }?["sortName"] as? String == "Lee, Ann")
        let cover = try await admin.call("getCoverArt", [("id", bo["id"] as! String)], json: false)
        #expect(cover.status == 200 || cover.errorCode == 70, "a cover when the album has one")
    }

    /// A Subsonic playlist keeps a song twice, and an app removing by index removes that entry only (the
    /// index of the entries as the app saw them).
    @Test func aDuplicateIsKeptInAPlaylistAndRemovedByIndex() async throws {
        let log = AnswerLog()
        let (rest, _, server) = try await Self.world(log: log)
        let songs = Rest.ids(
            try await rest.ok("search3", [("query", ""), ("songCount", "3")])["searchResult3"]["song"])
        let (a, b, c) = (songs[0], songs[1], songs[2])
        let made = try await rest.ok(
            "createPlaylist", [("name", "Twice")] + [a, b, a, c].map { ("songId", $0) })
        let id = try #require(made["playlist"]["id"] as? String)
        #expect(Rest.ids(made["playlist"]["entry"]) == [a, b, a, c])
        #expect(made["playlist"]["songCount"] as? Int == 4)
        // Index 2 is the second `a`: the first stays.
        try await rest.ok(
            "updatePlaylist", [("playlistId", id), ("songIndexToRemove", "2"), ("songIdToAdd", b)])
        #expect(
            Rest.ids(try await rest.ok("getPlaylist", [("id", id)])["playlist"]["entry"]) == [a, b, c, b])
        try await rest.ok(
            "updatePlaylist", [("playlistId", id), ("songIndexToRemove", "3"), ("songIndexToRemove", "0")])
        #expect(Rest.ids(try await rest.ok("getPlaylist", [("id", id)])["playlist"]["entry"]) == [b, c])
        // The v1 sheet lists every entry in order; removing a song there removes each of its entries.
        try await rest.ok("updatePlaylist", [("playlistId", id), ("songIdToAdd", b)])
        let sheet = String(id.dropFirst(3))
        let (_, detail) = try await SubsonicWorld.v1(
            server, "GET", "/v1/sheets/\(sheet)", token: rest.person.session)
        #expect(
            ((detail["data"] as? [String: Any])?["songs"] as? [[String: Any]])?.compactMap {
                $0["id"] as? String
            }
                == [b, c, b].map { String($0.dropFirst(3)) })
        try await log.validate()
    }
}
