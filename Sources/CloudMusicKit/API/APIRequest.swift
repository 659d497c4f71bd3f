import Foundation
import MusicCore

/// One HTTP request to the API: method, path relative to the base URL, query, body and retry policy.
public struct APIRequest: Sendable {
    public enum Method: String, Sendable {
        // Spelled as on the wire.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        case GET, HEAD, POST, PUT, PATCH, DELETE
    }

    public enum Body: Sendable {
        case json(Data)
        case multipart(Data, boundary: String)
        case raw(Data, contentType: String)
    }

    public var method: Method
    /// Relative to the base URL, without a leading slash: `v1/songs`.
    public var path: String
    public var query: [URLQueryItem]
    public var body: Body?
    /// Whether sending it twice has the effect of sending it once, so a failure may be retried.
    ///
    /// GET and HEAD are. POST never is. PUT and DELETE are only where this API makes them so; the
    /// repository marks those (liking and unliking a song, saving the queue without `baseVersion`).
    /// Other PUTs and DELETEs are not retried: a DELETE whose answer was lost would answer 404 when
    /// retried, and the password PUT signs other devices out.
    public var isIdempotent: Bool
    /// Seconds without an answer before the request fails as `.network`; nil for the client's default.
    public var timeout: TimeInterval?

    public init(
        _ method: Method, _ path: String, query: [URLQueryItem] = [], body: Body? = nil,
        isIdempotent: Bool? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.isIdempotent = isIdempotent ?? (method == .GET || method == .HEAD)
        self.timeout = timeout
    }

    /// A JSON body encoded from `value`.
    public static func json<T: Encodable>(
        _ method: Method, _ path: String, _ value: T, query: [URLQueryItem] = []
    )
        throws -> APIRequest
    {
        let data = try JSONEncoder().encode(value)
        return APIRequest(method, path, query: query, body: .json(data))
    }

    /// A stable text for this request (method, path, sorted query): the offline cache's key.
    public var cacheKey: String {
        let items = query.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
            .map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return "\(method.rawValue) \(path)" + (items.isEmpty ? "" : "?\(items)")
    }
}

/// One file part of a multipart upload.
public struct UploadPart: Sendable {
    public var fileName: String
    public var contentType: String
    public var data: Data

    public init(fileName: String, contentType: String, data: Data) {
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }
}

extension APIRequest.Body {
    /// The files (and fields) of an `Upload` as `multipart/form-data`.
    public static func multipart(_ upload: Upload) -> APIRequest.Body {
        let parts = upload.files.map { file -> UploadPart in
            let bytes: Data
            switch file.content {
            case .bytes(let b): bytes = Data(b)
            case .stored(let path, _): bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            }
            return UploadPart(
                fileName: file.fileName ?? "file",
                contentType: file.contentType ?? "application/octet-stream",
                data: bytes)
        }
        return .multipart(parts, field: Upload.fieldName, texts: upload.fields.sorted { $0.key < $1.key })
    }

    /// A `multipart/form-data` body with every part under the field name `field`, after the text parts `texts`.
    public static func multipart(
        _ parts: [UploadPart], field: String = "file", texts: [(key: String, value: String)] = []
    ) -> APIRequest.Body {
        let boundary = "cloudmusic-\(UUID().uuidString)"
        var data = Data()
        for (name, value) in texts {
            let safe = name.replacingOccurrences(of: "\"", with: "_")
            data.append(Data("--\(boundary)\r\n".utf8))
            data.append(Data("Content-Disposition: form-data; name=\"\(safe)\"\r\n\r\n".utf8))
            data.append(Data(value.utf8))
            data.append(Data("\r\n".utf8))
        }
        for part in parts {
            let name = part.fileName.replacingOccurrences(of: "\"", with: "_")
            data.append(Data("--\(boundary)\r\n".utf8))
            data.append(
                Data("Content-Disposition: form-data; name=\"\(field)\"; filename=\"\(name)\"\r\n".utf8))
            data.append(Data("Content-Type: \(part.contentType)\r\n\r\n".utf8))
            data.append(part.data)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return .multipart(data, boundary: boundary)
    }
}
