import MusicCore

// The rows of podcasts and episodes as `PodcastStore` reads and writes them, owned by Podcasts and named by
// the features built on them: Audiobooks writes books as podcasts, the Subsonic API answers from them.

/// A podcast row as the service needs it.
struct PodcastRecord: Sendable {
    var id: Int64
    var feedURL: String
    /// What the feed last said.
    var fields: PodcastFields
    var etag: String?
    var lastModified: String?
    var refreshedAt: Int64?
    var failures: Int
    var lastError: String?
    var keep: PodcastKeep
    var retention: Int
    var episodesCount: Int
    var subscribersCount: Int
    var subscribed: Bool?
    var createdAt: Int64
    var updatedAt: Int64
    /// What only audiobooks have (`AudiobooksSchema`); nil for a feed's podcast.
    var book: AudiobookFields?
}

/// What a feed says about the podcast, to write (and as read back).
struct PodcastFields: Sendable {
    var title: String
    var author: String?
    var descriptionText: String
    var descriptionHTML: String?
    var link: String?
    var imageURL: String?
    var categories: [String]
    var explicit: Bool
    var language: String?
    var searchText: String
}

/// An episode row as the service needs it.
struct PodcastEpisodeRecord: Sendable {
    var id: Int64
    var podcastID: Int64
    var podcastTitle: String
    var guid: String
    var fields: PodcastEpisodeFields
    var fileName: String?
    var keep: PodcastKeep
    var kind: PodcastKind = .podcast
    var progress: PodcastProgressRecord?
    var likesCount = 0
    /// The viewer's like of it.
    var likeID: Int64?
    var createdAt: Int64
    var updatedAt: Int64
}

/// What a feed says about one episode, to write (and compare: an unchanged episode is not written).
struct PodcastEpisodeFields: Sendable, Equatable {
    var title: String
    var descriptionText: String
    var publishedAt: Int64?
    var duration: Int?
    var enclosureURL: String
    var enclosureType: String?
    var enclosureLength: Int64?
    var season: Int?
    var episode: Int?
    var chaptersURL: String?
    var transcriptURL: String?
    var imageURL: String?
}

struct PodcastProgressRecord: Sendable, Equatable {
    var position: Double
    var finished: Bool
    /// Milliseconds since 1970.
    var updatedAt: Int64
}
