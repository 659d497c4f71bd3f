import Foundation

/// Feeds the tests read, written as publishers write them.
enum Fixtures {
    static let podcast = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
             xmlns:atom="http://www.w3.org/2005/Atom">
        <channel>
          <title>Night Radio 夜间电台</title>
          <link>https://radio.example/</link>
          <atom:link href="https://radio.example/feed.xml" rel="self" type="application/rss+xml"/>
          <description>Stories &amp; music after dark.</description>
          <language>zh-cn</language>
          <lastBuildDate>Mon, 02 Jan 2006 15:04:05 GMT</lastBuildDate>
          <ttl>60</ttl>
          <itunes:author>Ann Lee</itunes:author>
          <itunes:owner><itunes:name>Ann Lee</itunes:name><itunes:email>ann@radio.example</itunes:email></itunes:owner>
          <itunes:image href="art/cover.jpg"/>
          <itunes:category text="Arts"><itunes:category text="Books"/></itunes:category>
          <itunes:category text="Music"/>
          <itunes:explicit>false</itunes:explicit>
          <itunes:type>serial</itunes:type>
          <itunes:new-feed-url>https://new.radio.example/feed.xml</itunes:new-feed-url>
          <podcast:guid>917393e3-1b1e-5cef-ace4-edaa54e1f810</podcast:guid>
          <image><url>https://radio.example/rss-image.png</url><title>Night Radio</title><link>https://radio.example/</link></image>
          <item>
            <title>Episode 2: The Lighthouse</title>
            <guid isPermaLink="false">night-radio-2</guid>
            <link>https://radio.example/2</link>
            <pubDate>Tue, 03 Jan 2006 20:00:00 +0800</pubDate>
            <description><![CDATA[<p>The <b>second</b> night.</p>]]></description>
            <content:encoded><![CDATA[<p>Full notes <img src="n.jpg"></p>]]></content:encoded>
            <enclosure url="episodes/2.mp3" length="12345678" type="audio/mpeg"/>
            <itunes:duration>1:02:03</itunes:duration>
            <itunes:season>1</itunes:season>
            <itunes:episode>2</itunes:episode>
            <itunes:episodeType>full</itunes:episodeType>
            <itunes:explicit>yes</itunes:explicit>
            <itunes:image href="https://radio.example/2.jpg"/>
            <podcast:chapters url="chapters/2.json" type="application/json+chapters"/>
            <podcast:transcript url="https://radio.example/2.vtt" type="text/vtt" language="zh" rel="captions"/>
            <podcast:transcript url="https://radio.example/2.srt" type="application/srt"/>
          </item>
          <item>
            <title>Episode 1</title>
            <guid>https://radio.example/1</guid>
            <pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate>
            <itunes:summary>The first night.</itunes:summary>
            <itunes:author>Bo Wang</itunes:author>
            <enclosure url="https://cdn.radio.example/1.m4a" length="0" type="audio/x-m4a"/>
            <itunes:duration>3723</itunes:duration>
            <itunes:episodeType>trailer</itunes:episodeType>
            <itunes:explicit>clean</itunes:explicit>
            <podcast:season>3</podcast:season>
            <podcast:episode>7</podcast:episode>
            <category>Fiction</category>
          </item>
          <item>
            <title>Bad links</title>
            <enclosure url="javascript:alert(1)" type="audio/mpeg"/>
            <enclosure url="file:///etc/passwd" type="audio/mpeg"/>
            <itunes:duration>62:03</itunes:duration>
          </item>
        </channel>
        </rss>
        """

    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/">
          <title type="html">Tech &amp;lt;News&amp;gt;</title>
          <subtitle>Plain &lt;text&gt;</subtitle>
          <link rel="alternate" href="/"/>
          <link rel="self" href="/atom.xml"/>
          <link rel="next" href="/atom.xml?page=2"/>
          <updated>2006-01-02T15:04:05Z</updated>
          <author><name>Cai Wen</name></author>
          <logo>/logo.png</logo>
          <category term="tech" label="Technology"/>
          <entry xml:base="posts/">
            <id>tag:blog.example,2006:1</id>
            <title>First &amp; best</title>
            <link href="first.html"/>
            <link rel="enclosure" href="first.mp3" type="audio/mpeg" length="1000"/>
            <published>2006-01-02T10:00:00+08:00</published>
            <updated>2006-01-03T10:00:00Z</updated>
            <author><name>Dai Lin</name></author>
            <category term="swift"/>
            <summary type="text">Less than &lt; more</summary>
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hello <a href="x.html">there</a> &amp; more</p></div></content>
          </entry>
          <entry>
            <id>tag:blog.example,2006:2</id>
            <title type="html">&lt;b&gt;Bold&lt;/b&gt; title</title>
            <link rel="alternate" type="text/html" href="https://blog.example/2"/>
            <updated>2006-01-04T00:00:00Z</updated>
            <content type="html">&lt;p&gt;Escaped HTML&lt;/p&gt;</content>
          </entry>
          <entry>
            <id>3</id>
            <title>Text</title>
            <content type="text">Only text</content>
          </entry>
        </feed>
        """

