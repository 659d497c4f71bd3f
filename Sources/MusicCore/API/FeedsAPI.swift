/// Moments ("feeds"): text with up to nine pictures, a place and a shared podcast episode, everyone's, a person's, a topic's, the
/// timeline of the people one follows, and nearby. Likes go through `v1/likes`, comments through
/// `v1/comments`.
public enum FeedsAPI {
    public static let list = Endpoint<NoPath, FeedListQuery, NoBody, FeedPage, OptionalSignIn>(
        "list", .GET, "/v1/feeds",
        "Moments, newest first: everyone's, one person's (`userId`) or a topic's (`topicId`)")
    public static let create = Endpoint<NoPath, NoQuery, MomentDraft, Feed, SignedIn>(
        "create", .POST, "/v1/feeds",
        "Publish a moment: text and/or up to nine pictures uploaded first, a place, and a podcast episode "
            + "shared (`episodeId`)",
        status: 201, refusals: [.notFound, .rateLimited])
    public static let timeline = Endpoint<NoPath, CursorQuery, NoBody, FeedPage, SignedIn>(
        "timeline", .GET, "/v1/feeds/timeline",
        "Moments of the people one follows, and one's own, newest first")
    public static let nearby = Endpoint<NoPath, NearbyQuery, NoBody, FeedPage, OptionalSignIn>(
        "nearby", .GET, "/v1/feeds/nearby", "Moments published near a place, nearest first")
    public static let detail = Endpoint<IDPath<Feed>, NoQuery, NoBody, Feed, OptionalSignIn>(
        "detail", .GET, "/v1/feeds/{id}", "One moment", resource: "moment")
    public static let delete = Endpoint<IDPath<Feed>, NoQuery, NoBody, Done, SignedIn>(
        "delete", .DELETE, "/v1/feeds/{id}", "Delete one's moment", resource: "moment", refusals: [.forbidden]
    )

    public static let group = APIGroup(
        "feeds",
        "Moments with pictures and places: everyone's, a person's, a topic's, the timeline and nearby",
        [list, create, timeline, nearby, detail, delete])

    /// How deep numbered pages of moments reach (`page` × `size`); `cursor` goes on from any page.
    public static let maxNumberedDepth = 10_000

    /// `cursor`, `page` and `size`: a moments list is paged by key, or by number down to `maxNumberedDepth`.
    static func paging<Root>(
        _ cursor: WritableKeyPath<Root, String?>, _ paging: WritableKeyPath<Root, Paging>
    ) -> [ParameterField<Root>] {
        [
            .cursor(cursor, doc: "The `nextCursor` of the page before (then `page` is not read)."),
            .integer(
                "page", paging.appending(path: \.page), in: 1...maxNumberedDepth,
                doc:
                    "The page, from 1; numbered pages reach the first \(maxNumberedDepth) moments, `cursor` goes deeper."
            ),
            .integer("size", paging.appending(path: \.size), in: 1...100, doc: "Moments per page."),
        ]
    }
}

/// A page of moments by key (`cursor`, the `nextCursor` of the page before) or by number (`page`).
public struct CursorQuery: APIParameters, Equatable {
    public var cursor: String?
    public var paging = Paging()
    public init() {}
    public init(cursor: String?, page: Int = 1, size: Int = 20) {
        self.cursor = cursor
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] = FeedsAPI.paging(\.cursor, \.paging)
}

public struct FeedListQuery: APIParameters, Equatable {
    public var userId: Int64?
    public var topicId: Int64?
    public var cursor: String?
    public var paging = Paging()
    public init() {}
    public init(
        userId: String? = nil, topicId: String? = nil, cursor: String? = nil, page: Int = 1, size: Int = 20
    ) throws {
        self.userId = try userId.map { try ID<Never>(validating: $0, field: "userId").rawValue }
        self.topicId = try topicId.map { try ID<Never>(validating: $0, field: "topicId").rawValue }
        self.cursor = cursor
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .id("userId", \.userId, doc: "Only this person's moments."),
            .id("topicId", \.topicId, doc: "Only moments on this #topic#."),
        ] + FeedsAPI.paging(\.cursor, \.paging)
}

public struct NearbyQuery: APIParameters, Equatable {
    public var latitude: Double?
    public var longitude: Double?
    public var radius: Double?
    public var cursor: String?
    public var paging = Paging()
    public init() {}
    public init(
        latitude: Double, longitude: Double, radius: Double? = nil, cursor: String? = nil, page: Int = 1,
        size: Int = 20
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.cursor = cursor
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .number("latitude", \.latitude, in: -90...90, required: true, doc: "Degrees north."),
            .number("longitude", \.longitude, in: -180...180, required: true, doc: "Degrees east."),
            .number("radius", \.radius, in: 1...100_000, doc: "Metres (default 5,000)."),
        ] + FeedsAPI.paging(\.cursor, \.paging)
}

/// A moment to publish: text and/or up to nine pictures uploaded first (`POST v1/files/multi`), an
/// optional place, and an optional podcast episode it shares.
public struct MomentDraft: Codable, Sendable, Equatable {
    public struct Image: Codable, Sendable, Equatable {
        /// A `uri` answered by `POST v1/files/multi`.
        public var uri: String
        public init(uri: String) { self.uri = uri }
    }

    public var content: String?
    public var images: [Image]?
    public var province: String?
    public var city: String?
    public var place: String?
    public var latitude: Double?
    public var longitude: Double?
    /// A podcast episode to share (a moment may be only that).
    public var episodeId: ID<PodcastEpisode>?

    public init(
        content: String? = nil, images: [Image] = [], province: String? = nil, city: String? = nil,
        place: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        episodeId: ID<PodcastEpisode>? = nil
    ) {
        self.episodeId = episodeId
        self.content = content
        self.images = images
        self.province = province
        self.city = city
        self.place = place
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension MomentDraft: LimitedBody {
    public static let contentText = WrittenText(field: "A moment", limit: 2_000, lines: .many)
    public static let provinceText = WrittenText(field: "The province", limit: 50)
    public static let cityText = WrittenText(field: "The city", limit: 50)
    public static let placeText = WrittenText(field: "The place", limit: 100)
    public static let maxImages = 9
    public static let limits: [FieldLimit<Self>] = [
        .text("content", \.content, contentText),
        .text("province", \.province, provinceText),
        .text("city", \.city, cityText),
        .text("place", \.place, placeText),
        .count(
            "images", \.images, max: maxImages,
            tooMany: ServiceError.invalid("A moment can have at most \(maxImages) pictures.")),
    ]
}
