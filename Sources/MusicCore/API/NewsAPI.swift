/// News (issue 32): channels of articles from RSS, Atom and JSON Feed sources, with each person's read, saved
/// and hidden marks. Administrators keep the shared channels and their sources; a person may add personal
/// channels with their own sources, which nobody else sees.
public enum NewsAPI {
    public static let channels = Endpoint<NoPath, NoQuery, NoBody, [NewsChannel], SignedIn>(
        "channels", .GET, "/v1/news/channels",
        "The shared channels and my own, in order, each with my unread count (at most 999)")
    public static let createChannel = Endpoint<NoPath, NoQuery, NewsChannelDraft, NewsChannel, SignedIn>(
        "createChannel", .POST, "/v1/news/channels",
        "Make a channel: shared when an administrator makes it, else a personal one (at most 20)",
        status: 201,
        refusals: [.conflict])
    public static let updateChannel = Endpoint<
        IDPath<NewsChannel>, NoQuery, NewsChannelChange, NewsChannel, SignedIn
    >(
        "updateChannel", .PATCH, "/v1/news/channels/{id}",
        "Rename or move a channel (shared ones: administrators; personal ones: their owner)",
        resource: "channel", refusals: [.forbidden])
    public static let deleteChannel = Endpoint<IDPath<NewsChannel>, NoQuery, NoBody, Done, SignedIn>(
        "deleteChannel", .DELETE, "/v1/news/channels/{id}", "Delete a channel with its sources",
        resource: "channel", idempotent: true, refusals: [.forbidden])
    public static let sources = Endpoint<NoPath, NoQuery, NoBody, [NewsSource], SignedIn>(
        "sources", .GET, "/v1/news/sources",
        "The sources I may change: an administrator's are the shared ones and their own, a person's their own"
    )
    public static let addSource = Endpoint<NoPath, NoQuery, NewsSourceDraft, NewsSource, SignedIn>(
        "addSource", .POST, "/v1/news/sources",
        "Add a source (RSS, Atom or JSON Feed) to a channel: fetched at once and refused with the reason when it "
            + "cannot be used; a person adds to their own channels, at most 50 sources",
        status: 201, refusals: [.conflict, .forbidden, .tooLarge])
    public static let deleteSource = Endpoint<IDPath<NewsSource>, NoQuery, NoBody, Done, SignedIn>(
        "deleteSource", .DELETE, "/v1/news/sources/{id}",
        "Delete a source; its articles leave its channel unless another source there has them",
        resource: "source", idempotent: true, refusals: [.forbidden])
    public static let refreshSource = Endpoint<IDPath<NewsSource>, NoQuery, NoBody, NewsSource, SignedIn>(
        "refreshSource", .POST, "/v1/news/sources/{id}/refresh",
        "Fetch a source now (a conditional GET); `lastError` says why when it failed", resource: "source",
        refusals: [.forbidden])
    public static let articles = Endpoint<
        IDPath<NewsChannel>, NewsArticleQuery, NoBody, NewsArticlePage, SignedIn
    >(
        "articles", .GET, "/v1/news/channels/{id}/articles",
        "A channel's articles, newest first, without the ones I hid: older than `cursor` (load more), newer than "
            + "`since` (pull to refresh) or by `page` number",
        resource: "channel")
    public static let article = Endpoint<IDPath<NewsArticle>, NoQuery, NoBody, NewsArticleDetail, SignedIn>(
        "article", .GET, "/v1/news/articles/{id}",
        "An article with its sanitized content (pictures through the server) and its videos",
        resource: "article")
    public static let markRead = Endpoint<IDPath<NewsArticle>, NoQuery, NewsReadMark, NewsArticle, SignedIn>(
        "markRead", .PUT, "/v1/news/articles/{id}/read", "Mark an article read or unread",
        resource: "article",
        idempotent: true)
    public static let markSaved = Endpoint<
        IDPath<NewsArticle>, NoQuery, NewsSavedMark, NewsArticle, SignedIn
    >(
        "markSaved", .PUT, "/v1/news/articles/{id}/saved", "Save an article for later, or stop",
        resource: "article", idempotent: true)
    public static let markHidden = Endpoint<
        IDPath<NewsArticle>, NoQuery, NewsHiddenMark, NewsArticle, SignedIn
    >(
        "markHidden", .PUT, "/v1/news/articles/{id}/hidden",
        "Hide an article from all my lists (saved and search included), or show it again",
        resource: "article",
        idempotent: true)
    public static let readAll = Endpoint<IDPath<NewsChannel>, NoQuery, NewsReadAll, NewsChannel, SignedIn>(
        "readAll", .POST, "/v1/news/channels/{id}/read-all",
        "Mark a channel's articles read: all, or `upTo` an article and everything older; answers the channel",
        resource: "channel", idempotent: true)
    public static let saved = Endpoint<NoPath, NewsCursorQuery, NoBody, NewsArticlePage, SignedIn>(
        "saved", .GET, "/v1/news/saved", "The articles I saved, the last saved first")
    public static let search = Endpoint<NoPath, NewsSearchQuery, NoBody, NewsArticlePage, SignedIn>(
        "search", .GET, "/v1/news/search",
        "Articles of my channels whose title or content holds every word of `q` (Chinese: any substring), newest "
            + "first")
    public static let image = Endpoint<NewsImagePath, NoQuery, NoBody, Picture, Anyone>(
        "image", .GET, "/v1/news/images/{token}",
        "An article's picture, fetched by the server (so readers' addresses never reach its origin): PNG, JPEG, "
            + "GIF or WebP only, kept by browsers for a day",
        resource: "picture", refusals: [.unavailable, .unsupportedFormat])

