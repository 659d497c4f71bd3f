/// Names and addresses of stored uploads.
///
/// A stored file is `<dataFolder>/files/<first 2 hex>/<sha256>.<ext>` with its thumbnail beside it as
/// `<sha256>.thumb.<ext>`, served at `v1/files/<sha256>.<ext>` and `v1/files/<sha256>.thumb.<ext>`. The
/// extension is `jpg` or `png`, following the stored file's type.
public enum UploadedFiles {
    /// The stored encodings: photos (and WebP) become JPEG; PNG and GIF become PNG, keeping transparency.
    enum Encoding: String, Sendable {
        case jpeg, png

        var fileExtension: String { self == .jpeg ? "jpg" : "png" }
        var mime: String { self == .jpeg ? "image/jpeg" : "image/png" }

        init?(mime: String) {
            switch mime {
            case "image/jpeg": self = .jpeg
            case "image/png": self = .png
            default: return nil
            }
        }

        init?(fileExtension: Substring) {
            switch fileExtension {
            case "jpg": self = .jpeg
            case "png": self = .png
            default: return nil
            }
        }
    }

    /// A served file's name, `<sha256>[.thumb].<ext>`, taken apart.
    struct Name: Sendable, Equatable {
        var sha256: String
        var thumbnail: Bool
        var encoding: Encoding

        var fileName: String { sha256 + (thumbnail ? ".thumb." : ".") + encoding.fileExtension }

        /// Parses exactly `<64 lowercase hex>.jpg|png` or `<64 lowercase hex>.thumb.jpg|png`; nil otherwise.
        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2 || (parts.count == 3 && parts[1] == "thumb"),
                UploadedFiles.isSHA256(parts[0]),
                let encoding = Encoding(fileExtension: parts[parts.count - 1])
            else { return nil }
            sha256 = String(parts[0])
            thumbnail = parts.count == 3
            self.encoding = encoding
        }

        init(sha256: String, thumbnail: Bool, encoding: Encoding) {
            self.sha256 = sha256
            self.thumbnail = thumbnail
            self.encoding = encoding
        }
    }

    static let uriPrefix = "v1/files/"

    /// The hash of a stored upload when `uri` is exactly `v1/files/<64 lowercase hex>.jpg` or `.png` (the
    /// `uri` that `POST v1/files/multi` answered); nil for anything else, thumbnails included.
    public static func sha256(fromURI uri: String) -> String? {
        guard uri.hasPrefix(uriPrefix), let name = Name(String(uri.dropFirst(uriPrefix.count))),
            !name.thumbnail
        else { return nil }
        return name.sha256
    }

    static func uri(_ name: Name) -> String { uriPrefix + name.fileName }

    /// Whether `text` is 64 lowercase hex digits.
    static func isSHA256<S: StringProtocol>(_ text: S) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
