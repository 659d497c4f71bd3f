import AudioMetadata
import Foundation

/// What ffprobe found in a video file.
struct VideoProbe: Sendable, Equatable {
    var durationMilliseconds: Int
    var width: Int
    var height: Int
    /// ffprobe's first format name (`mov` for MP4 and MOV, `matroska` for MKV and WebM).
    var container: String
    var videoCodec: String
    var audioCodec: String?
    var title: String?
    var artist: String?
}

/// The file types videos come in, known by their first bytes (never by a name or a declared type).
enum VideoContainer: String, Sendable {
    case mp4, mov, mkv, webm

    /// The container of the file at `path`, from its first bytes; nil when it is none of these.
    static func detect(fileAt path: String) -> VideoContainer? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64), head.count >= 12 else { return nil }
        let bytes = [UInt8](head)
        // Matroska and WebM: the EBML magic, then the DocType says which.
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            return head.range(of: Data("webm".utf8)) != nil ? .webm : .mkv
        }
        // ISO base media (MP4, MOV): a box type at offset 4.
        let box = String(decoding: bytes[4..<8], as: UTF8.self)
        if box == "ftyp" {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            return brand == "qt  " ? .mov : .mp4
        }
        if ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(box) { return .mov }
        return nil
    }

    var fileExtension: String { rawValue }
}

/// ffprobe and ffmpeg for videos: probing, stills and the MP4 conversion. Every command line is built here
/// from checked values and absolute paths, never from what people typed.
enum VideoMedia {
    /// The extensions a videos folder is scanned for.
    static let extensions: Set<String> = ["mp4", "m4v", "mkv", "webm", "mov"]

