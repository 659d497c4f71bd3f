import Foundation
import HTTPServer
import MusicCore
import ServerTestSupport
import Synchronization
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Subsonic API's shortcuts, and that none changes an answer: remembered credentials stop working at once
/// when revoked, disabled or deleted (also from another process); kept searches follow the library through a
/// rescan, while stars are always read afresh; the hand-made pieces (index letters, trimming, extensions,
/// numbers, id lists) answer what Foundation does.
@Suite struct SubsonicShortcutTests {
    /// Revoking in the API, and disabling or deleting in the shell (another process), reach credentials the
    /// server remembers at the next request. A server of its own: the wrong tries count against the address.
    @Test func rememberedCredentialsStopAtOnce() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        _ = try await SubsonicWorld.person(on: server, index: 0)
        let person = try await SubsonicWorld.person(on: server, index: 1)
        let (made, answer) = try await SubsonicWorld.v1(
            server, "POST", "/v1/users/\(person.id)/app_passwords", ["name": "Tablet"], token: person.session)
        try #require(made == 201)
        let data = try #require(answer["data"] as? [String: Any])
        var tablet = person
        tablet.appPassword = try #require(data["password"] as? String)
        let rest = Rest(server: server, person: tablet)
        // The same credentials each time (one salt for the session, as many apps do): the second and later
        // requests are the remembered ones.
        let forms: [Auth] = [.token(salt: "one-salt-for-the-session"), .encoded, .password, .apiKey]
        for auth in forms {
            for _ in 0..<3 { #expect(try await rest.call("ping", auth: auth).isOK, "\(auth)") }
        }
        #expect(
            try await SubsonicWorld.v1(
                server, "DELETE", "/v1/users/\(person.id)/app_passwords/\(data["id"] as! String)",
                token: person.session
            ).0 == 200)
        for auth in forms {
            let reply = try await rest.call("ping", auth: auth)
            if case .apiKey = auth {
                #expect(reply.errorCode == 44, "\(auth): \(reply.text)")
            } else {
                #expect(reply.errorCode == 40, "\(auth): \(reply.text)")
            }
        }

        // The person's other app password, remembered, then changed by the shell.
        let phone = Rest(server: server, person: person)
        let auth = Auth.token(salt: "kept")
        for _ in 0..<3 { #expect(try await phone.call("ping", auth: auth).isOK) }
        try await shell(server, ["user", "disable", person.email])
        let disabled = try await phone.call("ping", auth: auth)
        #expect(disabled.errorCode == 40 && disabled.errorMessage.contains("disabled"), "\(disabled.text)")
        try await shell(server, ["user", "enable", person.email])
        #expect(try await phone.call("ping", auth: auth).isOK)
        try await shell(server, ["user", "delete", person.email])
        #expect(try await phone.call("ping", auth: auth).errorCode == 40)
        #expect(try await phone.call("ping", auth: .apiKey).errorCode == 44)
    }

    /// Searches and albums' genres are kept, but a finished scan is a new library: what it added is found at
    /// once, what it removed is gone. A person's stars are never kept.
    @Test func keptSearchesFollowTheLibraryAndStarsAreFresh() async throws {
        let music = temporaryFolder()
        try await song(in: music, named: "1.mp3", title: "Quokka Morning")
        let server = try await TestServer.start(extraArguments: ["--music", music])
        defer { server.stop() }
        let admin = Rest(server: server, person: try await SubsonicWorld.person(on: server, index: 0))
        func found() async throws -> [String] {
            let reply = try await admin.ok(
                "search3", [("query", "Quokka"), ("artistCount", "0"), ("albumCount", "0")])
            return (reply["searchResult3"]["song"] as? [[String: Any]] ?? []).compactMap {
                $0["title"] as? String
            }
        }
        func genres() async throws -> [String] {
            let list = try await admin.ok("getAlbumList2", [("type", "alphabeticalByName"), ("size", "500")])
            let pouch = (list["albumList2"]["album"] as? [[String: Any]] ?? []).first {
                $0["name"] as? String == "Pouch"
            }
            return (pouch?["genres"] as? [[String: String]] ?? []).compactMap { $0["name"] }
        }
        #expect(try await found() == ["Quokka Morning"])
        #expect(try await found() == ["Quokka Morning"])
        #expect(try await genres() == ["Jazz"])
        #expect(try await genres() == ["Jazz"])

        let id = try #require(
            Rest.ids(try await admin.ok("search3", [("query", "Quokka")])["searchResult3"]["song"]).first)
        try await admin.ok("star", [("id", id)])
        let starred = try await admin.ok("search3", [("query", "Quokka")])
        #expect((starred["searchResult3"]["song"] as? [[String: Any]])?.first?["starred"] != nil)

