import MusicCore
import Storage

/// What comments and moments do with episodes (likes, shares), on the caller's connection (inside its
/// transaction); `PodcastStore` stays inside Podcasts.
struct EpisodeLinks: Sendable {
    private let store = PodcastStore()

    /// Like ids from this value up are episodes' likes (the schema starts their sequence there).
    static let firstLikeID = PodcastStore.firstLikeID

    /// Whether the episode exists, whoever asks.
    func episodeExists(_ db: Connection, id: Int64) throws -> Bool {
        try store.episode(db, id: id, viewerID: nil) != nil
    }

    /// The episode as the viewer sees it (their like and progress with it).
    func episode(_ db: Connection, id: Int64, viewerID: Int64?) throws -> PodcastEpisode? {
        try store.episode(db, id: id, viewerID: viewerID).map(PodcastService.model)
    }

    /// The person's like of the episode: the existing one, or a new one (`isNew`).
    func like(_ db: Connection, userID: Int64, episodeID: Int64, now: Int64) throws -> (
        likeID: Int64, isNew: Bool
    ) {
        try store.like(db, userID: userID, episodeID: episodeID, now: now)
    }

    /// Who made the like, or nil when there is no such like.
    func likeOwner(_ db: Connection, likeID: Int64) throws -> Int64? {
        try store.likeOwner(db, likeID: likeID)
    }

    func unlike(_ db: Connection, likeID: Int64) throws {
        try store.unlike(db, likeID: likeID)
    }

    /// A scalar subquery giving the episode whose id is the SQL expression `id` as one JSON column, for a
    /// moment's statement (`PodcastStore.sharedEpisode(id:)`).
    static func sharedEpisode(id: String) -> String { PodcastStore.sharedEpisode(id: id) }

    /// The column `sharedEpisode` writes, read back.
    static func decodeSharedEpisode(_ text: String) throws -> SharedEpisode {
        try PodcastStore.decodeSharedEpisode(text)
    }
}
