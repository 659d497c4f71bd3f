import Foundation
import Markup
import MusicCore

/// Turns the events of an RSS, RSS 1.0 or Atom document into a `WebFeed` and its items, handing each item on
/// as soon as it ends (so a feed of any length costs one item's memory).
final class XMLFeedBuilder: XMLEventHandler {
    private struct Element {
        var space: FeedNamespace
        var local: String
        /// The base for relative addresses inside it (xml:base, else its parent's).
        var base: URL?
    }

    /// The text of an element being read, and of everything inside it.
    private struct Capture {
        /// Index in `stack` of the element whose text this is.
        var owner: Int
        var bytes: [UInt8] = []
        /// Atom `type="xhtml"`: the content is elements, serialized back to HTML (text escaped).
        var xhtml = false
    }

    private let onItem: (WebFeedItem) throws -> Void
    private let limits: WebFeedLimits
    private var stack: [Element] = []
    private var capture: Capture?
    private(set) var feed = WebFeed(format: .rss)
    private(set) var sawRoot = false
    private var item: WebFeedItem?
    /// Where the current item began in `stack`; the channel's (or Atom feed's) place.
    private var itemDepth = 0
    private var channelDepth = 0
    private var itemCount = 0
    /// What the current element's attributes said, for the end of text elements that need them.
    private var guidIsPermaLink = true
    private var textType = ""
    /// Fallbacks, used when the main element is missing.
    private var pending = Fallbacks()

    private struct Fallbacks {
        var itunesSummary: String?
        var itunesSubtitle: String?
        var itunesTitle: String?
        var itunesAuthor: String?
        var creator: String?
        var podcastSeason: Int?
        var podcastEpisode: Int?
        var thumbnail: URL?
        var channelSummary: String?
        var channelPublished: Date?
    }

    init(baseURL: URL, limits: WebFeedLimits, onItem: @escaping (WebFeedItem) throws -> Void) {
        self.limits = limits
        self.onItem = onItem
        stack.reserveCapacity(16)
        rootBase = baseURL
    }

    private let rootBase: URL

    // MARK: Events

    func startElement(_ name: XMLName, attributes: [XMLAttribute]) throws {
        let space = FeedNamespace(name)
        let parentBase = stack.last?.base ?? rootBase
        var base = parentBase
        if let xmlBase = attributes.first(where: { $0.name.local == "base" && FeedNamespace($0.name) == .xml }
        ) {
            base = FeedAddress.resolve(xmlBase.value, against: parentBase) ?? parentBase
        }
        stack.append(Element(space: space, local: name.local, base: base))
        let depth = stack.count - 1

        if capture != nil {
            // Inside a text element: its markup is part of its text.
            capture!.bytes.append(UInt8(ascii: "<"))
            capture!.bytes.append(contentsOf: name.local.utf8)
            for attribute in attributes where FeedNamespace(attribute.name) != .xml {
                capture!.bytes.append(contentsOf: " \(attribute.name.local)=\"".utf8)
                Self.escape(attribute.value, into: &capture!.bytes, quotes: true)
                capture!.bytes.append(UInt8(ascii: "\""))
            }
            capture!.bytes.append(UInt8(ascii: ">"))
            try checkLength(capture!.bytes)
            return
        }

        if depth == 0 {
            try root(space, name)
            return
        }
        let attribute = { (local: String) -> String? in
            attributes.first { $0.name.local == local && $0.name.namespace == nil }?.value
        }
        let parent = stack[depth - 1]

        // The channel, and the items.
        if item == nil {
            if channelDepth == 0, space == .rss, name.local == "channel", depth == 1 {
                channelDepth = depth
                return
            }
            // RSS 2.0's items are in its channel, RSS 1.0's beside it, Atom's entries in the feed.
            let startsItem =
                feed.format == .atom
                ? space == .atom && name.local == "entry" && depth == 1
                : space == .rss && name.local == "item"
                    && (depth == 1 || (channelDepth > 0 && depth - 1 == channelDepth))
            if startsItem {
                item = WebFeedItem()
                itemDepth = depth
                pending = Fallbacks(
                    channelSummary: pending.channelSummary, channelPublished: pending.channelPublished)
                return
            }
        }

        if item != nil {
            try itemElement(space, name.local, depth: depth, parent: parent, base: base, attribute: attribute)
        } else {
            try channelElement(
                space, name.local, depth: depth, parent: parent, base: base, attribute: attribute)
        }
    }

