import Foundation
import MusicCore

/// News (issue 32): reading calls answer `Cached<T>` (the last good copy offline), as the catalog's do.
extension MusicRepository {
    /// `GET v1/news/channels`: the shared channels and mine, each with my unread count.
    public func newsChannels() async throws -> Cached<[NewsChannel]> {
        try await cached(NewsAPI.channels)
    }

    /// `GET v1/news/channels/{id}/articles`: newest first; `cursor` is the `next` of the page before.
    public func newsArticles(channelID: String, cursor: String? = nil, size: Int = 50) async throws -> Cached<
        NewsArticlePage
    > {
        try await cached(
            NewsAPI.articles, path: IDPath(channelID), query: NewsArticleQuery(cursor: cursor, size: size))
    }

    /// `GET v1/news/articles/{id}`: the article with its sanitized content.
    public func newsArticle(id: String) async throws -> Cached<NewsArticleDetail> {
        try await cached(NewsAPI.article, path: IDPath(id))
    }

    /// `PUT v1/news/articles/{id}/read`.
    @discardableResult
    public func markNewsRead(_ read: Bool, articleID: String) async throws -> NewsArticle {
        try await client.send(NewsAPI.markRead, path: IDPath(articleID), body: NewsReadMark(read: read))
    }

    /// `POST v1/news/channels/{id}/read-all`: every article of the channel read.
    @discardableResult
    public func markNewsChannelRead(channelID: String) async throws -> NewsChannel {
        try await client.send(NewsAPI.readAll, path: IDPath(channelID), body: NewsReadAll())
    }
}
