import Markup

/// The vocabularies a feed mixes, told by namespace URI (or, when a feed forgot to declare one, by its usual
/// prefix).
enum FeedNamespace: Equatable {
    /// No namespace: RSS 0.9x/2.0, and RSS 1.0's own namespace, which names the same elements.
    case rss
    case atom
    case itunes
    case podcast
    case content
    case dublinCore
    case media
    case rdf
    case xml
    case other

    init(_ name: XMLName) {
        guard let uri = name.namespace?.lowercased() else {
            self = name.prefix.map(Self.byPrefix) ?? .rss
            return
        }
        switch uri {
        case "http://purl.org/rss/1.0/", "http://backend.userland.com/rss2", "http://purl.org/net/rss1.1#":
            self = .rss
        case "http://www.w3.org/2005/atom", "http://purl.org/atom/ns#": self = .atom
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd":
            self = .itunes
        case "https://podcastindex.org/namespace/1.0", "http://podcastindex.org/namespace/1.0",
            "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
            self = .podcast
        case "http://purl.org/rss/1.0/modules/content/": self = .content
        case "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/": self = .dublinCore
        case "http://search.yahoo.com/mrss/", "http://search.yahoo.com/mrss": self = .media
        case "http://www.w3.org/1999/02/22-rdf-syntax-ns#": self = .rdf
        case "http://www.w3.org/xml/1998/namespace": self = .xml
        default: self = .other
        }
    }

    private static func byPrefix(_ prefix: String) -> FeedNamespace {
        switch prefix.lowercased() {
        case "itunes": .itunes
        case "podcast": .podcast
        case "content": .content
        case "dc": .dublinCore
        case "media": .media
        case "atom", "atom10": .atom
        case "rdf": .rdf
        case "xml": .xml
        default: .other
        }
    }
}
