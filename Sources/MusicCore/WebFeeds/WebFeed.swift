import Foundation

/// What a podcast's or news source's feed says about itself (RSS, Atom or JSON Feed), as read by the feed
/// parser; its items come separately, one at a time (`WebFeedItem`).
///
/// Not the apps' `Feed` (a moment): a web feed is a document somebody publishes on the internet. Every URL here
/// is absolute and http or https; text is as the feed gives it (HTML fields still need the sanitizer).
public struct WebFeed: Codable, Sendable, Equatable {
    public enum Format: String, Codable, Sendable {
        /// RSS 2.0 (and 0.9x), with the iTunes and Podcasting 2.0 tags.
        case rss
        /// RSS 1.0 (RDF).
        case rdf
        case atom
        /// JSON Feed 1.0 or 1.1.
        case jsonFeed
    }

    /// How a podcast wants its episodes listed (`itunes:type`).
    public enum PodcastType: String, Codable, Sendable {
        /// Newest first.
        case episodic
        /// In order, oldest first (a series, an audiobook).
        case serial
    }

    public var format: Format
    public var title: String?
    /// The website the feed belongs to.
    public var link: URL?
    /// HTML or text, as the feed gives it.
    public var description: String?
    public var language: String?
    public var author: String?
    /// `itunes:owner`: who to write to about the podcast.
    public var ownerName: String?
    public var ownerEmail: String?
    public var imageURL: URL?
    public var categories: [WebFeedCategory]
    public var explicit: Bool?
    /// `podcast:guid`: the podcast's identity across moves.
    public var podcastGUID: String?
    public var podcastType: PodcastType?
    /// `itunes:complete`: no more episodes will come.
    public var complete: Bool
    /// `itunes:new-feed-url`: the feed has moved here; fetch this address from now on.
    public var newFeedURL: URL?
    /// Atom's `rel="self"` (or JSON Feed's `feed_url`): where the feed says it lives.
    public var selfURL: URL?
    /// The next, older page of a paged feed (RFC 5005 `rel="next"`, JSON Feed's `next_url`).
    public var nextPageURL: URL?
    /// `lastBuildDate`, the channel's `pubDate`, or Atom's `updated`.
    public var updatedAt: Date?
    /// RSS `ttl`: minutes the feed may be kept before it is fetched again.
    public var timeToLiveMinutes: Int?

    public init(
        format: Format, title: String? = nil, link: URL? = nil, description: String? = nil,
        language: String? = nil, author: String? = nil, ownerName: String? = nil, ownerEmail: String? = nil,
        imageURL: URL? = nil, categories: [WebFeedCategory] = [], explicit: Bool? = nil,
        podcastGUID: String? = nil, podcastType: PodcastType? = nil, complete: Bool = false,
        newFeedURL: URL? = nil, selfURL: URL? = nil, nextPageURL: URL? = nil, updatedAt: Date? = nil,
        timeToLiveMinutes: Int? = nil
    ) {
        self.format = format
        self.title = title
        self.link = link
        self.description = description
        self.language = language
        self.author = author
        self.ownerName = ownerName
        self.ownerEmail = ownerEmail
        self.imageURL = imageURL
        self.categories = categories
        self.explicit = explicit
        self.podcastGUID = podcastGUID
        self.podcastType = podcastType
        self.complete = complete
        self.newFeedURL = newFeedURL
        self.selfURL = selfURL
        self.nextPageURL = nextPageURL
        self.updatedAt = updatedAt
        self.timeToLiveMinutes = timeToLiveMinutes
    }
}

/// A category of a feed: iTunes nests one level (`Arts` > `Books`); RSS and Atom categories have no parent.
public struct WebFeedCategory: Codable, Sendable, Equatable, Hashable {
    public var name: String
    public var subcategory: String?

    public init(name: String, subcategory: String? = nil) {
        self.name = name
        self.subcategory = subcategory
    }
}

/// One item of a feed: a podcast's episode or a news source's article.
public struct WebFeedItem: Codable, Sendable, Equatable {
    /// `itunes:episodeType`.
    public enum EpisodeType: String, Codable, Sendable {
        case full
        case trailer
        case bonus
    }

