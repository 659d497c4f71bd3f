import Markup
import MusicCore

/// Why a document was refused as a feed, in words for the person who added it.
public struct WebFeedError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// XML that is not a feed: its root element (`html` when the address gives a web page).
        case notAFeed(root: String)
        /// Neither XML nor JSON.
        case notXMLOrJSON
        /// The XML reader refused it (malformed, entities, too large or deep).
        case xml(XMLError.Reason)
        /// JSON that is not a JSON Feed, or not JSON at all; the detail says what is wrong.
        case json(String)
        case tooManyItems(limit: Int)
        /// One element's text is longer than this.
        case textTooLong(limit: Int)
        case tooLarge(limit: Int)
    }

    public let reason: Reason
    /// "feed", "OPML file", "chapters document".
    public let subject: String

    public init(_ reason: Reason, subject: String = "feed") {
        self.reason = reason
        self.subject = subject
    }

    public var message: String {
        let the = "The \(subject)"
        switch reason {
        case .notAFeed(let root):
            if root.lowercased() == "html" {
                return
                    "The address gives a web page, not a \(subject); look on the page for its RSS or Atom link."
            }
            return "\(the) is XML but not RSS, Atom or OPML (its root element is <\(root)>)."
        case .notXMLOrJSON:
            return "\(the) is neither XML nor JSON, so it is no RSS, Atom or JSON Feed."
        case .xml(let reason):
            return "\(the) \(XMLError(reason).phrase)."
        case .json(let detail):
            return "\(the) is not a valid \(subject == "feed" ? "JSON Feed" : subject): \(detail)."
        case .tooManyItems(let limit):
            return "\(the) has more than \(limit) items."
        case .textTooLong(let limit):
            return "\(the) has a text longer than \(DisplayFormat.byteSize(Int64(limit)))."
        case .tooLarge(let limit):
            return "\(the) is larger than \(DisplayFormat.byteSize(Int64(limit)))."
        }
    }

    public var description: String { message }
}

/// Limits on one feed, beyond the fetcher's.
public struct WebFeedLimits: Sendable, Equatable {
    public var maxBytes: Int
    public var maxDepth: Int
    public var maxItems: Int
    /// The longest text of one element (a description, an episode's notes).
    public var maxTextBytes: Int

    public init(
        maxBytes: Int = 50_000_000, maxDepth: Int = 64, maxItems: Int = 50_000, maxTextBytes: Int = 4_000_000
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxItems = maxItems
        self.maxTextBytes = maxTextBytes
    }
}
