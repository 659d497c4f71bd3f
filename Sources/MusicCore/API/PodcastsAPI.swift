/// Podcasts: feeds an administrator adds (by address or OPML), refreshed on a schedule; their episodes as an
/// album paged by number (or on by `nextCursor`, as cheap deep as on the first page); subscriptions; and each person's progress through an episode, shared by every client.
public enum PodcastsAPI {
    public static let list = Endpoint<NoPath, PodcastListQuery, NoBody, Page<Podcast>, OptionalSignIn>(
        "list", .GET, "/v1/podcasts",
        "Podcasts by title, or those whose title or author holds `q` (Chinese too, any substring)")
    public static let categories = Endpoint<NoPath, NoQuery, NoBody, [PodcastCategory], OptionalSignIn>(
        "categories", .GET, "/v1/podcasts/categories",
        "The podcasts' categories (their feeds' iTunes categories), each with how many podcasts it has")
    public static let detail = Endpoint<IDPath<Podcast>, NoQuery, NoBody, Podcast, OptionalSignIn>(
        "detail", .GET, "/v1/podcasts/{id}", "A podcast", resource: "podcast")
    public static let cover = Endpoint<IDPath<Podcast>, CoverQuery, NoBody, Picture, OptionalSignIn>(
        "cover", .GET, "/v1/podcasts/{id}/cover",
        "The podcast's picture, fetched by the server from the feed's address (so the listener's address never "
            + "reaches it) and kept for an hour; answered as the feed gives it, whatever `size` asks",
        resource: "podcast", refusals: [.unavailable])
    public static let episodes = Endpoint<
        IDPath<Podcast>, EpisodeListQuery, NoBody, EpisodePage, OptionalSignIn
    >(
        "episodes", .GET, "/v1/podcasts/{id}/episodes",
        "A podcast's episodes, newest or oldest first (a book's parts in order), with the viewer's progress: "
            + "page `page`, or the page after the one whose `nextCursor` is given as `cursor` (as cheap on page "
            + "250 as on page 1)",
        resource: "podcast")
    public static let add = Endpoint<NoPath, NoQuery, PodcastDraft, Podcast, Admin>(
        "add", .POST, "/v1/podcasts",
        "add a podcast by its feed's address: the feed is fetched at once, and refused with the reason when it "
            + "cannot be used",
        status: 201, refusals: [.conflict, .tooLarge, .unavailable])
    public static let importOPML = Endpoint<NoPath, NoQuery, TextBody, PodcastImport, Admin>(
        "importOPML", .POST, "/v1/podcasts/opml",
        "add the podcasts of an OPML file (what podcast apps export); each feed is fetched, and those that "
            + "fail are listed with their reason",
        refusals: [.tooLarge])
    public static let update = Endpoint<IDPath<Podcast>, NoQuery, PodcastSettings, Podcast, Admin>(
        "update", .PATCH, "/v1/podcasts/{id}",
        "change whether a podcast's episodes stream from their origin or are downloaded, and how many are kept",
        resource: "podcast")
    public static let delete = Endpoint<IDPath<Podcast>, NoQuery, NoBody, Done, Admin>(
        "delete", .DELETE, "/v1/podcasts/{id}",
        "delete a podcast with its episodes, downloads, subscriptions and progress; a deleted audiobook stays "
            + "out of scans until its files change or it is restored (`GET /v1/audiobooks/deleted`)",
        resource: "podcast",
        idempotent: true)
    public static let refresh = Endpoint<IDPath<Podcast>, NoQuery, NoBody, Podcast, Admin>(
        "refresh", .POST, "/v1/podcasts/{id}/refresh",
        "fetch a podcast's feed now (a conditional GET); the answer says what came of it", resource: "podcast"
    )
    public static let refreshAll = Endpoint<NoPath, NoQuery, NoBody, PodcastRefreshReport, Admin>(
        "refreshAll", .POST, "/v1/podcasts/refresh", "fetch every podcast's feed now, a few at a time")
    public static let subscribe = Endpoint<IDPath<Podcast>, NoQuery, NoBody, Podcast, SignedIn>(
        "subscribe", .PUT, "/v1/podcasts/{id}/subscription", "Subscribe to a podcast", resource: "podcast",
        idempotent: true)
    public static let unsubscribe = Endpoint<IDPath<Podcast>, NoQuery, NoBody, Podcast, SignedIn>(
        "unsubscribe", .DELETE, "/v1/podcasts/{id}/subscription", "Unsubscribe from a podcast",
        resource: "podcast", idempotent: true)
    public static let subscriptions = Endpoint<NoPath, PageQuery, NoBody, Page<Podcast>, SignedIn>(
        "subscriptions", .GET, "/v1/podcasts/subscribed", "The podcasts I subscribe to, latest first")
    public static let newEpisodes = Endpoint<NoPath, PageQuery, NoBody, Page<PodcastEpisode>, SignedIn>(
        "newEpisodes", .GET, "/v1/episodes/new", "New from my subscriptions: their episodes, newest first")
    public static let continueListening = Endpoint<
        NoPath, PageQuery, NoBody, Page<PodcastEpisode>, SignedIn
    >(
        "continueListening", .GET, "/v1/episodes/continue",
        "Continue listening: episodes I started and have not finished, the last played first")
    public static let searchEpisodes = Endpoint<
        NoPath, EpisodeSearchQuery, NoBody, Page<PodcastEpisode>, OptionalSignIn
    >(
        "searchEpisodes", .GET, "/v1/episodes",
        "Episodes of every podcast whose title or show notes hold `q` (every word: Latin words by prefix, "
            + "Chinese of any length as a substring; case and accents folded), newest first")
    public static let episode = Endpoint<
        IDPath<PodcastEpisode>, NoQuery, NoBody, PodcastEpisode, OptionalSignIn
    >(
        "episode", .GET, "/v1/episodes/{id}", "An episode, with the viewer's progress", resource: "episode")
    public static let stream = Endpoint<IDPath<PodcastEpisode>, NoQuery, NoBody, AudioFile, OptionalSignIn>(
        "stream", .GET, "/v1/episodes/{id}/stream",
        "The episode's audio: the downloaded file, or its origin's bytes passed through (Range passed on)",
        resource: "episode", refusals: [.outsideRange, .unavailable])
    public static let progress = Endpoint<IDPath<PodcastEpisode>, NoQuery, NoBody, EpisodeProgress, SignedIn>(
        "progress", .GET, "/v1/episodes/{id}/progress", "My place in an episode", resource: "episode")
    public static let saveProgress = Endpoint<
        IDPath<PodcastEpisode>, NoQuery, EpisodeProgressDraft, EpisodeProgress, SignedIn
    >(
        "saveProgress", .PUT, "/v1/episodes/{id}/progress",
        "Save my place in an episode; of two saves, the one taken later (`updatedAt`) wins",
        resource: "episode", idempotent: true)
    public static let chapters = Endpoint<
        IDPath<PodcastEpisode>, NoQuery, NoBody, EpisodeChapters, OptionalSignIn
    >(
        "chapters", .GET, "/v1/episodes/{id}/chapters",
        "An episode's chapters (Podcasting 2.0), fetched by the server from the feed's address so the listener's "
            + "address never reaches it; empty when the feed gives none",
        resource: "episode", refusals: [.unavailable])
    public static let transcript = Endpoint<
        IDPath<PodcastEpisode>, NoQuery, NoBody, EpisodeTranscript, OptionalSignIn
    >(
        "transcript", .GET, "/v1/episodes/{id}/transcript",
        "An episode's transcript as text, fetched by the server from the feed's address; empty when the feed "
            + "gives none",
        resource: "episode", refusals: [.unavailable])

