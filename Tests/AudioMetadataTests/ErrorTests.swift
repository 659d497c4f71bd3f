import Foundation
import Testing

@testable import AudioMetadata

/// Bad input gives an `AudioMetadataError` naming the file and saying what is wrong, never a crash.
@Suite("Errors")
struct ErrorTests {
    /// The error `read` throws for `path`; records an issue if it returns instead.
    func readError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> AudioMetadataError? {
        switch readResult(path) {
        case .success(let info):
            Issue.record("expected an error for \(path), got \(info)", sourceLocation: sourceLocation)
            return nil
        case .failure(let error):
            #expect(error.path == path, sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix(path + ": "), sourceLocation: sourceLocation)
            #expect(error.reason.count > 10, sourceLocation: sourceLocation)
            return error
        }
    }

    func writeError(_ path: String) -> AudioMetadataError? {
        do throws(AudioMetadataError) {
            try AudioTagWriter.write(AudioTags(title: "T"), to: path)
            Issue.record("expected an error writing \(path)")
            return nil
        } catch {
            #expect(error.path == path)
            return error
        }
    }

    /// Deterministic noise (a linear congruential generator), so a failure can be reproduced.
    static func noise(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data(
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            })
    }

    @Test func missingFile() {
        let path = fixtures.newPath("mp3")
        #expect(readError(path)?.reason == "file cannot be opened: No such file or directory")
        #expect(writeError(path) != nil)
    }

    @Test func emptyFile() {
        let path = fixtures.newPath("flac")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(readError(path)?.reason == "file is empty")
        #expect(writeError(path) != nil)
    }

    @Test func directory() throws {
        let withExtension = fixtures.scratchFolder() + "/Album.mp3"
        try FileManager.default.createDirectory(atPath: withExtension, withIntermediateDirectories: false)
        #expect(readError(withExtension)?.reason == "not a regular file")
        #expect(writeError(withExtension) != nil)
        let plain = fixtures.scratchFolder()
        #expect(readError(plain)?.reason == "file has no extension, so its audio format is unknown")
    }

    @Test(arguments: [
        "mp3", "flac", "ogg", "opus", "m4a", "wav", "aiff", "wma", "wv", "ape", "mpc", "tta", "spx",
    ])
    func randomBytes(ext: String) throws {
        let path = fixtures.newPath(ext)
        for seed: UInt64 in [1, 2, 3] {
            #expect(FileManager.default.createFile(atPath: path, contents: Self.noise(64 * 1024, seed: seed)))
            let reason = readError(path)?.reason ?? ""
            #expect(
                reason.hasPrefix("not an audio file TagLib can read")
                    || reason.hasPrefix("no audio found in the file"), "\(ext) seed \(seed): \(reason)")
        }
    }

    @Test func textWithAudioExtension() {
        let path = fixtures.newPath("mp3")
        let text = Data(String(repeating: "not music\n", count: 500).utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: text))
        #expect(
            readError(path)?.reason
                == "no audio found in the file (it is damaged, or not really a “.mp3” file)")
        #expect(
            writeError(path)?.reason
                == "no audio found in the file (it is damaged, or not really a “.mp3” file)")
        #expect(
            FileManager.default.contents(atPath: path) == text, "a failed write must leave the file alone")
    }

    /// APE has no ffmpeg encoder; a file that is not really Monkey's Audio must be refused clearly.
    @Test func fakeAPE() throws {
        let path = fixtures.newPath("ape")
        try FileManager.default.copyItem(atPath: try fixtures.copy(.mp3), toPath: path)
        let before = FileManager.default.contents(atPath: path)
        #expect(
            readError(path)?.reason
                == "no audio found in the file (it is damaged, or not really a “.ape” file)")
        #expect(
            writeError(path)?.reason
                == "no audio found in the file (it is damaged, or not really a “.ape” file)")
        #expect(
            FileManager.default.contents(atPath: path) == before, "a failed write must leave the file alone")
        let tiny = fixtures.newPath("ape")
        #expect(FileManager.default.createFile(atPath: tiny, contents: Data("MAC \u{0}".utf8)))
        #expect(readError(tiny) != nil)
    }

    /// A FLAC cut inside its header (STREAMINFO) is not readable at all.
    @Test(arguments: [4, 20, 41])
    func flacCutInHeader(bytes: Int) throws {
        let source = try fixtures.copy(.flac)
        let path = fixtures.newPath("flac")
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        #expect(FileManager.default.createFile(atPath: path, contents: data.prefix(bytes)))
        #expect(readError(path)?.reason.hasPrefix("not an audio file TagLib can read") == true)
    }

    /// A FLAC cut inside its audio frames keeps an intact header: TagLib reports what STREAMINFO
    /// says (the duration of the whole stream), like a player that plays up to the cut would.
    @Test func flacCutInAudio() throws {
        let source = try fixtures.copy(.flac)
        let path = fixtures.newPath("flac")
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        #expect(FileManager.default.createFile(atPath: path, contents: data.prefix(data.count / 2)))
        let info = try AudioFileReader.read(path: path)
        #expect(info.properties.sampleRate == Format.flac.sampleRate)
        #expect(abs(info.properties.durationMilliseconds - fixtureMilliseconds) <= 100)
    }

    /// Other formats cut to a few hundred bytes give an error, not a crash.
    @Test(arguments: Format.allCases)
    func truncatedFiles(format: Format) throws {
        let source = try fixtures.copy(format)
        let path = fixtures.newPath(format.fileExtension)
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        #expect(FileManager.default.createFile(atPath: path, contents: data.prefix(12)))
        #expect(readError(path) != nil)
    }

    @Test(arguments: ["txt", "jpg", "lrc", "mp3.bak", "MP3X"])
    func unsupportedExtension(ext: String) throws {
        let path = fixtures.newPath(ext)
        try FileManager.default.copyItem(atPath: try fixtures.copy(.mp3), toPath: path)
        let shown = (path as NSString).pathExtension.lowercased()
        #expect(readError(path)?.reason == "“.\(shown)” is not a supported audio file type")
    }

    @Test func upperCaseExtensionIsSupported() throws {
        let path = fixtures.newPath("MP3")
        try FileManager.default.copyItem(atPath: try fixtures.copy(.mp3), toPath: path)
        #expect(try AudioFileReader.read(path: path).properties.sampleRate == 44_100)
    }

    /// Root passes every permission check (`access(R_OK)` succeeds on a mode 000 file), so as root
    /// the file is read; as any other user it must be refused with a permission reason.
    @Test func unreadableFile() throws {
        let path = try fixtures.copy(.flac)
        #expect(chmod(path, 0) == 0)
        defer { chmod(path, 0o644) }
        if geteuid() == 0 {
            #expect(access(path, R_OK) == 0)
            #expect(try AudioFileReader.read(path: path).properties.sampleRate == 44_100)
        } else {
            #expect(readError(path)?.reason == "file is not readable (permission denied)")
        }
    }

    /// Writing to a file TagLib cannot open for writing fails with a reason, not silently.
    @Test func readOnlyFileCannotBeWritten() throws {
        guard geteuid() != 0 else { return }  // root can write to read-only files
        let path = try fixtures.copy(.flac)
        #expect(chmod(path, 0o444) == 0)
        defer { chmod(path, 0o644) }
        #expect(writeError(path) != nil)
    }

    /// Many reads at once on different threads (the server scans in parallel).
    @Test func concurrentReads() async throws {
        var paths: [String] = []
        for format in Format.allCases {
            let path = try fixtures.copy(format)
            try AudioTagWriter.write(AudioTags(title: format.rawValue), to: path)
            paths.append(path)
        }
        let titles = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<4 {
                for path in paths {
                    group.addTask { try? AudioFileReader.read(path: path).tags.title }
                }
            }
            var out: [String?] = []
            for await t in group { out.append(t) }
            return out
        }
        #expect(titles.count == paths.count * 4)
        #expect(Set(titles.compactMap { $0 }) == Set(Format.allCases.map(\.rawValue)))
        #expect(!titles.contains(nil))
    }
}