    public static let group = APIGroup(
        "news",
        "News: channels of articles from feeds, read, saved and hidden marks, unread counts, search",
        [
            channels, createChannel, updateChannel, deleteChannel, sources, addSource, deleteSource,
            refreshSource, articles, article, markRead, markSaved, markHidden, readAll, saved, search, image,
        ])

    /// Personal channels one person may make.
    public static let maxPersonalChannels = 20
    /// Sources one person may add to their own channels.
    public static let maxPersonalSources = 50
    /// Unread counts stop here.
    public static let maxUnreadCount = 999
}

/// A channel (头条, 科技 ...): shared ones by administrators, personal ones by their owner.
public struct NewsChannel: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var position: Int
    /// True for my own channel (nobody else sees it).
    public var personal: Bool
    /// My unread articles in it, at most 999.
    public var unreadCount: Int

    public init(id: String, title: String, position: Int, personal: Bool, unreadCount: Int) {
        self.id = id
        self.title = title
        self.position = position
        self.personal = personal
        self.unreadCount = unreadCount
    }
}

public struct NewsChannelDraft: Codable, Sendable, Equatable {
    public var title: String
    public var position: Int?

    public init(title: String, position: Int? = nil) {
        self.title = title
        self.position = position
    }
}

/// What to change of a channel; what is left out stays.
public struct NewsChannelChange: Codable, Sendable, Equatable {
    public var title: String?
    public var position: Int?

    public init(title: String? = nil, position: Int? = nil) {
        self.title = title
        self.position = position
    }
}

/// A feed articles come from.
public struct NewsSource: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    /// The feed's address.
    public var url: String
    public var channelId: String
    /// True for a person's own source.
    public var personal: Bool
    /// When it was last fetched (a 304 included).
    public var lastRefreshAt: String?
    /// Why the last fetch failed (too large, not a feed, unreachable ...); nil when it worked.
    public var lastError: String?

    public init(
        id: String, title: String, url: String, channelId: String, personal: Bool, lastRefreshAt: String?,
        lastError: String?
    ) {
        self.id = id
        self.title = title
        self.url = url
        self.channelId = channelId
        self.personal = personal
        self.lastRefreshAt = lastRefreshAt
        self.lastError = lastError
    }
}

public struct NewsSourceDraft: Codable, Sendable, Equatable {
    /// The feed's address (RSS, Atom or JSON Feed).
    public var url: String
    public var channelId: ID<NewsChannel>

    public init(url: String, channelId: ID<NewsChannel>) {
        self.url = url
        self.channelId = channelId
    }
}

/// An article as lists show it.
public struct NewsArticle: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    /// Text, at most 300 characters.
    public var summary: String
    /// The original page.
    public var url: String?
    public var author: String?
    public var publishedAt: String
    public var sourceTitle: String
    /// The channel it is listed in (in saved and search lists: one of mine that has it).
    public var channelId: String
    /// Its first three pictures, through the server's proxy (`/v1/news/images/...`).
    public var images: [String]
    public var hasVideo: Bool
    public var read: Bool
    public var saved: Bool

    public init(
        id: String, title: String, summary: String, url: String?, author: String?, publishedAt: String,
        sourceTitle: String, channelId: String, images: [String], hasVideo: Bool, read: Bool, saved: Bool
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.url = url
        self.author = author
        self.publishedAt = publishedAt
        self.sourceTitle = sourceTitle
        self.channelId = channelId
        self.images = images
        self.hasVideo = hasVideo
        self.read = read
        self.saved = saved
    }
}

