import Foundation
import MusicCore

/// Podcasts: browsing calls answer `Cached<T>` (the last good copy offline), as the catalog's do.
extension MusicRepository {
    /// `GET v1/podcasts`, all of them or those whose title or author holds `text`.
    public func podcasts(matching text: String? = nil, page: Int = 1, size: Int = 20) async throws -> Cached<
        Page<Podcast>
    > {
        try await cached(PodcastsAPI.list, query: PodcastListQuery(q: text, page: page, size: size))
    }

    /// `GET v1/podcasts/subscribed`.
    public func subscribedPodcasts(page: Int = 1, size: Int = 20) async throws -> Cached<Page<Podcast>> {
        try await cached(PodcastsAPI.subscriptions, query: PageQuery(page: page, size: size))
    }

    /// `GET v1/podcasts/{id}`.
    public func podcast(id: String) async throws -> Cached<Podcast> {
        try await cached(PodcastsAPI.detail, path: IDPath(id))
    }

    /// `GET v1/podcasts/{id}/episodes`: the album page, with the viewer's progress; with `cursor` (a page's
    /// `nextCursor`), the page after that one.
    public func episodes(
        podcastID: String, sort: EpisodeOrder = .newest, page: Int = 1, size: Int = 20, cursor: String? = nil
    ) async throws -> Cached<EpisodePage> {
        try await cached(
            PodcastsAPI.episodes, path: IDPath(podcastID),
            query: EpisodeListQuery(sort: sort, page: page, size: size, cursor: cursor))
    }

    /// `GET v1/episodes/{id}`.
    public func episode(id: String) async throws -> Cached<PodcastEpisode> {
        try await cached(PodcastsAPI.episode, path: IDPath(id))
    }

    /// `GET v1/episodes/continue`: started, not finished, the last played first.
    public func continueListening(page: Int = 1, size: Int = 20) async throws -> Cached<Page<PodcastEpisode>>
    {
        try await cached(PodcastsAPI.continueListening, query: PageQuery(page: page, size: size))
    }

    /// `GET v1/episodes/{id}/chapters`.
    public func chapters(episodeID: String) async throws -> Cached<EpisodeChapters> {
        try await cached(PodcastsAPI.chapters, path: IDPath(episodeID))
    }

    /// `PUT` or `DELETE v1/podcasts/{id}/subscription`.
    @discardableResult
    public func setSubscribed(_ subscribed: Bool, podcastID: String) async throws -> Podcast {
        try await client.send(
            subscribed ? PodcastsAPI.subscribe : PodcastsAPI.unsubscribe, path: IDPath(podcastID))
    }

    /// The address of an episode's audio, for the player.
    public func episodeStreamURL(episodeID: String) throws -> URL {
        client.url(PodcastsAPI.stream, path: try IDPath(episodeID))
    }
}
