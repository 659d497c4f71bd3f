import Foundation
import MusicCore
import Testing

@testable import AudioMetadata

// makeDemoLibrary is not run here: it encodes ~20 tracks of 20-30 s and took 37 s on this
// 2-core machine, too long for the unit tests.
@Suite("LibraryGenerator")
struct LibraryGeneratorTests {
    static let stampCases: [(Double, Int, String)] = [
        (0, 2, "00:00.00"),
        (1, 2, "00:01.00"),
        (61.5, 2, "01:01.50"),
        (1, 3, "00:01.000"),
        (1.005, 3, "00:01.005"),
        (59.999, 2, "01:00.00"),
        (59.9994, 3, "00:59.999"),
        (600, 2, "10:00.00"),
        (3599.99, 2, "59:59.99"),
        (6000, 3, "100:00.000"),
    ]

    @Test(arguments: stampCases)
    func stamp(seconds: Double, digits: Int, expected: String) {
        #expect(LibraryGenerator.stamp(seconds, digits: digits) == expected)
    }

    @Test func plainLRCParsesBack() {
        let lines = ["霓虹灯下的街道", "有人匆匆走过", "Night falls"]
        let text = LibraryGenerator.lrc(lines, title: "霓虹灯下", artist: "陈默", album: "城市夜曲", enhanced: false)
        #expect(LyricParser.detectFormat(text) == .lrc)
        let lyric = LyricParser.parseLRC(text)
        #expect(lyric.issues.isEmpty)
        #expect(lyric.tags["ti"] == "霓虹灯下")
        #expect(lyric.tags["ar"] == "陈默")
        #expect(lyric.tags["al"] == "城市夜曲")
        #expect(lyric.lines.map(\.text) == lines)
        #expect(lyric.lines.map(\.start) == [1000, 6000, 11_000])
        #expect(lyric.lines.allSatisfy { $0.words.isEmpty })
    }

    @Test func lrcWithoutMetadata() {
        let text = LibraryGenerator.lrc(["one"], title: nil, artist: nil, album: nil, enhanced: false)
        #expect(text == "[00:01.00]one\n")
        #expect(LyricParser.parseLRC(text).tags.isEmpty)
    }