    func endElement(_ name: XMLName) throws {
        let depth = stack.count - 1
        defer { stack.removeLast() }
        if let owner = capture?.owner {
            if owner < depth {
                capture!.bytes.append(contentsOf: "</\(name.local)>".utf8)
                return
            }
            let finished = capture!
            capture = nil
            var text = Self.trimmed(finished.bytes)
            if finished.xhtml { text = Self.unwrapXHTMLDiv(text) }
            try finishText(stack[depth], text: text, depth: depth)
            return
        }
        if let finished = item, depth == itemDepth {
            item = nil
            try deliver(finished)
        }
    }

    func characters(_ text: UnsafeRawBufferPointer) throws {
        guard let xhtml = capture?.xhtml else { return }
        // In place: a copy of the capture would copy its bytes at every call.
        if xhtml {
            Self.escape(String(decoding: text, as: UTF8.self), into: &capture!.bytes, quotes: false)
        } else {
            capture!.bytes.append(contentsOf: text)
        }
        try checkLength(capture!.bytes)
    }

    // MARK: Where elements go

    private func root(_ space: FeedNamespace, _ name: XMLName) throws {
        sawRoot = true
        switch (space, name.local) {
        case (.rss, "rss"): feed.format = .rss
        case (.rdf, "RDF"): feed.format = .rdf
        case (.atom, "feed"), (.rss, "feed"): feed.format = .atom
        default: throw WebFeedError(.notAFeed(root: name.description))
        }
    }

    private func startText(depth: Int, xhtml: Bool = false) {
        capture = Capture(owner: depth, xhtml: xhtml)
    }

    private func channelElement(
        _ space: FeedNamespace, _ local: String, depth: Int, parent: Element, base: URL?,
        attribute: (String) -> String?
    ) throws {
        let inChannel = depth - 1 == channelDepth
        switch (space, local) {
        case (.itunes, "image") where inChannel:
            feed.imageURL = feed.imageURL ?? FeedAddress.resolve(attribute("href"), against: base)
        case (.itunes, "category"):
            guard let text = attribute("text"), !text.isEmpty else { return }
            if parent.space == .itunes, parent.local == "category", !feed.categories.isEmpty {
                if feed.categories[feed.categories.count - 1].subcategory == nil {
                    feed.categories[feed.categories.count - 1].subcategory = text
                } else {
                    feed.categories.append(
                        WebFeedCategory(
                            name: feed.categories[feed.categories.count - 1].name, subcategory: text))
                }
            } else if !feed.categories.contains(WebFeedCategory(name: text)) {
                feed.categories.append(WebFeedCategory(name: text))
            }
        case (.atom, "link") where inChannel:
            let href = FeedAddress.resolve(attribute("href"), against: base)
            switch attribute("rel") ?? "alternate" {
            case "self": feed.selfURL = feed.selfURL ?? href
            case "next": feed.nextPageURL = feed.nextPageURL ?? href
            case "alternate": feed.link = feed.link ?? href
            default: break
            }
        case (.atom, "category") where inChannel:
            if let term = attribute("label") ?? attribute("term"), !term.isEmpty {
                feed.categories.append(WebFeedCategory(name: term))
            }
        case (.atom, "title"), (.atom, "subtitle"):
            textType = attribute("type") ?? "text"
            startText(depth: depth, xhtml: textType == "xhtml")
        case (.rss, "title"), (.rss, "link"), (.rss, "description"), (.rss, "language"),
            (.rss, "lastBuildDate"),
            (.rss, "pubDate"), (.rss, "ttl"), (.rss, "managingEditor"), (.rss, "category"), (.rss, "url"),
            (.itunes, "author"), (.itunes, "summary"), (.itunes, "explicit"), (.itunes, "type"),
            (.itunes, "complete"),
            (.itunes, "new-feed-url"), (.itunes, "name"), (.itunes, "email"), (.podcast, "guid"),
            (.dublinCore, "language"), (.dublinCore, "creator"),
            (.dublinCore, "date"), (.atom, "updated"), (.atom, "name"), (.atom, "logo"), (.atom, "icon"):
            startText(depth: depth)
        default:
            break
        }
    }

    private func itemElement(
        _ space: FeedNamespace, _ local: String, depth: Int, parent: Element, base: URL?,
        attribute: (String) -> String?
    ) throws {
        guard item != nil else { return }
        try itemAttributes(&item!, space, local, depth: depth, base: base, attribute: attribute)
    }