    public static let group = APIGroup(
        "podcasts",
        "Podcasts: feeds, episodes paged as an album, subscriptions, progress that follows the person",
        [
            list, categories, detail, cover, episodes, add, importOPML, update, delete, refresh, refreshAll,
            subscribe, unsubscribe, subscriptions, newEpisodes, continueListening, searchEpisodes, episode,
            stream, progress,
            saveProgress, chapters, transcript,
        ])
}

/// A podcast: a feed somebody publishes, as the server last read it.
public struct Podcast: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var author: String?
    /// The description as text.
    public var detail: String
    /// The description as safe HTML (an allow-list; pictures dropped), when the feed gave HTML.
    public var detailHtml: String?
    /// The podcast's picture at its origin.
    public var imageUrl: String?
    /// The feed's address.
    public var feedUrl: String
    /// Its website.
    public var link: String?
    public var categories: [String]
    public var explicit: Bool
    /// `stream` from the origin, or `download` into the server's data folder.
    public var keep: PodcastKeep
    /// With `download`: the newest this many episodes are kept on the server.
    public var retention: Int
    public var episodesCount: Int
    public var subscribersCount: Int
    /// Whether the viewer subscribes; nil when nobody is signed in.
    public var subscribed: Bool?
    /// When the feed was last fetched (a 304 included), and what went wrong the last time it failed.
    public var refreshedAt: String?
    public var lastError: String?
    public var createdAt: String
    public var updatedAt: String
    /// A feed's podcast, or an audiobook of the server's audiobooks folder (its episodes are its parts).
    public var kind: PodcastKind
    /// An audiobook's reader.
    public var narrator: String?
    /// The series an audiobook belongs to, and its place in it.
    public var series: String?
    public var seriesPart: Double?
    public var year: Int?

    public init(
        id: String, title: String, author: String?, detail: String, detailHtml: String?, imageUrl: String?,
        feedUrl: String, link: String?, categories: [String], explicit: Bool, keep: PodcastKeep,
        retention: Int, episodesCount: Int, subscribersCount: Int, subscribed: Bool?, refreshedAt: String?,
        lastError: String?, createdAt: String, updatedAt: String, kind: PodcastKind = .podcast,
        narrator: String? = nil, series: String? = nil, seriesPart: Double? = nil, year: Int? = nil
    ) {
        self.kind = kind
        self.narrator = narrator
        self.series = series
        self.seriesPart = seriesPart
        self.year = year
        self.id = id
        self.title = title
        self.author = author
        self.detail = detail
        self.detailHtml = detailHtml
        self.imageUrl = imageUrl
        self.feedUrl = feedUrl
        self.link = link
        self.categories = categories
        self.explicit = explicit
        self.keep = keep
        self.retention = retention
        self.episodesCount = episodesCount
        self.subscribersCount = subscribersCount
        self.subscribed = subscribed
        self.refreshedAt = refreshedAt
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension Podcast {
    /// `kind` and a book's fields came with audiobooks: an answer saved before them (a client's offline cache)
    /// or sent by an older server is a feed's podcast.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id), title: try c.decode(String.self, forKey: .title),
            author: try c.decodeIfPresent(String.self, forKey: .author),
            detail: try c.decode(String.self, forKey: .detail),
            detailHtml: try c.decodeIfPresent(String.self, forKey: .detailHtml),
            imageUrl: try c.decodeIfPresent(String.self, forKey: .imageUrl),
            feedUrl: try c.decode(String.self, forKey: .feedUrl),
            link: try c.decodeIfPresent(String.self, forKey: .link),
            categories: try c.decode([String].self, forKey: .categories),
            explicit: try c.decode(Bool.self, forKey: .explicit),
            keep: try c.decode(PodcastKeep.self, forKey: .keep),
            retention: try c.decode(Int.self, forKey: .retention),
            episodesCount: try c.decode(Int.self, forKey: .episodesCount),
            subscribersCount: try c.decode(Int.self, forKey: .subscribersCount),
            subscribed: try c.decodeIfPresent(Bool.self, forKey: .subscribed),
            refreshedAt: try c.decodeIfPresent(String.self, forKey: .refreshedAt),
            lastError: try c.decodeIfPresent(String.self, forKey: .lastError),
            createdAt: try c.decode(String.self, forKey: .createdAt),
            updatedAt: try c.decode(String.self, forKey: .updatedAt),
            kind: try c.decodeIfPresent(PodcastKind.self, forKey: .kind) ?? .podcast,
            narrator: try c.decodeIfPresent(String.self, forKey: .narrator),
            series: try c.decodeIfPresent(String.self, forKey: .series),
            seriesPart: try c.decodeIfPresent(Double.self, forKey: .seriesPart),
            year: try c.decodeIfPresent(Int.self, forKey: .year))
    }
}

