import AudioMetadata
import Foundation
import HTTPServer
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ffmpeg processes whose parent is `pid`.
func ffmpegChildren(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { name -> Int32? in
        guard let child = Int32(name),
            let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        let command = stat[stat.index(after: open)..<close]
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard command == "ffmpeg", fields.count > 1, Int32(fields[1]) == pid else { return nil }
        return child
    }
}

/// A raw TCP connection to the loopback server, for a client that stops reading or goes away.
final class RawConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw UsageError(message: "connect failed: \(errno)") }
    }

    func send(_ text: String) {
        _ = text.withCString { Foundation.send(fd, $0, strlen($0), 0) }
    }

    /// Reads until the end of the response headers and returns them.
    func readHeaders() -> String {
        var seen: [UInt8] = []
        var byte: UInt8 = 0
        while Foundation.recv(fd, &byte, 1, 0) == 1 {
            seen.append(byte)
            if seen.suffix(4) == [13, 10, 13, 10] { break }
        }
        return String(decoding: seen, as: UTF8.self)
    }

    func close() { Foundation.close(fd) }
}

@Suite(.serialized) struct ServerRecoveryTests {
    @Test func transcodesAreCappedAndEndWithTheirClient() async throws {
        let root = temporaryFolder()
        // Long enough that ffmpeg blocks on a client that stops reading.
        try makeTrack(root + "/Long/Song/01.flac", title: "Long", artist: "Long", album: "Song", seconds: 300)
        let server = try await TestServer.start(
            .empty, extraArguments: ["--music", root, "--max-transcodes", "1"])
        try await server.waitForScan()
        let songs = try await server.json("/v1/songs")["data"] as! [String: Any]
        let id = ((songs["data"] as! [[String: Any]]).first!["id"] as! String)

        let slow = try RawConnection(port: server.port)
        slow.send("GET /v1/songs/\(id)/stream?format=mp3&maxBitRate=320 HTTP/1.1\r\nHost: x\r\n\r\n")
        let headers = slow.readHeaders()
        #expect(headers.hasPrefix("HTTP/1.1 200"))
        #expect(headers.lowercased().contains("transfer-encoding: chunked"))
        var running = 0
        _ = await eventually {
            running = ffmpegChildren(of: server.child.pid).count
            return running > 0
        }
        #expect(running == 1)

        let (busy, body, response) = try await server.request("/v1/songs/\(id)/stream?format=opus")
        #expect(busy == 429)
        #expect(response.value(forHTTPHeaderField: "Retry-After") == "5")
        let envelope = try JSONSerialization.jsonObject(with: body) as! [String: Any]
        #expect((envelope["message"] as? String)?.contains("busy") == true)
        // The original file is never capped.
        #expect(try await server.request("/v1/songs/\(id)/stream", headers: ["Range": "bytes=0-9"]).0 == 206)

        slow.close()
        let gone = await eventually { ffmpegChildren(of: server.child.pid).isEmpty }
        #expect(gone, "ffmpeg kept running after its client went away")
        // The slot is free again: a short transcode from near the end completes. The slot is released
        // when the stream's producer has finished, a moment after ffmpeg is reaped.
        var (status, mp3) = (0, Data())
        _ = await eventually {
            guard let answer = try? await server.request("/v1/songs/\(id)/stream?format=mp3&timeOffset=298")
            else { return false }
            (status, mp3) = (answer.0, answer.1)
            return status != 429
        }
        #expect(status == 200)
        #expect(mp3.count > 1_000 && mp3.count < 200_000)
        #expect(server.stop() == 0)
    }

    @Test func aScanKilledHalfwayLeavesAUsableLibraryAndTheNextScanFinishes() async throws {
        let root = temporaryFolder()
        let trackCount = 1_500
        let data = temporaryFolder()
        try LibraryGenerator.makeBenchmarkLibrary(at: root, trackCount: trackCount)
        // The scan stops itself halfway through its second batch's transaction (500 songs a batch): the kill
        // lands with the first batch committed and the second half written, whatever the machine's load.
        var environment = ProcessInfo.processInfo.environment
        environment["CLOUDMUSIC_SCAN_STOP_IN_BATCH"] = "2"
        let scan = try ChildProcess(
            serverBinary().path, ["scan", "--music", root, "--data", data], environment: environment)
        var seenWhenKilled = 0
        var watcher: Database?
        while scan.isRunning {
            if watcher == nil, FileManager.default.fileExists(atPath: data + "/cloudmusic.sqlite") {
                watcher = try? Database(path: data + "/cloudmusic.sqlite")
            }
            if let database = watcher,
                let count = try? database.read({
                    try $0.queryOne("SELECT count(*) FROM songs") { try $0.int(0) }
                }) ?? 0,
                count > 0
            {
                scan.signal(SIGKILL)
                seenWhenKilled = count
                break
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let reason = await scan.exit()
        try #require(reason == .signalled(SIGKILL), "the scan finished before it could be killed")
        #expect(seenWhenKilled < trackCount)

        let database = try Database(path: data + "/cloudmusic.sqlite")
        #expect(try database.read { try $0.queryOne("PRAGMA integrity_check") { try $0.string(0) } } == "ok")
        let (code, output, errors) = try await runServerCommand(["scan", "--music", root, "--data", data])
        #expect(code == 0, "\(errors)")
        #expect(output.contains("0 removed"))
        let songs = try database.read { try $0.queryOne("SELECT count(*) FROM songs") { try $0.int(0) } }
        #expect(songs == trackCount)
        let catalog = LibraryService(
            database: database, files: FileRoots(["/"], logger: Logger(level: .error)))
        #expect(try catalog.search("月光", limit: 5).songs.isEmpty == false)
    }

    @Test func serveWithoutAMusicFolderGeneratesAndServesTheDemoLibrary() async throws {
        let server = try await TestServer.start(.builtInDemo)
        try await server.waitForScan()
        let songs = try await server.json("/v1/songs?size=50")["data"] as! [String: Any]
        #expect(songs["total"] as? Int == 30)
        let list = songs["data"] as! [[String: Any]]
        #expect(
            Set(list.compactMap { $0["format"] as? String }) == ["mp3", "flac", "ogg", "opus", "m4a", "wav"])
        let karaoke = try #require(list.first { $0["title"] as? String == "雨后彩虹" })
        #expect(karaoke["style"] as? Int == 10)
        let lyric =
            try await server.json("/v1/songs/\(karaoke["id"] as! String)/lyric")["data"] as! [String: Any]
        let lines = lyric["lines"] as! [[String: Any]]
        #expect(lines.count == 4)
        #expect((lines.first?["words"] as? [[String: Any]])?.count == 7)
        let report =
            (try await server.json("/v1/library/scan")["data"] as! [String: Any])["lastReport"]
            as! [String: Any]
        #expect(report["failed"] as? Int == 0)
        for album in (try await server.json("/v1/albums?size=50")["data"] as! [String: Any])["data"]
            as! [[String: Any]]
        {
            let (status, cover, _) = try await server.request(
                "/v1/albums/\(album["id"] as! String)/cover?size=128")
            if album["title"] as? String == "未整理" { continue }
            #expect(status == 200, "no cover for \(album["title"] ?? "")")
            #expect(cover.prefix(2) == Data([0xFF, 0xD8]))
        }
        #expect(server.stop() == 0)
    }
}
