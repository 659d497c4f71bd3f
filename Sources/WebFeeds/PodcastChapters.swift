import Foundation
import MusicCore

/// Reads a Podcasting 2.0 chapters document (JSON, `application/json+chapters`).
public enum PodcastChapters {
    /// The chapters in order of their start; entries without a valid `startTime` are left out. Addresses are
    /// resolved against `url`, the document's own.
    public static func parse(_ data: Data, url: URL, maxChapters: Int = 5_000) throws -> [PodcastChapter] {
        let subject = "chapters document"
        guard data.count <= 5_000_000 else {
            throw WebFeedError(.tooLarge(limit: 5_000_000), subject: subject)
        }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw WebFeedError(.json("it is not a JSON object"), subject: subject)
        }
        guard let list = root["chapters"] as? [Any] else {
            throw WebFeedError(.json("it has no list of chapters"), subject: subject)
        }
        guard list.count <= maxChapters else {
            throw WebFeedError(.tooManyItems(limit: maxChapters), subject: subject)
        }
        var chapters: [PodcastChapter] = []
        for case let entry as [String: Any] in list {
            guard let start = (entry["startTime"] as? NSNumber)?.doubleValue, start.isFinite, start >= 0
            else { continue }
            var end = (entry["endTime"] as? NSNumber)?.doubleValue
            if let value = end, !value.isFinite || value < start { end = nil }
            let title = (entry["title"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            chapters.append(
                PodcastChapter(
                    start: start, end: end, title: title?.isEmpty == false ? title : nil,
                    imageURL: FeedAddress.resolve(entry["img"] as? String, against: url),
                    url: FeedAddress.resolve(entry["url"] as? String, against: url),
                    listed: entry["toc"] as? Bool ?? true))
        }
        return chapters.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }
}
