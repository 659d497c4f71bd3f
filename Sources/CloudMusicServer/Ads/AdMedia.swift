import AudioMetadata
import Cryptography
import Foundation
import MusicCore

/// An ad's file, checked by its bytes (never its name or declared type) and stored under the ads folder:
/// a picture is re-encoded by ffmpeg like uploads are (metadata dropped, long side capped); a video is
/// recognised by its container's signature, probed by ffprobe (it must hold a video stream of sensible
/// size and length) and kept as sent, with its first frame taken as its picture.
struct AdMedia: Sendable {
    /// `<dataFolder>/ads`.
    let folder: String
    var maxPictureBytes = 20 << 20
    var maxVideoBytes = 100 << 20
    var maxPictureSide = 2048
    /// A video ad plays at most this long.
    var maxVideoSeconds = 120.0
    var maxVideoSide = 4096

    /// A stored file set: what `AdStore.Record` keeps of it.
    struct Stored: Sendable {
        var mediaFile: String
        var mediaType: String
        var posterFile: String?
        var width: Int
        var height: Int
        var durationMilliseconds: Int?
        var size: Int
        var codecs: String?
        var isVideo: Bool { posterFile != nil }
    }

    /// The video containers taken, by their signature.
    enum VideoContainer: String, Sendable {
        case mp4, mov, webm, mkv

        var mime: String {
            switch self {
            case .mp4: "video/mp4"
            case .mov: "video/quicktime"
            case .webm: "video/webm"
            case .mkv: "video/x-matroska"
            }
        }

