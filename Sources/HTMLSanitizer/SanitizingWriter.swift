import Foundation
import Markup
import MusicCore

/// The sanitizer's pass over an article's events: writes the allowed HTML and the plain text, and collects
/// pictures and videos, all at once.
final class SanitizingWriter: HTMLEventHandler {
    private struct Open {
        var name: String
        /// The element written for it, or nil when it was unwrapped (or is void).
        var written: String?
    }

    private let options: HTMLSanitizer
    private var html = ""
    private var stack: [Open] = []
    private var writtenDepth = 0
    /// Above zero inside a dropped element (counts the elements open inside it).
    private var dropping = 0
    private var images: [ArticleImage] = []
    private var videos: [ArticleVideo] = []
    /// The video or audio element open now, which its `source` children fill in.
    private var media: (index: Int?, audioOnly: Bool, poster: URL?)?
    private var text = TextRendering()

    init(options: HTMLSanitizer) {
        self.options = options
    }

    func result() -> SanitizedHTML {
        while let open = stack.popLast() { close(open) }
        return SanitizedHTML(html: html, text: text.finish(), images: images, videos: videos)
    }

    // MARK: Events

    func startElement(_ name: String, attributes: [(name: String, value: String?)]) {
        if dropping > 0 || AllowList.dropped.contains(name) {
            dropping += 1
            return
        }
        text.start(name)
        let value = { (key: String) -> String? in attributes.first { $0.name == key }?.value }
        var open = Open(name: name, written: nil)
        defer { stack.append(open) }
        guard writtenDepth < options.maxDepth else { return }
        switch name {
        case "a":
            guard let href = SafeURL.resolve(value("href"), against: options.baseURL, schemes: SafeURL.links)
            else {
                return
            }
            var attributes = [("href", href.absoluteString)]
            if let title = value("title") { attributes.append(("title", title)) }
            attributes += [("rel", "nofollow noopener noreferrer ugc"), ("target", "_blank")]
            open.written = write("a", attributes)
        case "img":
            image(value)
        case "video", "audio":
            open.written = startMedia(name, value)
        case "source":
            source(value)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            let level = min(6, Int(String(name.last!))! + max(0, options.headingShift))
            open.written = write("h\(level)", [])
        case "ol":
            let start = value("start").flatMap { Int($0) }.map { [("start", String($0))] } ?? []
            open.written = write("ol", start)
        case "blockquote", "q":
            let cite = SafeURL.resolve(value("cite"), against: options.baseURL, schemes: SafeURL.web)
            open.written = write(name, cite.map { [("cite", $0.absoluteString)] } ?? [])
        case "td", "th":
            var spans: [(String, String)] = []
            for key in ["colspan", "rowspan"] {
                if let number = value(key).flatMap({ Int($0) }), (1...1000).contains(number) {
                    spans.append((key, String(number)))
                }
            }
            open.written = write(name, spans)
        case "abbr":
            open.written = write("abbr", value("title").map { [("title", $0)] } ?? [])
        case "br", "hr", "wbr":
            _ = write(name, [], void: true)
        default:
            if AllowList.plain.contains(name) {
                open.written = write(name, [])
            } else if let renamed = AllowList.renamed[name] {
                open.written = write(renamed, [])
            }
        }
    }

    func endElement(_ name: String) {
        if dropping > 0 {
            dropping -= 1
            return
        }
        text.end(name)
        // libxml2 balances its events; should one not match, what was opened since is closed with it.
        while let open = stack.popLast() {
            close(open)
            if open.name == name { break }
        }
    }

    func text(_ value: String) {
        guard dropping == 0 else { return }
        Self.escape(value, into: &html, quotes: false)
        text.append(value, preformatted: stack.contains { $0.name == "pre" })
    }

    // MARK: Elements with addresses

    private func image(_ value: (String) -> String?) {
        // Lazy-loading pages put the picture in data-src and a placeholder (often data:) in src.
        let candidates = [value("src"), value("data-src"), value("data-original")]
        guard
            let url = candidates.lazy.compactMap({
                SafeURL.resolve($0, against: self.options.baseURL, schemes: SafeURL.web)
            }).first
        else { return }
        let width = value("width").flatMap(Self.pixels)
        let height = value("height").flatMap(Self.pixels)
        if (width.map { $0 <= 1 } ?? false) || (height.map { $0 <= 1 } ?? false) { return }
        if AllowList.isTracker(host: url.host ?? "", path: url.path) { return }
        guard let shown = options.imageProxy(url) else { return }
        var attributes = [("src", shown)]
        let alt = value("alt")
        if let alt { attributes.append(("alt", alt)) }
        if let title = value("title") { attributes.append(("title", title)) }
        if let width { attributes.append(("width", String(width))) }
        if let height { attributes.append(("height", String(height))) }
        attributes.append(("loading", "lazy"))
        _ = write("img", attributes, void: true)
        if !images.contains(where: { $0.url == url }) {
            images.append(
                ArticleImage(url: url, alt: alt?.isEmpty == false ? alt : nil, width: width, height: height))
        }
    }