    /// The feed's own id for the item (RSS `guid`, Atom `id`, JSON Feed `id`), as written.
    public var guid: String?
    public var title: String?
    /// The item's page on the web.
    public var link: URL?
    /// A short description: HTML or text (RSS `description`, `itunes:summary`, Atom `summary`).
    public var summary: String?
    /// The full content as HTML (`content:encoded`, Atom `content`, JSON Feed `content_html`).
    public var contentHTML: String?
    /// The full content as plain text (Atom `content type="text"`, JSON Feed `content_text`).
    public var contentText: String?
    public var publishedAt: Date?
    public var updatedAt: Date?
    public var author: String?
    public var categories: [String]
    /// The episode's audio or video, first (RSS `enclosure`, Atom `rel="enclosure"`, JSON Feed attachments).
    public var enclosures: [WebFeedEnclosure]
    /// Pictures, videos and sounds attached by Media RSS (`media:content`, `media:thumbnail`).
    public var media: [WebFeedMedia]
    /// The item's own picture (`itunes:image`, JSON Feed `image`, a Media RSS thumbnail).
    public var imageURL: URL?
    /// Whole seconds, from `itunes:duration` ("1:02:03", "62:03", "3723") or a JSON Feed attachment.
    public var durationSeconds: Int?
    public var season: Int?
    public var episode: Int?
    public var episodeType: EpisodeType?
    public var explicit: Bool?
    /// `podcast:chapters`: a Podcasting 2.0 chapters document (JSON).
    public var chaptersURL: URL?
    /// `podcast:transcript`.
    public var transcripts: [WebFeedTranscript]

    public init(
        guid: String? = nil, title: String? = nil, link: URL? = nil, summary: String? = nil,
        contentHTML: String? = nil, contentText: String? = nil, publishedAt: Date? = nil,
        updatedAt: Date? = nil, author: String? = nil, categories: [String] = [],
        enclosures: [WebFeedEnclosure] = [], media: [WebFeedMedia] = [], imageURL: URL? = nil,
        durationSeconds: Int? = nil, season: Int? = nil, episode: Int? = nil, episodeType: EpisodeType? = nil,
        explicit: Bool? = nil, chaptersURL: URL? = nil, transcripts: [WebFeedTranscript] = []
    ) {
        self.guid = guid
        self.title = title
        self.link = link
        self.summary = summary
        self.contentHTML = contentHTML
        self.contentText = contentText
        self.publishedAt = publishedAt
        self.updatedAt = updatedAt
        self.author = author
        self.categories = categories
        self.enclosures = enclosures
        self.media = media
        self.imageURL = imageURL
        self.durationSeconds = durationSeconds
        self.season = season
        self.episode = episode
        self.episodeType = episodeType
        self.explicit = explicit
        self.chaptersURL = chaptersURL
        self.transcripts = transcripts
    }

    /// What identifies the item from one fetch to the next: its guid; without one, its enclosure's address,
    /// its link, or its title and date (what podcast apps fall back on too). Nil when it has none of them.
    public var identity: String? {
        if let guid, !guid.isEmpty { return guid }
        if let enclosure = enclosures.first { return enclosure.url.absoluteString }
        if let link { return link.absoluteString }
        guard let title, !title.isEmpty else { return nil }
        return "\(title)@\(publishedAt.map { String(Int64($0.timeIntervalSince1970)) } ?? "")"
    }
}

/// A file attached to an item: a podcast episode's audio or video.
public struct WebFeedEnclosure: Codable, Sendable, Equatable {
    public var url: URL
    /// The MIME type the feed claims (`audio/mpeg`); the file itself may disagree.
    public var type: String?
    /// Bytes, as the feed claims (often 0 or wrong).
    public var length: Int64?

    public init(url: URL, type: String? = nil, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}

/// A picture, video or sound attached to an item by Media RSS.
public struct WebFeedMedia: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case image
        case video
        case audio
    }

    public var kind: Kind
    public var url: URL
    public var type: String?
    public var width: Int?
    public var height: Int?

    public init(kind: Kind, url: URL, type: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.kind = kind
        self.url = url
        self.type = type
        self.width = width
        self.height = height
    }
}

/// A transcript of an episode (`podcast:transcript`): WebVTT, SRT, JSON, HTML or text.
public struct WebFeedTranscript: Codable, Sendable, Equatable {
    public var url: URL
    public var type: String?
    public var language: String?
    /// "captions" when it is timed for captions.
    public var rel: String?

    public init(url: URL, type: String? = nil, language: String? = nil, rel: String? = nil) {
        self.url = url
        self.type = type
        self.language = language
        self.rel = rel
    }
}