        /// The container whose signature starts `bytes`: an ISO base media `ftyp` box (MP4, QuickTime) or
        /// an EBML header (Matroska, told from WebM by ffprobe), or nil.
        static func detect(header bytes: [UInt8]) -> VideoContainer? {
            if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
                return Array(bytes[8..<12]) == Array("qt  ".utf8) ? .mov : .mp4
            }
            if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .mkv }
            return nil
        }
    }

    /// Checks and stores the one file of an ad's upload. Files are named after their content, so ads with
    /// the same file share it.
    func store(_ files: [Upload.File]) throws -> Stored {
        guard let part = files.first else {
            throw ServiceError.invalid(
                "Send the ad's picture or video as a multipart file part named 'file'.")
        }
        guard files.count == 1 else {
            throw ServiceError.invalid("Send one file with an ad, not \(files.count).")
        }
        let label = UploadService.label(part, index: 0, of: 1)
        guard part.size > 0 else { throw ServiceError.invalid("\(label) is empty. Choose the file again.") }
        guard let handle = FileHandle(forReadingAtPath: part.path),
            let head = try? handle.read(upToCount: 16)
        else { throw UploadService.storageFailure }
        try? handle.close()
        let header = [UInt8](head)
        if let format = ImageFormat.detect(header: header) {
            guard part.size <= maxPictureBytes else {
                throw ServiceError.tooLarge(
                    "\(label) is larger than the \(maxPictureBytes >> 20) MB allowed for an ad's picture.")
            }
            return try storePicture(part, format: format, label: label)
        }
        if let container = VideoContainer.detect(header: header) {
            guard part.size <= maxVideoBytes else {
                throw ServiceError.tooLarge(
                    "\(label) is larger than the \(maxVideoBytes >> 20) MB allowed for an ad's video.")
            }
            return try storeVideo(part, container: container, label: label)
        }
        throw ServiceError.unsupportedFormat(
            "\(label) is neither a picture nor a video the server can read. Send a JPEG, PNG, WebP or GIF "
                + "picture, or an MP4, MOV, WebM or MKV video (the server looks at the file's content, not its name)."
        )
    }

    // MARK: Pictures

    private func storePicture(_ part: Upload.File, format: ImageFormat, label: LocalizedText) throws
        -> Stored
    {
        let ffmpeg = try Self.ffmpeg()
        let png = format == .png || format == .gif
        let name = try fileName(source: part.path, extension: png ? "png" : "jpg")
        let codec = png ? ["-c:v", "png"] : ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"]
        let side = maxPictureSide
        try produce(name) { temporary in
            do {
                try ffmpeg.run(
                    ["-max_pixels", "40000000", "-f", format.demuxer, "-i", part.path]
                        + [
                            "-vf",
                            "scale=w='min(\(side),iw)':h='min(\(side),ih)':force_original_aspect_ratio=decrease",
                        ]
                        + ["-frames:v", "1", "-map_metadata", "-1"] + codec + ["-f", "image2", temporary],
                    timeout: 30)
            } catch {
                throw ServiceError.invalid(
                    "\(label) could not be read as a picture. It may be damaged; try another one.")
            }
        }
        let path = folder + "/" + name
        guard let dimensions = ImageFormat.dimensions(ofFileAt: path) else {
            unlink(path)
            throw UploadService.storageFailure
        }
        return Stored(
            mediaFile: name, mediaType: png ? "image/png" : "image/jpeg", posterFile: nil,
            width: dimensions.width,
            height: dimensions.height, durationMilliseconds: nil, size: Self.size(of: path), codecs: nil)
    }

    // MARK: Videos

    private func storeVideo(_ part: Upload.File, container: VideoContainer, label: LocalizedText) throws
        -> Stored
    {
        guard VideoMedia.ffprobe != nil else {
            throw ServiceError.unavailable("The server cannot check videos now (ffprobe is missing).")
        }
        let probe: VideoProbe
        do {
            probe = try VideoMedia.probe(part.path)
        } catch let failure as VideoMedia.Failure where failure.description == VideoMedia.noVideoStream {
            throw ServiceError.unsupportedFormat("\(label) has no video in it. Send a video, or a picture.")
        } catch {
            throw ServiceError.unsupportedFormat(
                "\(label) is neither a picture nor a video the server can read. Send a JPEG, PNG, WebP or GIF "
                    + "picture, or an MP4, MOV, WebM or MKV video (the server looks at the file's content, not its name)."
            )
        }
        let isISO = container == .mp4 || container == .mov
        guard probe.container == (isISO ? "mov" : "matroska") else {
            throw ServiceError.unsupportedFormat(
                "\(label) is neither a picture nor a video the server can read. Send a JPEG, PNG, WebP or GIF "
                    + "picture, or an MP4, MOV, WebM or MKV video (the server looks at the file's content, not its name)."
            )
        }
        let video = (codec: probe.videoCodec, width: probe.width, height: probe.height)
        guard video.width <= maxVideoSide, video.height <= maxVideoSide else {
            throw ServiceError.invalid(
                "\(label) is \(video.width)x\(video.height); an ad's video can be at most \(maxVideoSide) pixels on a side."
            )
        }
        let seconds = Double(probe.durationMilliseconds) / 1000
        guard seconds <= maxVideoSeconds else {
            throw ServiceError.invalid(
                "\(label) is \(Int(seconds.rounded())) seconds long; an ad's video can be at most \(Int(maxVideoSeconds)) seconds."
            )
        }
        var kind = container
        if kind == .mkv && ["vp8", "vp9", "av1"].contains(video.codec)
            && (probe.audioCodec == nil || ["opus", "vorbis"].contains(probe.audioCodec!))
        {
            kind = .webm
        }
        let ffmpeg = try Self.ffmpeg()
        let name = try fileName(source: part.path, extension: kind.rawValue)
        let poster = name.replacingOccurrences(of: "." + kind.rawValue, with: ".poster.jpg")
        let side = maxPictureSide
        try produce(poster) { temporary in
            do {
                try ffmpeg.run(
                    ["-ss", String(format: "%.3f", min(1, seconds / 2)), "-i", part.path, "-map", "0:v:0"]
                        + [
                            "-vf",
                            "scale=w='min(\(side),iw)':h='min(\(side),ih)':force_original_aspect_ratio=decrease",
                        ]
                        + ["-frames:v", "1", "-map_metadata", "-1", "-c:v", "mjpeg", "-q:v", "3"]
                        + ["-pix_fmt", "yuvj420p", "-f", "image2", temporary],
                    timeout: 30)
            } catch {
                throw ServiceError.invalid("\(label) could not be decoded as a video. It may be damaged.")
            }
        }
        do {
            try produce(name) { temporary in
                guard copyfile(part.path, temporary) else { throw UploadService.storageFailure }
            }
        } catch {
            unlink(folder + "/" + poster)
            throw error
        }
        let codecs = [video.codec, probe.audioCodec].compactMap { $0 }.joined(separator: ", ")
        return Stored(
            mediaFile: name, mediaType: kind.mime, posterFile: poster, width: video.width,
            height: video.height,
            durationMilliseconds: Int((seconds * 1000).rounded()), size: part.size, codecs: codecs)
    }

    // MARK: Files

    /// `<16 hex of the content's SHA-256>.<ext>`: another file gets another name.
    private func fileName(source: String, extension ext: String) throws -> String {
        guard let hash = Crypto.sha256Hex(ofFileAt: source) else { throw UploadService.storageFailure }
        return "\(hash.prefix(16)).\(ext)"
    }

    /// Writes `name` in the ads folder through a temporary file that `write` fills, made durable and moved
    /// into place.
    private func produce(_ name: String, _ write: (String) throws -> Void) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw UploadService.storageFailure
        }
        let temporary = folder + "/.\(name).\(UUID().uuidString).tmp"
        defer { unlink(temporary) }
        try write(temporary)
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw UploadService.storageFailure }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, folder + "/" + name) == 0 else { throw UploadService.storageFailure }
    }

    /// Deletes stored files (ones no ad uses any more).
    func remove(_ names: [String]) {
        for name in names where !name.isEmpty && !name.contains("/") { unlink(folder + "/" + name) }
    }

    /// The path of a stored file.
    func path(_ name: String) -> String { folder + "/" + name }

    private static func ffmpeg() throws -> FFmpeg {
        guard let ffmpeg = FFmpeg.installed else {
            throw ServiceError.unavailable(
                "The server cannot process pictures and videos now (ffmpeg is missing).")
        }
        return ffmpeg
    }

    private static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Copies a file's bytes to `destination` (a new file).
    private func copyfile(_ source: String, _ destination: String) -> Bool {
        (try? FileManager.default.copyItem(atPath: source, toPath: destination)) != nil
    }
}
