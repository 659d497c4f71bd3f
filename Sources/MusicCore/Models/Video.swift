/// A video (an MV) as the v1 API sends it: what the apps read (`title`, `uri`, `icon`, `duration`, `width`,
/// `height`, `clicksCount`, `commentsCount`) plus its singer and the song it belongs to.
public struct Video: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    /// The original file, relative to the server root (Range requests work on it).
    public var uri: String
    /// An H.264/AAC MP4 that every browser plays: `uri` itself when the original already is one, else the
    /// address of a live conversion (which has no Range).
    public var compatibleUri: String
    /// A still taken from the video (JPEG).
    public var icon: String?
    /// Milliseconds.
    public var duration: Int
    /// Pixels as shown (a phone video's rotation is applied).
    public var width: Int
    public var height: Int
    /// The container (`mp4`, `mkv`, `webm`, `mov`) and the codecs, as ffprobe names them.
    public var format: String
    public var videoCodec: String
    public var audioCodec: String?
    public var clicksCount: Int
    public var commentsCount: Int
    public var likesCount: Int
    /// Whether the viewer likes it; nil when nobody is signed in.
    public var liked: Bool?
    /// The artist of the library it is by, when its artist is one.
    public var singer: ArtistSummary?
    /// The song of the library this is the video of, when its title and artist match one.
    public var song: Song?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, title: String, uri: String, compatibleUri: String, icon: String?, duration: Int,
        width: Int,
        height: Int, format: String, videoCodec: String, audioCodec: String?, clicksCount: Int,
        commentsCount: Int,
        likesCount: Int, liked: Bool?, singer: ArtistSummary?, song: Song?, createdAt: String,
        updatedAt: String
    ) {
        self.id = id
        self.title = title
        self.uri = uri
        self.compatibleUri = compatibleUri
        self.icon = icon
        self.duration = duration
        self.width = width
        self.height = height
        self.format = format
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.clicksCount = clicksCount
        self.commentsCount = commentsCount
        self.likesCount = likesCount
        self.liked = liked
        self.singer = singer
        self.song = song
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
