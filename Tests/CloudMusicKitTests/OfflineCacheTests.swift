import CloudMusicKit
import Foundation
import MusicCore
import ServerTestSupport
import Testing

/// Browse online, stop the server, browse again: the lists come from the LocalStore, marked as cached,
/// and a downloaded song still has its file.
@Suite struct OfflineCacheTests {
    @Test func theLibraryBrowsesOfflineFromTheLastAnswers() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let folder = URL(fileURLWithPath: temporaryFolder())
        let store = try LocalStore(path: folder.appendingPathComponent("client.sqlite").path)
        var configuration = APIClient.Configuration()
        configuration.baseRetryDelay = 0.05
        let client = APIClient(baseURL: server.baseURL, configuration: configuration)
        let repository = MusicRepository(client: client, cache: OfflineCache(store: store))

        // Online: fresh answers, saved as they come (per signed-in person).
        let email = "offline@example.com"
        _ = try await repository.signUp(.email(email), password: "offline-pass-1", nickname: "offline")
        try await repository.login(.email(email), password: "offline-pass-1")
        let songs = try await repository.songs(size: 50)
        #expect(!songs.isFromCache)
        #expect(songs.total > 10)
        let albums = try await repository.albums()
        let artists = try await repository.artists()
        let album = try await repository.album(id: albums.data[0].id)
        let results = try await repository.search("雨")
        let sheet = try await repository.createSheet(SheetDraft(title: "Road trip"))
        _ = try await repository.addSongs(songs.data.prefix(3).map(\.id), toSheet: sheet.id)
        let sheetSongs = try await repository.sheetSongs(id: sheet.id)
        let mine = try await repository.createdSheets(userID: try #require(repository.userID))
        #expect(try OfflineCache(store: store).count() >= 7)

        // A song downloaded while online.
        let downloads = try DownloadManager(
            store: store, folder: folder.appendingPathComponent("downloads"), client: client)
        try await downloads.enqueue(song: songs.data[0])
        #expect(await downloads.waitUntilSettled(songID: songs.data[0].id)?.state == .completed)

        server.stop()

        // Offline: the same answers, marked as from the cache, with when they were fetched.
        let offlineSongs = try await repository.songs(size: 50)
        #expect(offlineSongs.isFromCache)
        #expect(offlineSongs.isStale)
        #expect(offlineSongs.fetchedAt <= Date())
        #expect(offlineSongs.value == songs.value)
        #expect(try await repository.albums().value == albums.value)
        #expect(try await repository.artists().value == artists.value)
        #expect(try await repository.album(id: albums.data[0].id).value == album.value)
        #expect(try await repository.search("雨").value == results.value)
        let offlineSheetSongs = try await repository.sheetSongs(id: sheet.id)
        #expect(offlineSheetSongs.isFromCache)
        #expect(offlineSheetSongs.data.map(\.id) == sheetSongs.data.map(\.id))
        #expect(
            try await repository.createdSheets(userID: try #require(repository.userID)).data.map(\.id)
                == mine.data.map(\.id))

        // Never fetched: the network error, as it is.
        do {
            _ = try await repository.songs(page: 2, size: 50)
            Issue.record("expected a network error")
        } catch let error as APIError {
            #expect(error.kind == .network)
        }
        // Another person on the same store does not see these private lists.
        repository.restoreSession(token: nil, userID: "someone-else")
        await #expect(throws: APIError.self) { _ = try await repository.createdSheets(userID: "424242") }

        // The downloaded song plays without the server.
        let file = try #require(downloads.localFile(songID: songs.data[0].id))
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(downloads.playableURL(for: songs.data[0], client: client) == file)
        #expect(
            downloads.playableURL(for: songs.data[1], client: client) == client.url(for: songs.data[1].uri))
    }
}