        try await song(in: music, named: "2.mp3", title: "Quokka Evening", genre: "Blues")
        try await rescan(admin)
        #expect(try await found().sorted() == ["Quokka Evening", "Quokka Morning"])
        #expect(try await genres() == ["Blues", "Jazz"])

        try FileManager.default.removeItem(atPath: music + "/1.mp3")
        try await rescan(admin)
        #expect(try await found() == ["Quokka Evening"])
        #expect(try await genres() == ["Blues"])
    }

    /// getAlbum and an album's directory take the album's plays and genres from its songs: they agree with
    /// the lists, which read them with queries of their own.
    @Test func anAlbumsOwnPageAgreesWithTheLists() async throws {
        let (server, _) = try await SubsonicWorld.shared.server()
        let rest = Rest(server: server, person: try await SubsonicWorld.shared.newPerson())
        let albums = try await rest.ok("getAlbumList2", [("type", "alphabeticalByName"), ("size", "500")])
        let album = try #require(
            (albums["albumList2"]["album"] as? [[String: Any]] ?? []).first {
                ($0["songCount"] as? Int ?? 0) >= 2 && ($0["genres"] as? [Any])?.isEmpty == false
            })
        let albumID = try #require(album["id"] as? String)
        let songs = Rest.ids(try await rest.ok("getAlbum", [("id", albumID)])["album"]["song"])
        let earlier = String(Int64(Date().timeIntervalSince1970 - 7_200) * 1_000)
        try await rest.ok("scrobble", [("id", songs[0]), ("time", earlier), ("submission", "true")])
        try await rest.ok("scrobble", [("id", songs[1]), ("submission", "true")])

        let page = try await rest.ok("getAlbum", [("id", albumID)])["album"]
        let listed = try #require(
            (try await rest.ok("getAlbumList2", [("type", "recent")])["albumList2"]["album"]
                as? [[String: Any]])?
                .first { $0["id"] as? String == albumID })
        #expect(page["playCount"] as? Int == 2 && listed["playCount"] as? Int == 2)
        for key in [
            "played", "genre", "year", "songCount", "duration", "created", "musicBrainzId", "displayArtist",
        ] {
            #expect(page[key] as? NSObject == listed[key] as? NSObject, "\(key)")
        }
        #expect((page["genres"] as? [[String: String]]) == (listed["genres"] as? [[String: String]]))
        let directory = try await rest.ok("getMusicDirectory", [("id", albumID)])["directory"]
        #expect(directory["playCount"] as? Int == 2 && Rest.ids(directory["child"]) == songs)
    }

    // MARK: Pieces

    @Test func theCatalogCacheKeepsOneGenerationAndForgetsOnTime() {
        let now = Mutex(1_000.0)
        let cache = SubsonicCatalogCache(searchSeconds: 30, capacity: 2, clock: { now.withLock { $0 } })
        let key = SubsonicCatalogCache.SearchKey(index: .song, query: "a", offset: 0, count: 20)
        var searches = 0
        func search(_ generation: Int64?) -> [Int64] {
            cache.searchIDs(key, generation: generation) {
                searches += 1
                return [Int64(searches)]
            }
        }
        #expect(search(5) == [1])
        #expect(search(5) == [1], "kept")
        #expect(search(nil) == [2], "a scan runs: searched, not kept")
        #expect(search(4) == [3], "an older snapshot: searched")
        #expect(search(5) == [1], "and not kept over the newer generation")
        #expect(search(6) == [4], "a new generation drops what was kept")
        now.withLock { $0 += 31 }
        #expect(search(6) == [5], "expired")
        for query in ["b", "c", "d"] {
            _ = cache.searchIDs(.init(index: .album, query: query, offset: 0, count: 20), generation: 6) {
                []
            }
        }
        #expect(cache.searchesKept <= 2)

        var asked: [[Int64]] = []
        func facts(_ ids: [Int64], _ generation: Int64?) -> [Int64: SubsonicStore.AlbumFacts] {
            cache.albumFacts(ids, generation: generation) { missing in
                asked.append(missing)
                return Dictionary(uniqueKeysWithValues: missing.map { ($0, .init(genres: ["g\($0)"])) })
            }
        }
        #expect(facts([1, 2], 6)[2]?.genres == ["g2"])
        #expect(facts([2, 3], 6).count == 2 && asked == [[1, 2], [3]], "only what is not kept is read")
        #expect(facts([1], nil)[1] != nil && asked.last == [1], "a scan runs: read")
        _ = facts([1], 7)
        #expect(asked.last == [1] && cache.albumFactsKept == 1, "a new generation reads again")
        #expect(cache.searchesKept == 0, "and forgets the searches too")
    }

    @Test func verifiedCredentialsAreKeptByDigestForAWhile() {
        let verified = VerifiedCredentials(lifetime: 60, capacity: 2)
        let token = SubsonicCredentials.token(username: "Ann", token: "ABCDEF", salt: "s1")
        let digest = verified.digest(token, usernameKey: "ann")
        #expect(
            digest
                == verified.digest(.token(username: "ANN", token: "abcdef", salt: "s1"), usernameKey: "ann"))
        #expect(
            digest
                != verified.digest(.token(username: "Ann", token: "abcdef", salt: "s2"), usernameKey: "ann"))
        #expect(
            digest
                != verified.digest(.token(username: "Bob", token: "abcdef", salt: "s1"), usernameKey: "bob"))
        #expect(
            verified.digest(.password(username: "Ann", password: [1, 2]), usernameKey: "ann")
                != verified.digest(.apiKey("0102"), usernameKey: ""))
        #expect(verified.passwordID(digest, now: 0) == nil)
        verified.remember(digest, passwordID: 7, now: 0)
        #expect(verified.passwordID(digest, now: 59) == 7)
        #expect(verified.passwordID(digest, now: 60) == nil, "expired")
        verified.remember(digest, passwordID: 7, now: 100)
        verified.forget(passwordID: 7)
        #expect(verified.passwordID(digest, now: 101) == nil, "revoked")
        for index in 0..<5 {
            verified.remember(Array(repeating: UInt8(index), count: 32), passwordID: Int64(index), now: 200)
        }
        #expect(verified.count <= 2)
    }

    @Test func theIndexLettersOfASCIINamesAreFoundationsFolding() {
        for name in [
            "The Beatles", "  the  Who ", "Los Lobos", "El", "ABBA", "a-ha", "10cc", "!!!", "The", "Leß",
            "Élodie", "Ｚｅｄｄ", "Ñu", "", " ", "Thé Band", "Les Rita Mitsouko", "tHE tHE", "3歌手",
        ] {
            var reference = name.trimmingCharacters(in: .whitespaces)
            for article in SubsonicService.ignoredArticles
            where reference.lowercased().hasPrefix(article.lowercased() + " ") {
                reference = String(reference.dropFirst(article.count + 1)).trimmingCharacters(
                    in: .whitespaces)
                break
            }
            let folded = reference.folding(
                options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            let first = folded.unicodeScalars.first.map { Character($0).uppercased() } ?? "#"
            let letter = first.count == 1 && first >= "A" && first <= "Z" ? first : "#"
            let entry = SubsonicService.indexEntry(name)
            #expect(entry.letter == letter && entry.key == folded.lowercased(), "\(name)")
        }
        // Chinese names by their pinyin: the initial's letter, the syllables as the key.
        let singer = SubsonicService.indexEntry("歌手3")
        #expect(singer.letter == "G" && singer.key == "ge shou 3")
        let jay = SubsonicService.indexEntry("The 周杰伦")
        #expect(jay.letter == "Z" && jay.key == "zhou jie lun")
        for text in [
            "", " ", "a", " a", "a ", "\ta\t", "\u{3000}a\u{00A0}", "ab c", "é", " é ", "歌手3", "\u{180E}a",
            "a\u{200B}", "\u{FEFF}a", "a\u{2028}", "\na\r", "\u{2009}x\u{202F}", "\u{1680}",
        ] {
            #expect(
                trimmedOfSpaces(text) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)"
            )
        }
        #expect(SubsonicStore.idList([]) == "[]" && SubsonicStore.idList([3, -1, 12]) == "[3,-1,12]")
        for number: Int64 in [0, 7, -1, 10, 1_234_567, .min, .max] {
            var bytes: [UInt8] = [1]
            bytes.appendDecimal(number)
            #expect(bytes == [1] + Array(String(number).utf8))
        }
        for path in [
            "/a/b/c.mp3", "/a/b/.mp3", "/a/b.c/d", "/a/b/c.", "/a/b/c.tar.GZ", "c.flac", "/a/b/c..mp3",
            "/a/b/c/",
            "/a/b/c.mp3/", "", "/", ".", "..", "/a/.b.mp3", "/a/b/c.m p3", "/a/b/c.é",
        ] {
            #expect(SubsonicShapes.pathExtension(path) == (path as NSString).pathExtension, "\(path)")
            #expect(SubsonicShapes.contentType(path) == mimeType(forPath: path), "\(path)")
            #expect(SubsonicShapes.contentType(path) == mimeType(forPath: path), "\(path), found again")
        }
        for name in ["Ann", "ÀNN", "Ｌｉｓｔｅｎｅｒ"] {
            #expect(AppPasswordService.nicknameKey(name) == AccountRules.nicknameKey(name), "\(name)")
        }
    }
}

