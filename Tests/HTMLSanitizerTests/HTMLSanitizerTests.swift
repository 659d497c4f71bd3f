import Foundation
import Markup
import MusicCore
import Testing

@testable import HTMLSanitizer

/// Pictures go through "https://cm.local/img?u=...", videos through "https://cm.local/media?u=...".
let sanitizer = HTMLSanitizer(
    baseURL: URL(string: "https://news.example/2024/story.html"),
    imageProxy: {
        "https://cm.local/img?u=" + $0.absoluteString.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!
    },
    mediaProxy: {
        "https://cm.local/media?u=" + $0.absoluteString.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!
    })

func proxied(_ url: String, kind: String = "img") -> String {
    "https://cm.local/\(kind)?u=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
}

@Suite struct XSSVectorTests {
    /// OWASP's filter evasion cheat sheet and its kin: what each becomes.
    @Test(arguments: [
        ("<script>alert('XSS')</script>", ""),
        ("<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>", ""),
        ("<IMG SRC=\"javascript:alert('XSS');\">", ""),
        ("<IMG SRC=javascript:alert('XSS')>", ""),
        ("<IMG SRC=JaVaScRiPt:alert('XSS')>", ""),
        ("<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">", ""),
        ("<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">", ""),
        ("<IMG SRC=\" &#14;  javascript:alert('XSS');\">", ""),
        (
            "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
            ""
        ),
        (
            "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
            ""
        ),
        ("<a href=\"javascript:alert(1)\">x</a>", "x"),
        ("<a href=\"JAVASCRIPT:alert(1)\">x</a>", "x"),
        ("<a href=\"jav\tascript:alert(1)\">x</a>", "x"),
        ("<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>", "x"),
        ("<a href=\"vbscript:msgbox(1)\">x</a>", "x"),
        ("<iframe src=\"http://evil.example/\"></iframe>after", "<p>after</p>"),
        ("<IFRAME SRC=\"javascript:alert('XSS');\"></IFRAME>", ""),
        ("<svg onload=alert(1)>", ""),
        ("<svg><script>alert(1)</script><text>svg text</text></svg>", ""),
        ("<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>", ""),
        ("<STYLE>@import'http://xss.rocks/xss.css';</STYLE>", ""),
        ("<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">", ""),
        ("<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">", ""),
        ("<BASE HREF=\"javascript:alert('XSS');//\">", ""),
        ("<OBJECT TYPE=\"text/x-scriptlet\" DATA=\"http://xss.rocks/scriptlet.html\"></OBJECT>", ""),
        ("<EMBED SRC=\"data:image/svg+xml;base64,PHN2Zz4=\" type=\"image/svg+xml\">", ""),
        ("<form action=\"http://evil.example/\"><input name=a><button>Go</button></form>", ""),
        ("<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">", ""),
        ("<div style=\"background-image: url(javascript:alert('XSS'))\">x</div>", "<div>x</div>"),
        ("<DIV STYLE=\"width: expression(alert('XSS'));\">y</DIV>", "<div>y</div>"),
        (
            "<TABLE BACKGROUND=\"javascript:alert('XSS')\"><TR><TD>z</TD></TR></TABLE>",
            "<table><tr><td>z</td></tr></table>"
        ),
        ("<BODY ONLOAD=alert('XSS')>hi", "hi"),
        ("<b onmouseover=alert(1)>bold</b>", "<b>bold</b>"),
        ("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
        (
            "<a href=\"http://ok.example/\" onclick=\"alert(1)\" style=\"color:red\" target=\"_top\">ok</a>",
            "<a href=\"http://ok.example/\" rel=\"nofollow noopener noreferrer ugc\" target=\"_blank\">ok</a>"
        ),
        (
            "<a href=\"/relative?a=1&amp;b=2\">r</a>",
            "<a href=\"https://news.example/relative?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer ugc\" target=\"_blank\">r</a>"
        ),
        (
            "<a href=\"mailto:editor@news.example\">mail</a>",
            "<a href=\"mailto:editor@news.example\" rel=\"nofollow noopener noreferrer ugc\" target=\"_blank\">mail</a>"
        ),
        (
            "<img src=x onerror=alert(1)>",
            "<img src=\"\(proxied("https://news.example/2024/x"))\" loading=\"lazy\" />"
        ),
        ("<img src=\"http://t.example/p.gif\" width=\"1\" height=\"1\">", ""),
        ("<img src=\"http://t.example/p.gif\" width=\"0\">", ""),
        ("<img src=\"https://feeds.feedburner.com/~r/News/~4/abc\">", ""),
        ("<img src=\"http://pixel.wp.com/g.gif?v=1\">", ""),
        ("<img src=\"data:image/png;base64,AAAA\">", ""),
        ("<p>a<br>b</p>", "<p>a<br />b</p>"),
        ("<h1>T</h1><h6>S</h6>", "<h2>T</h2><h6>S</h6>"),
        ("<b>unclosed <i>nesting</b> text", "<b>unclosed <i>nesting</i></b><p> text</p>"),
        ("<font color=red><center>c</center></font>", "<div>c</div>"),
        ("<blockquote cite=\"javascript:x\">q</blockquote>", "<blockquote>q</blockquote>"),
        ("<td colspan=\"2\" rowspan=\"99999\">cell</td>", "<td colspan=\"2\">cell</td>"),
    ])
    func vector(_ input: String, _ expected: String) {
        #expect(sanitizer.sanitize(input).html == expected, "\(input)")
    }

    /// Whatever comes in, what goes out is well-formed, made of allowed elements and attributes only, and every
    /// address in it is http, https or mailto (pictures and videos the proxy's).
    @Test(arguments: [
        "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\">", "<<SCRIPT>alert(\"XSS\");//<</SCRIPT>",
        "<scr<script>ipt>alert(1)</scr</script>ipt>", "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
        "<a href=\"javascript&colon;alert(1)\">x</a>", "<img src=\"x\" srcset=\"javascript:alert(1) 1x\">",
        "<video><source onerror=\"alert(1)\"></video>", "<audio src=x onerror=alert(1)>",
        "<a href=\"  https://ok.example/x  \">t</a>", "<img src=\"&#0000106&#0000097javascript:alert(1)\">",
        "<p title=\"\u{0}\u{1}\">ctrl\u{8}chars</p>", "<xmp><script>alert(1)</script></xmp>",
        "<div><p><table><tr><td><ul><li><blockquote><pre><code>deep</code></pre></blockquote></li></ul></td></tr></table></p></div>",
        String(repeating: "<blockquote>", count: 200) + "deep"
            + String(repeating: "</blockquote>", count: 200),
        "<a href=\"http://a.example/\"><a href=\"http://b.example/\">nested</a></a>",
        "<img src=\"http://a.example/1.jpg\" alt='\"><script>alert(1)</script>'>",
        "<svg><style><img src=x onerror=alert(1)></style></svg>",
        "<table><style><img src=x onerror=alert(1)>",
        "<select><template><style><img src=x onerror=alert(1)></style></template></select>",
        "<a href=\"http://x.example/\" rel=\"opener\">r</a>",
    ])
    func outputIsAlwaysSafe(_ input: String) throws {
        try Self.checkSafe(sanitizer.sanitize(input).html)
    }

    static let allowedElements: Set<String> = [
        "p", "br", "a", "img", "em", "strong", "b", "i", "u", "s", "del", "ins", "sub", "sup", "small",
        "mark",
        "q", "cite", "dfn", "abbr", "kbd", "samp", "var", "code", "pre", "blockquote", "ul", "ol", "li", "dl",
        "dt",
        "dd", "h2", "h3", "h4", "h5", "h6", "figure", "figcaption", "table", "caption", "thead", "tbody",
        "tfoot",
        "tr", "th", "td", "video", "audio", "source", "hr", "wbr", "details", "summary", "div", "root",
    ]
    static let allowedAttributes: Set<String> = [
        "href", "rel", "target", "title", "src", "alt", "width", "height", "loading", "controls", "preload",
        "playsinline", "poster", "type", "start", "cite", "colspan", "rowspan",
    ]

    final class Checker: XMLEventHandler {
        var problems: [String] = []
        func startElement(_ name: XMLName, attributes: [XMLAttribute]) throws {
            if !allowedElements.contains(name.local) { problems.append("element \(name.local)") }
            for attribute in attributes {
                let key = attribute.name.local
                if !allowedAttributes.contains(key) { problems.append("attribute \(key)") }
                if ["href", "src", "poster", "cite"].contains(key) {
                    let value = attribute.value
                    let safe =
                        value.hasPrefix("https://cm.local/")
                        || (key != "src" && key != "poster"
                            && (value.hasPrefix("http://") || value.hasPrefix("https://")
                                || value.hasPrefix("mailto:")))
                    if !safe { problems.append("\(key)=\(value)") }
                }
                if key == "rel", attribute.value != "nofollow noopener noreferrer ugc" {
                    problems.append("rel")
                }
            }
        }
        func endElement(_ name: XMLName) throws {}
        func characters(_ text: UnsafeRawBufferPointer) throws {}
    }

    static func checkSafe(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let checker = Checker()
        let reader = XMLStreamReader(handler: checker)
        try reader.feed(Data("<root>\(html)</root>".utf8))
        try reader.finish()
        #expect(checker.problems.isEmpty, "\(checker.problems) in \(html)", sourceLocation: sourceLocation)
    }
}

@Suite struct SanitizedArticleTests {
    @Test func picturesAndVideosAreProxiedAndListed() throws {
        let html = """
            <p>Story <img src="/pics/a.jpg" alt="A &amp; B" width="800" height="600" srcset="/pics/a2.jpg 2x"></p>
            <figure><img data-src="https://cdn.example/lazy.jpg" src="data:image/gif;base64,R0lGOD"><figcaption>Lazy</figcaption></figure>
            <img src="/pics/a.jpg">
            <video src="https://v.example/a.mp4" autoplay loop muted onplay="x()" poster="https://v.example/p.jpg" width="640">
              <source src="https://v.example/a.webm" type="video/webm"><track src="x.vtt">Your browser cannot play this.</video>
            <audio><source src="/podcast.mp3" type="audio/mpeg; codecs=&quot;mp3&quot;"></audio>
            <picture><source srcset="/p.webp" type="image/webp"><img src="/p.jpg" alt="pic"></picture>
            """
        let result = sanitizer.sanitize(html)
        #expect(
            result.images == [
                ArticleImage(
                    url: URL(string: "https://news.example/pics/a.jpg")!, alt: "A & B", width: 800,
                    height: 600),
                ArticleImage(url: URL(string: "https://cdn.example/lazy.jpg")!),
                ArticleImage(url: URL(string: "https://news.example/p.jpg")!, alt: "pic"),
            ])
        #expect(
            result.videos == [
                ArticleVideo(
                    url: URL(string: "https://v.example/a.mp4")!,
                    posterURL: URL(string: "https://v.example/p.jpg")),
                ArticleVideo(
                    url: URL(string: "https://news.example/podcast.mp3")!, type: "audio/mpeg; codecs=\"mp3\"",
                    audioOnly: true),
            ])
        #expect(
            result.html.contains(
                "<video controls=\"controls\" preload=\"metadata\" playsinline=\"playsinline\" poster=\"\(proxied("https://v.example/p.jpg"))\" width=\"640\" src=\"\(proxied("https://v.example/a.mp4", kind: "media"))\">"
            ))
        #expect(
            result.html.contains(
                "<source src=\"\(proxied("https://v.example/a.webm", kind: "media"))\" type=\"video/webm\" />"
            ))
        #expect(
            result.html.contains(
                "<img src=\"\(proxied("https://news.example/pics/a.jpg"))\" alt=\"A &amp; B\" width=\"800\" height=\"600\" loading=\"lazy\" />"
            ))
        #expect(
            !result.html.contains("srcset") && !result.html.contains("autoplay")
                && !result.html.contains("track"))
        try XSSVectorTests.checkSafe(result.html)
    }