    @Test func enhancedLRCParsesBack() {
        let lines = ["Green fire over frozen lakes", "Hold the light"]
        let text = LibraryGenerator.lrc(
            lines, title: "Northern Lights", artist: "Aurora Lane", album: nil, enhanced: true)
        let lyric = LyricParser.parseLRC(text)
        #expect(lyric.issues.isEmpty)
        #expect(lyric.tags["al"] == nil)
        #expect(lyric.lines.count == 2)
        #expect(lyric.lines.map { $0.text.trimmingCharacters(in: .whitespaces) } == lines)
        let first = lyric.lines[0]
        #expect(first.start == 1000)
        #expect(
            first.words.map { $0.text.trimmingCharacters(in: .whitespaces) } == [
                "Green", "fire", "over", "frozen", "lakes",
            ])
        #expect(first.words.map(\.start) == [1000, 1800, 2600, 3400, 4200])
        #expect(lyric.lines[1].words.map(\.start) == [6000, 7330, 8670])
    }

    @Test func kscParsesBack() {
        let lines = ["雨停了天空放晴", "我们一起走过 rainbow", "心里的花又开了"]
        let text = LibraryGenerator.ksc(lines, title: "雨后彩虹", artist: "林小雨")
        #expect(LyricParser.detectFormat(text) == .ksc)
        let lyric = LyricParser.parseKSC(text)
        #expect(lyric.issues.isEmpty)
        #expect(lyric.tags["歌名"] == "雨后彩虹")
        #expect(lyric.tags["歌手"] == "林小雨")
        #expect(lyric.lines.count == 3)
        #expect(lyric.lines.map(\.start) == [1000, 6000, 11_000])
        #expect(lyric.lines.map(\.end) == [5000, 10_000, 15_000])
        #expect(lyric.lines[0].text == "雨停了天空放晴")
        #expect(lyric.lines[0].words.map(\.text) == ["雨", "停", "了", "天", "空", "放", "晴"])
        // The space before a Latin word stays in the line's text, after the word before it.
        #expect(lyric.lines[1].text == "我们一起走过 rainbow")
        #expect(lyric.lines[1].words.map(\.text) == ["我", "们", "一", "起", "走", "过 ", "rainbow"])
        for line in lyric.lines {
            #expect(line.words.reduce(0) { $0 + $1.duration } == 4000)
            #expect(line.words.first?.start == line.start)
            #expect(line.words.last?.end == line.end)
        }
    }

    /// Quotes in names and lines must not break the KSC string literals.
    @Test func kscEscapesQuotes() {
        let text = LibraryGenerator.ksc(
            ["I'm here", "It's 'quoted'"], title: "Don't Stop", artist: "O'Brien \\ Co")
        let lyric = LyricParser.parseKSC(text)
        #expect(lyric.issues.isEmpty, "\(lyric.issues)\n\(text)")
        #expect(lyric.tags["歌名"] == "Don't Stop")
        #expect(lyric.tags["歌手"] == "O'Brien \\ Co")
        #expect(lyric.lines.count == 2)
        #expect(lyric.lines.first?.text == "I'm here")
        #expect(lyric.lines.first?.words.reduce(0) { $0 + $1.duration } == 4000)
    }

    @Test func benchmarkLibrary() throws {
        let folder = fixtures.scratchFolder() + "/bench"
        let progress = Locked([(Int, Int)]())
        try LibraryGenerator.makeBenchmarkLibrary(at: folder, trackCount: 30) { done, total in
            progress.withLock { $0.append((done, total)) }
        }
        #expect(progress.withLock { $0.last.map { [$0.0, $0.1] } } == [30, 30])

        let files = try #require(FileManager.default.enumerator(atPath: folder)?.allObjects as? [String])
        let audio = files.filter { $0.hasSuffix(".mp3") }.sorted()
        #expect(audio.count == 30)
        #expect(!files.contains { $0.hasPrefix(".") || $0.contains("/.") }, "template left behind: \(files)")
        let folders = Set(audio.map { ($0 as NSString).deletingLastPathComponent })
        #expect(folders == ["Artist 0/Album 0", "Artist 0/Album 1", "Artist 0/Album 2"])

        var titles: Set<String> = []
        for file in audio {
            let info = try AudioFileReader.read(path: "\(folder)/\(file)")
            let tags = info.tags
            let title = try #require(tags.title)
            titles.insert(title)
            #expect(file.hasSuffix(" \(title).mp3"))
            #expect(tags.artists == ["歌手0"])
            let album = try #require(tags.album)
            #expect(file.hasPrefix("Artist 0/\(album)/"))
            #expect(tags.trackTotal == 10)
            #expect(file.contains("/\(String(format: "%02d", tags.trackNumber ?? 0)) "))
            let albumIndex = Int(album.dropFirst("Album ".count)) ?? -1
            #expect(tags.year == 1970 + albumIndex)
            #expect(tags.genres == [LibraryGenerator.benchmarkGenres[albumIndex]])
            #expect(abs(info.properties.durationMilliseconds - 2000) <= 100)
        }
        #expect(titles.count == 30)
        #expect(titles.filter { $0.unicodeScalars.contains { $0.value >= 0x4E00 } }.count == 10)
    }

    /// Brackets inside a metadata value do not end the `[ti:...]` tag early.
    @Test func lrcTitleWithBrackets() {
        let text = LibraryGenerator.lrc(["a"], title: "Song [Live]", artist: "A", album: nil, enhanced: false)
        let lyric = LyricParser.parseLRC(text)
        #expect(lyric.tags["ti"] == "Song [Live]")
        #expect(lyric.lines.map(\.text) == ["a"])
    }
}