    static let jsonFeed = """
        {
          "version": "https://jsonfeed.org/version/1.1",
          "title": "JSON Radio",
          "home_page_url": "https://json.example/",
          "feed_url": "https://json.example/feed.json",
          "next_url": "https://json.example/feed.json?page=2",
          "description": "A <JSON> feed",
          "icon": "/icon.png",
          "language": "en",
          "authors": [{"name": "Eve"}],
          "items": [
            {
              "id": "1",
              "url": "/posts/1",
              "title": "First",
              "content_html": "<p>Hi</p>",
              "summary": "Short",
              "date_published": "2006-01-02T15:04:05Z",
              "date_modified": "2006-01-03T00:00:00Z",
              "tags": ["a", "b"],
              "image": "https://json.example/1.jpg",
              "attachments": [{"url": "/1.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 1234, "duration_in_seconds": 61.6}]
            },
            {"id": 2, "content_text": "Second, text only", "author": {"name": "Old style"}},
            "not an object"
          ]
        }
        """

    static let rdf = """
        <?xml version="1.0"?>
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                 xmlns:dc="http://purl.org/dc/elements/1.1/">
          <channel rdf:about="https://rdf.example/"><title>RDF Site</title><link>https://rdf.example/</link>
            <description>Old school</description></channel>
          <item rdf:about="https://rdf.example/a"><title>A</title><link>https://rdf.example/a</link>
            <dc:date>2006-01-02T15:04:05Z</dc:date><dc:creator>Fay</dc:creator></item>
          <item rdf:about="https://rdf.example/b"><title>B</title><link>https://rdf.example/b</link></item>
        </rdf:RDF>
        """

    /// A podcast of `count` episodes, newest first, each with notes of about a kilobyte; `edited` has a new
    /// title.
    static func bigPodcast(episodes count: Int, version: Int = 1, edited: Int? = nil) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel><title>Big Show v\(version)</title><link>https://big.example/</link>
            <itunes:image href="https://big.example/cover.jpg"/>

            """
        let notes = String(
            repeating: "Notes about this episode &amp; its guests, with a <a href='x'>link</a>. ", count: 12)
        for number in stride(from: count, through: 1, by: -1) {
            text += """
                <item><title>Episode \(number)\(number == edited ? " (edited)" : "")</title>
                <guid isPermaLink="false">big-\(number)</guid>
                <pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate>
                <description><![CDATA[\(notes)]]></description>
                <enclosure url="https://big.example/e/\(number).mp3" length="\(number * 1000)" type="audio/mpeg"/>
                <itunes:duration>\(number % 3):\(String(format: "%02d", number % 60)):07</itunes:duration>
                <itunes:episode>\(number)</itunes:episode>
                <podcast:chapters url="https://big.example/c/\(number).json" type="application/json+chapters"/>
                </item>

                """
        }
        return text + "</channel></rss>\n"
    }
}
