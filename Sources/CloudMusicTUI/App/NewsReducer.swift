import CloudMusicKit
import HTMLSanitizer
import MusicCore

/// The news screen's part of `reduce`: channels, a channel's articles (older ones loaded as the selection
/// nears the end), an article opened as text and marked read.
extension AppState {
    /// News loaded or changed; nil for any other action.
    mutating func reduceNews(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .newsChannelsLoaded(let channels):
            news.channels = channels.sorted { $0.position < $1.position }
            news.channelList.clamp(count: news.channels.count)
            news.status = .loaded
            return []
        case .newsChannelsFailed(let message):
            news.status = .failed(message)
            return []
        case .newsArticlesLoaded(let channelID, let page, let more):
            guard news.open?.id == channelID else { return [] }
            if more {
                let known = Set(news.articles.map(\.id))
                news.articles += page.list.filter { !known.contains($0.id) }
            } else {
                news.articles = page.list
            }
            news.next = page.next
            news.loadingMore = false
            news.articleList.clamp(count: news.articles.count)
            news.articlesStatus = .loaded
            return []
        case .newsArticlesFailed(let channelID, let message):
            guard news.open?.id == channelID else { return [] }
            news.loadingMore = false
            news.articlesStatus = .failed(message)
            return []
        case .newsArticleLoaded(let article):
            guard news.reading?.id == article.id else { return [] }
            news.reading = article
            news.readingText = Self.articleText(article)
            news.readingStatus = .loaded
            return []
        case .newsArticleFailed(let id, let message):
            guard news.reading?.id == id else { return [] }
            news.readingStatus = .failed(message)
            return []
        default:
            return nil
        }
    }

    /// The article's content as text (paragraphs a blank line apart), its summary when it has none.
    static func articleText(_ article: NewsArticleDetail) -> String {
        let text = HTMLSanitizer.plainText(article.content).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? article.summary : text
    }

    /// Opens the news screen (the channels, loaded afresh).
    mutating func openNews() -> [AppEffect] {
        guard isSignedIn else {
            show("Sign in to read the news.", isError: true)
            return []
        }
        open(.news)
        news.status = .loading
        return [.loadNewsChannels]
    }

    /// What a command does on the news screen, or nil for its global meaning.
    mutating func newsCommand(_ command: Command) -> [AppEffect]? {
        if news.reading != nil {
            switch command {
            case .back:
                news.reading = nil
                news.readingText = ""
                return []
            case .refresh:
                guard let id = news.reading?.id else { return [] }
                news.readingStatus = .loading
                return [.openNewsArticle(id: id)]
            case .markRead:
                guard let article = news.reading else { return [] }
                let read = !(news.articles.first { $0.id == article.id }?.read ?? true)
                setRead(article.id, read)
                show(read ? "Marked read." : "Marked unread.")
                return [.markNewsRead(articleID: article.id, read)]
            default:
                return nil
            }
        }
        if let channel = news.open {
            switch command {
            case .play:
                guard let article = news.articles[safe: news.articleList.selected] else { return [] }
                news.reading = NewsArticleDetail(article, content: "", videos: [])
                news.readingText = ""
                news.readingScroll = 0
                news.readingStatus = .loading
                var effects: [AppEffect] = [.openNewsArticle(id: article.id)]
                // Opened is read.
                if !article.read {
                    setRead(article.id, true)
                    effects.append(.markNewsRead(articleID: article.id, true))
                }
                return effects
            case .markRead:
                for index in news.articles.indices { news.articles[index].read = true }
                setUnread(channel.id, 0)
                show("Every article of \(channel.title) marked read.")
                return [.markNewsChannelRead(channelID: channel.id)]
            case .refresh:
                news.articlesStatus = .loading
                return [.openNewsChannel(id: channel.id, cursor: nil)]
            case .back:
                news.open = nil
                news.articles = []
                news.status = .loading
                return [.loadNewsChannels]
            default:
                return nil
            }
        }
        switch command {
        case .play:
            guard let channel = news.channels[safe: news.channelList.selected] else { return [] }
            news.open = channel
            news.articles = []
            news.articleList = ListCursor()
            news.next = nil
            news.articlesStatus = .loading
            return [.openNewsChannel(id: channel.id, cursor: nil)]
        case .refresh:
            news.status = .loading
            return [.loadNewsChannels]
        default:
            return nil
        }
    }

    /// Moves in the list shown, or scrolls the article; older articles load as the selection nears the end.
    mutating func moveInNews(_ delta: Int) -> [AppEffect] {
        if news.reading != nil {
            news.readingScroll = max(0, news.readingScroll + max(-10_000, min(10_000, delta)))
            return []
        }
        guard let channel = news.open else {
            news.channelList.move(delta, count: news.channels.count)
            return []
        }
        news.articleList.move(delta, count: news.articles.count)
        if let cursor = news.next, !news.loadingMore, news.articleList.selected >= news.articles.count - 5 {
            news.loadingMore = true
            return [.openNewsChannel(id: channel.id, cursor: cursor)]
        }
        return []
    }

    /// An article's read mark here, and its channel's unread count with it.
    private mutating func setRead(_ id: String, _ read: Bool) {
        guard let index = news.articles.firstIndex(where: { $0.id == id }), news.articles[index].read != read
        else { return }
        news.articles[index].read = read
        if let channel = news.open {
            let count = news.channels.first { $0.id == channel.id }?.unreadCount ?? 0
            setUnread(channel.id, max(0, count + (read ? -1 : 1)))
        }
    }

    private mutating func setUnread(_ channelID: String, _ count: Int) {
        guard let index = news.channels.firstIndex(where: { $0.id == channelID }) else { return }
        news.channels[index].unreadCount = min(NewsAPI.maxUnreadCount, count)
    }
}
