import Foundation
import HTTPServer
import MusicCore

extension Response {
    /// A file the server stored or scanned (an avatar, a cover, an upload, a song), opened only inside
    /// `roots` (no symbolic link swapped in after a scan is followed), with Range, ETag and 304.
    ///
    /// `immutable` is for content-addressed files, whose bytes never change under one name: caches keep
    /// them for a year without asking again.
    static func storedFile(
        at path: String, in roots: FileRoots, contentType: String? = nil, immutable: Bool = false,
        request: Request
    ) throws -> Response {
        let file = try roots.open(path)
        var response = try Response.file(
            descriptor: file.take(), contentType: contentType ?? mimeType(forPath: path), request: request)
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
    let ascii = String(
        name.unicodeScalars.map { $0.isASCII && $0.properties.isAlphabetic ? Character($0) : "_" })
    let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "download"
    return "attachment; filename=\"\(ascii).\(ext)\"; filename*=UTF-8''\(encoded).\(ext)"
}