    /// What an item's attribute-only elements say (and which of its elements hold text to read).
    private func itemAttributes(
        _ item: inout WebFeedItem, _ space: FeedNamespace, _ local: String, depth: Int, base: URL?,
        attribute: (String) -> String?
    ) throws {
        switch (space, local) {
        case (.rss, "enclosure"):
            if let url = FeedAddress.resolve(attribute("url"), against: base) {
                item.enclosures.append(
                    WebFeedEnclosure(
                        url: url, type: Self.nonEmpty(attribute("type")),
                        length: Self.length(attribute("length"))))
            }
        case (.atom, "link"):
            let href = FeedAddress.resolve(attribute("href"), against: base)
            switch attribute("rel") ?? "alternate" {
            case "alternate":
                if item.link == nil { item.link = href }
            case "enclosure":
                if let href {
                    item.enclosures.append(
                        WebFeedEnclosure(
                            url: href, type: Self.nonEmpty(attribute("type")),
                            length: Self.length(attribute("length"))))
                }
            default: break
            }
        case (.atom, "category"):
            if let term = attribute("label") ?? attribute("term"), !term.isEmpty {
                item.categories.append(term)
            }
        case (.itunes, "image"):
            item.imageURL = item.imageURL ?? FeedAddress.resolve(attribute("href"), against: base)
        case (.podcast, "chapters"):
            item.chaptersURL = item.chaptersURL ?? FeedAddress.resolve(attribute("url"), against: base)
        case (.podcast, "transcript"):
            if let url = FeedAddress.resolve(attribute("url"), against: base) {
                item.transcripts.append(
                    WebFeedTranscript(
                        url: url, type: Self.nonEmpty(attribute("type")),
                        language: Self.nonEmpty(attribute("language")),
                        rel: Self.nonEmpty(attribute("rel"))))
            }
        case (.media, "content"), (.media, "thumbnail"):
            guard let url = FeedAddress.resolve(attribute("url"), against: base) else { return }
            let type = Self.nonEmpty(attribute("type"))
            let medium = attribute("medium") ?? type.map { String($0.prefix { $0 != "/" }) } ?? ""
            let kind: WebFeedMedia.Kind? =
                local == "thumbnail"
                ? .image : ["image": .image, "video": .video, "audio": .audio][medium]
            guard let kind else { return }
            item.media.append(
                WebFeedMedia(
                    kind: kind, url: url, type: type, width: attribute("width").flatMap { Int($0) },
                    height: attribute("height").flatMap { Int($0) }))
            if kind == .image, pending.thumbnail == nil { pending.thumbnail = url }
        case (.rss, "guid"):
            guidIsPermaLink = attribute("isPermaLink")?.lowercased() != "false"
            startText(depth: depth)
        case (.atom, "title"), (.atom, "summary"), (.atom, "content"):
            textType = attribute("type") ?? "text"
            // Out-of-line content (`src`) is not fetched.
            if local == "content", attribute("src") != nil { return }
            startText(depth: depth, xhtml: textType == "xhtml")
        case (.rss, "title"), (.rss, "link"), (.rss, "description"), (.rss, "pubDate"), (.rss, "author"),
            (.rss, "category"), (.content, "encoded"), (.dublinCore, "creator"), (.dublinCore, "date"),
            (.itunes, "duration"), (.itunes, "episode"), (.itunes, "season"), (.itunes, "episodeType"),
            (.itunes, "explicit"), (.itunes, "summary"), (.itunes, "subtitle"), (.itunes, "title"),
            (.itunes, "author"), (.atom, "id"), (.atom, "published"), (.atom, "updated"), (.atom, "issued"),
            (.atom, "modified"), (.atom, "name"), (.podcast, "season"), (.podcast, "episode"):
            startText(depth: depth)
        default:
            break
        }
    }

    // MARK: Texts

    private func finishText(_ element: Element, text: String, depth: Int) throws {
        guard !text.isEmpty else { return }
        let base = element.base
        let parent = depth > 0 ? stack[depth - 1] : element
        if item != nil {
            // In place: a copy would copy the item's lists at each change.
            itemText(&item!, element, parent: parent, text: text, base: base)
        } else {
            channelText(element, parent: parent, text: text, base: base)
        }
    }

