import Foundation
import MusicCore
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the Subsonic methods do with CloudMusic's data: paging, sheets as playlists (their rules and ids),
/// stars as "I like" and favourites, ratings, scrobbles as plays, the play queue shared with the web player,
/// word-timed lyrics, streams and covers.
@Suite struct SubsonicBehaviourTests {
    static func rest(log: AnswerLog? = nil) async throws -> (Rest, TestServer) {
        let (server, _) = try await SubsonicWorld.shared.server()
        return (Rest(server: server, person: try await SubsonicWorld.shared.newPerson(), log: log), server)
    }

    @Test func pagingWalksEverythingOnceInAStableOrder() async throws {
        let log = AnswerLog()
        let (rest, _) = try await Self.rest(log: log)
        let everything = try await rest.ok(
            "search3",
            [("query", ""), ("songCount", "1000"), ("albumCount", "1000"), ("artistCount", "1000")])
        let allSongs = Rest.ids(everything["searchResult3"]["song"])
        let allAlbums = Rest.ids(everything["searchResult3"]["album"])
        #expect(allSongs.count >= 25 && Set(allSongs).count == allSongs.count)
        // Page by page, as apps sync: until a page comes back shorter than asked.
        var songs: [String] = []
        var albums: [String] = []
        for page in 0..<20 {
            let reply = try await rest.ok(
                "search3",
                [
                    ("query", "\"\""), ("songCount", "7"), ("songOffset", String(page * 7)),
                    ("albumCount", "2"),
                    ("albumOffset", String(page * 2)), ("artistCount", "0"),
                ], post: page % 2 == 1)
            let pageSongs = Rest.ids(reply["searchResult3"]["song"])
            songs += pageSongs
            albums += Rest.ids(reply["searchResult3"]["album"])
            #expect(Rest.ids(reply["searchResult3"]["artist"]).isEmpty)
            if pageSongs.count < 7 { break }
        }
        #expect(songs == allSongs)
        #expect(albums == allAlbums)

        let newest = Rest.ids(
            try await rest.ok("getAlbumList2", [("type", "newest"), ("size", "500")])["albumList2"]["album"])
        var paged: [String] = []
        for offset in stride(from: 0, to: newest.count + 3, by: 3) {
            paged += Rest.ids(
                try await rest.ok(
                    "getAlbumList2", [("type", "newest"), ("size", "3"), ("offset", String(offset))])[
                        "albumList2"]["album"])
        }
        #expect(paged == newest)
        #expect(Set(newest) == Set(allAlbums))
        let byGenre = Rest.ids(
            try await rest.ok("getSongsByGenre", [("genre", "华语流行"), ("count", "500")])["songsByGenre"][
                "song"])
        let secondHalf = Rest.ids(
            try await rest.ok("getSongsByGenre", [("genre", "华语流行"), ("count", "500"), ("offset", "3")])[
                "songsByGenre"]["song"])
        #expect(byGenre.count > 3 && Array(byGenre.dropFirst(3)) == secondHalf)
        // Text search pages each kind on its own.
        let rain = Rest.ids(
            try await rest.ok("search3", [("query", "雨"), ("songCount", "50")])["searchResult3"]["song"])
        let rainTail = Rest.ids(
            try await rest.ok("search3", [("query", "雨"), ("songCount", "50"), ("songOffset", "1")])[
                "searchResult3"]["song"])
        #expect(rain.count >= 2 && Array(rain.dropFirst()) == rainTail)
        try await log.validate()
    }

