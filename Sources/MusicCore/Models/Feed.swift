/// A moment as the v1 API sends it (the apps' Feed: content, images [{uri}], province, city, longitude,
/// latitude, user).
public struct Feed: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var content: String
    public var images: [FeedImage]
    public var province: String?
    public var city: String?
    /// The place's name as the author chose it ("West Lake"), shown under the moment.
    public var place: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Metres from the point asked about; only in nearby lists.
    public var distance: Double?
    public var likesCount: Int
    public var commentsCount: Int
    /// The viewer's like of this moment (delete it to unlike), or nil.
    public var likeId: String?
    public var user: UserSummary
    public var mentions: [Mention]
    public var topics: [TopicMention]
    /// The podcast episode the moment shares, kept when the episode is gone.
    public var episodeId: String?
    /// That episode as the moment draws it; nil when it is gone (its podcast was deleted).
    public var episode: SharedEpisode?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, content: String, images: [FeedImage], province: String?, city: String?, place: String?,
        latitude: Double?, longitude: Double?, distance: Double? = nil, likesCount: Int, commentsCount: Int,
        likeId: String?, user: UserSummary, mentions: [Mention], topics: [TopicMention],
        episodeId: String? = nil, episode: SharedEpisode? = nil, createdAt: String, updatedAt: String
    ) {
        self.episodeId = episodeId
        self.episode = episode
        self.id = id
        self.content = content
        self.images = images
        self.province = province
        self.city = city
        self.place = place
        self.latitude = latitude
        self.longitude = longitude
        self.distance = distance
        self.likesCount = likesCount
        self.commentsCount = commentsCount
        self.likeId = likeId
        self.user = user
        self.mentions = mentions
        self.topics = topics
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A picture of a moment: `uri` the full picture, `icon` its thumbnail (both relative to the server root).
public struct FeedImage: Codable, Sendable, Equatable {
    public var uri: String
    public var icon: String?
    public var width: Int?
    public var height: Int?

    public init(uri: String, icon: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.uri = uri
        self.icon = icon
        self.width = width
        self.height = height
    }
}

/// A page of moments: the usual list fields (`total`, `pages`, `page`, `next`) and `nextCursor`.
///
/// The apps page by number; deep pages are cheaper by key (`nextCursor`), which has no depth limit.
/// Numbered pages reach the first `FeedsAPI.maxNumberedDepth` moments of a list: `pages` and `next` stop
/// there. Nearby lists count at most that many (`total`), since counting a crowded city is a search.
public typealias FeedPage = CursorPage<Feed>