@Suite("Formats TagLib 1.13 cannot read")
struct UnreadableFormatTests {
    /// Raw AAC (ADTS) is in `supportedExtensions`, but TagLib 1.13 has no ADTS reader.
    @Test func rawAAC() throws {
        let path = fixtures.newPath("aac")
        try runFFmpeg(toneArguments(.aac, to: path))
        guard case .failure(let error) = readResult(path) else {
            Issue.record("TagLib 1.13 read raw AAC: update this test and the reader's message")
            return
        }
        #expect(
            error.reason.contains(".m4a"),
            "the reason should say how to make the file readable: \(error.reason)")
        // The same stream in an MP4 container is read.
        let m4a = fixtures.newPath("m4a")
        try runFFmpeg(["-i", path, "-c", "copy", m4a])
        #expect(try AudioFileReader.read(path: m4a).properties.sampleRate == 44_100)
    }
}

/// TagLib 1.13 takes any bytes for headerless Musepack SV4-6; the reader wants a signature.
@Test func musepackSignature() {
    func file(_ bytes: [UInt8]) -> String {
        let path = fixtures.newPath("mpc")
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
    #expect(AudioFileReader.hasMusepackSignature(file(Array("MPCK".utf8) + [0, 1, 2, 3])))
    #expect(AudioFileReader.hasMusepackSignature(file(Array("MP+".utf8) + [0x17, 1, 2, 3])))
    // An ID3v2 tag of 5 bytes (syncsafe size 0 0 0 5) in front of the stream.
    let id3 = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 5] + [1, 2, 3, 4, 5]
    #expect(AudioFileReader.hasMusepackSignature(file(id3 + Array("MPCK".utf8))))
    #expect(!AudioFileReader.hasMusepackSignature(file(id3 + Array("RIFF".utf8))))
    #expect(!AudioFileReader.hasMusepackSignature(file(Array("MP".utf8))))
    #expect(!AudioFileReader.hasMusepackSignature(fixtures.newPath("mpc")))
}

