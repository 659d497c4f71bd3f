import CloudMusicKit
import Foundation
import MusicCore
import ServerTestSupport
import Testing

/// The music list without a player: editing, modes, and a restart coming back to the exact state.
/// (With the real libmpv player it is in MusicListPlaybackTests.)
@Suite struct MusicListManagerTests {
    static func song(_ number: Int) -> Song {
        Song(
            id: String(number), title: "Song \(number)", icon: nil, uri: "v1/songs/\(number)/stream",
            style: 0,
            lyric: nil, singer: nil, artists: [ArtistSummary(id: "1", name: "Band")], album: nil, genres: [],
            trackNumber: number, discNumber: nil, year: nil, duration: 2_000, format: "mp3", bitRate: 128_000,
            sampleRate: 44_100, channels: 2, clicksCount: 0, commentsCount: 0, playsCount: 0,
            createdAt: "2026-12-01T00:00:00Z", updatedAt: "2026-12-01T00:00:00Z")
    }

    static func manager(_ path: String, seed: UInt64 = 1) async throws -> MusicListManager {
        try await MusicListManager(store: try LocalStore(path: path), player: nil, seed: seed) { _ in nil }
    }

    static func titles(_ manager: MusicListManager) async -> [String] {
        await manager.snapshot().songs.map(\.title)
    }

    @Test func editsKeepTheCurrentSong() async throws {
        let list = try await Self.manager(temporaryFolder() + "/local.sqlite")
        try await list.setList((1...4).map(Self.song), startAt: 1, autoplay: false)
        #expect(await list.currentSong?.id == "2")
        try await list.append([Self.song(5)])
        try await list.insertNext(Self.song(9))
        #expect(await Self.titles(list) == ["Song 1", "Song 2", "Song 9", "Song 3", "Song 4", "Song 5"])
        // Inserting a song already waiting moves it instead of adding a copy.
        try await list.insertNext(Self.song(5))
        #expect(await Self.titles(list) == ["Song 1", "Song 2", "Song 5", "Song 9", "Song 3", "Song 4"])
        try await list.move(from: 0, to: 5)
        #expect(await list.snapshot().currentIndex == 0)
        #expect(await list.currentSong?.id == "2")
        try await list.remove(at: 0)
        #expect(await list.currentSong?.id == "5")
        try await list.next()
        #expect(await list.currentSong?.id == "9")
        try await list.remove(at: 99)
        try await list.clear()
        #expect(await list.snapshot().songs.isEmpty)
        #expect(await list.currentSong == nil)
        try await list.next()
        try await list.previous()
        #expect(await list.currentSong == nil)
    }

    @Test func modesFromTheManager() async throws {
        let list = try await Self.manager(temporaryFolder() + "/local.sqlite", seed: 3)
        try await list.setList((1...3).map(Self.song), autoplay: false)
        try await list.previous()
        #expect(await list.currentSong?.id == "3")
        try await list.next()
        #expect(await list.currentSong?.id == "1")
        try await list.setMode(.shuffle)
        var seen: Set<String> = [await list.currentSong!.id]
        for _ in 0..<2 {
            try await list.next()
            seen.insert(await list.currentSong!.id)
        }
        #expect(seen == ["1", "2", "3"])
        #expect(await list.snapshot().mode == .shuffle)
    }

    /// A new manager on a saved file has the same list, song, mode, position, and continues the shuffle
    /// exactly as the one that saved it does.
    @Test func aRestartRestoresTheExactState() async throws {
        let path = temporaryFolder() + "/local.sqlite"
        let saved = temporaryFolder() + "/saved.sqlite"
        let list = try await Self.manager(path, seed: 99)
        try await list.setList((1...12).map(Self.song), startAt: 4, autoplay: false)
        try await list.setMode(.shuffle)
        try await list.next()
        try await list.next()
        try await list.previous()
        await list.seek(to: 42.5)
        await list.pause()
        let before = await list.snapshot()
        // The file as a crash would leave it now (the WAL holds the latest writes).
        try FileManager.default.copyItem(atPath: path, toPath: saved)
        try? FileManager.default.copyItem(atPath: path + "-wal", toPath: saved + "-wal")
        var live: [String] = []
        for _ in 0..<15 {
            try await list.next()
            live.append(await list.currentSong!.id)
        }

        let restored = try await Self.manager(saved, seed: 1)
        let after = await restored.snapshot()
        #expect(after == before)
        var replayed: [String] = []
        for _ in 0..<15 {
            try await restored.next()
            replayed.append(await restored.currentSong!.id)
        }
        #expect(replayed == live)
    }
}
