import Foundation

/// A picture format the server accepts, recognised by a file's first bytes, never by its name or
/// declared type.
enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, gif

    /// ffmpeg's demuxer for this format only, so ffmpeg never guesses another container.
    var demuxer: String { self == .gif ? "gif" : rawValue + "_pipe" }

    /// The format of the file at `path` by its magic number, or nil when it is none of these.
    static func detect(fileAt path: String) -> ImageFormat? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12) else { return nil }
        return detect(header: [UInt8](head))
    }

    /// The format whose magic number starts `bytes` (at least 12 of them for WebP).
    static func detect(header bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
            Array(bytes[8..<12]) == Array("WEBP".utf8)
        {
            return .webp
        }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            return .gif
        }
        return nil
    }

    /// Width and height from the header of a JPEG or PNG file the server wrote (ffmpeg's output), or nil.
    static func dimensions(ofFileAt path: String) -> (width: Int, height: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64 << 10) else { return nil }
        let b = [UInt8](head)
        if detect(header: b) == .png, b.count >= 24 {
            func be32(_ i: Int) -> Int {
                Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            }
            return (be32(16), be32(20))
        }
        guard detect(header: b) == .jpeg else { return nil }
        // Walk the marker segments to the first start-of-frame (SOF0-SOF15 but DHT, JPG and DAC).
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let width = Int(b[i + 7]) << 8 | Int(b[i + 8])
                return (width, height)
            }
            i += 2 + length
        }
        return nil
    }
}