/// What a podcast is.
public enum PodcastKind: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// A feed (RSS, Atom, JSON Feed).
    case podcast
    /// A book of the audiobooks folder.
    case audiobook
}

/// Where a podcast's episodes are played from.
public enum PodcastKeep: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// From their origin, passed through the server.
    case stream
    /// From files the server downloaded into its data folder.
    case download
}

/// One episode of a podcast.
public struct PodcastEpisode: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var podcastId: String
    public var podcastTitle: String
    public var title: String
    /// The show notes as text.
    public var detail: String
    /// When it was published (ISO 8601), when the feed says.
    public var publishedAt: String?
    /// Seconds, when the feed says.
    public var duration: Int?
    /// The audio through the server, relative to its root (`v1/episodes/5/stream`).
    public var uri: String
    /// The audio at its origin, with the type and size the feed claims.
    public var enclosureUrl: String
    public var enclosureType: String?
    public var enclosureLength: Int64?
    public var season: Int?
    public var episode: Int?
    /// Podcasting 2.0 chapters (JSON) and transcript, at their origin.
    public var chaptersUrl: String?
    public var transcriptUrl: String?
    public var imageUrl: String?
    /// Whether the server holds the audio itself.
    public var downloaded: Bool
    /// The viewer's place in it; nil when nobody is signed in or they never played it.
    public var progress: EpisodeProgress?
    /// How many people like it (`POST v1/likes` with `episodeId`).
    public var likesCount: Int
    /// The viewer's like of it (delete it to unlike), or nil.
    public var likeId: String?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, podcastId: String, podcastTitle: String, title: String, detail: String,
        publishedAt: String?, duration: Int?, uri: String, enclosureUrl: String, enclosureType: String?,
        enclosureLength: Int64?, season: Int?, episode: Int?, chaptersUrl: String?, transcriptUrl: String?,
        imageUrl: String?, downloaded: Bool, progress: EpisodeProgress?, likesCount: Int = 0,
        likeId: String? = nil, createdAt: String, updatedAt: String
    ) {
        self.likesCount = likesCount
        self.likeId = likeId
        self.id = id
        self.podcastId = podcastId
        self.podcastTitle = podcastTitle
        self.title = title
        self.detail = detail
        self.publishedAt = publishedAt
        self.duration = duration
        self.uri = uri
        self.enclosureUrl = enclosureUrl
        self.enclosureType = enclosureType
        self.enclosureLength = enclosureLength
        self.season = season
        self.episode = episode
        self.chaptersUrl = chaptersUrl
        self.transcriptUrl = transcriptUrl
        self.imageUrl = imageUrl
        self.downloaded = downloaded
        self.progress = progress
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension PodcastEpisode {
    /// Likes came after episodes: an answer saved before them (a client's offline cache) has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id),
            podcastId: try c.decode(String.self, forKey: .podcastId),
            podcastTitle: try c.decode(String.self, forKey: .podcastTitle),
            title: try c.decode(String.self, forKey: .title),
            detail: try c.decode(String.self, forKey: .detail),
            publishedAt: try c.decodeIfPresent(String.self, forKey: .publishedAt),
            duration: try c.decodeIfPresent(Int.self, forKey: .duration),
            uri: try c.decode(String.self, forKey: .uri),
            enclosureUrl: try c.decode(String.self, forKey: .enclosureUrl),
            enclosureType: try c.decodeIfPresent(String.self, forKey: .enclosureType),
            enclosureLength: try c.decodeIfPresent(Int64.self, forKey: .enclosureLength),
            season: try c.decodeIfPresent(Int.self, forKey: .season),
            episode: try c.decodeIfPresent(Int.self, forKey: .episode),
            chaptersUrl: try c.decodeIfPresent(String.self, forKey: .chaptersUrl),
            transcriptUrl: try c.decodeIfPresent(String.self, forKey: .transcriptUrl),
            imageUrl: try c.decodeIfPresent(String.self, forKey: .imageUrl),
            downloaded: try c.decode(Bool.self, forKey: .downloaded),
            progress: try c.decodeIfPresent(EpisodeProgress.self, forKey: .progress),
            likesCount: try c.decodeIfPresent(Int.self, forKey: .likesCount) ?? 0,
            likeId: try c.decodeIfPresent(String.self, forKey: .likeId),
            createdAt: try c.decode(String.self, forKey: .createdAt),
            updatedAt: try c.decode(String.self, forKey: .updatedAt))
    }
}

