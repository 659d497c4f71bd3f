import CloudMusicKit
import Foundation
import MusicCore
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The DownloadManager against the real server: resume after a killed process, after a dropped
/// connection, after the file changed; size checks; the quota; the queue's limit; list and delete.
@Suite struct DownloadTests {
    /// The largest demo song and its bytes as the server sends them whole.
    static func largestSong(_ server: TestServer) async throws -> (song: Song, url: URL, bytes: Data) {
        let client = APIClient(baseURL: server.baseURL)
        let songs = try await MusicRepository(client: client).songs(size: 100).data
        var best: (Song, URL, Data)?
        for song in songs where ["flac", "wav"].contains(song.format) {
            let url = client.url(for: song.uri)
            let (data, _) = try await URLSession.shared.data(from: url)
            if data.count > (best?.2.count ?? 0) { best = (song, url, data) }
        }
        let found = try #require(best)
        return (found.0, found.1, found.2)
    }

    static func fileSize(_ url: URL) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
    }

    @Test func aDownloadKilledHalfwayResumesToAByteIdenticalFile() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (song, url, whole) = try await Self.largestSong(server)
        #expect(whole.count > 500_000)
        let folder = URL(fileURLWithPath: temporaryFolder())
        let storePath = folder.appendingPathComponent("client.sqlite").path
        let downloads = folder.appendingPathComponent("downloads")
        let part = downloads.appendingPathComponent("\(song.id).part")

        // A separate process downloads at 100 kB/s; kill -9 it once some bytes are on disk.
        let process = try ChildProcess(
            serverBinary().deletingLastPathComponent().appendingPathComponent("kit-download-torture").path,
            [storePath, downloads.path, url.absoluteString, song.id, "100000"])
        var waited = 0
        while Self.fileSize(part) < 150_000 && waited < 300 && process.isRunning {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        process.signal(SIGKILL)
        #expect(await process.exit() == .signalled(SIGKILL))
        let keptBytes = Self.fileSize(part)
        #expect(
            keptBytes > 0 && keptBytes < Int64(whole.count), "killed midway: \(keptBytes) of \(whole.count)")

        // A new manager over the same store and folder picks it up where it stopped.
        let manager = try DownloadManager(store: try LocalStore(path: storePath), folder: downloads)
        #expect(try manager.item(songID: song.id)?.state == .downloading)
        let events = await manager.events()
        try await manager.resumeInterrupted()
        let item = try #require(await manager.waitUntilSettled(songID: song.id))
        #expect(item.state == .completed, "\(item.error ?? "")")
        let file = try #require(manager.localFile(songID: song.id))
        #expect(try Data(contentsOf: file) == whole)
        #expect(!FileManager.default.fileExists(atPath: part.path))
        #expect(item.bytesTotal == Int64(whole.count))

        // It resumed with a range: its first progress already counts the bytes kept from before the kill.
        var firstProgress: Int64?
        for await event in events {
            if case .progress(_, let done, _) = event {
                firstProgress = done
                break
            }
        }
        #expect((firstProgress ?? 0) > keptBytes)
    }

    @Test func aChangedFileOnTheServerStartsOver() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (song, url, whole) = try await Self.largestSong(server)
        let folder = URL(fileURLWithPath: temporaryFolder())
        let store = try LocalStore(path: folder.appendingPathComponent("client.sqlite").path)
        var options = DownloadManager.Options()
        options.maxBytesPerSecond = 200_000
        let manager = try DownloadManager(store: store, folder: folder, options: options)
        try await manager.enqueue(songID: song.id, url: url, fileExtension: song.format)
        let part = folder.appendingPathComponent("\(song.id).part")
        while Self.fileSize(part) < 100_000 { try await Task.sleep(for: .milliseconds(20)) }
        try await manager.pause(songID: song.id)
        #expect(try manager.item(songID: song.id)?.state == .paused)
        let kept = Self.fileSize(part)

        // As if the file had changed since: the saved ETag no longer matches, so If-Range gets a 200.
        try store.database.write { db in
            _ = try db.execute(
                "UPDATE downloads SET etag = '\"changed\"', last_modified = NULL WHERE song_id = ?", song.id)
        }
        var options2 = DownloadManager.Options()
        options2.maxBytesPerSecond = nil
        let fresh = try DownloadManager(store: store, folder: folder, options: options2)
        let events = await fresh.events()
        try await fresh.resume(songID: song.id)
        let item = try #require(await fresh.waitUntilSettled(songID: song.id))
        #expect(item.state == .completed, "\(item.error ?? "")")
        #expect(try Data(contentsOf: try #require(fresh.localFile(songID: song.id))) == whole)
        var firstProgress: Int64?
        for await event in events {
            if case .progress(_, let done, _) = event {
                firstProgress = done
                break
            }
        }
        #expect((firstProgress ?? .max) < kept, "started over from byte 0")
    }

    @Test func aDroppedConnectionResumesWithARange() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (song, _, whole) = try await Self.largestSong(server)
        // The first connection through the proxy is cut after 300 kB of answer.
        let proxy = try CuttingProxy(targetPort: server.port, cutFirstAfter: 300_000)
        defer { proxy.stop() }
        let url = URL(string: "http://127.0.0.1:\(proxy.port)/\(song.uri)")!
        let folder = URL(fileURLWithPath: temporaryFolder())
        let manager = try DownloadManager(
            store: try LocalStore(path: folder.appendingPathComponent("client.sqlite").path), folder: folder)
        try await manager.enqueue(songID: song.id, url: url, fileExtension: song.format)
        let item = try #require(await manager.waitUntilSettled(songID: song.id))
        #expect(item.state == .completed, "\(item.error ?? "")")
        #expect(try Data(contentsOf: try #require(manager.localFile(songID: song.id))) == whole)
        #expect(proxy.connections >= 2)
        #expect(proxy.rangeRequests >= 1)
    }

    @Test func aQueuedDownloadCanBePausedAndResumed() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL)
        let folder = URL(fileURLWithPath: temporaryFolder())
        let store = try LocalStore(path: folder.appendingPathComponent("client.sqlite").path)
        var options = DownloadManager.Options()
        options.maxConcurrent = 1
        options.maxBytesPerSecond = 100_000
        let manager = try DownloadManager(store: store, folder: folder, client: client, options: options)
        let songs = Array(try await MusicRepository(client: client).songs(size: 3).data.prefix(3))
        try #require(songs.count == 3)
        for song in songs { try await manager.enqueue(song: song) }
        // One at a time: the second waits in the queue; pausing it keeps it from starting.
        #expect(try manager.item(songID: songs[1].id)?.state == .queued)
        try await manager.pause(songID: songs[1].id)
        #expect(try manager.item(songID: songs[1].id)?.state == .paused)
        #expect(await manager.waitUntilSettled(songID: songs[0].id)?.state == .completed)
        // The queue went on past the paused one: the third, queued after it, ran in its turn.
        #expect(await manager.waitUntilSettled(songID: songs[2].id)?.state == .completed)
        #expect(try manager.item(songID: songs[1].id)?.state == .paused)
        try await manager.resume(songID: songs[1].id)
        #expect(await manager.waitUntilSettled(songID: songs[1].id)?.state == .completed)
    }

    @Test func sizeQuotaQueueListAndDelete() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL)
        let (song, url, whole) = try await Self.largestSong(server)
        let folder = URL(fileURLWithPath: temporaryFolder())
        let store = try LocalStore(path: folder.appendingPathComponent("client.sqlite").path)

        // A size other than expected is refused and leaves nothing behind.
        let checked = try DownloadManager(store: store, folder: folder, client: client)
        try await checked.enqueue(songID: song.id, url: url, expectedSize: Int64(whole.count) + 1)
        let refused = try #require(await checked.waitUntilSettled(songID: song.id))
        #expect(refused.state == .failed)
        #expect(refused.error?.contains("expected") == true)
        #expect(checked.localFile(songID: song.id) == nil)
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(song.id).part").path))
        try await checked.delete(songID: song.id)
        #expect(try checked.list().isEmpty)

        // The queue runs at most two at once; every song completes; list and delete.
        var options = DownloadManager.Options()
        options.maxConcurrent = 2
        options.maxBytesPerSecond = 400_000
        let manager = try DownloadManager(store: store, folder: folder, client: client, options: options)
        let songs = Array(try await MusicRepository(client: client).songs(size: 100).data.prefix(5))
        for song in songs { try await manager.enqueue(song: song) }
        var most = 0
        while try manager.list().contains(where: { $0.state == .queued || $0.state == .downloading }) {
            most = max(most, try manager.list().filter { $0.state == .downloading }.count)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(most <= 2 && most >= 1)
        let list = try manager.list()
        #expect(list.count == songs.count)
        #expect(list.allSatisfy { $0.state == .completed && $0.bytesDone == $0.bytesTotal })
        for song in songs {
            let (data, _) = try await URLSession.shared.data(from: client.url(for: song.uri))
            #expect(try Data(contentsOf: try #require(manager.localFile(songID: song.id))) == data)
        }
        // A complete file removed behind the manager's back is fetched again when enqueued again.
        let lost = try #require(manager.localFile(songID: songs[1].id))
        try FileManager.default.removeItem(at: lost)
        #expect(manager.localFile(songID: songs[1].id) == nil)
        try await manager.enqueue(song: songs[1])
        #expect(await manager.waitUntilSettled(songID: songs[1].id)?.state == .completed)
        #expect(manager.localFile(songID: songs[1].id) == lost)
        let used = try manager.completedBytes()
        let first = try #require(manager.localFile(songID: songs[0].id))
        try await manager.delete(songID: songs[0].id)
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(manager.localFile(songID: songs[0].id) == nil)
        #expect(try manager.list().count == songs.count - 1)

        // The quota refuses a song that does not fit (nothing is evicted).
        var small = DownloadManager.Options()
        small.quotaBytes = used - 1
        let tight = try DownloadManager(store: store, folder: folder, client: client, options: small)
        try await tight.enqueue(song: songs[0])
        let over = try #require(await tight.waitUntilSettled(songID: songs[0].id))
        #expect(over.state == .failed)
        #expect(over.error?.contains("download space") == true)
        #expect(try tight.list().filter { $0.state == .completed }.count == songs.count - 1)
        await #expect(throws: DownloadManager.DownloadError.self) {
            try await tight.enqueue(songID: "x", url: url, expectedSize: used)
        }
    }
}
