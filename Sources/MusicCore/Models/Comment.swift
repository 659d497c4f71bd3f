/// Comments as the v1 API sends them (the apps' Comment: content, likesCount, likeId, parent, parentId,
/// sheetId, ...).
public struct Comment: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var content: String
    public var likesCount: Int
    public var repliesCount: Int
    /// The viewer's like of this comment (delete it to unlike), or nil.
    public var likeId: String?
    public var parentId: String?
    /// The comment this one replies to, without its own parent, so a client can quote it; nil when it was
    /// deleted.
    public var parent: CommentQuote?
    public var songId: String?
    public var sheetId: String?
    /// The moment this comment is on, when it is on one.
    public var feedId: String?
    /// The video (MV) this comment is on, when it is on one.
    public var videoId: String?
    /// The podcast episode this comment is on, when it is on one.
    public var episodeId: String?
    public var user: UserSummary
    /// The @mentions of people who exist, with their ranges in `content`.
    public var mentions: [Mention]
    /// The #topics#, with their ranges in `content`.
    public var topics: [TopicMention]
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, content: String, likesCount: Int, repliesCount: Int, likeId: String?, parentId: String?,
        parent: CommentQuote?, songId: String?, sheetId: String?, feedId: String? = nil,
        videoId: String? = nil, episodeId: String? = nil, user: UserSummary,
        mentions: [Mention] = [], topics: [TopicMention] = [], createdAt: String, updatedAt: String
    ) {
        self.feedId = feedId
        self.videoId = videoId
        self.episodeId = episodeId
        self.mentions = mentions
        self.topics = topics
        self.id = id
        self.content = content
        self.likesCount = likesCount
        self.repliesCount = repliesCount
        self.likeId = likeId
        self.parentId = parentId
        self.parent = parent
        self.songId = songId
        self.sheetId = sheetId
        self.user = user
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A replied-to comment as shown inside its reply.
public struct CommentQuote: Codable, Sendable, Equatable {
    public var id: String
    public var content: String
    public var user: UserSummary
    public var createdAt: String

    public init(id: String, content: String, user: UserSummary, createdAt: String) {
        self.id = id
        self.content = content
        self.user = user
        self.createdAt = createdAt
    }
}

/// A page of comments: the usual list fields (`page`, `size`, `next`...) and `nextCursor`, which reaches
/// the following page by key instead of by offset, so deep pages cost what the first one costs.
public typealias CommentPage = CursorPage<Comment>

/// A list page that can also be reached by key: the usual list fields and `nextCursor`. `page` is 0 when
/// the page was reached by cursor (and `next` is then nil: follow `nextCursor`).
public struct CursorPage<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var total: Int
    public var pages: Int
    public var size: Int
    public var page: Int
    public var next: Int?
    /// Pass as `cursor` for the next page; nil on the last one.
    public var nextCursor: String?
    public var data: [Item]

    /// `maxPage` caps `pages` (and so `next`) where a list stops paging by number; `nextCursor` goes on.
    public init(data: [Item], total: Int, page: Int, size: Int, nextCursor: String?, maxPage: Int = .max) {
        let pages = min((total <= 0 || size <= 0) ? 0 : (total - 1) / size + 1, maxPage)
        self.total = total
        self.pages = pages
        self.size = size
        self.page = page
        self.next = page > 0 && page < pages ? page + 1 : nil
        self.nextCursor = nextCursor
        self.data = data
    }

    /// Encodes `next` and `nextCursor` as `null` on the last page instead of leaving them out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(total, forKey: .total)
        try container.encode(pages, forKey: .pages)
        try container.encode(size, forKey: .size)
        try container.encode(page, forKey: .page)
        try container.encode(next, forKey: .next)
        try container.encode(nextCursor, forKey: .nextCursor)
        try container.encode(data, forKey: .data)
    }
}

/// A #topic#: its comments and moments are listed on its page.
public struct Topic: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var commentsCount: Int
    public var feedsCount: Int
    public var createdAt: String

    public init(id: String, title: String, commentsCount: Int, feedsCount: Int = 0, createdAt: String) {
        self.id = id
        self.title = title
        self.commentsCount = commentsCount
        self.feedsCount = feedsCount
        self.createdAt = createdAt
    }
}