/// An episode shared in a moment, as the moment draws it: its title, its podcast's title and cover.
public struct SharedEpisode: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var podcastId: String
    public var podcastTitle: String
    /// Seconds, when the feed says.
    public var duration: Int?
    /// The podcast's cover through the server, relative to its root (`v1/podcasts/7/cover`).
    public var icon: String

    public init(id: String, title: String, podcastId: String, podcastTitle: String, duration: Int?) {
        self.id = id
        self.title = title
        self.podcastId = podcastId
        self.podcastTitle = podcastTitle
        self.duration = duration
        icon = "v1/podcasts/\(podcastId)/cover"
    }
}

/// A person's place in an episode.
public struct EpisodeProgress: Codable, Sendable, Equatable {
    public var episodeId: String
    /// Seconds from the start.
    public var position: Double
    public var finished: Bool
    /// When the place was taken (ISO 8601); nil when it never was.
    public var updatedAt: String?

    public init(episodeId: String, position: Double, finished: Bool, updatedAt: String?) {
        self.episodeId = episodeId
        self.position = position
        self.finished = finished
        self.updatedAt = updatedAt
    }
}

/// A place to save: `updatedAt` is when the client took it (an offline client sends it later); without it,
/// now.
public struct EpisodeProgressDraft: Codable, Sendable, Equatable {
    public var position: Double
    public var finished: Bool?
    public var updatedAt: String?

