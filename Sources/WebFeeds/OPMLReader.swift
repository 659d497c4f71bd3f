import Foundation
import Markup
import MusicCore

/// An OPML file's subscriptions (what podcast and news apps export), and the outlines that could not be used.
public struct OPMLDocument: Sendable, Equatable {
    public var title: String?
    public var subscriptions: [FeedSubscription]
    /// The `xmlUrl` of outlines whose address is not an http or https one (at most 100 are kept).
    public var skipped: [String]
}

/// Reads OPML: every outline with an `xmlUrl`, at any depth; the outlines around it are its folders.
public enum OPMLReader {
    public static func read(
        _ data: Data, limits: WebFeedLimits = WebFeedLimits(maxBytes: 10_000_000, maxItems: 10_000)
    )
        throws -> OPMLDocument
    {
        let handler = Handler(maxOutlines: limits.maxItems)
        let reader = XMLStreamReader(
            handler: handler, limits: XMLLimits(maxBytes: limits.maxBytes, maxDepth: limits.maxDepth))
        do {
            try reader.feed(data)
            try reader.finish()
        } catch let error as XMLError {
            throw WebFeedError(.xml(error.reason), subject: "OPML file")
        } catch let error as WebFeedError {
            throw WebFeedError(error.reason, subject: "OPML file")
        }
        return handler.document
    }

    private final class Handler: XMLEventHandler {
        let maxOutlines: Int
        var document = OPMLDocument(title: nil, subscriptions: [], skipped: [])
        /// One entry per open outline: the folder name it gives, or nil for a feed (or a nameless outline).
        var folders: [String?] = []
        var depth = 0
        var inTitle = false
        var title: [UInt8] = []
        var seen: Set<URL> = []

        init(maxOutlines: Int) { self.maxOutlines = maxOutlines }

        func startElement(_ name: XMLName, attributes: [XMLAttribute]) throws {
            depth += 1
            if depth == 1 {
                guard name.local.lowercased() == "opml" else {
                    throw WebFeedError(.notAFeed(root: name.description))
                }
                return
            }
            let value = { (key: String) -> String? in
                attributes.first { $0.name.local.lowercased() == key.lowercased() }?.value
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if name.local == "title", depth == 3 {
                inTitle = true
                return
            }
            guard name.local.lowercased() == "outline" else { return }
            let label =
                value("title").flatMap { $0.isEmpty ? nil : $0 }
                ?? value("text").flatMap { $0.isEmpty ? nil : $0 }
            guard let xmlURL = value("xmlUrl"), !xmlURL.isEmpty else {
                folders.append(label)
                return
            }
            folders.append(nil)
            guard let url = FeedAddress.resolve(xmlURL, against: nil) else {
                if document.skipped.count < 100 { document.skipped.append(xmlURL) }
                return
            }
            guard seen.insert(url).inserted else { return }
            guard document.subscriptions.count < maxOutlines else {
                throw WebFeedError(.tooManyItems(limit: maxOutlines))
            }
            var path = folders.dropLast().compactMap { $0 }
            // The `category` attribute: "/News/Tech,/Other"; its first path adds folders not already there.
            if let category = value("category")?.split(separator: ",").first {
                for part in category.split(separator: "/") where !path.contains(String(part)) {
                    path.append(String(part).trimmingCharacters(in: .whitespaces))
                }
            }
            document.subscriptions.append(
                FeedSubscription(
                    feedURL: url, title: label, siteURL: FeedAddress.resolve(value("htmlUrl"), against: nil),
                    folders: path))
        }

        func endElement(_ name: XMLName) throws {
            if name.local.lowercased() == "outline", !folders.isEmpty { folders.removeLast() }
            if inTitle, name.local == "title" {
                inTitle = false
                let text = String(decoding: title, as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)
                document.title = text.isEmpty ? nil : text
            }
            depth -= 1
        }

        func characters(_ text: UnsafeRawBufferPointer) throws {
            if inTitle, title.count < 1_000 { title.append(contentsOf: text) }
        }
    }
}
