import Foundation
import MusicCore

/// JSON Feed 1.0 and 1.1 (jsonfeed.org): the whole document is read at once (JSON has no streaming reader
/// here; the fetcher's size limit bounds it), then items are handed on one by one like the XML feeds'.
enum JSONFeedReader {
    static func read(_ data: Data, baseURL: URL, limits: WebFeedLimits, onItem: (WebFeedItem) throws -> Void)
        throws
        -> WebFeed
    {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw WebFeedError(.json("it is not JSON"))
        }
        guard let root = object as? [String: Any] else {
            throw WebFeedError(.json("it is not a JSON object"))
        }
        guard let version = root["version"] as? String, version.contains("jsonfeed.org/version/") else {
            throw WebFeedError(.json("it has no jsonfeed.org version"))
        }
        guard let items = root["items"] as? [Any] else {
            throw WebFeedError(.json("it has no list of items"))
        }
        guard items.count <= limits.maxItems else {
            throw WebFeedError(.tooManyItems(limit: limits.maxItems))
        }
        let feedURL = FeedAddress.resolve(root["feed_url"] as? String, against: baseURL)
        let base = baseURL
        var feed = WebFeed(format: .jsonFeed)
        feed.title = text(root["title"])
        feed.link = FeedAddress.resolve(root["home_page_url"] as? String, against: base)
        feed.description = text(root["description"]).map(XMLFeedBuilder.escapeHTML)
        feed.language = text(root["language"])
        feed.author = author(root)
        feed.imageURL = FeedAddress.resolve((root["icon"] ?? root["favicon"]) as? String, against: base)
        feed.selfURL = feedURL
        feed.nextPageURL = FeedAddress.resolve(root["next_url"] as? String, against: base)
        feed.complete = root["expired"] as? Bool ?? false

        for case let entry as [String: Any] in items {
            var item = WebFeedItem()
            if let id = entry["id"] as? String {
                item.guid = id
            } else if let id = entry["id"] as? NSNumber {
                item.guid = id.stringValue
            }
            item.title = text(entry["title"])
            item.link = FeedAddress.resolve((entry["url"] ?? entry["external_url"]) as? String, against: base)
            item.summary = text(entry["summary"]).map(XMLFeedBuilder.escapeHTML)
            item.contentHTML = text(entry["content_html"])
            item.contentText = text(entry["content_text"])
            item.publishedAt = text(entry["date_published"]).flatMap(FeedDate.parse)
            item.updatedAt = text(entry["date_modified"]).flatMap(FeedDate.parse)
            if item.publishedAt == nil { item.publishedAt = item.updatedAt }
            item.author = author(entry)
            item.categories = (entry["tags"] as? [Any] ?? []).compactMap(text)
            item.imageURL = FeedAddress.resolve(
                (entry["image"] ?? entry["banner_image"]) as? String, against: base)
            for case let attachment as [String: Any] in entry["attachments"] as? [Any] ?? [] {
                guard let url = FeedAddress.resolve(attachment["url"] as? String, against: base) else {
                    continue
                }
                let size = (attachment["size_in_bytes"] as? NSNumber)?.int64Value
                item.enclosures.append(
                    WebFeedEnclosure(
                        url: url, type: text(attachment["mime_type"]),
                        length: size.flatMap { $0 > 0 ? $0 : nil }))
                if item.durationSeconds == nil,
                    let seconds = (attachment["duration_in_seconds"] as? NSNumber)?.doubleValue,
                    seconds >= 0, seconds < 10_000_000
                {
                    item.durationSeconds = Int(seconds.rounded())
                }
            }
            try onItem(item)
        }
        return feed
    }

    private static func text(_ value: Any?) -> String? {
        guard let string = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !string.isEmpty
        else {
            return nil
        }
        return string
    }

    /// 1.1's `authors` (the first's name), else 1.0's `author`.
    private static func author(_ object: [String: Any]) -> String? {
        if let authors = object["authors"] as? [Any], let first = authors.first as? [String: Any] {
            return text(first["name"])
        }
        return (object["author"] as? [String: Any]).flatMap { text($0["name"]) }
    }
}
