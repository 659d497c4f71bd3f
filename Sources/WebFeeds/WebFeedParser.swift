import Foundation
import Markup
import MusicCore

/// A feed read whole: what it says about itself and its items in order.
public struct WebFeedDocument: Sendable, Equatable {
    public var feed: WebFeed
    public var items: [WebFeedItem]
}

/// Reads RSS (2.0, 0.9x, 1.0), Atom or JSON Feed as its bytes arrive, telling the format from the document
/// itself, and hands on each item as soon as it has been read: feed it the chunks the fetcher gives, then call
/// `finish`.
///
/// Addresses in the feed are resolved against `url` (the address it was fetched from, after redirects) and
/// kept only when http or https. XML is read by `XMLStreamReader` (no entities, no DTDs, no network); a
/// document that is not a feed is refused with a reason a person can act on (`WebFeedError`).
public final class WebFeedParser {
    private enum State {
        case undecided
        case xml(XMLStreamReader, XMLFeedBuilder)
        case json(Data)
    }

    private let url: URL
    private let limits: WebFeedLimits
    private let onItem: (WebFeedItem) throws -> Void
    private var state = State.undecided
    private var bytesRead = 0

    public init(
        url: URL, limits: WebFeedLimits = WebFeedLimits(), onItem: @escaping (WebFeedItem) throws -> Void
    ) {
        self.url = url
        self.limits = limits
        self.onItem = onItem
    }

    /// Reads a whole document at once.
    public static func parse(_ data: Data, url: URL, limits: WebFeedLimits = WebFeedLimits()) throws
        -> WebFeedDocument
    {
        var items: [WebFeedItem] = []
        let parser = WebFeedParser(url: url, limits: limits) { items.append($0) }
        try parser.feed(data)
        let feed = try parser.finish()
        return WebFeedDocument(feed: feed, items: items)
    }

    public func feed(_ chunk: Data) throws {
        guard !chunk.isEmpty else { return }
        bytesRead += chunk.count
        guard bytesRead <= limits.maxBytes else { throw WebFeedError(.tooLarge(limit: limits.maxBytes)) }
        switch state {
        case .undecided:
            // The first byte that is not a byte-order mark or white space tells XML from JSON.
            guard let first = chunk.first(where: { !Self.ignorable.contains($0) }) else {
                // Only white space so far: keep it out, it changes nothing.
                return
            }
            if first == UInt8(ascii: "{") {
                state = .json(chunk)
            } else if first == UInt8(ascii: "<") || chunk.starts(with: [0xFE, 0xFF])
                || chunk.starts(with: [0xFF, 0xFE])
            {
                let builder = XMLFeedBuilder(baseURL: url, limits: limits, onItem: onItem)
                let reader = XMLStreamReader(
                    handler: builder, limits: XMLLimits(maxBytes: limits.maxBytes, maxDepth: limits.maxDepth))
                state = .xml(reader, builder)
                try read(chunk, with: reader)
            } else {
                throw WebFeedError(.notXMLOrJSON)
            }
        case .xml(let reader, _):
            try read(chunk, with: reader)
        case .json(var data):
            state = .undecided
            data.append(chunk)
            state = .json(data)
        }
    }

    /// Ends the document: the feed's own fields, once every item has been handed on.
    public func finish() throws -> WebFeed {
        switch state {
        case .undecided:
            throw WebFeedError(.xml(.empty))
        case .xml(let reader, let builder):
            do {
                try reader.finish()
            } catch let error as XMLError {
                throw WebFeedError(.xml(error.reason))
            }
            guard builder.sawRoot else { throw WebFeedError(.xml(.empty)) }
            return builder.finishFeed()
        case .json(let data):
            return try JSONFeedReader.read(data, baseURL: url, limits: limits, onItem: onItem)
        }
    }

    private func read(_ chunk: Data, with reader: XMLStreamReader) throws {
        do {
            try reader.feed(chunk)
        } catch let error as XMLError {
            throw WebFeedError(.xml(error.reason))
        }
    }

    /// UTF-8's byte-order mark and white space.
    private static let ignorable: Set<UInt8> = [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D]
}
