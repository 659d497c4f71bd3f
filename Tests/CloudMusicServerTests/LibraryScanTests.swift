import AudioMetadata
import Cryptography
import Foundation
import HTTPServer
import MusicCore
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

/// Makes a real audio file with ffmpeg: a sine tone with the given tags.
func makeTrack(
    _ path: String, title: String? = nil, artist: String? = nil, album: String? = nil, track: Int? = nil,
    seconds: Double = 1, frequency: Int = 440, extra: [String] = []
) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    var arguments = [
        "-f", "lavfi", "-i",
        "sine=frequency=\(frequency):duration=\(seconds)",
    ]
    if let title { arguments += ["-metadata", "title=\(title)"] }
    if let artist { arguments += ["-metadata", "artist=\(artist)"] }
    if let album { arguments += ["-metadata", "album=\(album)"] }
    if let track { arguments += ["-metadata", "track=\(track)"] }
    arguments += extra + [path]
    try FFmpeg.installed!.run(
        arguments)
}

/// A database with the server's schema, in a temporary folder.
func makeLibraryDatabase() throws -> Database {
    let database = try Database(path: temporaryFolder() + "/library.sqlite")
    try Schema.migrator.migrate(database)
    return database
}

@Suite(.serialized) struct LibraryScanTests {
    @Test func firstScanReadsTagsAndFallsBackToNames() throws {
        let root = temporaryFolder()
        try makeTrack(root + "/林晓/夜空/01 一时失志.mp3", title: "一时失志不免怨叹", artist: "林晓; 陈默", album: "夜空", track: 1)
        try makeTrack(root + "/Band/Live/02 - Untagged Song.flac")
        try makeTrack(
            root + "/Band/Live/03.ogg", title: "Three", artist: "Band", album: "Live", frequency: 660)
        try makeTrack(root + "/未整理/佚名 - 夜航船.mp3", frequency: 550)
        FileManager.default.createFile(
            atPath: root + "/Band/Live/broken.mp3", contents: Data(repeating: 7, count: 5000))
        FileManager.default.createFile(
            atPath: root + "/林晓/夜空/01 一时失志.lrc", contents: Data("[00:00.50]一时失志\n".utf8))
        let database = try makeLibraryDatabase()
        let report = try LibraryScanner(database: database, folders: [root]).scan()
        #expect(report.filesSeen == 5)
        #expect(report.added == 4)
        #expect(report.failed == 1)
        #expect(report.issues.first?.path.hasSuffix("broken.mp3") == true)

        let catalog = LibraryService(
            database: database, files: FileRoots(["/"], logger: Logger(level: .error)))
        let songs = try catalog.songs(SongListQuery(size: 10))
        #expect(songs.total == 4)
        let named = try #require(songs.data.first { $0.title == "夜航船" })
        #expect(named.artists.map(\.name) == ["佚名"])
        #expect(named.album?.title == "未整理")
        let cjk = try #require(songs.data.first { $0.title == "一时失志不免怨叹" })
        #expect(cjk.artists.map(\.name) == ["林晓", "陈默"])
        #expect(cjk.album?.title == "夜空")
        #expect(cjk.singer?.nickname == "林晓 / 陈默")
        #expect(cjk.singer?.name == "林晓 / 陈默")
        #expect(cjk.uri == "v1/songs/\(cjk.id)/stream")
        let untagged = try #require(songs.data.first { $0.title == "Untagged Song" })
        #expect(untagged.album?.title == "Live")
        #expect(untagged.artists.map(\.name) == ["Band"])
        #expect(untagged.trackNumber == 2)
        let detail = try #require(try? catalog.song(id: Int64(cjk.id)!))
        #expect(detail.lyric == "[00:00.50]一时失志\n")
        let artists = try catalog.artists(ArtistListQuery(size: 10))
        #expect(Set(artists.data.map(\.name)) == ["林晓", "陈默", "Band", "佚名"])
        let album = try #require(
            try catalog.albums(AlbumListQuery(size: 10)).data.first {
                $0.title == "Live"
            })
        #expect(album.songsCount == 2)
    }

    @Test func rescansAreIncrementalAndMovesKeepTheirIDs() throws {
        let root = temporaryFolder()
        try makeTrack(root + "/A/one.mp3", title: "One", artist: "A", album: "X", frequency: 300)
        try makeTrack(root + "/A/two.mp3", title: "Two", artist: "A", album: "X", frequency: 400)
        try makeTrack(root + "/A/three.mp3", title: "Three", artist: "A", album: "X", frequency: 500)
        let database = try makeLibraryDatabase()
        let scanner = LibraryScanner(database: database, folders: [root])
        #expect(try scanner.scan().added == 3)

        let unchanged = try scanner.scan()
        #expect(unchanged.unchanged == 3)
        #expect(unchanged.added + unchanged.updated + unchanged.removed + unchanged.moved == 0)

        let catalog = LibraryService(
            database: database, files: FileRoots(["/"], logger: Logger(level: .error)))
        let before = try catalog.songs(SongListQuery(size: 10)).data
        let oneID = try #require(before.first { $0.title == "One" }?.id)
        try database.write { try $0.execute("UPDATE songs SET plays_count = 7 WHERE id = ?", Int64(oneID)!) }

        // Move one, remove two, add four, retag three.
        try FileManager.default.createDirectory(atPath: root + "/B", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: root + "/A/one.mp3", toPath: root + "/B/renamed.mp3")
        try FileManager.default.removeItem(atPath: root + "/A/two.mp3")
        try makeTrack(root + "/A/four.mp3", title: "Four", artist: "A", album: "X", frequency: 600)
        try makeTrack(
            root + "/A/three.mp3", title: "Three (Remaster)", artist: "A", album: "X", seconds: 1.5,
            frequency: 500)
        let report = try scanner.scan()
        #expect(report.moved == 1)
        #expect(report.removed == 1)
        #expect(report.added == 1)
        #expect(report.updated == 1)
        let after = try catalog.songs(SongListQuery(size: 10)).data
        #expect(Set(after.map(\.title)) == ["One", "Three (Remaster)", "Four"])
        let moved = try #require(after.first { $0.title == "One" })
        #expect(moved.id == oneID)
        #expect(moved.playsCount == 7)
    }

    @Test func aMissingMusicFolderKeepsItsSongs() throws {
        let root = temporaryFolder()
        try makeTrack(root + "/song.mp3", title: "Kept", artist: "A", album: "X")
        let database = try makeLibraryDatabase()
        #expect(try LibraryScanner(database: database, folders: [root]).scan().added == 1)
        try FileManager.default.moveItem(atPath: root, toPath: root + "-unmounted")
        let report = try LibraryScanner(database: database, folders: [root]).scan()
        #expect(report.removed == 0)
        #expect(report.failed == 1)
        #expect(
            try LibraryService(database: database, files: FileRoots(["/"], logger: Logger(level: .error)))
                .songs(SongListQuery(size: 5)).total
                == 1)
    }

    @Test func theOneSearchIndexIsSplitPerKindKeepingItsText() throws {
        let database = try Database(path: temporaryFolder() + "/library.sqlite")
        let before = Schema.migrator.migrations.filter {
            $0.version < LibrarySchema.searchIndexPerKind.version
        }
        try Migrator(before).migrate(database)
        try database.write { db in
            for (rowID, kind, ref, title) in [
                (29, 1, 7, " 夜 曲"), (14, 2, 3, "Abbey Road"), (39, 3, 9, "The Beatles"), (30, 2, 7, "Other"),
            ] {
                try db.execute(
                    "INSERT INTO search_index(rowid, kind, ref, title, extra, display) VALUES (?, ?, ?, ?, '', ?)",
                    rowID, kind, ref, title, title)
            }
        }
        try Schema.migrator.migrate(database)
        func rows(_ table: String) throws -> [String] {
            try database.read { db in
                try db.query(
                    "SELECT rowid, display FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid",
                    "a* OR 夜 OR t*"
                ) {
                    "\(try $0.int64(0)) \(try $0.string(1))"
                }
            }
        }
        #expect(try rows("search_songs") == ["7  夜 曲"])
        #expect(try rows("search_albums") == ["3 Abbey Road"])
        #expect(try rows("search_artists") == ["9 The Beatles"])
        #expect(
            try database.read {
                try $0.queryOne("SELECT count(*) FROM sqlite_master WHERE name = 'search_index'") {
                    try $0.int(0)
                }
            } == 0)
    }

    @Test func searchFindsCJKSubstringsAndLatinPrefixes() throws {
        let root = temporaryFolder()
        try makeTrack(root + "/1.mp3", title: "一时失志不免怨叹", artist: "林晓", album: "夜空")
        try makeTrack(
            root + "/2.mp3", title: "Hello Beautiful World", artist: "The Beatles", album: "Abbey Road")
        let database = try makeLibraryDatabase()
        try LibraryScanner(database: database, folders: [root]).scan()
        let catalog = LibraryService(
            database: database, files: FileRoots(["/"], logger: Logger(level: .error)))
        #expect(try catalog.search("失志", limit: 5).songs.map(\.title) == ["一时失志不免怨叹"])
        #expect(try catalog.search("怨", limit: 5).songs.count == 1)
        #expect(try catalog.search("林", limit: 5).artists.map(\.name) == ["林晓"])
        #expect(try catalog.search("beau", limit: 5).songs.map(\.title) == ["Hello Beautiful World"])
        #expect(try catalog.search("beat", limit: 5).artists.map(\.name) == ["The Beatles"])
        #expect(try catalog.search("abbey", limit: 5).albums.map(\.title) == ["Abbey Road"])
        #expect(try catalog.search("eautiful", limit: 5).songs.isEmpty)  // Latin matches by word prefix
        #expect(try catalog.search("志失", limit: 5).songs.isEmpty)  // CJK must be a real substring
        #expect(try catalog.suggestions("hel", limit: 5).map(\.title) == ["Hello Beautiful World"])
        #expect(try catalog.search("\" OR 1=1 --", limit: 5).songs.isEmpty)
    }

    /// Songs written as a scan writes them, without audio files: title, artist, album each.
    func libraryOfSongs(_ songs: [(String, String, String)]) throws -> (Database, LibraryService) {
        let database = try makeLibraryDatabase()
        try database.write { db in
            let folder = try LibraryStore.folderID(db, path: "/music")
            let store = try LibraryStore(db)
            for (number, (title, artist, album)) in songs.enumerated() {
                let file = FoundFile(
                    path: "/music/\(number).mp3", folderID: folder, size: 1, mtimeNanoseconds: 0,
                    lyricPath: nil,
                    folderCover: nil)
                try store.save(
                    db,
                    song: ScannedSong(
                        file: file, fingerprint: "2:\(number)", title: title, artists: [artist], album: album,
                        albumArtist: nil, isCompilation: false, trackNumber: nil, trackTotal: nil,
                        discNumber: nil,
                        discTotal: nil, year: nil, genres: [], durationMilliseconds: 1_000, bitRate: 128,
                        sampleRate: 44_100, channels: 2, format: "mp3", embeddedLyric: nil,
                        musicBrainzTrackID: nil, musicBrainzAlbumID: nil, musicBrainzArtistID: nil),
                    existingID: nil)
            }
            try LibraryStore.refreshCountsAndOrphans(db)
        }
        return (
            database,
            LibraryService(database: database, files: FileRoots(["/"], logger: Logger(level: .error)))
        )
    }

    /// Titles that start with what was typed lead (alphabetically), then titles with every word, then songs
    /// found through their artist or album, each in the order they were scanned.
    @Test func searchRanksTitleStartsThenTitlesThenOtherFields() throws {
        let (_, catalog) = try libraryOfSongs([
            ("Yesterday", "Lovers", "Misc"), ("All You Need Is Love", "Beatles", "Magical"),
            ("My Love", "Wings", "Red Rose"), ("Love Me Do", "Beatles", "Please"),
            ("Love", "Lennon", "Plastic"),
        ])
        let found = try catalog.search("love", limit: 10)
        #expect(
            found.songs.map(\.title) == [
                "Love", "Love Me Do", "All You Need Is Love", "My Love", "Yesterday",
            ])
        #expect(found.artists.map(\.name) == ["Lovers"])
        #expect(try catalog.search("love", limit: 2).songs.map(\.title) == ["Love", "Love Me Do"])
        #expect(
            try catalog.search("love", limit: 3).songs.map(\.title) == [
                "Love", "Love Me Do", "All You Need Is Love",
            ])
        #expect(try catalog.search("LOVE ME", limit: 10).songs.map(\.title) == ["Love Me Do"])
        // Albums by title, then by their artist's name; artists by name, any case.
        let (_, albums) = try libraryOfSongs([
            ("a", "Red", "Blue Songs"), ("b", "Blue", "Greatest"), ("c", "Green", "Blue"),
            ("d", "Émile", "Été"),
        ])
        #expect(
            try albums.search("blue", limit: 5).albums.map(\.title) == ["Blue", "Blue Songs", "Greatest"])
        #expect(try albums.search("ÉMI", limit: 5).artists.map(\.name) == ["Émile"])
        #expect(try albums.search("blue", limit: 5).songs.map(\.title) == ["a", "b", "c"])
    }

    /// Only the last word is a prefix; the words before it are whole words, unless that finds nothing.
    @Test func wordsBeforeTheLastAreWholeWords() throws {
        let (_, catalog) = try libraryOfSongs([
            ("Morning Light", "Sun", "Day"), ("Mornings Lighter", "Sun", "Day"),
            ("Hello Beautiful World", "The Beatles", "Abbey Road"),
        ])
        #expect(try catalog.search("morning li", limit: 5).songs.map(\.title) == ["Morning Light"])
        #expect(
            try catalog.search("morn lig", limit: 5).songs.map(\.title) == [
                "Morning Light", "Mornings Lighter",
            ])
        #expect(try catalog.search("beat abbey", limit: 5).songs.map(\.title) == ["Hello Beautiful World"])
        #expect(try catalog.search("beat abbey", limit: 5).albums.map(\.title) == ["Abbey Road"])
        #expect(try catalog.search("morning zz", limit: 5).songs.isEmpty)
    }

    /// Titles that start with what was typed, of every kind together in alphabetical order, then titles with
    /// the words inside; each title once.
    @Test func suggestionsStartWithWhatWasTypedWithoutRepeats() throws {
        let (_, catalog) = try libraryOfSongs([
            ("Hello World", "Other", "X"), ("Hello", "Other", "X"), ("hello", "Other", "Y"),
            ("Goodbye", "Hellogoodbye", "Z"), ("Hello Again", "Hello Band", "Hello Album"),
        ])
        let suggested = try catalog.suggestions("hel", limit: 10)
        #expect(
            suggested.map(\.title) == [
                "Hello", "Hello Again", "Hello Album", "Hello Band", "Hello World", "Hellogoodbye",
            ])
        #expect(suggested.map(\.type) == ["song", "song", "album", "artist", "song", "artist"])
        #expect(try catalog.suggestions("hel", limit: 1).map(\.title) == ["Hello"])
        // Enough title starts: the answer is made from them alone, every kind still merged in order.
        let three = try catalog.suggestions("hel", limit: 3)
        #expect(three.map(\.title) == ["Hello", "Hello Again", "Hello Album"])
        #expect(three.map(\.type) == ["song", "song", "album"])
        // Spaces around it and punctuation after it change nothing, as they change no word searched.
        #expect(try catalog.suggestions("  hel-._~ ", limit: 3) == three)
        #expect(try catalog.suggestions("hello world!", limit: 10).map(\.title) == ["Hello World"])
        #expect(try catalog.suggestions("other", limit: 10).map(\.title) == ["Other"])
        #expect(try catalog.suggestions("world", limit: 10).map(\.title) == ["Hello World"])
    }

    /// A word found in every song ranks only the oldest `rankedCandidates` full-text matches: a title with the
    /// word past them is not looked at.
    @Test func onlyTheFirstMatchesAreRanked() throws {
        let bound = CatalogStore.rankedCandidates
        let (database, _) = try libraryOfSongs(
            (0..<bound).map { ("Song \($0) Zed", "A", "B") } + [("X Zed", "A", "B")])
        let zed = try #require(CatalogStore.Query("zed"))
        let ranked = try database.read { db in
            try CatalogStore.rankedMatches(db, zed, in: .song, limit: 3)
        }
        #expect(ranked == [1, 2, 3].map { CatalogStore.RankedMatch(id: $0, tier: .title) })
        let all = try database.read { db in
            try CatalogStore.rankedMatches(db, zed, in: .song, limit: bound + 10)
        }
        #expect(all.map(\.id) == Array(1...Int64(bound)))
    }

    /// A song stored by a scan before the "2:" fingerprints keeps its id when its file moves.
    @Test func aSongWithTheLegacyFingerprintKeepsItsIDWhenMoved() throws {
        let root = temporaryFolder()
        try makeTrack(root + "/A/one.mp3", title: "One", artist: "A", album: "X", seconds: 6, frequency: 300)
        let database = try makeLibraryDatabase()
        let scanner = LibraryScanner(database: database, folders: [root])
        #expect(try scanner.scan().added == 1)
        let stored = try database.read { db in
            try db.queryOne("SELECT id, fingerprint FROM songs") {
                (try $0.int64("id"), try $0.string("fingerprint"))
            }
        }
        let (id, fingerprint) = try #require(stored)
        #expect(fingerprint.hasPrefix("2:"))
        // What scans used to store: size, then the first and last 64 KiB, written out again here.
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/A/one.mp3"))
        let hasher = Crypto.Hasher()
        hasher.update(Int64(data.count))
        hasher.update(data.prefix(65_536))
        if data.count > 65_536 { hasher.update(data.suffix(from: max(65_536, data.count - 65_536))) }
        let legacy = hasher.finalizeHex()
        #expect(
            try ScannedSong.legacyFingerprint(path: root + "/A/one.mp3", size: Int64(data.count)) == legacy)
        _ = try database.write { try $0.execute("UPDATE songs SET fingerprint = ? WHERE id = ?", legacy, id) }

        try FileManager.default.moveItem(atPath: root + "/A", toPath: root + "/B")
        let report = try scanner.scan()
        #expect(report.moved == 1)
        #expect(report.added == 0 && report.removed == 0)
        let after = try database.read { db in
            try db.queryOne("SELECT id, path, fingerprint FROM songs") {
                (try $0.int64("id"), try $0.string("path"), try $0.string("fingerprint"))
            }
        }
        #expect(after?.0 == id)
        #expect(after?.1 == root + "/B/one.mp3")
        #expect(after?.2 == fingerprint)
    }

    /// The fingerprint reads the size, the tags and three 2 KiB pieces of the file: equal files with equal tags
    /// agree, and a change in any of them tells them apart.
    @Test func fingerprintsTellFilesApartByTagsAndBytes() throws {
        let folder = temporaryFolder()
        var bytes = [UInt8](repeating: 0, count: 100_000)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 8) }
        _ = FileManager.default.createFile(atPath: folder + "/a.mp3", contents: Data(bytes))
        _ = FileManager.default.createFile(atPath: folder + "/b.mp3", contents: Data(bytes))
        bytes[50_000] ^= 1
        _ = FileManager.default.createFile(atPath: folder + "/middle.mp3", contents: Data(bytes))
        bytes[50_000] ^= 1
        bytes[20_000] ^= 1  // Outside the three pieces: read as the same content.
        _ = FileManager.default.createFile(atPath: folder + "/unread.mp3", contents: Data(bytes))
        _ = FileManager.default.createFile(atPath: folder + "/small.mp3", contents: Data(bytes.prefix(5_000)))
        let info = AudioFileInfo(
            tags: AudioTags(title: "One", artists: ["A"], album: "X", trackNumber: 1),
            properties: AudioProperties(
                durationMilliseconds: 1_000, bitRate: 128, sampleRate: 44_100, channels: 2))
        var retagged = info
        retagged.tags.trackNumber = 2
        func fingerprint(_ name: String, _ info: AudioFileInfo, size: Int64 = 100_000) throws -> String {
            try ScannedSong.fingerprint(path: folder + "/" + name, size: size, info: info)
        }
        #expect(try fingerprint("a.mp3", info) == (try fingerprint("b.mp3", info)))
        #expect(try fingerprint("a.mp3", info) != (try fingerprint("a.mp3", retagged)))
        #expect(try fingerprint("a.mp3", info) != (try fingerprint("middle.mp3", info)))
        #expect(try fingerprint("a.mp3", info) == (try fingerprint("unread.mp3", info)))
        #expect(try fingerprint("small.mp3", info, size: 5_000) != (try fingerprint("a.mp3", info)))
        #expect(try fingerprint("a.mp3", info).hasPrefix("2:"))
        #expect(throws: ScanFailure.self) { try fingerprint("missing.mp3", info) }
    }

    @Test func theWatcherRescansOnceChangesSettle() async throws {
        let root = temporaryFolder()
        try FileManager.default.createDirectory(atPath: root + "/Artist", withIntermediateDirectories: true)
        // Made beside the watched folder and moved in, so that a burst is a burst: ffmpeg writing a track into
        // the folder took longer than the settle time on a loaded machine, and the watcher rightly saw two.
        let made = temporaryFolder()
        for name in ["one", "two", "three"] { try makeTrack(made + "/\(name).mp3") }
        let calls = Counter()
        let watcher = try #require(
            LibraryWatcher(folders: [root], settleSeconds: 1.0, logger: Logger(level: .error)) {
                calls.increment()
            })
        watcher.start()
        // A burst of changes, in a folder that exists and in one made after the watch began.
        try FileManager.default.moveItem(atPath: made + "/one.mp3", toPath: root + "/Artist/one.mp3")
        try FileManager.default.createDirectory(
            atPath: root + "/New Album", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: made + "/two.mp3", toPath: root + "/New Album/two.mp3")
        try await waitUntil { calls.value >= 1 }
        #expect(calls.value == 1)
        // A change inside the folder created later is seen too.
        let before = calls.value
        try FileManager.default.moveItem(atPath: made + "/three.mp3", toPath: root + "/New Album/three.mp3")
        try await waitUntil { calls.value > before }
        #expect(calls.value == before + 1)
        // Hidden files do not count: once the watcher has read their creation and writing, no rescan is due.
        let read = watcher.eventsRead
        let fd = open(root + "/.DS_Store", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        _ = write(fd, [UInt8(1)], 1)
        close(fd)
        try await waitUntil { watcher.eventsRead >= read + 2 }
        #expect(!watcher.rescanDue)
        #expect(calls.value == before + 1)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// Waits until `condition` holds; the bound only ends a hung test (a loaded machine gives the test its turns late).
func waitUntil(seconds: Double = 60, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
    #expect(condition(), "timed out")
}
