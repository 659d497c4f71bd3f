import Foundation
import Testing

@testable import AudioMetadata

/// One audio format the tests generate with ffmpeg.
enum Format: String, CaseIterable, Sendable, CustomStringConvertible {
    case mp3, flac, vorbis, opus, opusInOgg, aac, alac, wav, aiff, wma, wavpack
    /// Not named in the issue, but in `supportedExtensions` and ffmpeg can encode them.
    case trueAudio, speex

    var description: String { rawValue }

    var fileExtension: String {
        switch self {
        case .mp3: "mp3"
        case .flac: "flac"
        case .vorbis, .opusInOgg: "ogg"
        case .opus: "opus"
        case .aac, .alac: "m4a"
        case .wav: "wav"
        case .aiff: "aiff"
        case .wma: "wma"
        case .wavpack: "wv"
        case .trueAudio: "tta"
        case .speex: "spx"
        }
    }

    var codecArguments: [String] {
        switch self {
        case .mp3: ["-c:a", "libmp3lame", "-b:a", "128k"]
        case .flac: ["-c:a", "flac"]
        case .vorbis: ["-c:a", "libvorbis", "-q:a", "3"]
        case .opus, .opusInOgg: ["-c:a", "libopus", "-b:a", "64k"]
        case .aac: ["-c:a", "aac", "-b:a", "128k"]
        case .alac: ["-c:a", "alac"]
        case .wav: ["-c:a", "pcm_s16le"]
        case .aiff: ["-c:a", "pcm_s16be"]
        case .wma: ["-c:a", "wmav2", "-b:a", "128k"]
        case .wavpack: ["-c:a", "wavpack"]
        case .trueAudio: ["-c:a", "tta"]
        case .speex: ["-c:a", "libspeex"]
        }
    }

    /// Sample rates and channel counts differ between formats so a mix-up would show.
    var sampleRate: Int {
        switch self {
        case .opus, .opusInOgg, .aiff: 48_000
        case .wav: 22_050
        case .speex: 16_000
        default: 44_100
        }
    }

    var channels: Int {
        switch self {
        case .wav, .wavpack, .speex: 1
        default: 2
        }
    }
}

/// The length of every generated fixture.
let fixtureMilliseconds = 1_500

/// Runs ffmpeg with an argument array; throws its error output on failure.
func runFFmpeg(_ arguments: [String]) throws {
    do {
        try FFmpeg().run(arguments)
    } catch {
        throw FixtureError(message: "ffmpeg \(arguments.joined(separator: " ")): \(error.reason)")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// ffmpeg arguments for a sine tone of `fixtureMilliseconds` in `format`, followed by `extra`.
func toneArguments(_ format: Format, extra: [String] = [], to path: String) -> [String] {
    let seconds = Double(fixtureMilliseconds) / 1000
    return [
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(format.sampleRate):duration=\(seconds)",
        "-ac", "\(format.channels)",
    ]
        + format.codecArguments + ["-map_metadata", "-1"] + extra + [path]
}

/// Untagged fixtures, generated once per test run into one temporary folder; tests copy them.
final class Fixtures: Sendable {
    let folder: String
    private let files: [Format: Result<String, FixtureError>]

    init() {
        let folder = NSTemporaryDirectory() + "AudioMetadataTests-\(getpid())-\(UUID().uuidString.prefix(8))"
        self.folder = folder
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Swift Testing has no hook after the last test; the folder goes when the process exits.
        atexit { try? FileManager.default.removeItem(atPath: fixtures.folder) }
        let formats = Format.allCases
        let results = Locked([Format: Result<String, FixtureError>]())
        DispatchQueue.concurrentPerform(iterations: formats.count) { i in
            let format = formats[i]
            let path = "\(folder)/fixture-\(format.rawValue).\(format.fileExtension)"
            let result: Result<String, FixtureError>
            do {
                try runFFmpeg(toneArguments(format, to: path))
                result = .success(path)
            } catch let error as FixtureError {
                result = .failure(error)
            } catch {
                result = .failure(FixtureError(message: "\(error)"))
            }
            results.withLock { $0[format] = result }
        }
        files = results.withLock { $0 }
    }

    /// A fresh copy of the untagged `format` fixture that the caller may change.
    func copy(_ format: Format, name: String = #function) throws -> String {
        let source = try files[format]!.get()
        let target = "\(folder)/\(UUID().uuidString)-\(format.rawValue).\(format.fileExtension)"
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }

    /// A fresh, empty scratch folder.
    func scratchFolder() -> String {
        let path = "\(folder)/scratch-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The path for a new file in the fixture folder (not created).
    func newPath(_ ext: String) -> String { "\(folder)/\(UUID().uuidString).\(ext)" }
}

/// Generated on first use (Swift globals are initialised once, thread-safely).
let fixtures = Fixtures()

/// A tiny lock for collecting results from concurrent work.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Writes raw property values straight through TagLib, bypassing `AudioTagWriter`'s formatting.
func writeRaw(_ properties: [(key: String, values: [String])], to path: String) throws {
    let file = try TagLibFile(path: path)
    #expect(file.replace(properties), "TagLib rejected some of \(properties.map(\.key)) in \(path)")
    try file.save()
}

/// `read`, as a `Result` so that a test can look at the error.
func readResult(_ path: String) -> Result<AudioFileInfo, AudioMetadataError> {
    do throws(AudioMetadataError) {
        return .success(try AudioFileReader.read(path: path))
    } catch {
        return .failure(error)
    }
}
