import Foundation
import Markup
import MusicCore

/// What an article's HTML becomes: safe HTML to show, its text alone, and its pictures and videos.
public struct SanitizedHTML: Sendable, Equatable {
    /// Well-formed HTML (also well-formed XML) made only of allowed elements and attributes.
    public var html: String
    /// The text, paragraphs apart, for the terminal player and for summaries.
    public var text: String
    /// The pictures kept, by their original addresses (`html` points at the proxied ones).
    public var images: [ArticleImage]
    public var videos: [ArticleVideo]
}

/// Makes HTML from feeds safe to show inside the server's pages.
///
/// An allow-list: paragraphs, links (http, https and mailto, with `rel="nofollow noopener noreferrer ugc"`),
/// pictures (http and https, their address rewritten by `imageProxy` so readers' addresses never reach the
/// origin), emphasis, quotes, code, lists, headings (moved down by `headingShift`), figures, tables, and video
/// and audio with controls (sources rewritten by `mediaProxy`). Everything else is unwrapped (its text kept)
/// or, for script, style, iframe, object, embed, form, svg and their kind, dropped with all it holds. No
/// event handler, `style`, or `javascript:`/`data:`/`vbscript:` address survives; tracking pixels (1x1
/// pictures, known counters) are removed. Text and attribute values are escaped, so the output is well-formed.
public struct HTMLSanitizer: Sendable {
    /// The article's address, for relative links and pictures; without it they are dropped.
    public var baseURL: URL?
    /// The address to show for a picture (the server's proxy); nil drops the picture.
    public var imageProxy: @Sendable (URL) -> String?
    /// The address to play a video or sound from; nil drops the source.
    public var mediaProxy: @Sendable (URL) -> String?
    /// h1 becomes h(1 + shift) (at most h6): the page around the article has its own h1.
    public var headingShift: Int
    /// Input past this is cut (at a character) before reading.
    public var maxInputBytes: Int
    /// Allowed elements nested deeper than this are unwrapped.
    public var maxDepth: Int

    public init(
        baseURL: URL?, imageProxy: @escaping @Sendable (URL) -> String?,
        mediaProxy: (@Sendable (URL) -> String?)? = nil, headingShift: Int = 1,
        maxInputBytes: Int = 2_000_000,
        maxDepth: Int = 32
    ) {
        self.baseURL = baseURL
        self.imageProxy = imageProxy
        self.mediaProxy = mediaProxy ?? imageProxy
        self.headingShift = headingShift
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
    }

    public func sanitize(_ html: String) -> SanitizedHTML {
        let writer = SanitizingWriter(options: self)
        HTMLReader.read(Self.cut(html, to: maxInputBytes), into: writer)
        return writer.result()
    }

    /// `text` made safe inside HTML text or a quoted attribute (a page the server writes itself).
    public static func escaped(_ text: String) -> String {
        var out = ""
        SanitizingWriter.escape(text, into: &out, quotes: true)
        return out
    }

    /// The text of an article alone, for the terminal player and for summaries.
    public static func plainText(_ html: String, maxInputBytes: Int = 2_000_000) -> String {
        HTMLSanitizer(baseURL: nil, imageProxy: { _ in nil }, maxInputBytes: maxInputBytes).sanitize(html)
            .text
    }

    private static func cut(_ html: String, to limit: Int) -> String {
        guard html.utf8.count > limit else { return html }
        var end = html.utf8.index(html.utf8.startIndex, offsetBy: limit)
        while end > html.startIndex, !html.unicodeScalars.indices.contains(end) {
            end = html.utf8.index(before: end)
        }
        return String(html[..<end])
    }
}
