import Foundation
import HTTPServer
import Testing

/// A folder with files of known bytes and a known modification time.
private final class MediaFolder: Sendable {
    let path: String
    let song: Data
    static let mtime = 1_700_000_000  // Tue, 14 Nov 2023 22:13:20 GMT
    static let lastModified = "Tue, 14 Nov 2023 22:13:20 GMT"

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("httpfiles-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        song = Data((0..<1000).map { UInt8($0 % 251) })
        try write("song.mp3", song)
        try write("lyric.LRC", Data("[00:01.00]hi".utf8))
        try write("blob", Data(repeating: 9, count: 10))
        try write("empty.txt", Data())
        try FileManager.default.createDirectory(atPath: path + "/dir.mp3", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/public", withIntermediateDirectories: true)
        try write("public/inside.txt", Data("inside".utf8))
    }

    /// 3 MB that don't repeat with a short period.
    static let bigBytes: Data = {
        var d = Data(count: 3_000_000)
        d.withUnsafeMutableBytes { p in
            var x: UInt32 = 2_463_534_242
            for i in 0..<p.count {
                x ^= x << 13
                x ^= x >> 17
                x ^= x << 5
                p[i] = UInt8(truncatingIfNeeded: x)
            }
        }
        return d
    }()

    func write(_ name: String, _ data: Data) throws {
        let p = path + "/" + name
        try data.write(to: URL(fileURLWithPath: p))
        var times = [
            timespec(tv_sec: MediaFolder.mtime, tv_nsec: 0), timespec(tv_sec: MediaFolder.mtime, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, p, &times, 0) == 0)
    }

    func routes(_ r: Router) {
        let dir = path
        r.get("/media/*name") { req in try .file(at: dir + "/" + (try req.parameter("name")), request: req) }
        r.get("/public/*name") { req in
            try .file(at: dir + "/public/" + (try req.parameter("name")), request: req)
        }
        r.get("/typed/*name") { req in
            try .file(
                at: dir + "/" + (try req.parameter("name")), contentType: "audio/x-custom", request: req)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

@Suite struct FileTests {
    @Test func wholeFileWithValidators() async throws {
        let m = try MediaFolder()
        try await withServer(routes: m.routes) { s in
            let r = try await fetch(s.port, "/media/song.mp3")
            #expect(r.status == 200)
            #expect(r.body == m.song)
            #expect(r.header("Content-Length") == "1000")
            #expect(r.header("Content-Type") == "audio/mpeg")
            #expect(r.header("Accept-Ranges") == "bytes")
            #expect(r.header("Last-Modified") == MediaFolder.lastModified)
            let etag = r.header("ETag") ?? ""
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 4)
            // Stable across requests.
            let again = try await fetch(s.port, "/media/song.mp3")
            #expect(again.header("ETag") == etag)

            #expect(
                try await fetch(s.port, "/media/lyric.LRC").header("Content-Type")
                    == "text/plain; charset=utf-8")
            #expect(
                try await fetch(s.port, "/media/blob").header("Content-Type") == "application/octet-stream")
            #expect(try await fetch(s.port, "/typed/song.mp3").header("Content-Type") == "audio/x-custom")

            let empty = try await fetch(s.port, "/media/empty.txt")
            #expect(empty.status == 200)
            #expect(empty.header("Content-Length") == "0")
            #expect(empty.body.isEmpty)

            let missing = try await fetch(s.port, "/media/nope.mp3")
            #expect(missing.status == 404)
            #expect(missing.text == #"{"status":404,"message":"That file does not exist."}"#)

            let dir = try await fetch(s.port, "/media/dir.mp3")
            #expect(dir.status == 404)
        }
    }

    @Test func dotSegmentsCannotLeaveTheFolder() async throws {
        let m = try MediaFolder()
        try await withServer(routes: m.routes) { s in
            #expect(try await fetch(s.port, "/public/inside.txt").text == "inside")
            for target in [
                "/public/../song.mp3", "/public/%2E%2E/song.mp3", "/public/%2e%2e/song.mp3",
                "/public/..%2Fsong.mp3",
                "/public/x%2F..%2F..%2Fsong.mp3", "/public/./../song.mp3", "/public/a/../../song.mp3",
            ] {
                let r = try await fetch(s.port, target)
                #expect(r.status == 400, "\(target)")
                #expect(r.body != m.song, "\(target)")
                #expect(r.json["status"] as? Int == 400, "\(target)")
            }
            // Dots inside names are fine.
            #expect(try await fetch(s.port, "/media/song.mp3").status == 200)
            #expect(try await fetch(s.port, "/public/..inside.txt").status == 404)
            #expect(try await fetch(s.port, "/public/...").status == 404)
        }
    }

    @Test func bigFile() async throws {
        let m = try MediaFolder()
        try m.write("big.flac", MediaFolder.bigBytes)
        try await withServer(routes: m.routes) { s in
            let r = try await fetch(s.port, "GET", "/media/big.flac", timeout: 10)
            #expect(r.status == 200)
            #expect(r.body.count == 3_000_000)
            #expect(r.body == MediaFolder.bigBytes)
            let tail = try await fetch(s.port, "/media/big.flac", headers: [("Range", "bytes=2000000-")])
            #expect(tail.status == 206)
            #expect(tail.body == MediaFolder.bigBytes.suffix(1_000_000))
        }
    }

    @Test(arguments: [
        ("bytes=10-19", 10, 19),
        ("bytes=990-", 990, 999),
        ("bytes=-100", 900, 999),
        ("bytes=-5000", 0, 999),
        ("bytes=995-2000", 995, 999),
        ("bytes=0-0", 0, 0),
        ("bytes=999-999", 999, 999),
    ])
    func ranges(header: String, start: Int, end: Int) async throws {
        let m = try MediaFolder()
        try await withServer(routes: m.routes) { s in
            let r = try await fetch(s.port, "/media/song.mp3", headers: [("Range", header)])
            #expect(r.status == 206)
            #expect(r.header("Content-Range") == "bytes \(start)-\(end)/1000")
            #expect(r.header("Content-Length") == String(end - start + 1))
            #expect(r.header("Content-Type") == "audio/mpeg")
            #expect(r.body == m.song.subdata(in: start..<(end + 1)))
        }
    }

    @Test func unsatisfiableAndIgnoredRanges() async throws {
        let m = try MediaFolder()
        try await withServer(routes: m.routes) { s in
            for h in ["bytes=1000-", "bytes=5000-6000", "bytes=-0"] {
                let r = try await fetch(s.port, "/media/song.mp3", headers: [("Range", h)])
                #expect(r.status == 416, "\(h)")
                #expect(r.header("Content-Range") == "bytes */1000", "\(h)")
                #expect(r.header("Content-Type") == "application/json; charset=utf-8")
                #expect(r.json["status"] as? Int == 416)
            }
            let emptyFile = try await fetch(s.port, "/media/empty.txt", headers: [("Range", "bytes=0-")])
            #expect(emptyFile.status == 416)
            #expect(emptyFile.header("Content-Range") == "bytes */0")

            // Malformed or multiple ranges: the whole file.
            for h in ["bytes=5-2", "bytes=0-1,5-6", "items=0-5", "bytes=abc"] {
                let r = try await fetch(s.port, "/media/song.mp3", headers: [("Range", h)])
                #expect(r.status == 200, "\(h)")
                #expect(r.body == m.song, "\(h)")
                #expect(r.header("Content-Range") == nil)
            }
        }
    }

    @Test func conditionalRequests() async throws {
        let m = try MediaFolder()
        try await withServer(routes: m.routes) { s in
            let etag = try await fetch(s.port, "HEAD", "/media/song.mp3").header("ETag") ?? "?"

            for inm in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let r = try await fetch(s.port, "/media/song.mp3", headers: [("If-None-Match", inm)])
                #expect(r.status == 304, "\(inm)")
                #expect(r.header("ETag") == etag)
                #expect(r.body.isEmpty)
            }
            let changed = try await fetch(
                s.port, "/media/song.mp3", headers: [("If-None-Match", "\"other\"")])
            #expect(changed.status == 200)
            #expect(changed.body == m.song)

            let same = try await fetch(
                s.port, "/media/song.mp3", headers: [("If-Modified-Since", MediaFolder.lastModified)])
            #expect(same.status == 304)
            #expect(same.header("Last-Modified") == MediaFolder.lastModified)
            let later = try await fetch(
                s.port, "/media/song.mp3", headers: [("If-Modified-Since", "Wed, 15 Nov 2023 00:00:00 GMT")])
            #expect(later.status == 304)
            let earlier = try await fetch(
                s.port, "/media/song.mp3", headers: [("If-Modified-Since", "Tue, 14 Nov 2023 22:13:19 GMT")])
            #expect(earlier.status == 200)
            #expect(earlier.body == m.song)
            let garbage = try await fetch(
                s.port, "/media/song.mp3", headers: [("If-Modified-Since", "yesterday")])
            #expect(garbage.status == 200)

            // If-None-Match wins over If-Modified-Since.
            let both = try await fetch(
                s.port, "/media/song.mp3",
                headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", MediaFolder.lastModified)])
            #expect(both.status == 200)
        }
    }

    @Test func ifRange() async throws {
        let m = try MediaFolder()
        try await withServer(routes: m.routes) { s in
            let etag = try await fetch(s.port, "/media/song.mp3").header("ETag") ?? "?"

            let fresh = try await fetch(
                s.port, "/media/song.mp3", headers: [("Range", "bytes=0-9"), ("If-Range", etag)])
            #expect(fresh.status == 206)
            #expect(fresh.body == m.song.prefix(10))

            let stale = try await fetch(
                s.port, "/media/song.mp3", headers: [("Range", "bytes=0-9"), ("If-Range", "\"stale\"")])
            #expect(stale.status == 200)
            #expect(stale.body == m.song)

            let weak = try await fetch(
                s.port, "/media/song.mp3", headers: [("Range", "bytes=0-9"), ("If-Range", "W/\(etag)")])
            #expect(weak.status == 200)

            let date = try await fetch(
                s.port, "/media/song.mp3",
                headers: [("Range", "bytes=0-9"), ("If-Range", MediaFolder.lastModified)])
            #expect(date.status == 206)
            let otherDate = try await fetch(
                s.port, "/media/song.mp3",
                headers: [("Range", "bytes=0-9"), ("If-Range", "Wed, 15 Nov 2023 00:00:00 GMT")])
            #expect(otherDate.status == 200)
        }
    }

    @Test func head() async throws {
        let m = try MediaFolder()
        try await withServer(routes: m.routes) { s in
            let r = try await fetch(s.port, "HEAD", "/media/song.mp3")
            #expect(r.status == 200)
            #expect(r.header("Content-Length") == "1000")
            #expect(r.header("Content-Type") == "audio/mpeg")
            #expect(r.header("Accept-Ranges") == "bytes")
            #expect(r.header("Last-Modified") == MediaFolder.lastModified)
            #expect(r.body.isEmpty)

            let ranged = try await fetch(
                s.port, "HEAD", "/media/song.mp3", headers: [("Range", "bytes=100-109")])
            #expect(ranged.status == 206)
            #expect(ranged.header("Content-Length") == "10")
            #expect(ranged.header("Content-Range") == "bytes 100-109/1000")

            // HEAD leaves a keep-alive connection usable: no body bytes are sent.
            let pair = try await onThread {
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("HEAD", "/media/song.mp3", keepAlive: true))
                let h = try c.readResponse(head: true)
                try c.send(requestBytes("GET", "/media/blob"))
                let g = try c.readResponse()
                return (h.status, g.status, g.body)
            }
            #expect(pair.0 == 200)
            #expect(pair.1 == 200)
            #expect(pair.2 == Data(repeating: 9, count: 10))
        }
    }
}