    private func itemText(
        _ item: inout WebFeedItem, _ element: Element, parent: Element, text: String, base: URL?
    ) {
        switch (element.space, element.local) {
        case (.rss, "title"): item.title = item.title ?? text
        case (.atom, "title"):
            item.title = item.title ?? (textType == "text" ? text : Self.plainText(fromHTML: text))
        case (.rss, "link"): item.link = item.link ?? FeedAddress.resolve(text, against: base)
        case (.rss, "guid"):
            item.guid = item.guid ?? text
            if guidIsPermaLink, item.link == nil { item.link = FeedAddress.resolve(text, against: base) }
        case (.atom, "id"): item.guid = item.guid ?? text
        case (.rss, "description"): item.summary = item.summary ?? text
        case (.atom, "summary"):
            item.summary = item.summary ?? (textType == "text" ? Self.escapeHTML(text) : text)
        case (.content, "encoded"): item.contentHTML = item.contentHTML ?? text
        case (.atom, "content"):
            if textType == "text" {
                item.contentText = item.contentText ?? text
            } else if textType.isEmpty || ["html", "xhtml"].contains(textType) || textType.contains("html") {
                item.contentHTML = item.contentHTML ?? text
            }
        case (.rss, "pubDate"), (.atom, "published"), (.atom, "issued"):
            item.publishedAt = item.publishedAt ?? FeedDate.parse(text)
        case (.dublinCore, "date"): if item.publishedAt == nil { item.publishedAt = FeedDate.parse(text) }
        case (.atom, "updated"), (.atom, "modified"): item.updatedAt = item.updatedAt ?? FeedDate.parse(text)
        case (.rss, "author"): item.author = item.author ?? text
        case (.atom, "name") where parent.space == .atom && parent.local == "author":
            item.author = item.author ?? text
        case (.dublinCore, "creator"): pending.creator = pending.creator ?? text
        case (.rss, "category"): item.categories.append(text)
        case (.itunes, "duration"):
            item.durationSeconds = item.durationSeconds ?? EpisodeDuration.seconds(text)
        case (.itunes, "episode"): item.episode = item.episode ?? Self.count(text)
        case (.itunes, "season"): item.season = item.season ?? Self.count(text)
        case (.podcast, "episode"): pending.podcastEpisode = pending.podcastEpisode ?? Self.count(text)
        case (.podcast, "season"): pending.podcastSeason = pending.podcastSeason ?? Self.count(text)
        case (.itunes, "episodeType"): item.episodeType = WebFeedItem.EpisodeType(rawValue: text.lowercased())
        case (.itunes, "explicit"): item.explicit = Self.explicit(text)
        case (.itunes, "summary"): pending.itunesSummary = pending.itunesSummary ?? text
        case (.itunes, "subtitle"): pending.itunesSubtitle = pending.itunesSubtitle ?? text
        case (.itunes, "title"): pending.itunesTitle = pending.itunesTitle ?? text
        case (.itunes, "author"): pending.itunesAuthor = pending.itunesAuthor ?? text
        default: break
        }
    }

