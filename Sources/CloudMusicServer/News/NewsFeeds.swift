import Cryptography
import Foundation
import HTMLSanitizer
import MusicCore
import WebFeeds
import WebFetch

/// A source's feed read into article rows: content sanitized (no scripts, handlers, frames or objects;
/// tracking pixels dropped), pictures pointed at the server's proxy, pictures and videos listed.
enum NewsFeeds {
    /// A feed past this many bytes is refused (with the reason kept on the source).
    static let maxFeedBytes = 5_000_000
    /// Items read from one feed; the rest are left out.
    static let maxItems = 500
    static let maxContent = 200_000
    static let maxSummary = 300

    /// One item as the store writes it.
    struct Article: Sendable, Equatable {
        /// The source's key for it: its guid (or link, or title and date).
        var guid: String
        /// Its link, and its guid when that names it everywhere: how copies in other sources are found.
        var url: String?
        var guidKey: String?
        var title: String
        var summary: String
        var contentHTML: String
        var text: String
        var author: String?
        /// Seconds since 1970, when the feed says.
        var publishedAt: Int64?
        /// Original addresses.
        var images: [String]
        var videos: [StoredVideo]
    }

    struct StoredVideo: Codable, Sendable, Equatable {
        var url: String
        var type: String?
        var poster: String?
    }

    struct Read: Sendable {
        var head: FetchHead
        /// Nil for a 304.
        var title: String?
        var articles: [Article]
    }

    static func fetch(_ url: URL, validators: Validators?, images: NewsImageKey, with fetcher: Fetcher)
        async throws -> Read
    {
        var articles: [Article] = []
        var seen: Set<String> = []
        let fetched = try await FeedRefresh.fetch(
            url, validators: validators, maxBytes: maxFeedBytes, with: fetcher
        ) { item in
            guard articles.count < maxItems, let article = article(item, feedURL: url, images: images),
                seen.insert(article.guid).inserted
            else { return }
            articles.append(article)
        }
        guard let feed = fetched.feed else { return Read(head: fetched.head, title: nil, articles: []) }
        let title =
            feed.title.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap {
                $0.isEmpty ? nil : $0
            }
            ?? fetched.head.url.host ?? url.absoluteString
        return Read(head: fetched.head, title: String(title.prefix(200)), articles: articles)
    }

    static func article(_ item: WebFeedItem, feedURL: URL, images keys: NewsImageKey) -> Article? {
        guard let guid = item.identity else { return nil }
        let base = item.link ?? feedURL
        let sanitizer = HTMLSanitizer(
            baseURL: base, imageProxy: { keys.path(for: $0.absoluteString) },
            mediaProxy: { $0.absoluteString })
        let html = item.contentHTML ?? item.summary ?? item.contentText.map(HTMLSanitizer.escaped) ?? ""
        let clean = sanitizer.sanitize(String(html.prefix(maxContent)))
        var images = clean.images.map(\.url.absoluteString)
        var extra = item.media.filter { $0.kind == .image && !($0.width == 1 && $0.height == 1) }.map(\.url)
        if let picture = item.imageURL { extra.insert(picture, at: 0) }
        for url in extra where ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            if !images.contains(url.absoluteString) { images.append(url.absoluteString) }
        }
        var videos = clean.videos.filter { !$0.audioOnly }.map {
            StoredVideo(url: $0.url.absoluteString, type: $0.type, poster: $0.posterURL?.absoluteString)
        }
        for enclosure in item.enclosures where enclosure.type?.lowercased().hasPrefix("video/") == true {
            if !videos.contains(where: { $0.url == enclosure.url.absoluteString }) {
                videos.append(
                    StoredVideo(url: enclosure.url.absoluteString, type: enclosure.type, poster: nil))
            }
        }
        let summarySource = item.summary.map { HTMLSanitizer.plainText($0) } ?? clean.text
        let summary = collapse(summarySource.isEmpty ? clean.text : summarySource)
        let title = collapse(HTMLSanitizer.plainText(item.title ?? ""))
        let link = item.link.flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") ? $0 : nil }
        return Article(
            guid: String(guid.prefix(1_000)), url: link.map { canonical($0) },
            guidKey: globalGuid(item.guid),
            title: String((title.isEmpty ? String(summary.prefix(60)) : title).prefix(500)),
            summary: String(summary.prefix(maxSummary)), contentHTML: clean.html, text: clean.text,
            author: item.author.map { String(collapse($0).prefix(200)) },
            publishedAt: (item.publishedAt ?? item.updatedAt).map { Int64($0.timeIntervalSince1970) },
            images: Array(images.prefix(50)), videos: Array(videos.prefix(20)))
    }

    /// A guid that names an article wherever it appears (an address, a URN, a tag URI); short ones ("1",
    /// "post-7") are only the source's own and never merge articles of different sources.
    static func globalGuid(_ guid: String?) -> String? {
        guard let guid = guid?.trimmingCharacters(in: .whitespaces), guid.count <= 1_000 else { return nil }
        let lower = guid.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("urn:")
            || lower.hasPrefix("tag:") ? guid : nil
    }

    /// The link without its fragment, so two feeds pointing at one page agree.
    static func canonical(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        parts.fragment = nil
        return String((parts.url?.absoluteString ?? url.absoluteString).prefix(2_000))
    }

    private static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// The key that makes picture tokens (a keyed BLAKE2b-256 of the original address, as hex): made once in the
/// data folder, so tokens last across restarts and nobody can make one for an address of their choosing.
struct NewsImageKey: Sendable {
    let key: [UInt8]

    init(file: String) throws { key = try Crypto.serverKey(at: file) }
    init(key: [UInt8]) { self.key = key }

    func token(for url: String) -> String { Crypto.hex(Crypto.keyedHash(url, key: key)) }

    /// The proxy's path for a picture.
    func path(for url: String) -> String { "/v1/news/images/\(token(for: url))" }
}