    @Test func aPictureTheProxyRefusesIsLeftOut() {
        let strict = HTMLSanitizer(
            baseURL: nil, imageProxy: { $0.host == "ok.example" ? $0.absoluteString : nil })
        let result = strict.sanitize(
            "<img src=\"http://ok.example/a.jpg\"><img src=\"http://other.example/b.jpg\"><img src=\"relative.jpg\">"
        )
        #expect(result.html == "<img src=\"http://ok.example/a.jpg\" loading=\"lazy\" />")
        #expect(result.images.map(\.url.host) == ["ok.example"])
    }

    @Test func theTextRendering() {
        let html = """
            <h1>Title</h1><p>One <b>two</b>
               three.</p><ul><li>a</li><li>b</li></ul><ol><li>x</li><li>y</li></ol><p>Line<br>break</p>
            <pre>  code
              here</pre><script>bad()</script><style>p{}</style><p>&lt;tag&gt; &amp; 中文</p>
            """
        let text = sanitizer.sanitize(html).text
        #expect(
            text
                == "Title\n\nOne two three.\n\n• a\n• b\n\n1. x\n2. y\n\nLine\nbreak\n\n  code\n  here\n\n<tag> & 中文"
        )
        #expect(
            HTMLSanitizer.plainText("<p>Hello <a href='x'>world</a></p><p>again</p>")
                == "Hello world\n\nagain")
        #expect(HTMLSanitizer.plainText("") == "")
    }

    @Test func hugeInputIsCutNotRefused() throws {
        let big = String(repeating: "<p>文字 text</p>", count: 200_000)
        let result = HTMLSanitizer(baseURL: nil, imageProxy: { _ in nil }, maxInputBytes: 100_000).sanitize(
            big)
        #expect(result.html.utf8.count <= 100_000 + 100)
        #expect(result.html.hasSuffix("</p>"))
        try XSSVectorTests.checkSafe(result.html)
    }
}
