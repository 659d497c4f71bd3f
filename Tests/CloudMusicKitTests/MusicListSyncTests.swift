import CloudMusicKit
import Foundation
import MusicCore
import ServerTestSupport
import Testing

/// Two devices of one person keep their music list in step through the server's queue.
@Suite struct MusicListSyncTests {
    @Test func twoDevicesShareOneQueue() async throws {
        let server = try await TestServer.start()
        let (phone, _) = try await RepositoryTests.person(server, "syncer")
        let laptop = MusicRepository(client: RepositoryTests.client(server))
        _ = try await laptop.login(
            .email("syncer@example.com"), password: "password-syncer", device: "laptop")
        let songs = try await phone.songs(size: 6).value.data
        try #require(songs.count == 6)

        func device(_ repository: MusicRepository) async throws -> MusicListManager {
            try await MusicListManager(
                store: try LocalStore(path: temporaryFolder() + "/local.sqlite"), player: nil,
                sync: repository
            ) { _ in nil }
        }
        let first = try await device(phone)
        let second = try await device(laptop)

        // The phone's list goes up; the laptop, with nothing of its own, takes it.
        try await first.setList(Array(songs[0..<3]), startAt: 1, autoplay: false)
        await first.seek(to: 12.25)
        await first.pause()
        try await first.syncWithServer()
        try await second.syncWithServer()
        var laptopView = await second.snapshot()
        #expect(laptopView.songs.map(\.id) == songs[0..<3].map(\.id))
        #expect(laptopView.currentIndex == 1)
        #expect(laptopView.position == 12.25)

        // The laptop's change goes up and comes down to the phone.
        try await second.setMode(.shuffle)
        try await second.append([songs[3]])
        try await second.syncWithServer()
        try await first.syncWithServer()
        let phoneView = await first.snapshot()
        #expect(phoneView.songs.map(\.id) == songs[0..<4].map(\.id))
        #expect(phoneView.mode == .shuffle)

        // Both change at once: the one that saves first wins, the other takes its queue.
        try await first.append([songs[4]])
        try await second.append([songs[5]])
        try await second.syncWithServer()
        try await first.syncWithServer()
        let afterConflict = await first.snapshot().songs.map(\.id)
        #expect(afterConflict == (songs[0..<4] + [songs[5]]).map(\.id))
        laptopView = await second.snapshot()
        #expect(laptopView.songs.map(\.id) == afterConflict)
        let remote = try await phone.queue()
        #expect(remote.songIds == afterConflict)

        // Syncs asked for at once run one after the other and all finish.
        try await second.insertNext(songs[2])
        async let one: Void = second.syncWithServer()
        async let two: Void = second.syncWithServer()
        async let three: Void = second.syncWithServer()
        _ = try await (one, two, three)
        #expect(try await phone.queue().songIds == (await second.snapshot()).songs.map(\.id))
    }
}