    private func channelText(_ element: Element, parent: Element, text: String, base: URL?) {
        let inImage = parent.space == .rss && parent.local == "image"
        let inOwner = parent.space == .itunes && parent.local == "owner"
        let inAuthor = parent.space == .atom && parent.local == "author"
        switch (element.space, element.local) {
        case (.rss, "title") where !inImage: feed.title = feed.title ?? text
        case (.atom, "title"):
            feed.title = feed.title ?? (textType == "text" ? text : Self.plainText(fromHTML: text))
        case (.rss, "link") where !inImage: feed.link = feed.link ?? FeedAddress.resolve(text, against: base)
        case (.rss, "url") where inImage:
            feed.imageURL = feed.imageURL ?? FeedAddress.resolve(text, against: base)
        case (.rss, "description"): feed.description = feed.description ?? text
        case (.atom, "subtitle"):
            feed.description = feed.description ?? (textType == "text" ? Self.escapeHTML(text) : text)
        case (.itunes, "summary"): pending.channelSummary = pending.channelSummary ?? text
        case (.rss, "language"), (.dublinCore, "language"): feed.language = feed.language ?? text
        case (.rss, "lastBuildDate"), (.atom, "updated"):
            feed.updatedAt = feed.updatedAt ?? FeedDate.parse(text)
        case (.rss, "pubDate"), (.dublinCore, "date"):
            pending.channelPublished = pending.channelPublished ?? FeedDate.parse(text)
        case (.rss, "ttl"): feed.timeToLiveMinutes = Self.count(text)
        case (.itunes, "author"), (.rss, "managingEditor"), (.dublinCore, "creator"):
            feed.author = feed.author ?? text
        case (.atom, "name") where inAuthor: feed.author = feed.author ?? text
        case (.itunes, "name") where inOwner: feed.ownerName = feed.ownerName ?? text
        case (.itunes, "email") where inOwner: feed.ownerEmail = feed.ownerEmail ?? text
        case (.itunes, "explicit"): feed.explicit = Self.explicit(text)
        case (.itunes, "type"): feed.podcastType = WebFeed.PodcastType(rawValue: text.lowercased())
        case (.itunes, "complete"): feed.complete = text.lowercased() == "yes"
        case (.itunes, "new-feed-url"): feed.newFeedURL = FeedAddress.resolve(text, against: base)
        case (.podcast, "guid"): feed.podcastGUID = feed.podcastGUID ?? text
        case (.rss, "category"):
            if !feed.categories.contains(WebFeedCategory(name: text)) {
                feed.categories.append(WebFeedCategory(name: text))
            }
        case (.atom, "logo"): feed.imageURL = feed.imageURL ?? FeedAddress.resolve(text, against: base)
        case (.atom, "icon"): feed.imageURL = feed.imageURL ?? FeedAddress.resolve(text, against: base)
        default: break
        }
    }

    /// Fills what the item left empty from the fallbacks, and hands it on.
    private func deliver(_ finished: WebFeedItem) throws {
        var item = finished
        item.title = item.title ?? pending.itunesTitle
        item.summary = item.summary ?? pending.itunesSummary ?? pending.itunesSubtitle
        item.author = item.author ?? pending.itunesAuthor ?? pending.creator
        item.season = item.season ?? pending.podcastSeason
        item.episode = item.episode ?? pending.podcastEpisode
        item.imageURL = item.imageURL ?? pending.thumbnail
        if item.publishedAt == nil { item.publishedAt = item.updatedAt }
        itemCount += 1
        guard itemCount <= limits.maxItems else { throw WebFeedError(.tooManyItems(limit: limits.maxItems)) }
        try onItem(item)
    }

    /// The channel's own fallbacks, once the document has ended.
    func finishFeed() -> WebFeed {
        var feed = feed
        feed.description = feed.description ?? pending.channelSummary
        feed.updatedAt = feed.updatedAt ?? pending.channelPublished
        return feed
    }

    // MARK: Helpers

    /// The text of `bytes` without the white space around it.
    static func trimmed(_ bytes: [UInt8]) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    private func checkLength(_ bytes: [UInt8]) throws {
        guard bytes.count <= limits.maxTextBytes else {
            throw WebFeedError(.textTooLong(limit: limits.maxTextBytes))
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    private static func length(_ text: String?) -> Int64? {
        guard let text, let value = Int64(text.trimmingCharacters(in: .whitespaces)), value > 0 else {
            return nil
        }
        return value
    }

    private static func count(_ text: String) -> Int? {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0, value < 1_000_000 else {
            return nil
        }
        return value
    }

    /// `itunes:explicit`: "true", "yes" and "explicit" are explicit; "false", "no" and "clean" are not.
    private static func explicit(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "explicit": true
        case "false", "no", "clean": false
        default: nil
        }
    }

    static func escape(_ text: String, into bytes: inout [UInt8], quotes: Bool) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\"") where quotes: bytes.append(contentsOf: "&quot;".utf8)
            default: bytes.append(byte)
            }
        }
    }

    static func escapeHTML(_ text: String) -> String {
        var bytes: [UInt8] = []
        escape(text, into: &bytes, quotes: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text of a title written as HTML: tags dropped, the common entities decoded.
    static func plainText(fromHTML html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        for (entity, character) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&nbsp;", " "),
            ("&amp;", "&"),
        ] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Atom's xhtml content comes wrapped in one `<div>`; the content is what is inside it.
    private static func unwrapXHTMLDiv(_ html: String) -> String {
        guard html.hasPrefix("<div"), html.hasSuffix("</div>"), let close = html.firstIndex(of: ">") else {
            return html
        }
        let inner = html[html.index(after: close)..<html.index(html.endIndex, offsetBy: -"</div>".count)]
        return inner.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
