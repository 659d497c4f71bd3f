import AudioMetadata
import Foundation
import ServerTestSupport
import Testing

@testable import CloudMusicServer

/// Transcodes are capped per client, so clients that open streams and stop reading cannot take every slot
/// from everyone else.
@Suite(.serialized) struct TranscodeSlotTests {
    /// Opens a connection from `source` (any 127/8 address works on loopback), sends a GET and reads only the
    /// status line: the stream then stalls, holding its slot until the server drops it.
    static func stalledReader(port: Int, source: String, path: String) throws -> (fd: Int32, status: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        // A small receive buffer, so the server's writes back up quickly once nobody reads.
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == 0x0A { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (fd, status)
    }

    @Test func stalledReadersCannotTakeEverySlot() async throws {
        // One long song, so a transcode outlasts what the socket buffers can swallow.
        let root = temporaryFolder()
        try FileManager.default.createDirectory(
            atPath: root + "/Band/Long", withIntermediateDirectories: true)
        try FFmpeg.installed!.run([
            "-f", "lavfi", "-i", "sine=frequency=440:duration=600", "-c:a", "libvorbis", "-q:a", "0",
            "-metadata", "title=Long", "-metadata", "artist=Band", "-metadata", "album=Long",
            root + "/Band/Long/01.ogg",
        ])
        let server = try await TestServer.start(
            .empty, extraArguments: ["--max-transcodes", "4", "--music", root])
        defer { _ = server.stop() }
        try await server.waitForScan()
        let songs =
            (try await server.json("/v1/songs?size=5")["data"] as? [String: Any])?["data"] as? [[String: Any]]
            ?? []
        let id = try #require(songs.first?["id"] as? String)
        let path = "/v1/songs/\(id)/stream?format=mp3"
        // Four readers from one address stop reading: only two hold a slot, the others are told why.
        let stalled = try await offPool {
            try (0..<4).map { _ in try Self.stalledReader(port: server.port, source: "127.0.0.2", path: path)
            }
        }
        defer { for reader in stalled { close(reader.fd) } }
        #expect(stalled.map(\.status).sorted() == [200, 200, 429, 429])
        // Someone else still gets a transcode at once.
        let (status, body, _) = try await server.request(path)
        #expect(status == 200)
        #expect(body.count > 1_000)
    }
}
