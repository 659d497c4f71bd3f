import AudioMetadata
import Foundation
import HTTPServer

/// Avatar pictures: recognised by their first bytes (never by name or declared type) and re-encoded by
/// ffmpeg into a 256x256 JPEG, so what is served is always an image the server made.
enum AvatarImages {
    static let maxUploadBytes = 10 << 20
    static let side = 256

    enum Kind: String {
        case jpeg, png, webp

        /// ffmpeg's demuxer for this format only, so ffmpeg never guesses another container.
        var demuxer: String { rawValue + "_pipe" }
    }

    static func kind(ofFileAt path: String) -> Kind? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count >= 12 else { return nil }
        let bytes = [UInt8](head)
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// Writes a square JPEG of `side` pixels (cropped to fill) to `destination`, atomically.
    static func resize(_ source: String, kind: Kind, to destination: String) throws {
        guard let ffmpeg = FFmpeg.installed else {
            throw HTTPError(
                status: 503, message: "The server cannot process pictures now (ffmpeg is missing).")
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
            throw HTTPError.badRequest("That picture could not be read. Try another JPEG, PNG or WebP file.")
        }
        guard rename(temporary, destination) == 0 else {
            throw HTTPError(
                status: 500, message: "The server could not save the picture. Please tell the administrator.")
        }
    }
}
