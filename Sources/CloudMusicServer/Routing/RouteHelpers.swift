import Foundation
import HTTPServer
import MusicCore

extension Response {
    /// A file the server stored or scanned (an avatar, a cover, an upload, a song), with Range, ETag and 304.
    ///
    /// `immutable` is for content-addressed files, whose bytes never change under one name: caches keep
    /// them for a year without asking again.
    static func storedFile(
        at path: String, contentType: String? = nil, immutable: Bool = false, request: Request
    ) throws -> Response {
        var response = try Response.file(at: path, contentType: contentType, request: request)
        if immutable { response.headers.replace("Cache-Control", "public, max-age=31536000, immutable") }
        return response
    }
}

extension Upload {
    /// The first file, as the server stored it for the length of the request.
    func storedFile() throws -> (path: String, size: Int) {
        guard let file = files.first, case .stored(let path, let size) = file.content else {
            throw ServiceError.invalid("Send the file as a multipart/form-data file field named 'file'.")
        }
        return (path, size)
    }
}

/// A Content-Disposition that offers `name` as a download, in ASCII and in UTF-8 (RFC 6266).
func attachment(named name: String, extension ext: String) -> String {
    let ascii = String(name.unicodeScalars.map { $0.isASCII && $0.properties.isAlphabetic ? Character($0) : "_" })
    let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "download"
    return "attachment; filename=\"\(ascii).\(ext)\"; filename*=UTF-8''\(encoded).\(ext)"
}
