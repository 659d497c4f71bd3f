/// Which elements the sanitizer keeps, unwraps or drops.
enum AllowList {
    /// Dropped with everything inside them: code, styles, frames, plugins, forms and what cannot be shown.
    static let dropped: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "param", "form",
        "input",
        "button", "select", "option", "optgroup", "textarea", "datalist", "output", "keygen", "svg", "math",
        "template", "canvas", "noscript", "noembed", "noframes", "head", "title", "meta", "link", "base",
        "dialog", "portal", "slot", "map", "area",
    ]

    /// Kept as they are, without attributes (the attributed ones are handled one by one).
    static let plain: Set<String> = [
        "p", "em", "strong", "b", "i", "u", "s", "del", "ins", "sub", "sup", "small", "mark", "cite", "dfn",
        "kbd", "samp", "var", "code", "pre", "ul", "li", "dl", "dt", "dd", "figure", "figcaption", "table",
        "caption", "thead", "tbody", "tfoot", "tr", "details", "summary", "div",
    ]

    /// Kept under another name.
    static let renamed: [String: String] = [
        "strike": "s", "section": "div", "article": "div", "header": "div", "footer": "div", "main": "div",
        "aside": "div", "nav": "div", "center": "div", "address": "div", "hgroup": "div", "tt": "code",
    ]

    /// Written as `<br />`: no content, no end tag.
    static let void: Set<String> = ["br", "hr", "img", "source", "wbr"]

    /// Elements after which the text rendering starts a new line, or a new paragraph.
    static let lineBreaks: Set<String> = ["br", "li", "tr", "dt", "dd", "figcaption", "summary", "caption"]
    static let paragraphs: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "ul", "ol", "dl", "table",
        "figure",
        "hr", "section", "article", "header", "footer", "main", "aside", "nav", "center", "address",
        "details",
        "video", "audio",
    ]

    /// Counters and beacons: pictures from these hosts (or host and path) are tracking, not content.
    static let trackers: [(host: String, path: String)] = [
        ("feeds.feedburner.com", "/~r/"), ("feeds.feedburner.com", "/~ff/"), ("feedproxy.google.com", "/~r/"),
        ("pixel.wp.com", "/"), ("stats.wordpress.com", "/"), ("pi.feedsportal.com", "/"),
        ("www.google-analytics.com", "/"), ("google-analytics.com", "/"), ("stats.g.doubleclick.net", "/"),
        ("ad.doubleclick.net", "/"), ("pixel.quantserve.com", "/"), ("sb.scorecardresearch.com", "/"),
        ("b.scorecardresearch.com", "/"), ("www.facebook.com", "/tr"), ("pixel.facebook.com", "/"),
        ("analytics.twitter.com", "/"), ("feeds.feedblitz.com", "/~/i/"), ("assets.feedblitz.com", "/i/"),
        ("rss.buysellads.com", "/"), ("counter.yadro.ru", "/"), ("mc.yandex.ru", "/"), ("hm.baidu.com", "/"),
        ("cnzz.mmstat.com", "/"), ("s4.cnzz.com", "/"), ("c.cnzz.com", "/"),
    ]

    static func isTracker(host: String, path: String) -> Bool {
        let host = host.lowercased()
        return trackers.contains { host == $0.host && path.hasPrefix($0.path) }
    }
}