/// A video (or sound) of an article; it plays from its origin, its poster through the server.
public struct NewsVideo: Codable, Sendable, Equatable {
    public var url: String
    public var type: String?
    public var poster: String?

    public init(url: String, type: String?, poster: String?) {
        self.url = url
        self.type = type
        self.poster = poster
    }
}

/// An article with its content.
public struct NewsArticleDetail: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var summary: String
    public var url: String?
    public var author: String?
    public var publishedAt: String
    public var sourceTitle: String
    public var channelId: String
    public var images: [String]
    public var hasVideo: Bool
    public var read: Bool
    public var saved: Bool
    /// Safe HTML (an allow-list: no scripts, event handlers, frames or objects; tracking pixels dropped), its
    /// pictures and posters through the server's proxy.
    public var content: String
    public var videos: [NewsVideo]

    public init(_ row: NewsArticle, content: String, videos: [NewsVideo]) {
        id = row.id
        title = row.title
        summary = row.summary
        url = row.url
        author = row.author
        publishedAt = row.publishedAt
        sourceTitle = row.sourceTitle
        channelId = row.channelId
        images = row.images
        hasVideo = row.hasVideo
        read = row.read
        saved = row.saved
        self.content = content
        self.videos = videos
    }
}

/// A page of articles: `next` pages on to older ones (null at the end), `newest` asks later for newer ones
/// (`since`); both null when the page is empty and nothing came before.
public struct NewsArticlePage: Codable, Sendable, Equatable {
    public var list: [NewsArticle]
    public var next: String?
    public var newest: String?

    public init(list: [NewsArticle], next: String?, newest: String?) {
        self.list = list
        self.next = next
        self.newest = newest
    }
}

public struct NewsReadMark: Codable, Sendable, Equatable {
    public var read: Bool
    public init(read: Bool) { self.read = read }
}

public struct NewsSavedMark: Codable, Sendable, Equatable {
    public var saved: Bool
    public init(saved: Bool) { self.saved = saved }
}

public struct NewsHiddenMark: Codable, Sendable, Equatable {
    public var hidden: Bool
    public init(hidden: Bool) { self.hidden = hidden }
}

public struct NewsReadAll: Codable, Sendable, Equatable {
    /// Mark this article and every older one of the channel; without it, all.
    public var upTo: ID<NewsArticle>?
    public init(upTo: ID<NewsArticle>? = nil) { self.upTo = upTo }
}

/// `cursor`, `since`, `page` and `size` of a channel's articles: `cursor` wins over `since`, either over `page`.
public struct NewsArticleQuery: APIParameters, Equatable {
    public var cursor: String?
    public var since: String?
    public var paging = Paging()
    public init() {}
    public init(cursor: String? = nil, since: String? = nil, page: Int = 1, size: Int = 20) {
        self.cursor = cursor
        self.since = since
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .cursor(\.cursor, doc: "The `next` of the page before: older articles."),
            .cursor(\.since, name: "since", doc: "The `newest` of a page seen before: newer articles."),
        ] + Paging.fields(\.paging)
}

public struct NewsCursorQuery: APIParameters, Equatable {
    public var cursor: String?
    public var size = 20
    public init() {}
    public init(cursor: String? = nil, size: Int = 20) {
        self.cursor = cursor
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .cursor(\.cursor, doc: "The `next` of the page before."),
        .integer("size", \.size, in: 1...100, doc: "Articles per page."),
    ]
}

public struct NewsSearchQuery: APIParameters, Equatable {
    public var q = ""
    public var cursor: String?
    public var size = 20
    public init() {}
    public init(q: String, cursor: String? = nil, size: Int = 20) {
        self.q = q
        self.cursor = cursor
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .text("q", \.q, maxLength: 100, required: true, doc: "Words the title or content holds."),
        .cursor(\.cursor, doc: "The `next` of the page before."),
        .integer("size", \.size, in: 1...100, doc: "Articles per page."),
    ]
}

/// `/v1/news/images/{token}`: the token an article's content gives for a picture.
public struct NewsImagePath: APIParameters, Equatable {
    public var token = ""
    public init() {}
    public init(_ token: String) { self.token = token }
    public static let fields: [ParameterField<Self>] = [
        .text(
            "token", \.token, pattern: "^[0-9a-f]{64}$", shape: LocalizedText("the token an article gave"),
            maxLength: 64, required: true, doc: "The picture's token.")
    ]
}