    public init(position: Double, finished: Bool? = nil, updatedAt: String? = nil) {
        self.position = position
        self.finished = finished
        self.updatedAt = updatedAt
    }
}

/// An episode's chapters, in order of their start.
public struct EpisodeChapters: Codable, Sendable, Equatable {
    public struct Chapter: Codable, Sendable, Equatable {
        /// Seconds from the episode's start.
        public var start: Double
        public var end: Double?
        public var title: String?
        /// A web page about what the chapter talks of (http or https).
        public var url: String?

        public init(start: Double, end: Double?, title: String?, url: String?) {
            self.start = start
            self.end = end
            self.title = title
            self.url = url
        }
    }

    public var chapters: [Chapter]

    public init(chapters: [Chapter]) { self.chapters = chapters }
}

/// An episode's transcript as text (cue numbers and timings left out).
public struct EpisodeTranscript: Codable, Sendable, Equatable {
    public var text: String

    public init(text: String) { self.text = text }
}

/// A podcast to add.
public struct PodcastDraft: Codable, Sendable, Equatable {
    /// The feed's address (RSS, Atom or JSON Feed).
    public var url: String
    public var keep: PodcastKeep?
    public var retention: Int?

    public init(url: String, keep: PodcastKeep? = nil, retention: Int? = nil) {
        self.url = url
        self.keep = keep
        self.retention = retention
    }
}

/// A podcast's settings to change; what is left out stays.
public struct PodcastSettings: Codable, Sendable, Equatable {
    public var keep: PodcastKeep?
    public var retention: Int?

    public init(keep: PodcastKeep? = nil, retention: Int? = nil) {
        self.keep = keep
        self.retention = retention
    }
}

