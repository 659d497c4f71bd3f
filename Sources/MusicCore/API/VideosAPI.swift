/// Videos (MVs): scanned from the videos folders or uploaded by administrators, listed, streamed (the original
/// with Range, or an H.264/AAC MP4 made as it streams), liked, and their clicks counted.
public enum VideosAPI {
    public static let list = Endpoint<NoPath, VideoListQuery, NoBody, Page<Video>, OptionalSignIn>(
        "list", .GET, "/v1/videos", "Videos, newest or hottest (most liked and clicked) first")
    public static let detail = Endpoint<IDPath<Video>, NoQuery, NoBody, Video, OptionalSignIn>(
        "detail", .GET, "/v1/videos/{id}",
        "A video with its song; a view counts as a click once per viewer in 30 seconds", resource: "video")
    public static let stream = Endpoint<IDPath<Video>, VideoStreamQuery, NoBody, VideoFile, OptionalSignIn>(
        "stream", .GET, "/v1/videos/{id}/stream",
        "The video's file, or (`format=mp4`) a fragmented H.264/AAC MP4 made as it streams, for browsers "
            + "that cannot play the original",
        resource: "video", refusals: [.outsideRange, .rateLimited, .unavailable])
    public static let cover = Endpoint<IDPath<Video>, NoQuery, NoBody, Picture, OptionalSignIn>(
        "cover", .GET, "/v1/videos/{id}/cover", "A still taken from the video (JPEG)", resource: "video")
    public static let upload = Endpoint<NoPath, NoQuery, Upload, Video, Admin>(
        "upload", .POST, "/v1/videos",
        "add a video (MP4, MKV, WebM or MOV, checked by its content); text fields `title` and `artist` "
            + "name it, else its tags or file name do",
        status: 201, refusals: [.unsupportedFormat, .tooLarge, .unavailable])
    public static let delete = Endpoint<IDPath<Video>, NoQuery, NoBody, Done, Admin>(
        "delete", .DELETE, "/v1/videos/{id}",
        "delete an uploaded video (a scanned one leaves when its file leaves the videos folder)",
        resource: "video", refusals: [.conflict])
    public static let like = Endpoint<IDPath<Video>, NoQuery, NoBody, Video, SignedIn>(
        "like", .PUT, "/v1/videos/{id}/like", "Like a video", resource: "video", idempotent: true)
    public static let unlike = Endpoint<IDPath<Video>, NoQuery, NoBody, Video, SignedIn>(
        "unlike", .DELETE, "/v1/videos/{id}/like", "Stop liking a video", resource: "video", idempotent: true)
    public static let scanStatus = Endpoint<NoPath, NoQuery, NoBody, LibraryScanStatus, AdminOrFirstRun>(
        "scanStatus", .GET, "/v1/videos/scan", "see whether a videos scan runs and what the last one did")
    public static let startScan = Endpoint<NoPath, NoQuery, NoBody, LibraryScanStatus, AdminOrFirstRun>(
        "startScan", .POST, "/v1/videos/scan", "start a scan of the videos folders", status: 202)

    public static let group = APIGroup(
        "videos", "Videos (MVs): lists, details, streams, stills, likes, uploads and scans",
        [list, detail, stream, cover, upload, delete, like, unlike, scanStatus, startScan])
}

/// How videos are ordered.
public enum VideoOrder: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// Newest first.
    case new
    /// Most liked and clicked first.
    case hot
}

public struct VideoListQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var order = VideoOrder.new
    public init() {}
    public init(order: VideoOrder, page: Int = 1, size: Int = 20) {
        self.order = order
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] = Paging.fields(\.paging) + [.choice("order", \.order)]
}

/// What a video stream is sent as.
public enum VideoStreamFormat: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// The file as it is.
    case original
    /// A fragmented H.264/AAC MP4, converted as it streams.
    case mp4
}

public struct VideoStreamQuery: APIParameters, Equatable {
    public var format = VideoStreamFormat.original
    public var timeOffset: Double?
    public init() {}
    public init(format: VideoStreamFormat, timeOffset: Double? = nil) {
        self.format = format
        self.timeOffset = timeOffset
    }
    public static let fields: [ParameterField<Self>] = [
        .choice("format", \.format, doc: "`mp4` converts; `original` sends the file as it is."),
        .number(
            "timeOffset", \.timeOffset, in: 0...86_400,
            doc: "With `format=mp4`: start this many seconds into the video."),
    ]
}
