import Foundation
import Testing

@testable import AudioMetadata

/// The MP4 chapter reader: Nero `chpl` and QuickTime chapter tracks from files ffmpeg made, and hostile input
/// (truncated, corrupted, lying sizes) that must throw, never crash or read past the end.
@Suite struct MP4ChaptersTests {
    static let chapters = """
        ;FFMETADATA1
        title=三体
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=2000
        title=第一章 开始
        [CHAPTER]
        TIMEBASE=1/1000
        START=2000
        END=4500
        title=Chapter Two
        [CHAPTER]
        TIMEBASE=1/1000
        START=4500
        END=6000
        title=Three

        """

    /// An m4b of 6 s with three chapters; `extra` goes to ffmpeg before the output.
    static func book(_ extra: [String] = []) throws -> String {
        let folder = NSTemporaryDirectory() + "MP4ChaptersTests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try chapters.write(toFile: folder + "/chapters.txt", atomically: true, encoding: .utf8)
        let out = folder + "/book.m4b"
        try runFFmpeg(
            [
                "-f", "lavfi", "-i", "sine=d=6", "-i", folder + "/chapters.txt", "-map", "0:a",
                "-map_metadata", "1", "-c:a", "aac", "-b:a", "32k",
            ] + extra + [out])
        return out
    }

    static let expected = [
        MP4Chapter(start: 0, title: "第一章 开始"), MP4Chapter(start: 2, title: "Chapter Two"),
        MP4Chapter(start: 4.5, title: "Three"),
    ]

    static func close(_ a: [MP4Chapter], _ b: [MP4Chapter]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0.start - $1.start) < 0.01 && $0.title == $1.title }
    }

    @Test func neroChaptersAreReadInOrder() throws {
        let path = try Self.book()
        let read = try MP4Chapters.read(path: path)
        #expect(Self.close(read, Self.expected), "\(read)")
    }

    @Test func aQuickTimeChapterTrackIsReadWithoutNeroChapters() throws {
        let path = try Self.book(["-movflags", "disable_chpl"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.range(of: Data("chpl".utf8)) == nil)
        let read = try MP4Chapters.read(path: path)
        #expect(Self.close(read, Self.expected), "\(read)")
    }

    @Test func aFileWithoutChaptersHasNone() throws {
        let folder = NSTemporaryDirectory() + "MP4ChaptersTests-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try runFFmpeg(["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", folder + "/plain.m4a"])
        #expect(try MP4Chapters.read(path: folder + "/plain.m4a") == [])
    }

    @Test func everyTruncationThrows() throws {
        for flags in [[], ["-movflags", "disable_chpl"]] {
            let data = try Data(contentsOf: URL(fileURLWithPath: try Self.book(flags)))
            var random = SeededRandom(seed: 30)
            for _ in 0..<300 {
                let length = Int(random.next() % UInt64(data.count))
                #expect(throws: MP4ChaptersError.self) { try MP4Chapters.read(data: data.prefix(length)) }
            }
        }
    }

    @Test func corruptedFilesThrowOrGiveSaneChapters() throws {
        for flags in [[], ["-movflags", "disable_chpl"]] {
            let data = try Data(contentsOf: URL(fileURLWithPath: try Self.book(flags)))
            let moov = data.range(of: Data("moov".utf8))!.lowerBound - 4
            var random = SeededRandom(seed: 55)
            var threw = 0
            for _ in 0..<1_000 {
                var copy = data
                for _ in 0..<(1 + Int(random.next() % 6)) {
                    let at = moov + Int(random.next() % UInt64(data.count - moov))
                    copy[at] = UInt8(truncatingIfNeeded: random.next())
                }
                do {
                    let read = try MP4Chapters.read(data: copy)
                    #expect(read.count <= MP4Chapters.maxChapters)
                    #expect(read.allSatisfy { $0.start.isFinite && $0.start >= 0 })
                    #expect(zip(read, read.dropFirst()).allSatisfy { $0.start <= $1.start })
                } catch {
                    threw += 1
                }
            }
            #expect(threw > 0)
        }
    }

    static func box(_ type: String, _ body: Data) -> Data {
        var data = Data()
        withUnsafeBytes(of: UInt32(8 + body.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(Data(type.utf8))
        data.append(body)
        return data
    }

    @Test func lyingSizesAndCountsThrow() throws {
        // A chpl that claims 200 chapters and holds none.
        let chpl = Self.box("chpl", Data([1, 0, 0, 0, 0, 0, 0, 0, 200]))
        let lying = Self.box("moov", Self.box("udta", chpl))
        #expect(throws: MP4ChaptersError.self) { try MP4Chapters.read(data: lying) }
        // A box bigger than the file.
        var huge = Data([0xFF, 0xFF, 0xFF, 0xF0])
        huge.append(Data("moov".utf8))
        huge.append(Data(repeating: 0, count: 32))
        #expect(throws: MP4ChaptersError.self) { try MP4Chapters.read(data: huge) }
        // A 64-bit size beyond anything.
        var large = Data([0, 0, 0, 1])
        large.append(Data("moov".utf8))
        large.append(Data([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
        #expect(throws: MP4ChaptersError.self) { try MP4Chapters.read(data: large) }
        // A box smaller than its own header.
        var tiny = Data([0, 0, 0, 4])
        tiny.append(Data("moov".utf8))
        #expect(throws: MP4ChaptersError.self) { try MP4Chapters.read(data: tiny) }
        // No moov at all.
        #expect(throws: MP4ChaptersError.self) {
            try MP4Chapters.read(data: Self.box("free", Data(count: 8)))
        }
        // A well-formed chpl is read.
        var body = Data([1, 0, 0, 0, 0, 0, 0, 0, 1])
        body.append(contentsOf: [0, 0, 0, 0, 0, 0x98, 0x96, 0x80, 2])
        body.append(Data("Hi".utf8))
        let good = Self.box("moov", Self.box("udta", Self.box("chpl", body)))
        #expect(try MP4Chapters.read(data: good) == [MP4Chapter(start: 1, title: "Hi")])
    }
}

/// splitmix64: the same "random" inputs on every run.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