    @Test func playlistsAreSheetsWithTheirRulesAndIds() async throws {
        let log = AnswerLog()
        let (rest, server) = try await Self.rest(log: log)
        let other = Rest(server: server, person: try await SubsonicWorld.shared.newPerson(), log: log)
        let songs = Rest.ids(
            try await rest.ok("search3", [("query", ""), ("songCount", "4")])["searchResult3"]["song"])
        // formPost with repeated songId fields; a song twice is kept twice (a Subsonic playlist may repeat).
        let made = try await rest.ok(
            "createPlaylist",
            [("name", "Road trip")] + [songs[0], songs[1], songs[0]].map { ("songId", $0) }, post: true)
        let id = try #require(made["playlist"]["id"] as? String)
        #expect(id.hasPrefix("pl-"))
        #expect(Rest.ids(made["playlist"]["entry"]) == [songs[0], songs[1], songs[0]])
        #expect(
            made["playlist"]["public"] as? Bool == false && made["playlist"]["readonly"] as? Bool == false)
        // The same sheet in the v1 API, under the same number.
        let sheetID = String(id.dropFirst(3))
        let (status, sheet) = try await SubsonicWorld.v1(
            server, "GET", "/v1/sheets/\(sheetID)", token: rest.person.session)
        #expect(status == 200)
        #expect((sheet["data"] as? [String: Any])?["title"] as? String == "Road trip")
        #expect(
            ((sheet["data"] as? [String: Any])?["songs"] as? [[String: Any]])?.compactMap {
                $0["id"] as? String
            } == [songs[0], songs[1], songs[0]].map { String($0.dropFirst(3)) },
            "the v1 sheet shows each entry")

        try await rest.ok(
            "updatePlaylist",
            [
                ("playlistId", id), ("name", "Road trip 2"), ("comment", "summer"), ("public", "true"),
                ("songIndexToRemove", "0"),
                ("songIdToAdd", songs[2]), ("songIdToAdd", songs[3]),
            ], post: true)
        let updated = try await rest.ok("getPlaylist", [("id", id)])
        #expect(updated["playlist"]["name"] as? String == "Road trip 2")
        #expect(updated["playlist"]["comment"] as? String == "summer")
        #expect(Rest.ids(updated["playlist"]["entry"]) == [songs[1], songs[0], songs[2], songs[3]])
        #expect(
            try await rest.call("updatePlaylist", [("playlistId", id), ("songIndexToRemove", "9")]).errorCode
                == 0)

        // Others see a public sheet read-only and cannot change or delete it; a private one does not exist for them.
        let seen = try await other.ok("getPlaylist", [("id", id)])
        #expect(
            seen["playlist"]["readonly"] as? Bool == true
                && seen["playlist"]["owner"] as? String == rest.person.nickname)
        #expect(
            try await other.call("updatePlaylist", [("playlistId", id), ("name", "mine")]).errorCode == 50)
        #expect(try await other.call("deletePlaylist", [("id", id)]).errorCode == 50)
        #expect(
            try await other.call("createPlaylist", [("playlistId", id), ("songId", songs[0])]).errorCode == 50
        )
        // A collected sheet shows among one's playlists, read-only; so does "I like".
        #expect(
            try await SubsonicWorld.v1(
                server, "POST", "/v1/collections", ["sheetId": sheetID], token: other.person.session
            ).0 == 201)
        let theirs = try await other.ok("getPlaylists")["playlists"]["playlist"] as? [[String: Any]] ?? []
        #expect(theirs.first { $0["id"] as? String == id }?["readonly"] as? Bool == true)
        #expect(theirs.contains { $0["name"] as? String == "I like" && $0["readonly"] as? Bool == false })
        try await rest.ok("updatePlaylist", [("playlistId", id), ("public", "false")])
        #expect(try await other.call("getPlaylist", [("id", id)]).errorCode == 70)
        // "I like" keeps its name and cannot be deleted.
        let likes = try #require(theirs.first { $0["name"] as? String == "I like" }?["id"] as? String)
        #expect(
            try await other.call("updatePlaylist", [("playlistId", likes), ("name", "Faves")]).errorCode == 0)
        #expect(try await other.call("deletePlaylist", [("id", likes)]).errorCode == 0)
        // Unknown songs are refused whole.
        #expect(
            try await rest.call("createPlaylist", [("name", "x"), ("songId", "tr-999999")]).errorCode == 70)
        try await rest.ok("deletePlaylist", [("id", id)])
        #expect(
            try await SubsonicWorld.v1(server, "GET", "/v1/sheets/\(sheetID)", token: rest.person.session).0
                == 404)
        try await log.validate()
    }

    @Test func starsAreILikeAndFavouritesRatingsAndPlays() async throws {
        let log = AnswerLog()
        let (rest, server) = try await Self.rest(log: log)
        let album = try #require(
            (try await rest.ok("getAlbumList2", [("type", "alphabeticalByName"), ("size", "1")])[
                "albumList2"]["album"] as? [[String: Any]])?.first)
        let albumID = album["id"] as! String
        let artistID = album["artistId"] as! String
        let songs = Rest.ids(try await rest.ok("getAlbum", [("id", albumID)])["album"]["song"])
        // py-opensonic sends all three lists in one call; an old client sends albums as id.
        try await rest.ok(
            "star", [("id", songs[0]), ("id", "tr-999999"), ("albumId", albumID), ("artistId", artistID)])
        let starred = try await rest.ok("getStarred2")
        #expect(Rest.ids(starred["starred2"]["song"]) == [songs[0]])
        #expect(Rest.ids(starred["starred2"]["album"]) == [albumID])
        #expect(Rest.ids(starred["starred2"]["artist"]) == [artistID])
        #expect(try await rest.ok("getSong", [("id", songs[0])])["song"]["starred"] is String)
        // The song is in "I like", first.
        let (_, created) = try await SubsonicWorld.v1(
            server, "GET", "/v1/users/\(rest.person.id)/create", token: rest.person.session)
        let likesSheet = try #require(
            ((created["data"] as? [String: Any])?["data"] as? [[String: Any]])?.first {
                $0["kind"] as? String == "likes"
            }?["id"] as? String)
        let (_, liked) = try await SubsonicWorld.v1(
            server, "GET", "/v1/sheets/\(likesSheet)/songs", token: rest.person.session)
        #expect(
            ((liked["data"] as? [String: Any])?["data"] as? [[String: Any]])?.first?["id"] as? String
                == String(songs[0].dropFirst(3)))
        try await rest.ok("unstar", [("id", songs[0]), ("id", albumID)])
        let after = try await rest.ok("getStarred2")
        #expect(Rest.ids(after["starred2"]["song"]).isEmpty && Rest.ids(after["starred2"]["album"]).isEmpty)
        #expect(Rest.ids(after["starred2"]["artist"]) == [artistID])

        // Ratings: 1-5, 0 removes, per person.
        try await rest.ok("setRating", [("id", albumID), ("rating", "4")])
        #expect(try await rest.ok("getAlbum", [("id", albumID)])["album"]["userRating"] as? Int == 4)
        #expect(
            Rest.ids(try await rest.ok("getAlbumList2", [("type", "highest")])["albumList2"]["album"]) == [
                albumID
            ])
        try await rest.ok("setRating", [("id", albumID), ("rating", "0")])
        #expect(try await rest.ok("getAlbum", [("id", albumID)])["album"]["userRating"] == nil)

        // A scrobble is a play in one's history (once per 30 seconds); "now playing" is another thing.
        try await rest.ok("scrobble", [("id", songs[1])])
        try await rest.ok("scrobble", [("id", songs[1])])
        let earlier = String(Int64(Date().timeIntervalSince1970 - 3_600) * 1_000)
        try await rest.ok("scrobble", [("id", songs[2]), ("time", earlier), ("submission", "true")])
        let played = try await rest.ok("getSong", [("id", songs[1])])
        #expect(played["song"]["playCount"] as? Int == 1 && played["song"]["played"] is String)
        let (_, history) = try await SubsonicWorld.v1(server, "GET", "/v1/plays", token: rest.person.session)
        let historyIDs = ((history["data"] as? [String: Any])?["data"] as? [[String: Any]])?.compactMap {
            ($0["song"] as? [String: Any])?["id"] as? String
        }
        #expect(historyIDs == [songs[1], songs[2]].map { String($0.dropFirst(3)) })
        #expect(
            Rest.ids(try await rest.ok("getAlbumList2", [("type", "recent")])["albumList2"]["album"]) == [
                albumID
            ])
        try await rest.ok("scrobble", [("id", songs[0]), ("submission", "false")])
        let now = try await rest.ok("getNowPlaying")["nowPlaying"]["entry"] as? [[String: Any]] ?? []
        #expect(
            now.count == 1 && now[0]["id"] as? String == songs[0]
                && now[0]["playerName"] as? String == "swift-tests")
        #expect(now[0]["username"] as? String == rest.person.nickname)

        // Bookmarks; a comment is written text (nothing invisible in it).
        let hidden = try await rest.call(
            "createBookmark", [("id", songs[2]), ("position", "1"), ("comment", "so\u{200B}lo")])
        #expect(hidden.errorCode == 0 && hidden.errorMessage.contains("invisible"))
        try await rest.ok("createBookmark", [("id", songs[2]), ("position", "90500"), ("comment", "solo")])
        let marks = try await rest.ok("getBookmarks")["bookmarks"]["bookmark"] as? [[String: Any]] ?? []
        #expect(
            marks.count == 1 && marks[0]["position"] as? Int == 90500
                && marks[0]["comment"] as? String == "solo")
        #expect((marks[0]["entry"] as? [String: Any])?["id"] as? String == songs[2])
        try await rest.ok("deleteBookmark", [("id", songs[2])])
        #expect((try await rest.ok("getBookmarks")["bookmarks"]["bookmark"] as? [Any])?.isEmpty == true)
        try await log.validate()
    }

    @Test func thePlayQueueIsTheOneTheWebPlayerSyncs() async throws {
        let log = AnswerLog()
        let (rest, server) = try await Self.rest(log: log)
        let songs = Rest.ids(
            try await rest.ok("search3", [("query", ""), ("songCount", "3")])["searchResult3"]["song"])
        let empty = try await rest.ok("getPlayQueue")
        #expect(
            Rest.ids(empty["playQueue"]["entry"]).isEmpty && empty["playQueue"]["changedBy"] as? String == "")
        try await rest.ok(
            "savePlayQueue", songs.map { ("id", $0) } + [("current", songs[1]), ("position", "61500")],
            post: true)
        let (_, queue) = try await SubsonicWorld.v1(server, "GET", "/v1/queue", token: rest.person.session)
        let data = try #require(queue["data"] as? [String: Any])
        #expect(data["songIds"] as? [String] == songs.map { String($0.dropFirst(3)) })
        #expect(data["currentIndex"] as? Int == 1 && data["position"] as? Int == 61500)
        let version = try #require(data["version"] as? Int)
        let saved = try await rest.ok("getPlayQueue")
        #expect(
            saved["playQueue"]["current"] as? String == songs[1]
                && saved["playQueue"]["changedBy"] as? String == "swift-tests")
        // The web player saves on top of that version; then Subsonic apps see its queue.
        let (put, _) = try await SubsonicWorld.v1(
            server, "PUT", "/v1/queue",
            [
                "songIds": [String(songs[2].dropFirst(3))], "currentIndex": 0, "position": 5,
                "baseVersion": version,
            ],
            token: rest.person.session)
        #expect(put == 200)
        let fromWeb = try await rest.ok("getPlayQueue")
        #expect(
            Rest.ids(fromWeb["playQueue"]["entry"]) == [songs[2]]
                && fromWeb["playQueue"]["changedBy"] as? String == "CloudMusic")
        // A Subsonic save moves the version on, so a device holding the old one is refused (and reloads).
        try await rest.ok(
            "savePlayQueueByIndex",
            [("id", songs[0]), ("id", songs[0]), ("currentIndex", "1"), ("position", "10")])
        let (stale, _) = try await SubsonicWorld.v1(
            server, "PUT", "/v1/queue", ["songIds": [], "baseVersion": version + 1],
            token: rest.person.session)
        #expect(stale == 409)
        let byIndex = try await rest.ok("getPlayQueueByIndex")
        #expect(byIndex["playQueueByIndex"]["currentIndex"] as? Int == 1)
        #expect(Rest.ids(byIndex["playQueueByIndex"]["entry"]) == [songs[0], songs[0]])
        #expect(try await rest.ok("getPlayQueue")["playQueue"]["current"] as? String == songs[0])
        #expect(
            try await rest.call("savePlayQueueByIndex", [("id", songs[0]), ("currentIndex", "1")]).errorCode
                == 10)
        #expect(try await rest.call("savePlayQueueByIndex", [("currentIndex", "0")]).errorCode == 0)
        try await rest.ok("savePlayQueueByIndex")
        #expect(Rest.ids(try await rest.ok("getPlayQueueByIndex")["playQueueByIndex"]["entry"]).isEmpty)
        try await log.validate()
    }

    @Test func karaokeLyricsCarryWordCues() async throws {
        let log = AnswerLog()
        let (rest, _) = try await Self.rest(log: log)
        let karaoke = try #require(
            Rest.ids(try await rest.ok("search3", [("query", "雨后彩虹")])["searchResult3"]["song"]).first)
        let plain = try await rest.ok("getLyricsBySongId", [("id", karaoke)])
        let v1 = try #require((plain["lyricsList"]["structuredLyrics"] as? [[String: Any]])?.first)
        #expect(v1["synced"] as? Bool == true && v1["lang"] as? String == "und")
        #expect(v1["kind"] == nil && v1["cueLine"] == nil, "version 1 stays version 1")
        let lines = try #require(v1["line"] as? [[String: Any]])
        #expect(lines.first?["value"] as? String == "雨停了天空放晴" && lines.first?["start"] as? Int == 1000)

        let enhanced = try await rest.ok("getLyricsBySongId", [("id", karaoke), ("enhanced", "true")])
        let v2 = try #require((enhanced["lyricsList"]["structuredLyrics"] as? [[String: Any]])?.first)
        #expect(v2["kind"] as? String == "main")
        let cueLines = try #require(v2["cueLine"] as? [[String: Any]])
        #expect(cueLines.count == lines.count)
        let first = cueLines[0]
        #expect(first["index"] as? Int == 0 && first["value"] as? String == "雨停了天空放晴")
        let cues = try #require(first["cue"] as? [[String: Any]])
        #expect(cues.count == 7)
        #expect(
            cues[0]["value"] as? String == "雨" && cues[0]["byteStart"] as? Int == 0
                && cues[0]["byteEnd"] as? Int == 2)
        #expect(
            cues[1]["value"] as? String == "停" && cues[1]["byteStart"] as? Int == 3
                && cues[1]["byteEnd"] as? Int == 5)
        for cueLine in cueLines {
            let value = Array((cueLine["value"] as! String).utf8)
            var previousEnd = Int.min
            for cue in cueLine["cue"] as! [[String: Any]] {
                let (start, end) = (cue["byteStart"] as! Int, cue["byteEnd"] as! Int)
                #expect(
                    String(decoding: value[start...end], as: UTF8.self) == cue["value"] as? String,
                    "byte offsets")
                #expect(
                    (cue["start"] as! Int) >= previousEnd && (cue["end"] as! Int) >= (cue["start"] as! Int),
                    "cues do not overlap")
                previousEnd = cue["end"] as! Int
            }
        }
        // A Latin word of a mixed line is one cue.
        let mixed = cueLines.first { ($0["value"] as? String)?.contains("rainbow") == true }
        #expect((mixed?["cue"] as? [[String: Any]])?.contains { $0["value"] as? String == "rainbow" } == true)

        let silent = try #require(
            Rest.ids(try await rest.ok("search3", [("query", "天亮以前")])["searchResult3"]["song"]).first)
        #expect(
            (try await rest.ok("getLyricsBySongId", [("id", silent)])["lyricsList"]["structuredLyrics"]
                as? [Any])?.isEmpty == true)
        #expect(try await rest.call("getLyricsBySongId", [("id", "tr-999999")]).errorCode == 70)
        let old = try await rest.ok("getLyrics", [("artist", "林小雨"), ("title", "雨后彩虹")])
        #expect((old["lyrics"]["value"] as? String)?.hasPrefix("雨停了天空放晴\n") == true)
        #expect(
            try await rest.ok("getLyrics", [("title", "No such song")])["lyrics"]["value"] as? String == "")
        try await log.validate()
    }

    @Test func streamsDownloadsCoversAndAvatars() async throws {
        let (rest, server) = try await Self.rest()
        let flac = try #require(
            (try await rest.ok("search3", [("query", "Northern Lights"), ("songCount", "1")])[
                "searchResult3"]["song"] as? [[String: Any]])?.first)
        let id = flac["id"] as! String
        let (original, _) = try await URLSession.shared.data(
            from: server.baseURL.appendingPathComponent("v1/songs/\(id.dropFirst(3))/stream"))
        let raw = try await rest.call("stream", [("id", id)])
        #expect(raw.status == 200 && raw.contentType == "audio/flac" && raw.body == original)
        #expect(raw.headers["accept-ranges"] == "bytes")
        let part = try await rest.call(
            "stream", [("id", id), ("format", "raw")], headers: ["Range": "bytes=0-99"])
        #expect(part.status == 206 && part.body == original.prefix(100))
        let posted = try await rest.call(
            "stream", [("id", id)], post: true, headers: ["Range": "bytes=100-199"])
        #expect(
            posted.status == 206 && posted.body == original.dropFirst(100).prefix(100),
            "Range works with formPost too")
        // No conversion when the file is under maxBitRate; a conversion when it is over, or another format.
        #expect(try await rest.call("stream", [("id", id), ("maxBitRate", "9000")]).body == original)
        let mp3 = try await rest.call("stream", [("id", id), ("maxBitRate", "96")])
        #expect(mp3.contentType == "audio/mpeg" && mp3.body.count > 10_000 && mp3.body.count < original.count)
        let opus = try await rest.call("stream", [("id", id), ("format", "opus")])
        #expect(opus.contentType == "audio/ogg" && opus.body.prefix(4) == Data("OggS".utf8))
        // transcodeOffset: starts later, so less comes out.
        let later = try await rest.call(
            "stream", [("id", id), ("format", "mp3"), ("maxBitRate", "96"), ("timeOffset", "20")])
        #expect(later.contentType == "audio/mpeg" && later.body.count < mp3.body.count / 2)
        #expect(
            later.headers["x-content-duration"].flatMap { Int($0) }.map {
                abs($0 - ((flac["duration"] as! Int) - 20)) <= 1
            } == true)

        let download = try await rest.call("download", [("id", id)])
        #expect(
            download.body == original
                && download.headers["content-disposition"]?.hasPrefix("attachment;") == true)

        let album = flac["albumId"] as! String
        let cover = try await rest.call("getCoverArt", [("id", album)])
        #expect(cover.contentType.hasPrefix("image/") && cover.body.count > 100, "\(cover.contentType)")
        let small = try await rest.call("getCoverArt", [("id", album + "_deadbeef"), ("size", "64")])
        #expect(small.contentType == "image/jpeg" && small.body.count < cover.body.count)
        for other in [id, flac["artistId"] as! String, "al-" + album] {
            #expect(
                try await rest.call("getCoverArt", [("id", other)]).contentType.hasPrefix("image/"),
                "\(other)")
        }
        let playlist = try #require(
            try await rest.ok("createPlaylist", [("name", "Covers"), ("songId", id)])["playlist"]["id"]
                as? String)
        #expect(
            try await rest.call("getCoverArt", [("id", "pl-" + playlist)]).body == cover.body,
            "a sheet's cover is its first song's album's")
        #expect(try await rest.call("getCoverArt", [("id", "nothing")]).errorCode == 70)

        #expect(try await rest.call("getAvatar", [("username", rest.person.nickname)]).errorCode == 70)
        #expect(try await rest.call("getAvatar", [("username", "nobody at all")]).errorCode == 70)
    }

    @Test func browsingByFoldersAndIndexes() async throws {
        let log = AnswerLog()
        let (rest, _) = try await Self.rest(log: log)
        let indexes = try await rest.ok("getIndexes")
        let groups = indexes["indexes"]["index"] as? [[String: Any]] ?? []
        let letters = groups.compactMap { $0["name"] as? String }
        #expect(
            letters == letters.sorted { ($0 == "#" ? 1 : 0, $0) < ($1 == "#" ? 1 : 0, $1) }, "A-Z, then #")
        let lin = groups.first {
            ($0["artist"] as? [[String: Any]])?.contains { $0["name"] as? String == "林小雨" } == true
        }
        #expect(lin?["name"] as? String == "L", "Chinese names by their pinyin (lin xiao yu)")
        let quiet = groups.first { $0["name"] as? String == "Q" }
        #expect(
            (quiet?["artist"] as? [[String: Any]])?.first?["name"] as? String == "The Quiet Hours",
            "articles are ignored")
        let modified = try #require(indexes["indexes"]["lastModified"] as? Int)
        let unchanged = try await rest.ok("getIndexes", [("ifModifiedSince", String(modified))])
        #expect((unchanged["indexes"]["index"] as? [Any])?.isEmpty == true)
        let artist = try #require((quiet?["artist"] as? [[String: Any]])?.first?["id"] as? String)
        let albums =
            try await rest.ok("getMusicDirectory", [("id", artist)])["directory"]["child"] as? [[String: Any]]
            ?? []
        #expect(
            albums.count == 1 && albums[0]["isDir"] as? Bool == true
                && albums[0]["parent"] as? String == artist)
        let songs =
            try await rest.ok("getMusicDirectory", [("id", albums[0]["id"] as! String)])["directory"]["child"]
            as? [[String: Any]] ?? []
        #expect(
            songs.count == 4
                && songs.allSatisfy { $0["isDir"] as? Bool == false && $0["path"] as? String != nil })
        #expect(
            songs.allSatisfy { !($0["path"] as! String).hasPrefix("/") }, "paths inside the music folder only"
        )
        let genres = try await rest.ok("getGenres")["genres"]["genre"] as? [[String: Any]] ?? []
        #expect(
            genres.contains {
                $0["value"] as? String == "Jazz" && $0["songCount"] as? Int == 4
                    && $0["albumCount"] as? Int == 1
            })
        try await log.validate()
    }
}
