import AudioMetadata
import Foundation
import HTTPServer
import Synchronization

/// Streams, transcodes and cover images. Every ffmpeg command line is built here from checked values,
/// never from user text, and every cached file lives under the data folder's cache.
final class MediaService: Sendable {
    let cacheFolder: String
    let transcodes: TranscodeLimiter
    /// Cover sizes served; a requested size snaps up to the next one, so the cache stays bounded.
    static let coverSizes = [64, 128, 256, 512, 1024]

    init(cacheFolder: String, maxTranscodes: Int) throws {
        self.cacheFolder = cacheFolder
        transcodes = TranscodeLimiter(limit: maxTranscodes)
        try FileManager.default.createDirectory(
            atPath: cacheFolder + "/covers", withIntermediateDirectories: true)
    }

    // MARK: Streams

    enum TranscodeFormat: String, CaseIterable {
        case mp3, opus, aac
        var contentType: String {
            switch self {
            case .mp3: "audio/mpeg"
            case .opus: "audio/ogg"
            case .aac: "audio/aac"
            }
        }
        var ffmpegArguments: [String] {
            switch self {
            case .mp3: ["-c:a", "libmp3lame", "-f", "mp3"]
            case .opus: ["-c:a", "libopus", "-f", "ogg"]
            case .aac: ["-c:a", "aac", "-f", "adts"]
            }
        }
    }

    /// The original file with Range support, or a live transcode when a format, bit rate or offset is asked.
    func stream(file: CatalogStore.SongFile, request: Request) throws -> Response {
        let format = request.query["format"].flatMap { $0.isEmpty || $0 == "raw" ? nil : $0 }
        let maxBitRate = try request.integerQuery("maxBitRate", default: 0, range: 0...10_000)
        let offsetText = request.query["timeOffset"] ?? ""
        let timeOffset = offsetText.isEmpty ? 0 : Double(offsetText) ?? -1
        guard timeOffset >= 0, timeOffset.isFinite, timeOffset <= 86_400 else {
            throw HTTPError.badRequest("'timeOffset' must be a number of seconds from 0.")
        }
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw HTTPError.notFound(
                "This song's file is missing from the music folder; a rescan will remove it.")
        }
        if format == nil && maxBitRate == 0 && timeOffset == 0 {
            return try .file(at: file.path, request: request)
        }
        let target: TranscodeFormat
        if let format {
            guard let parsed = TranscodeFormat(rawValue: format) else {
                throw HTTPError.badRequest("'format' must be one of: raw, mp3, opus, aac.")
            }
            target = parsed
        } else {
            target = .mp3
        }
        let bitRate = maxBitRate == 0 ? 192 : min(max(maxBitRate, 32), 320)
        guard let ffmpeg = FFmpeg.installed else {
            throw HTTPError(
                status: 503, message: "Transcoding is unavailable: ffmpeg is not installed on the server.")
        }
        guard transcodes.acquire() else {
            throw HTTPError.tooManyRequests(
                "The server is busy converting other songs. Try again in a moment, or play the original.",
                retryAfter: 5)
        }
        let arguments =
            [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-ss", String(format: "%.3f", timeOffset),
                "-i", file.path, "-map", "0:a:0", "-vn", "-b:a", "\(bitRate)k",
            ]
            + target.ffmpegArguments + ["pipe:1"]
        let limiter = transcodes
        return .stream(contentType: target.contentType) { writer in
            defer { limiter.release() }
            try await Transcode.pump(executable: ffmpeg.executable, arguments: arguments, into: writer)
        }
    }

    // MARK: Covers

    /// The embedded picture of a song file, extracted once and cached (nil when it has none).
    func embeddedCover(songPath: String, size: Int) throws -> String? {
        var info = stat()
        guard stat(songPath, &info) == 0 else { return nil }
        let hasher = Crypto.Hasher()
        hasher.update(Data(songPath.utf8))
        hasher.update(Int64(info.st_size))
        hasher.update(Int64(info.st_mtim.tv_sec))
        let key = "song-" + hasher.finalizeHex()
        let original = cacheFolder + "/covers/\(key).jpg"
        let missing = cacheFolder + "/covers/\(key).none"
        if FileManager.default.fileExists(atPath: missing) { return nil }
        if !FileManager.default.fileExists(atPath: original) {
            guard let ffmpeg = FFmpeg.installed else { return nil }
            do {
                try produce(original) { temporary in
                    try ffmpeg.run(
                        [
                            "-i", songPath, "-an",
                            "-map", "0:v:0", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2",
                            temporary,
                        ],
                        timeout: 20)
                }
            } catch {
                FileManager.default.createFile(atPath: missing, contents: nil)
                return nil
            }
        }
        return try resized(original, key: key, size: size)
    }

    /// An album's cover: its folder image, else the first embedded picture among its songs.
    func albumCover(albumID: Int64, sources: (folderCover: String?, songPaths: [String]), size: Int) throws
        -> String?
    {
        if let folderCover = sources.folderCover, FileManager.default.fileExists(atPath: folderCover) {
            if size == 0 { return folderCover }
            var info = stat()
            stat(folderCover, &info)
            let hasher = Crypto.Hasher()
            hasher.update(Data(folderCover.utf8))
            hasher.update(Int64(info.st_mtim.tv_sec))
            return try resized(folderCover, key: "folder-" + hasher.finalizeHex(), size: size)
        }
        for path in sources.songPaths {
            if let cover = try embeddedCover(songPath: path, size: size) { return cover }
        }
        return nil
    }

    /// A resized copy made on demand and cached; sizes snap up to `coverSizes`.
    private func resized(_ original: String, key: String, size: Int) throws -> String {
        guard size > 0, let ffmpeg = FFmpeg.installed else { return original }
        let snapped = Self.coverSizes.first { $0 >= size } ?? Self.coverSizes.last!
        let target = cacheFolder + "/covers/\(key)-\(snapped).jpg"
        if FileManager.default.fileExists(atPath: target) { return target }
        do {
            try produce(target) { temporary in
                try ffmpeg.run(
                    [
                        "-i", original, "-vf",
                        "scale=\(snapped):\(snapped):force_original_aspect_ratio=decrease", "-frames:v", "1",
                        "-q:v", "3", "-f", "image2", temporary,
                    ],
                    timeout: 20)
            }
            return target
        } catch {
            return original
        }
    }

    /// Writes through a temporary name and renames, so a reader never sees half a file.
    private func produce(_ destination: String, _ write: (String) throws -> Void) throws {
        let temporary = destination + ".\(UUID().uuidString).tmp"
        defer { unlink(temporary) }
        try write(temporary)
        guard rename(temporary, destination) == 0 else {
            throw CacheWriteFailure(path: destination)
        }
    }
}

/// A cached file could not be moved into place.
struct CacheWriteFailure: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot move a new file into the cache at \(path)" }
}

/// A cap on concurrent transcodes.
final class TranscodeLimiter: Sendable {
    private let state = Mutex(0)
    let limit: Int
    init(limit: Int) { self.limit = limit }
    func acquire() -> Bool {
        state.withLock { running in
            guard running < limit else { return false }
            running += 1
            return true
        }
    }
    func release() { state.withLock { $0 -= 1 } }
    var running: Int { state.withLock { $0 } }
}

/// Feeds a child process's standard output into a streamed response.
enum Transcode {
    static func pump(executable: String, arguments: [String], into writer: StreamWriter) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? reader.close()
        }
        while true {
            let chunk: Data = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: (try? reader.read(upToCount: 64 << 10)) ?? Data())
                }
            }
            if chunk.isEmpty { break }
            try await writer.write(chunk)
        }
    }
}
