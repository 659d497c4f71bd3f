/// Picture uploads (for moments) and the stored files.
public enum FilesAPI {
    public static let upload = Endpoint<NoPath, NoQuery, Upload, [StoredFile], SignedIn>(
        "upload", .POST, "/v1/files/multi",
        "Upload up to nine pictures (JPEG, PNG, WebP, GIF); location data is stripped",
        refusals: [.unavailable])
    public static let file = Endpoint<FileNamePath, NoQuery, NoBody, Picture, Anyone>(
        "file", .GET, "/v1/files/{name}", "A stored picture or its thumbnail; its name is its content's hash",
        resource: "file")

    public static let group = APIGroup("files", "Picture uploads and the stored files", [upload, file])
}

/// `/v1/files/{name}`: a stored file's name.
public struct FileNamePath: APIParameters, Equatable {
    public var name = ""
    public init() {}
    public init(_ name: String) { self.name = name }
    public static let fields: [ParameterField<Self>] = [
        .text("name", \.name, maxLength: 100, required: true, trimming: false, doc: "The file's name.")
    ]
}