    /// ffprobe beside the installed ffmpeg.
    static let ffprobe: String? = {
        guard let ffmpeg = FFmpeg.installed?.executable else { return nil }
        let path = (ffmpeg as NSString).deletingLastPathComponent + "/ffprobe"
        return access(path, X_OK) == 0 ? path : nil
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let noVideoStream = "it has no video stream"

    /// Probes a file; throws when ffprobe cannot read it or it has no moving picture (a song's cover art
    /// is not a video).
    static func probe(_ path: String, timeout: TimeInterval = 30) throws -> VideoProbe {
        guard let ffprobe = Self.ffprobe else {
            throw Failure(description: "ffprobe is not installed (apt-get install ffmpeg)")
        }
        let output = try run(
            ffprobe,
            ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "file:" + path],
            timeout: timeout)
        guard let json = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
            let format = json["format"] as? [String: Any]
        else { throw Failure(description: "ffprobe cannot read it") }
        let streams = json["streams"] as? [[String: Any]] ?? []
        func isStill(_ stream: [String: Any]) -> Bool {
            (stream["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1
        }
        guard
            let video = streams.first(where: {
                $0["codec_type"] as? String == "video" && !isStill($0)
                    && !["mjpeg", "png", "bmp", "gif", "webp"].contains($0["codec_name"] as? String ?? "")
            })
        else { throw Failure(description: noVideoStream) }
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        let seconds =
            Double(format["duration"] as? String ?? "") ?? Double(video["duration"] as? String ?? "") ?? 0
        guard seconds > 0, seconds.isFinite else { throw Failure(description: "it has no duration") }
        var width = video["width"] as? Int ?? 0
        var height = video["height"] as? Int ?? 0
        guard width > 0, height > 0 else { throw Failure(description: "its picture has no size") }
        if rotation(of: video) % 180 != 0 { swap(&width, &height) }
        let tags = lowercasedKeys(format["tags"] as? [String: Any])
        let formatName = (format["format_name"] as? String ?? "").split(separator: ",").first.map(String.init)
        return VideoProbe(
            durationMilliseconds: Int((seconds * 1000).rounded()), width: width, height: height,
            container: formatName ?? "unknown", videoCodec: video["codec_name"] as? String ?? "unknown",
            audioCodec: audio?["codec_name"] as? String, title: tag(tags["title"]),
            artist: tag(tags["artist"] ?? tags["album_artist"]))
    }

    private static func rotation(of stream: [String: Any]) -> Int {
        if let text = lowercasedKeys(stream["tags"] as? [String: Any])["rotate"] as? String,
            let value = Int(text)
        {
            return abs(value)
        }
        for data in stream["side_data_list"] as? [[String: Any]] ?? [] {
            if let value = data["rotation"] as? Int { return abs(value) }
        }
        return 0
    }

    private static func lowercasedKeys(_ tags: [String: Any]?) -> [String: Any] {
        var out: [String: Any] = [:]
        for (key, value) in tags ?? [:] { out[key.lowercased()] = value }
        return out
    }

    private static func tag(_ value: Any?) -> String? {
        guard let text = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
        else {
            return nil
        }
        return String(text.prefix(200))
    }

    /// Writes a JPEG still of the video, at most 640 pixels wide, a quarter in (at most 5 s).
    static func writeStill(of path: String, durationMilliseconds: Int, to destination: String) throws {
        guard let ffmpeg = FFmpeg.installed else {
            throw Failure(description: "ffmpeg is not installed (apt-get install ffmpeg)")
        }
        let at = min(Double(durationMilliseconds) / 4000, 5)
        let temporary = destination + ".\(UUID().uuidString).tmp.jpg"
        defer { unlink(temporary) }
        do {
            try ffmpeg.run(
                [
                    "-ss", String(format: "%.3f", at), "-i", "file:" + path, "-map", "0:v:0", "-frames:v",
                    "1",
                    "-vf", "scale='min(640,iw)':-2", "-q:v", "4", "-f", "image2", temporary,
                ],
                timeout: 30)
        } catch {
            throw Failure(description: "no still could be taken: \(error.reason)")
        }
        guard rename(temporary, destination) == 0 else {
            throw Failure(description: "cannot move the still into the cache at \(destination)")
        }
    }

    /// Whether browsers play the original as it is: H.264 video with AAC (or no) audio in an MP4.
    static func isBrowserSafe(container: String, videoCodec: String, audioCodec: String?, path: String)
        -> Bool
    {
        let ext = (path as NSString).pathExtension.lowercased()
        return container == "mov" && (ext == "mp4" || ext == "m4v") && videoCodec == "h264"
            && (audioCodec == nil || audioCodec == "aac")
    }

    /// ffmpeg's arguments for a fragmented H.264/AAC MP4 on standard output; streams already in those codecs
    /// are copied, not encoded again.
    static func mp4Arguments(
        path: String, videoCodec: String, audioCodec: String?, timeOffset: Double
    ) -> [String] {
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error"]
        if timeOffset > 0 { arguments += ["-ss", String(format: "%.3f", timeOffset)] }
        arguments += ["-i", "file:" + path, "-map", "0:v:0", "-map", "0:a:0?"]
        if videoCodec == "h264" && timeOffset == 0 {
            arguments += ["-c:v", "copy"]
        } else {
            arguments += [
                "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
                "-vf", "scale='min(1280,iw)':-2",
            ]
        }
        arguments +=
            audioCodec == "aac" && timeOffset == 0 ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "160k"]
        arguments += ["-movflags", "frag_keyframe+empty_moov+default_base_moof", "-f", "mp4", "pipe:1"]
        return arguments
    }

    /// Runs a program to completion and returns its standard output, killing it after `timeout` seconds.
    private static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval) throws -> Data
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch {
            throw Failure(description: "could not start \(executable): \(error.localizedDescription)")
        }
        let timer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(description: "ffprobe cannot read it")
        }
        return data
    }
}

/// Title and artist of a video from its tags, else its file name ("Artist - Title.mp4").
enum VideoNaming {
    static func titleAndArtist(probe: VideoProbe, fileName: String) -> (title: String, artist: String?) {
        if let title = probe.title { return (title, probe.artist) }
        let stem = (fileName as NSString).deletingPathExtension.trimmingCharacters(in: .whitespaces)
        if let dash = stem.range(of: " - ") {
            let artist = stem[..<dash.lowerBound].trimmingCharacters(in: .whitespaces)
            let title = stem[dash.upperBound...].trimmingCharacters(in: .whitespaces)
            if !artist.isEmpty && !title.isEmpty { return (title, probe.artist ?? artist) }
        }
        return (stem.isEmpty ? "Untitled video" : stem, probe.artist)
    }

    /// The title without the marks videos carry ("(MV)", "[Official Video]", "官方MV"), to find its song.
    static func songTitle(_ title: String) -> String {
        let pattern =
            #"\s*[\(\[（【]?\s*(official\s+)?(music\s+)?(video|mv|m/v|官方\s*mv|官方版|mv版)\s*[\)\]）】]?\s*$"#
        var text = title
        while let range = text.range(of: pattern, options: [.regularExpression, .caseInsensitive]),
            range.lowerBound > text.startIndex
        {
            text.removeSubrange(range)
        }
        text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("-") { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        return text.isEmpty ? title : text
    }
}
