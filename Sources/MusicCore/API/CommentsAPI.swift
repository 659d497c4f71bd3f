/// Comments on songs, sheets, moments, videos and podcast episodes, with replies, likes (also of moments and
/// episodes), #topics#, reports and moderation.
public enum CommentsAPI {
    public static let list = Endpoint<NoPath, CommentListQuery, NoBody, CommentPage, OptionalSignIn>(
        "list", .GET, "/v1/comments",
        "Comments on a song, sheet, moment, video or podcast episode (or the replies to one comment), newest or hot first; deep pages by cursor",
        resource: "comment", refusals: [.notFound])
    public static let create = Endpoint<NoPath, NoQuery, CommentDraft, Comment, SignedIn>(
        "create", .POST, "/v1/comments",
        "Comment on a song, sheet, moment, video or podcast episode, or reply to a comment; @mentions and #topics# are found in the text",
        status: 201, refusals: [.notFound, .rateLimited])
    public static let detail = Endpoint<IDPath<Comment>, NoQuery, NoBody, Comment, OptionalSignIn>(
        "detail", .GET, "/v1/comments/{id}", "One comment", resource: "comment")
    public static let delete = Endpoint<IDPath<Comment>, NoQuery, NoBody, Done, SignedIn>(
        "delete", .DELETE, "/v1/comments/{id}", "Delete one's comment (its replies go with it)",
        resource: "comment", refusals: [.forbidden])
    public static let report = Endpoint<IDPath<Comment>, NoQuery, CommentReportDraft?, Done, SignedIn>(
        "report", .POST, "/v1/comments/{id}/reports", "Report a comment to the administrators",
        resource: "comment", refusals: [.rateLimited])
    public static let like = Endpoint<NoPath, NoQuery, LikeDraft, LikedThing, SignedIn>(
        "like", .POST, "/v1/likes",
        "Like a comment (`commentId`), a moment (`feedId`) or a podcast episode (`episodeId`); it comes back with "
            + "its `likeId` (liking again gives the same like)",
        status: 201,
        refusals: [.notFound])
    public static let unlike = Endpoint<IDPath<Like>, NoQuery, NoBody, Done, SignedIn>(
        "unlike", .DELETE, "/v1/likes/{id}", "Take back one's own like (the path holds the `likeId`)",
        resource: "like", refusals: [.forbidden])
    public static let topics = Endpoint<NoPath, TopicListQuery, NoBody, Page<Topic>, OptionalSignIn>(
        "topics", .GET, "/v1/topics",
        "#Topics# with comments or moments, the most talked about first; with `title`, the topic of that text"
    )
    public static let topic = Endpoint<IDPath<Topic>, TopicQuery, NoBody, TopicDetail, OptionalSignIn>(
        "topic", .GET, "/v1/topics/{id}", "A #topic#: its newest comments and moments", resource: "topic")
    public static let reports = Endpoint<NoPath, PageQuery, NoBody, Page<CommentReport>, Admin>(
        "reports", .GET, "/v1/admin/reports", "read reports")
    public static let moderate = Endpoint<IDPath<Comment>, NoQuery, CommentModeration, Done, Admin>(
        "moderate", .PATCH, "/v1/admin/comments/{id}", "hide comments", resource: "comment")

    public static let group = APIGroup(
        "comments", "Comments with replies, likes, #topics#, reports and moderation",
        [list, create, detail, delete, report, like, unlike, topics, topic, reports, moderate])
}

/// How comments are ordered.
public enum CommentOrder: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// Newest first.
    case new
    /// Most liked and replied to first, decaying with age.
    case hot
}

/// Whose comments: give one of `songId`, `sheetId`, `feedId`, `videoId`, `episodeId`, or `parentId` for the
/// replies to a comment.
public struct CommentListQuery: APIParameters, Equatable {
    public var songId: Int64?
    public var sheetId: Int64?
    public var feedId: Int64?
    public var videoId: Int64?
    public var episodeId: Int64?
    public var parentId: Int64?
    public var order = CommentOrder.new
    public var cursor: String?
    public var paging = Paging()
    public init() {}
    public init(
        songId: String? = nil, sheetId: String? = nil, feedId: String? = nil, videoId: String? = nil,
        episodeId: String? = nil, parentId: String? = nil, order: CommentOrder = .new, cursor: String? = nil,
        page: Int = 1, size: Int = 20
    ) throws {
        self.videoId = try videoId.map { try ID<Never>(validating: $0, field: "videoId").rawValue }
        self.episodeId = try episodeId.map { try ID<Never>(validating: $0, field: "episodeId").rawValue }
        self.songId = try songId.map { try ID<Never>(validating: $0, field: "songId").rawValue }
        self.sheetId = try sheetId.map { try ID<Never>(validating: $0, field: "sheetId").rawValue }
        self.feedId = try feedId.map { try ID<Never>(validating: $0, field: "feedId").rawValue }
        self.parentId = try parentId.map { try ID<Never>(validating: $0, field: "parentId").rawValue }
        self.order = order
        self.cursor = cursor
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .id("songId", \.songId, thing: "song", doc: "Comments on this song."),
            .id("sheetId", \.sheetId, thing: "sheet", doc: "Comments on this sheet."),
            .id("feedId", \.feedId, thing: "moment", doc: "Comments on this moment."),
            .id("videoId", \.videoId, thing: "video", doc: "Comments on this video (MV)."),
            .id("episodeId", \.episodeId, thing: "episode", doc: "Comments on this podcast episode."),
            .id("parentId", \.parentId, thing: "comment", doc: "The replies to this comment."),
            .choice("order", \.order),
            .cursor(\.cursor),
        ] + Paging.fields(\.paging)
}

