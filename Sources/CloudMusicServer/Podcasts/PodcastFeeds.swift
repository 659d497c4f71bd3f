import Foundation
import HTMLSanitizer
import MusicCore
import WebFeeds
import WebFetch

/// A feed fetched and read: what it says, or that it has not changed since the validators were taken.
struct FetchedFeed: Sendable {
    var head: FetchHead
    /// Nil for a 304.
    var podcast: PodcastStore.Fields?
    /// Episodes by guid, in the feed's order, the first of each guid kept.
    var episodes: [(guid: String, fields: PodcastStore.EpisodeFields)]
}

/// Fetches a feed through `WebFetch` and reads it with `WebFeeds` as it arrives, into the rows the store
/// writes: descriptions sanitized (HTML to an allow-list without pictures, and to text), items without audio
/// left out.
enum PodcastFeeds {
    /// The longest show notes kept, in characters.
    static let maxNotes = 20_000

    static func fetch(_ url: URL, validators: Validators?, with fetcher: Fetcher) async throws -> FetchedFeed
    {
        var episodes: [(guid: String, fields: PodcastStore.EpisodeFields)] = []
        var seen: Set<String> = []
        let fetched = try await FeedRefresh.fetch(
            url, validators: validators, maxBytes: 10_000_000, with: fetcher
        ) { item in
            guard let guid = item.identity, let fields = episode(item), seen.insert(guid).inserted else {
                return
            }
            episodes.append((guid, fields))
        }
        guard let feed = fetched.feed else {
            return FetchedFeed(head: fetched.head, podcast: nil, episodes: [])
        }
        return FetchedFeed(
            head: fetched.head, podcast: podcast(feed, url: fetched.head.url), episodes: episodes)
    }

    static func podcast(_ feed: WebFeed, url: URL) -> PodcastStore.Fields {
        let title = clean(feed.title).flatMap { $0.isEmpty ? nil : $0 } ?? url.host ?? url.absoluteString
        let author = clean(feed.author ?? feed.ownerName)
        let description = feed.description ?? ""
        let sanitizer = HTMLSanitizer(baseURL: feed.link ?? url, imageProxy: { _ in nil })
        let html = description.contains("<") ? sanitizer.sanitize(description).html : nil
        let categories = feed.categories.flatMap { [$0.name] + ($0.subcategory.map { [$0] } ?? []) }
        var unique: [String] = []
        for name in categories where !unique.contains(name) { unique.append(name) }
        return PodcastStore.Fields(
            title: String(title.prefix(500)), author: author.map { String($0.prefix(500)) },
            descriptionText: String(HTMLSanitizer.plainText(description).prefix(maxNotes)),
            descriptionHTML: html.map { String($0.prefix(maxNotes * 2)) },
            link: feed.link?.absoluteString, imageURL: feed.imageURL?.absoluteString,
            categories: Array(unique.prefix(20)), explicit: feed.explicit ?? false, language: feed.language,
            searchText: searchText(title + " " + (author ?? "")))
    }

    /// An episode's row, or nil for an item without audio (an article, a post).
    static func episode(_ item: WebFeedItem) -> PodcastStore.EpisodeFields? {
        let playable = item.enclosures.first {
            guard let type = $0.type?.lowercased() else { return true }
            return type.hasPrefix("audio/") || type.hasPrefix("video/")
        }
        guard let enclosure = playable ?? item.enclosures.first else { return nil }
        let notes = item.contentHTML ?? item.summary ?? item.contentText ?? ""
        let title =
            clean(item.title).flatMap { $0.isEmpty ? nil : $0 } ?? enclosure.url.lastPathComponent
        return PodcastStore.EpisodeFields(
            title: String(title.prefix(500)),
            descriptionText: String(HTMLSanitizer.plainText(notes).prefix(maxNotes)),
            publishedAt: item.publishedAt.map { Int64($0.timeIntervalSince1970) },
            duration: item.durationSeconds, enclosureURL: enclosure.url.absoluteString,
            enclosureType: enclosure.type.map { String($0.prefix(100)) },
            enclosureLength: enclosure.length.flatMap { $0 > 0 ? $0 : nil }, season: item.season,
            episode: item.episode, chaptersURL: item.chaptersURL?.absoluteString,
            transcriptURL: item.transcripts.first?.url.absoluteString, imageURL: item.imageURL?.absoluteString
        )
    }

    /// Text folded for a substring search: lower case, full-width letters and digits as ASCII.
    static func searchText(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func clean(_ text: String?) -> String? {
        text.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
