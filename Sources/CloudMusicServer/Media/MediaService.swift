import AudioMetadata
import Cryptography
import Foundation
import MusicCore
import Synchronization

/// Streams, transcodes and cover images. Every ffmpeg command line is built here from checked values,
/// never from user text, and every cached file lives under the data folder's cache.
final class MediaService: Sendable {
    let cacheFolder: String
    let transcodes: TranscodeLimiter
    /// Where the files ffmpeg reads and the server sends may be.
    let files: FileRoots
    /// Cover sizes served; a requested size snaps up to the next one, so the cache stays bounded.
    static let coverSizes = [64, 128, 256, 512, 1024]

    init(cacheFolder: String, maxTranscodes: Int, files: FileRoots) throws {
        self.cacheFolder = cacheFolder
        self.files = files
        transcodes = TranscodeLimiter(limit: maxTranscodes)
        try FileManager.default.createDirectory(
            atPath: cacheFolder + "/covers", withIntermediateDirectories: true)
    }

    // MARK: Streams

    /// The formats songs are converted to (`StreamFormat` without `raw`).
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

    /// What a stream request gets: the original file, or a conversion to run as the bytes go out.
    enum AudioReply {
        case file(path: String)
        /// ffmpeg with checked arguments; `release` frees the transcode slot when the stream ends.
        case transcode(
            executable: String, arguments: [String], contentType: String, release: @Sendable () -> Void)
    }

    /// The original file, or a live transcode when a format, bit rate or offset is asked.
    /// `clients` names who asks (the address, and the account when signed in): each may run only a few
    /// transcodes at once.
    func stream(file: Catalog.SongFile, query: StreamQuery, clients: [String]) throws -> AudioReply {
        try stream(path: file.path, query: query, clients: clients)
    }

    /// `stream` of the song file at `path`.
    func stream(path: String, query: StreamQuery, clients: [String]) throws -> AudioReply {
        let timeOffset = query.timeOffset ?? 0
        guard let input = files.checkedPath(path) else { throw Self.missingSong }
        if Self.sendsOriginal(query) {
            return .file(path: path)
        }
        let target = TranscodeFormat(rawValue: query.format.rawValue) ?? .mp3
        let bitRate = Self.transcodeBitRate(query)
        guard let ffmpeg = FFmpeg.installed else {
            throw ServiceError.unavailable(
                "Transcoding is unavailable: ffmpeg is not installed on the server.")
        }
        let release = try transcodes.slot(for: clients)
        let arguments =
            [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-ss", String(format: "%.3f", timeOffset),
                "-i", input, "-map", "0:a:0", "-vn", "-b:a", "\(bitRate)k",
            ]
            + target.ffmpegArguments + ["pipe:1"]
        return .transcode(
            executable: ffmpeg.executable, arguments: arguments, contentType: target.contentType,
            release: release)
    }

    /// The bit rate (kbit/s) a transcode runs at: the one asked, within 32-320, else 192.
    static func transcodeBitRate(_ query: StreamQuery) -> Int {
        query.maxBitRate == 0 ? 192 : min(max(query.maxBitRate, 32), 320)
    }

    static let missingSong = ServiceError.notFound(
        "This song's file is missing from the music folder; a rescan will remove it.")

    /// Whether `stream` answers `query` with the original file (no format, bit rate or offset asked).
    static func sendsOriginal(_ query: StreamQuery) -> Bool {
        query.format == .raw && query.maxBitRate == 0 && (query.timeOffset ?? 0) == 0
    }

    /// The song file at `path`, opened under `FileRoots`' rules, for a caller that answers `sendsOriginal`
    /// queries itself: the checked descriptor is the one sent, so the file is opened once, not twice (checked,
    /// then opened again to send).
    func openOriginal(path: String) throws -> OpenedFile {
        do {
            return try files.open(path)
        } catch {
            throw Self.missingSong
        }
    }

    // MARK: Covers

    /// The embedded picture of a song file, extracted once and cached (nil when it has none).
    func embeddedCover(songPath: String, size: Int) throws -> String? {
        var info = stat()
        guard let songPath = files.checkedPath(songPath), stat(songPath, &info) == 0 else { return nil }
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
        if let folderCover = sources.folderCover.flatMap(files.checkedPath) {
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

/// A cap on concurrent transcodes, in all and per client (its address, and its account when signed in),
/// so that one person cannot hold every slot.
final class TranscodeLimiter: Sendable {
    enum Outcome { case acquired, serverBusy, clientBusy }

    private let state = Mutex((running: 0, byClient: [String: Int]()))
    let limit: Int
    let perClient: Int

    init(limit: Int, perClient: Int = 2) {
        self.limit = limit
        self.perClient = perClient
    }

    func acquire(for clients: [String]) -> Outcome {
        state.withLock { state in
            guard state.running < limit else { return .serverBusy }
            guard clients.allSatisfy({ state.byClient[$0, default: 0] < perClient }) else {
                return .clientBusy
            }
            state.running += 1
            for client in clients { state.byClient[client, default: 0] += 1 }
            return .acquired
        }
    }

    /// A slot for one transcode (a song's or a video's), or the refusal a person reads; call the returned
    /// function once when the transcode ends.
    func slot(for clients: [String]) throws -> @Sendable () -> Void {
        switch acquire(for: clients) {
        case .acquired:
            return { self.release(for: clients) }
        case .serverBusy:
            throw ServiceError.rateLimited(
                "The server is busy converting other songs and videos. Try again in a moment, or play the original.",
                retryAfter: 5)
        case .clientBusy:
            throw ServiceError.rateLimited(
                "You are already converting \(perClient) songs or videos at once. Stop one, or play the original.",
                retryAfter: 5)
        }
    }

    func release(for clients: [String]) {
        state.withLock { state in
            state.running -= 1
            for client in clients {
                let left = state.byClient[client, default: 1] - 1
                state.byClient[client] = left > 0 ? left : nil
            }
        }
    }

    var running: Int { state.withLock { $0.running } }
}