/// A real audio file with another format's extension (an MP3 renamed .flac, a WAV renamed .mp3):
/// TagLib opens files by extension, so each is refused, and a write leaves the bytes alone.
@Test(arguments: Format.allCases)
func mislabeledFiles(format: Format) throws {
    let source = try fixtures.copy(format)
    let original = try Data(contentsOf: URL(fileURLWithPath: source))
    let extensions = [
        "mp3", "flac", "m4a", "ogg", "opus", "wav", "aiff", "wma", "wv", "ape", "tta", "spx", "mpc",
    ]
    for ext in extensions where ext != format.fileExtension {
        let path = fixtures.newPath(ext)
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let isOggOpus = [.opus, .opusInOgg].contains(format) && ["ogg", "opus"].contains(ext)
        switch readResult(path) {
        case .success(let info):
            #expect(isOggOpus, "\(format) named .\(ext) was read: \(info.properties)")
        case .failure(let error):
            #expect(!isOggOpus, "\(format) named .\(ext): \(error.reason)")
            do throws(AudioMetadataError) {
                try AudioTagWriter.write(fullTags, to: path)
                Issue.record("\(format) named .\(ext) was written to")
            } catch {}
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: path)) == original,
                "\(format) named .\(ext) changed")
        }
    }
}

/// A FIFO named like audio: TagLib would block forever reading it, so both sides refuse it first.
@Test func fifoIsRefusedWithoutBlocking() throws {
    let path = fixtures.newPath("mp3")
    #expect(mkfifo(path, 0o644) == 0)
    let outcome = Locked<[String]>([])
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        if case .failure(let error) = readResult(path) {
            outcome.withLock { $0.append("read: \(error.reason)") }
        }
        do throws(AudioMetadataError) {
            try AudioTagWriter.write(AudioTags(title: "T"), to: path)
        } catch {
            outcome.withLock { $0.append("write: \(error.reason)") }
        }
        finished.signal()
    }
    guard finished.wait(timeout: .now() + 10) == .success else {
        Issue.record("reading or writing a FIFO blocked")
        return
    }
    #expect(outcome.withLock { $0 } == ["read: not a regular file", "write: not a regular file"])
}

/// The writer gives the reader's reasons for files it cannot tag.
@Test func writerReasons() throws {
    let text = fixtures.newPath("txt")
    #expect(FileManager.default.createFile(atPath: text, contents: Data("x".utf8)))
    let empty = fixtures.newPath("mp3")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    for (path, reason) in [
        (text, "“.txt” is not a supported audio file type"), (empty, "file is empty"),
        (fixtures.newPath("flac"), "file cannot be opened: No such file or directory"),
    ] {
        do throws(AudioMetadataError) {
            try AudioTagWriter.write(AudioTags(title: "T"), to: path)
            Issue.record("wrote \(path)")
        } catch {
            #expect(error.reason == reason)
        }
    }
}
