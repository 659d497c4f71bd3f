import AudioMetadata
import Foundation
import MusicCore

/// Avatar pictures: recognised by their first bytes (never by name or declared type) and re-encoded by
/// ffmpeg into a 256x256 JPEG, so what is served is always an image the server made.
enum AvatarImages {
    static let maxUploadBytes = 10 << 20
    static let side = 256

    /// The picture's format by its first bytes (see `ImageFormat`); GIF is not taken for avatars.
    static func kind(ofFileAt path: String) -> ImageFormat? {
        guard let format = ImageFormat.detect(fileAt: path), format != .gif else { return nil }
        return format
    }

    /// Writes a square JPEG of `side` pixels (cropped to fill) to `destination`, atomically.
    static func resize(_ source: String, kind: ImageFormat, to destination: String) throws {
        guard let ffmpeg = FFmpeg.installed else {
            throw ServiceError.unavailable("The server cannot process pictures now (ffmpeg is missing).")
        }
        let folder = (destination as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = destination + ".\(UUID().uuidString).tmp.jpg"
        defer { unlink(temporary) }
        do {
            try ffmpeg.run(
                [
                    "-max_pixels", "40000000", "-f",
                    kind.demuxer,
                    "-i", source, "-vf",
                    "scale=\(side):\(side):force_original_aspect_ratio=increase,crop=\(side):\(side)",
                    "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "3", "-f", "image2", temporary,
                ],
                timeout: 20)
        } catch {
            throw ServiceError.invalid("That picture could not be read. Try another JPEG, PNG or WebP file.")
        }
        guard rename(temporary, destination) == 0 else {
            throw ServiceError.serverFault(
                "The server could not save the picture. Please tell the administrator.")
        }
    }
}
