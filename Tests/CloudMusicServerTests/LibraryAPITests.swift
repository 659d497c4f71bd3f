import AudioMetadata
import Foundation
import HTTPServer
import MusicCore
import ServerTestSupport
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TestServer {
    func request(_ path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> (
        Int, Data, HTTPURLResponse
    ) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        if method != "HEAD" {
            ContractCheck.check(
                method: method, path: path, status: http.statusCode, body: data,
                contentType: http.value(forHTTPHeaderField: "Content-Type"))
        }
        return (http.statusCode, data, http)
    }

    func json(_ path: String) async throws -> [String: Any] {
        let (_, data, _) = try await request(path)
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    /// Waits for the start-up scan to finish.
    func waitForScan() async throws {
        for _ in 0..<300 {
            let status = try await json("/v1/library/scan")["data"] as? [String: Any] ?? [:]
            if status["running"] as? Bool == false, status["lastReport"] is [String: Any] { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        Issue.record("the scan did not finish")
    }
}

@Suite(.serialized) struct LibraryAPITests {
    static func library() throws -> String {
        let root = temporaryFolder()
        try makeTrack(root + "/林晓/夜空/01.mp3", title: "一时失志", artist: "林晓", album: "夜空", track: 1, seconds: 3)
        FileManager.default.createFile(
            atPath: root + "/林晓/夜空/01.ksc",
            contents: Data("karaoke.add('00:00.500', '00:02.000', '一时失志', '300,400,400,400');\n".utf8))
        try makeTrack(
            root + "/Band/Live/02.flac", title: "Second", artist: "Band", album: "Live", track: 2, seconds: 2)
        try FFmpeg.installed!.run(
            [
                "-f", "lavfi", "-i", "testsrc=size=600x600:duration=1",
                "-frames:v", "1", root + "/Band/Live/cover.jpg",
            ])
        return root
    }

    /// Searches are kept for a while (a broad word is costly to rank), but a finished scan forgets them: a new
    /// song is found at once.
    @Test func aFinishedScanForgetsKeptSearches() async throws {
        let music = try Self.library()
        let server = try await TestServer.start(.empty, extraArguments: ["--music", music])
        defer { _ = server.stop() }
        try await server.waitForScan()
        let before = try await server.json("/v1/searches?q=Gamma")["data"] as! [String: Any]
        #expect((before["songs"] as! [[String: Any]]).isEmpty)
        let (_, _, kept) = try await server.request("/v1/searches?q=Gamma")
        #expect(kept.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=30")
        try makeTrack(
            music + "/Band/Live/03.mp3", title: "Gamma Ray", artist: "Band", album: "Live", track: 3,
            seconds: 1)
        // No one has signed up yet: the first run may start a scan.
        #expect(try await server.call("POST", "/v1/library/scan").status == 202)
        try await server.waitForScan()
        let after = try await server.json("/v1/searches?q=Gamma")["data"] as! [String: Any]
        #expect((after["songs"] as! [[String: Any]]).map { $0["title"] as? String } == ["Gamma Ray"])
        let suggests = try await server.json("/v1/searches/suggests?q=gam")["data"] as! [[String: Any]]
        #expect(suggests.first?["title"] as? String == "Gamma Ray")
    }

    /// Searches and suggestions are written by hand (`SearchJSON`): byte for byte what JSONEncoder writes.
    @Test func searchAnswersMatchJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let awkward = "quote \" backslash \\ slash / tab \t newline \n nul \u{0} 夜曲 🎵 \u{2028}"
        let song = Song(
            id: "42", title: awkward, icon: nil, uri: "v1/songs/42/stream", style: 0, lyric: nil, singer: nil,
            artists: [ArtistSummary(id: "3", name: awkward)], album: nil, genres: [], trackNumber: nil,
            discNumber: nil, year: nil, duration: 1, format: "mp3", bitRate: 1, sampleRate: 1, channels: 1,
            clicksCount: 0, commentsCount: 0, playsCount: 0, createdAt: "2026-12-01T00:00:00Z",
            updatedAt: "2026-12-01T00:00:00Z")
        for full in [true, false] {
            let album = Album(
                id: "7", title: awkward, icon: full ? "v1/albums/7/cover" : nil,
                artist: full ? ArtistSummary(id: "3", name: awkward) : nil, year: full ? 1999 : nil,
                isCompilation: full, songsCount: 12, duration: -5, createdAt: "2026-12-01T00:00:00Z",
                updatedAt: "2026-12-01T00:00:01Z", songs: full ? [song] : nil)
            let artist = Artist(
                id: "3", name: awkward, icon: full ? "x" : nil, songsCount: 1, albumsCount: Int.max,
                createdAt: "2026-12-01T00:00:00Z", updatedAt: "2026-12-01T00:00:00Z",
                albums: full ? [album] : nil, songs: full ? [song] : nil)
            let results = SearchResults(
                songs: full ? [song, song] : [], albums: full ? [album, album] : [],
                artists: full ? [artist] : [])
            #expect(SearchJSON.bytes(results) == Array(try encoder.encode(results)))
            let suggestions = full ? [SearchSuggestion(title: awkward, type: "song", id: "1")] : []
            var json = JSONWriter()
            json.array(suggestions) { $0.value($1) }
            #expect(json.bytes == Array(try encoder.encode(suggestions)))
        }
    }

    @Test func browseDetailLyricsAndErrors() async throws {
        let server = try await TestServer.start(.empty, extraArguments: ["--music", try Self.library()])
        defer { _ = server.stop() }
        try await server.waitForScan()

        let songs = try await server.json("/v1/songs?sort=name&size=1")
        let page = songs["data"] as! [String: Any]
        #expect(page["total"] as? Int == 2)
        #expect(page["pages"] as? Int == 2)
        #expect(page["next"] as? Int == 2)
        let first = (page["data"] as! [[String: Any]])[0]
        #expect(first["title"] as? String == "Second")

        let all = try await server.json("/v1/songs")["data"] as! [String: Any]
        let cjk = (all["data"] as! [[String: Any]]).first { $0["title"] as? String == "一时失志" }!
        let id = cjk["id"] as! String
        #expect(cjk["style"] as? Int == 10)
        let detail = try await server.json("/v1/songs/\(id)")["data"] as! [String: Any]
        #expect((detail["lyric"] as? String)?.hasPrefix("karaoke.add") == true)
        #expect((detail["singer"] as? [String: Any])?["nickname"] as? String == "林晓")

        let lyric = try await server.json("/v1/songs/\(id)/lyric")["data"] as! [String: Any]
        #expect(lyric["format"] as? String == "ksc")
        let lines = lyric["lines"] as! [[String: Any]]
        #expect(lines.count == 1)
        #expect((lines[0]["words"] as! [[String: Any]]).count == 4)

        let (missing, body, _) = try await server.request("/v1/songs/999999")
        #expect(missing == 404)
        let error = try JSONSerialization.jsonObject(with: body) as! [String: Any]
        #expect(error["message"] as? String == "That song does not exist.")
        #expect(try await server.request("/v1/songs/abc").0 == 404)
        #expect(try await server.request("/v1/songs?size=1000").0 == 400)
        #expect(try await server.request("/v1/songs?sort=colour").0 == 400)
        #expect(try await server.request("/v1/searches?q=").0 == 400)

        let search = try await server.json("/v1/searches?q=%E5%A4%B1")["data"] as! [String: Any]
        #expect((search["songs"] as! [[String: Any]]).count == 1)
        let suggests = try await server.json("/v1/searches/suggests?q=sec")["data"] as! [[String: Any]]
        #expect(suggests.first?["title"] as? String == "Second")

        let albums = try await server.json("/v1/albums?sort=name")["data"] as! [String: Any]
        let live = (albums["data"] as! [[String: Any]]).first { $0["title"] as? String == "Live" }!
        let album = try await server.json("/v1/albums/\(live["id"] as! String)")["data"] as! [String: Any]
        #expect((album["songs"] as! [[String: Any]]).count == 1)
        let artists = try await server.json("/v1/artists")["data"] as! [String: Any]
        #expect((artists["data"] as! [[String: Any]]).count == 2)
    }

    @Test func streamingRangesTranscodesAndCovers() async throws {
        let root = try Self.library()
        let server = try await TestServer.start(.empty, extraArguments: ["--music", root])
        defer { _ = server.stop() }
        try await server.waitForScan()
        let all = try await server.json("/v1/songs")["data"] as! [String: Any]
        let flac = (all["data"] as! [[String: Any]]).first { $0["title"] as? String == "Second" }!
        let id = flac["id"] as! String
        let original = try Data(contentsOf: URL(fileURLWithPath: root + "/Band/Live/02.flac"))

        let (status, body, response) = try await server.request(
            "/v1/songs/\(id)/stream", headers: ["Range": "bytes=0-99"])
        #expect(status == 206)
        #expect(body == original.prefix(100))
        #expect(response.value(forHTTPHeaderField: "Content-Range") == "bytes 0-99/\(original.count)")

        let (fullStatus, full, _) = try await server.request("/v1/songs/\(id)/stream")
        #expect(fullStatus == 200)
        #expect(full == original)

        let (mp3Status, mp3, mp3Response) = try await server.request(
            "/v1/songs/\(id)/stream?format=mp3&maxBitRate=64")
        #expect(mp3Status == 200)
        #expect(mp3Response.value(forHTTPHeaderField: "Content-Type") == "audio/mpeg")
        #expect(mp3.count > 5_000)
        #expect(mp3.prefix(3) == Data("ID3".utf8) || mp3.first == 0xFF)

        let (offsetStatus, offset, _) = try await server.request(
            "/v1/songs/\(id)/stream?format=opus&timeOffset=1")
        #expect(offsetStatus == 200)
        #expect(offset.prefix(4) == Data("OggS".utf8))
        #expect(try await server.request("/v1/songs/\(id)/stream?format=wav").0 == 400)
        #expect(try await server.request("/v1/songs/\(id)/stream?timeOffset=-3").0 == 400)

        let (coverStatus, cover, _) = try await server.request("/v1/songs/\(id)/cover?size=100")
        #expect(coverStatus == 200)
        #expect(cover.prefix(2) == Data([0xFF, 0xD8]))
        #expect(try await server.request("/v1/songs/\(id)/cover?size=99999999999").0 == 400)
    }
}