    private func startMedia(_ name: String, _ value: (String) -> String?) -> String? {
        let audioOnly = name == "audio"
        let poster = SafeURL.resolve(value("poster"), against: options.baseURL, schemes: SafeURL.web)
        var attributes: [(String, String)] = [("controls", "controls"), ("preload", "metadata")]
        if !audioOnly { attributes.append(("playsinline", "playsinline")) }
        if let poster, let shown = options.imageProxy(poster) { attributes.append(("poster", shown)) }
        if !audioOnly {
            for key in ["width", "height"] {
                if let number = value(key).flatMap(Self.pixels) { attributes.append((key, String(number))) }
            }
        }
        media = (nil, audioOnly, poster)
        if let src = SafeURL.resolve(value("src"), against: options.baseURL, schemes: SafeURL.web),
            let shown = options.mediaProxy(src)
        {
            attributes.append(("src", shown))
            addVideo(src, type: nil)
        }
        return write(name, attributes)
    }

    private func source(_ value: (String) -> String?) {
        // Only a video's or sound's sources; a <picture>'s are left out (its <img> is what shows).
        guard media != nil, let parent = stack.last, parent.name == "video" || parent.name == "audio",
            parent.written != nil,
            let src = SafeURL.resolve(value("src"), against: options.baseURL, schemes: SafeURL.web),
            let shown = options.mediaProxy(src)
        else { return }
        var attributes = [("src", shown)]
        let type = value("type").flatMap { Self.isMediaType($0) ? $0 : nil }
        if let type { attributes.append(("type", type)) }
        _ = write("source", attributes, void: true)
        addVideo(src, type: type)
    }

    private func addVideo(_ url: URL, type: String?) {
        guard let current = media, current.index == nil else { return }
        videos.append(
            ArticleVideo(url: url, type: type, posterURL: current.poster, audioOnly: current.audioOnly))
        media?.index = videos.count - 1
    }

    // MARK: Writing

    /// Writes a start tag; returns its name (to close it later), or nil for a void element.
    private func write(_ name: String, _ attributes: [(String, String)], void: Bool = false) -> String? {
        html += "<" + name
        for (key, value) in attributes {
            html += " \(key)=\""
            Self.escape(value, into: &html, quotes: true)
            html += "\""
        }
        html += void ? " />" : ">"
        if void { return nil }
        writtenDepth += 1
        return name
    }

    private func close(_ open: Open) {
        if open.name == "video" || open.name == "audio" { media = nil }
        guard let written = open.written else { return }
        html += "</\(written)>"
        writtenDepth -= 1
    }

    private static func pixels(_ text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 5 else { return nil }
        return Int(digits)
    }

    /// `video/mp4`, `audio/ogg; codecs="opus"`: a type and subtype of token characters, then anything quoted.
    private static func isMediaType(_ text: String) -> Bool {
        let essence = text.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let parts = essence.trimmingCharacters(in: .whitespaces).split(separator: "/")
        return text.count <= 100 && parts.count == 2
            && parts.allSatisfy {
                !$0.isEmpty
                    && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-+.".contains($0)) }
            }
    }

    /// Escapes for HTML and XML alike, leaving out the characters XML forbids.
    static func escape(_ text: String, into out: inout String, quotes: Bool) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
    }
}

/// The plain-text rendering: white space collapsed (kept in `pre`), blocks a blank line apart, list items on
/// their own lines with a bullet or number.
struct TextRendering {
    private var out = ""
    /// Breaks owed before the next text: 1 a line break, 2 a blank line.
    private var pendingBreak = 0
    private var lastWasSpace = true
    /// Open lists: nil for a bulleted one, else the next number.
    private var lists: [Int?] = []

    mutating func start(_ name: String) {
        switch name {
        case "ul": lists.append(nil)
        case "ol": lists.append(1)
        case "li":
            lineBreak(1)
            if let last = lists.indices.last, let number = lists[last] {
                pendingPrefix = "\(number). "
                lists[last] = number + 1
            } else {
                pendingPrefix = "• "
            }
            return
        default: break
        }
        if AllowList.paragraphs.contains(name) {
            lineBreak(2)
        } else if AllowList.lineBreaks.contains(name) {
            lineBreak(1)
        }
        if name == "br" { forceBreak() }
    }

    mutating func end(_ name: String) {
        if name == "ul" || name == "ol", !lists.isEmpty { lists.removeLast() }
        if AllowList.paragraphs.contains(name) {
            lineBreak(2)
        } else if AllowList.lineBreaks.contains(name), name != "br" {
            lineBreak(1)
        }
    }

    private var pendingPrefix = ""

    mutating func append(_ text: String, preformatted: Bool) {
        for character in text {
            let space = character.isWhitespace
            if space, !preformatted {
                if !lastWasSpace, pendingBreak == 0 { out.append(" ") }
                lastWasSpace = true
                continue
            }
            if pendingBreak > 0 {
                while out.last == " " { out.removeLast() }
                if !out.isEmpty { out += String(repeating: "\n", count: pendingBreak) }
                pendingBreak = 0
            }
            if !pendingPrefix.isEmpty {
                out += pendingPrefix
                pendingPrefix = ""
            }
            out.append(character)
            lastWasSpace = space
        }
    }

    private mutating func lineBreak(_ count: Int) {
        pendingBreak = max(pendingBreak, count)
    }

    /// A `<br>`: a line break even between two runs of text on one line.
    private mutating func forceBreak() {
        pendingBreak = max(pendingBreak, 1)
    }

    mutating func finish() -> String {
        out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