/// The most talked-about topics, or (`title`) the one topic a tapped `#topic#` names.
public struct TopicListQuery: APIParameters, Equatable {
    public var title: String?
    public var paging = Paging()
    public init() {}
    public init(title: String? = nil, page: Int = 1, size: Int = 20) {
        self.title = title
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .text(
                "title", \.title, maxLength: 100,
                doc:
                    "A topic's text, as in `#text#` (the `#` may be left on; case and full-width forms do not matter)."
            )
        ] + Paging.fields(\.paging)
}

public struct TopicQuery: APIParameters, Equatable {
    public var cursor: String?
    public var size = 20
    public init() {}
    public init(cursor: String?, size: Int = 20) {
        self.cursor = cursor
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .cursor(\.cursor),
        .integer("size", \.size, in: 1...100, doc: "Comments and moments per page."),
    ]
}

/// A comment to write: its text and what it is on (one of `songId`, `sheetId`, `feedId`, `videoId`,
/// `episodeId`, `parentId`).
public struct CommentDraft: Codable, Sendable, Equatable {
    public var content: String
    public var songId: ID<Song>?
    public var sheetId: ID<Sheet>?
    public var feedId: ID<Feed>?
    public var videoId: ID<Video>?
    /// A podcast episode.
    public var episodeId: ID<PodcastEpisode>?
    /// A reply: the comment it answers (its target is the parent's).
    public var parentId: ID<Comment>?

    public init(
        content: String, songId: ID<Song>? = nil, sheetId: ID<Sheet>? = nil, feedId: ID<Feed>? = nil,
        videoId: ID<Video>? = nil, episodeId: ID<PodcastEpisode>? = nil, parentId: ID<Comment>? = nil
    ) {
        self.videoId = videoId
        self.episodeId = episodeId
        self.content = content
        self.songId = songId
        self.sheetId = sheetId
        self.feedId = feedId
        self.parentId = parentId
    }
}

/// Why a comment is reported.
public struct CommentReportDraft: Codable, Sendable, Equatable {
    public var reason: String?
    public init(reason: String?) { self.reason = reason }
}

/// What an administrator does to a comment.
public struct CommentModeration: Codable, Sendable, Equatable {
    public var hidden: Bool
    public init(hidden: Bool) { self.hidden = hidden }
}

/// What to like: one of a comment, a moment or a podcast episode.
public struct LikeDraft: Codable, Sendable, Equatable {
    public var commentId: ID<Comment>?
    public var feedId: ID<Feed>?
    public var episodeId: ID<PodcastEpisode>?
    public init(commentId: ID<Comment>? = nil, feedId: ID<Feed>? = nil, episodeId: ID<PodcastEpisode>? = nil)
    {
        self.commentId = commentId
        self.feedId = feedId
        self.episodeId = episodeId
    }
}

/// What `POST v1/likes` answers: the comment, moment or episode liked, with its `likeId`.
public enum LikedThing: Codable, Sendable, Equatable, SchemaDescribed {
    case comment(Comment)
    case feed(Feed)
    case episode(PodcastEpisode)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let feed = try? container.decode(Feed.self) {
            self = .feed(feed)
        } else if let episode = try? container.decode(PodcastEpisode.self) {
            self = .episode(episode)
        } else {
            self = .comment(try container.decode(Comment.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .comment(let comment): try container.encode(comment)
        case .feed(let feed): try container.encode(feed)
        case .episode(let episode): try container.encode(episode)
        }
    }

    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        [
            "oneOf": [
                try builder.schema(for: Comment.self), try builder.schema(for: Feed.self),
                try builder.schema(for: PodcastEpisode.self),
            ]
        ]
    }

    public static func probeValue(in builder: SchemaBuilder) throws -> LikedThing {
        .comment(try builder.value(of: Comment.self))
    }
}

extension CommentDraft: LimitedBody {
    public static let contentText = WrittenText(field: "A comment", limit: 1_000, lines: .many)
    public static let limits: [FieldLimit<Self>] = [.text("content", \.content, contentText)]
}

extension CommentReportDraft: LimitedBody {
    public static let reasonText = WrittenText(field: "The reason", limit: 200, lines: .many)
    public static let limits: [FieldLimit<Self>] = [.text("reason", \.reason, reasonText)]
}