/// What an OPML import did.
public struct PodcastImport: Codable, Sendable, Equatable {
    public struct Failure: Codable, Sendable, Equatable {
        public var url: String
        public var message: String

        public init(url: String, message: String) {
            self.url = url
            self.message = message
        }
    }

    /// The podcasts added, and those the server already had.
    public var added: [Podcast]
    public var existing: [Podcast]
    public var failed: [Failure]

    public init(added: [Podcast], existing: [Podcast], failed: [Failure]) {
        self.added = added
        self.existing = existing
        self.failed = failed
    }
}

/// What refreshing every podcast did.
public struct PodcastRefreshReport: Codable, Sendable, Equatable {
    public var refreshed: Int
    /// Feeds that answered 304 (nothing written).
    public var unchanged: Int
    public var failed: Int
    public var episodesAdded: Int
    public var episodesUpdated: Int

    public init(refreshed: Int, unchanged: Int, failed: Int, episodesAdded: Int, episodesUpdated: Int) {
        self.refreshed = refreshed
        self.unchanged = unchanged
        self.failed = failed
        self.episodesAdded = episodesAdded
        self.episodesUpdated = episodesUpdated
    }
}

public struct PodcastListQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var q: String?
    public var kind: PodcastKind?
    public var category: String?
    public init() {}
    public init(
        q: String?, kind: PodcastKind? = nil, category: String? = nil, page: Int = 1, size: Int = 20
    ) {
        self.q = q
        self.kind = kind
        self.category = category
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        Paging.fields(\.paging) + [
            .text("q", \.q, maxLength: 100, doc: "Words the title or author holds (any substring)."),
            .choice("kind", \.kind, doc: "Only podcasts of this kind (`audiobook` lists the books)."),
            .text("category", \.category, maxLength: 100, doc: "Only podcasts in this category (as listed)."),
        ]
}

/// `GET /v1/episodes?q=`: words an episode's title holds.
public struct EpisodeSearchQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var q = ""
    public init() {}
    public init(q: String, page: Int = 1, size: Int = 20) {
        self.q = q
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        Paging.fields(\.paging) + [
            .text("q", \.q, maxLength: 100, required: true, doc: "Words the title holds (any substring).")
        ]
}

/// A category of podcasts, from their feeds' iTunes categories.
public struct PodcastCategory: Codable, Sendable, Equatable {
    public var name: String
    public var podcastsCount: Int

    public init(name: String, podcastsCount: Int) {
        self.name = name
        self.podcastsCount = podcastsCount
    }
}

/// How an album of episodes is ordered.
public enum EpisodeOrder: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// Newest first.
    case newest
    /// Oldest first (a series from its start).
    case oldest
}

/// A podcast's album page: the usual list fields, and `nextCursor`, which opens the following page (its
/// number is `next`) by key instead of by offset.
public typealias EpisodePage = CursorPage<PodcastEpisode>

/// `sort`, `page`, `size` and `cursor` of an album: `cursor` (the `nextCursor` of a page of the same album and
/// order) wins over `page`.
public struct EpisodeListQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var sort = EpisodeOrder.newest
    public var cursor: String?
    /// An album cursor's shape (`podcast.order.offset.value.id.signature`); only the server reads it.
    public static let cursorPattern =
        #"^[1-9][0-9]{0,17}\.[nop]\.[0-9]{1,9}\.(x|-?[0-9]{1,19})\.[1-9][0-9]{0,17}\.[0-9a-f]{32}$"#
    public init() {}
    public init(sort: EpisodeOrder, page: Int = 1, size: Int = 20, cursor: String? = nil) {
        self.sort = sort
        paging = Paging(page: page, size: size)
        self.cursor = cursor
    }
    public static let fields: [ParameterField<Self>] =
        Paging.fields(\.paging) + [
            .choice("sort", \.sort),
            .text(
                "cursor", \.cursor, pattern: cursorPattern,
                shape: LocalizedText("the `nextCursor` of a page of this album, as it was given"),
                maxLength: 120,
                doc: "The `nextCursor` of the page before, in the same `sort`: the page after it."),
        ]
}
