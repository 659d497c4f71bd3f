import MusicCore

/// The news screen: the channels with their unread counts, one channel's articles newest first, or one
/// article as text.
public struct NewsState: Sendable, Equatable {
    public var channels: [NewsChannel] = []
    public var channelList = ListCursor()
    public var status: LoadStatus = .idle
    /// The channel opened to its articles; nil on the list of channels.
    public var open: NewsChannel?
    public var articles: [NewsArticle] = []
    public var articleList = ListCursor()
    public var articlesStatus: LoadStatus = .idle
    /// The cursor of the next older page; nil at the end.
    public var next: String?
    public var loadingMore = false
    /// The article being read, as text; nil on the lists.
    public var reading: NewsArticleDetail?
    public var readingText = ""
    public var readingStatus: LoadStatus = .idle
    public var readingScroll = 0

    public init() {}
}