/// Runs `cloudmusic-server ARGUMENTS --data <the server's folder>` (another process on the same database).
func shell(_ server: TestServer, _ arguments: [String]) async throws {
    let data = server.dataFolder
    let (status, output) = try await offThread { () -> (Int32, String) in
        let process = Process()
        process.executableURL = serverBinary()
        process.arguments = arguments + ["--data", data]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
    try #require(status == 0, "\(arguments): \(output)")
}

/// A three-second tone with a title (and an album and genre), written by ffmpeg.
func song(
    in folder: String, named name: String, title: String, album: String = "Pouch", genre: String = "Jazz",
    artist: String = "Marsupials"
) async throws {
    let path = folder + "/" + name
    let status = try await offThread { () -> Int32 in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3",
            "-metadata", "title=\(title)", "-metadata", "artist=\(artist)", "-metadata", "album=\(album)",
            "-metadata", "genre=\(genre)", "-c:a", "libmp3lame", path,
        ]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
    try #require(status == 0, "ffmpeg could not write \(path)")
}

/// Starts a scan as the administrator and waits until it has finished.
func rescan(_ admin: Rest) async throws {
    try await admin.ok("startScan")
    for _ in 0..<1_200 {
        let status = try await admin.ok("getScanStatus")
        if status["scanStatus"]["scanning"] as? Bool == false { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("the scan did not finish in a minute")
}
