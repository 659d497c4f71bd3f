/// An uploaded file as `POST v1/files/multi` answers it: stored once per content, named by the SHA-256 of
/// the bytes as uploaded.
public struct StoredFile: Codable, Sendable, Equatable, Identifiable {
    /// The SHA-256 of the uploaded bytes, 64 lowercase hex digits.
    public var id: String
    /// The stored (re-encoded) file, relative to the server root: `v1/files/<id>.jpg` or `.png`.
    public var uri: String
    /// Its thumbnail, relative to the server root: `v1/files/<id>.thumb.jpg` or `.png`.
    public var icon: String
    /// The stored file's type: `image/jpeg` or `image/png`.
    public var mime: String
    public var width: Int
    public var height: Int
    /// The stored file's size in bytes.
    public var size: Int

    public init(id: String, uri: String, icon: String, mime: String, width: Int, height: Int, size: Int) {
        self.id = id
        self.uri = uri
        self.icon = icon
        self.mime = mime
        self.width = width
        self.height = height
        self.size = size
    }
}
