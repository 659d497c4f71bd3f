import Foundation
import MusicCore
import Testing

@testable import WebFeeds

func parse(
    _ text: String, url: String = "https://radio.example/feed.xml", limits: WebFeedLimits = WebFeedLimits()
)
    throws -> WebFeedDocument
{
    try WebFeedParser.parse(Data(text.utf8), url: URL(string: url)!, limits: limits)
}

@Suite struct RSSTests {
    @Test func aPodcastFeedWithITunesAndPodcasting2Tags() throws {
        let document = try parse(Fixtures.podcast)
        let feed = document.feed
        #expect(feed.format == .rss)
        #expect(feed.title == "Night Radio 夜间电台")
        #expect(feed.link == URL(string: "https://radio.example/"))
        #expect(feed.selfURL == URL(string: "https://radio.example/feed.xml"))
        #expect(feed.description == "Stories & music after dark.")
        #expect(feed.language == "zh-cn")
        #expect(feed.updatedAt == FeedDate.parse("2006-01-02T15:04:05Z"))
        #expect(feed.timeToLiveMinutes == 60)
        #expect(feed.author == "Ann Lee")
        #expect(feed.ownerName == "Ann Lee")
        #expect(feed.ownerEmail == "ann@radio.example")
        #expect(feed.imageURL == URL(string: "https://radio.example/art/cover.jpg"))
        #expect(
            feed.categories == [
                WebFeedCategory(name: "Arts", subcategory: "Books"), WebFeedCategory(name: "Music"),
            ])
        #expect(feed.explicit == false)
        #expect(feed.podcastType == .serial)
        #expect(feed.newFeedURL == URL(string: "https://new.radio.example/feed.xml"))
        #expect(feed.podcastGUID == "917393e3-1b1e-5cef-ace4-edaa54e1f810")

        #expect(document.items.count == 3)
        let second = document.items[0]
        #expect(second.guid == "night-radio-2")
        #expect(second.identity == "night-radio-2")
        #expect(second.title == "Episode 2: The Lighthouse")
        #expect(second.link == URL(string: "https://radio.example/2"))
        #expect(second.publishedAt == FeedDate.parse("2006-01-03T12:00:00Z"))
        #expect(second.summary == "<p>The <b>second</b> night.</p>")
        #expect(second.contentHTML == "<p>Full notes <img src=\"n.jpg\"></p>")
        #expect(
            second.enclosures == [
                WebFeedEnclosure(
                    url: URL(string: "https://radio.example/episodes/2.mp3")!, type: "audio/mpeg",
                    length: 12_345_678)
            ])
        #expect(second.durationSeconds == 3723)
        #expect(second.season == 1)
        #expect(second.episode == 2)
        #expect(second.episodeType == .full)
        #expect(second.explicit == true)
        #expect(second.imageURL == URL(string: "https://radio.example/2.jpg"))
        #expect(second.chaptersURL == URL(string: "https://radio.example/chapters/2.json"))
        #expect(
            second.transcripts == [
                WebFeedTranscript(
                    url: URL(string: "https://radio.example/2.vtt")!, type: "text/vtt", language: "zh",
                    rel: "captions"),
                WebFeedTranscript(url: URL(string: "https://radio.example/2.srt")!, type: "application/srt"),
            ])

        let first = document.items[1]
        #expect(first.guid == "https://radio.example/1")
        // A guid that is a permalink (the default) is the link when there is none.
        #expect(first.link == URL(string: "https://radio.example/1"))
        #expect(first.summary == "The first night.")
        #expect(first.author == "Bo Wang")
        #expect(first.enclosures.first?.length == nil)
        #expect(first.durationSeconds == 3723)
        #expect(first.episodeType == .trailer)
        #expect(first.explicit == false)
        #expect(first.season == 3)
        #expect(first.episode == 7)
        #expect(first.categories == ["Fiction"])

        let bad = document.items[2]
        #expect(bad.enclosures.isEmpty)
        #expect(bad.durationSeconds == 3723)
        #expect(bad.identity == "Bad links@")
    }

    @Test func itemsAreHandedOnAsTheyArriveNotAtTheEnd() throws {
        let text = Fixtures.bigPodcast(episodes: 50)
        var seen = 0
        let parser = WebFeedParser(url: URL(string: "https://big.example/feed.xml")!) { _ in seen += 1 }
        let bytes = Data(text.utf8)
        let half = bytes.count / 2
        try parser.feed(bytes.subdata(in: 0..<half))
        #expect(seen > 10 && seen < 50)
        try parser.feed(bytes.subdata(in: half..<bytes.count))
        _ = try parser.finish()
        #expect(seen == 50)
    }

    @Test func rss1Items() throws {
        let document = try parse(Fixtures.rdf, url: "https://rdf.example/index.rdf")
        #expect(document.feed.format == .rdf)
        #expect(document.feed.title == "RDF Site")
        #expect(document.feed.description == "Old school")
        #expect(document.items.map(\.title) == ["A", "B"])
        #expect(document.items[0].publishedAt == FeedDate.parse("2006-01-02T15:04:05Z"))
        #expect(document.items[0].author == "Fay")
        #expect(document.items[1].link == URL(string: "https://rdf.example/b"))
    }

    @Test func aFeedThatForgotToDeclareITunesIsStillRead() throws {
        let text =
            "<rss><channel><title>T</title><item><title>x</title><itunes:duration>1:00</itunes:duration></item></channel></rss>"
        #expect(try parse(text).items.first?.durationSeconds == 60)
    }

    @Test func mediaRSSPicturesAndVideos() throws {
        let text = """
            <rss xmlns:media="http://search.yahoo.com/mrss/"><channel><title>News</title>
            <item><title>Pictures</title><link>https://news.example/a</link>
            <media:group><media:content url="https://news.example/a.jpg" medium="image" width="800" height="600"/>
            <media:content url="https://news.example/a.mp4" type="video/mp4"/></media:group>
            <media:thumbnail url="/t.jpg"/></item>
            </channel></rss>
            """
        let item = try #require(try parse(text, url: "https://news.example/rss").items.first)
        #expect(
            item.media == [
                WebFeedMedia(
                    kind: .image, url: URL(string: "https://news.example/a.jpg")!, width: 800, height: 600),
                WebFeedMedia(
                    kind: .video, url: URL(string: "https://news.example/a.mp4")!, type: "video/mp4"),
                WebFeedMedia(kind: .image, url: URL(string: "https://news.example/t.jpg")!),
            ])
        #expect(item.imageURL == URL(string: "https://news.example/a.jpg"))
    }
}

@Suite struct AtomTests {
    @Test func anAtomFeedWithBasesLinksAndTextConstructs() throws {
        let document = try parse(Fixtures.atom, url: "https://blog.example/atom.xml")
        let feed = document.feed
        #expect(feed.format == .atom)
        #expect(feed.title == "Tech <News>")
        #expect(feed.description == "Plain &lt;text&gt;")
        #expect(feed.link == URL(string: "https://blog.example/"))
        #expect(feed.selfURL == URL(string: "https://blog.example/atom.xml"))
        #expect(feed.nextPageURL == URL(string: "https://blog.example/atom.xml?page=2"))
        #expect(feed.updatedAt == FeedDate.parse("2006-01-02T15:04:05Z"))
        #expect(feed.author == "Cai Wen")
        #expect(feed.imageURL == URL(string: "https://blog.example/logo.png"))
        #expect(feed.categories == [WebFeedCategory(name: "Technology")])

        #expect(document.items.count == 3)
        let first = document.items[0]
        #expect(first.guid == "tag:blog.example,2006:1")
        #expect(first.title == "First & best")
        #expect(first.link == URL(string: "https://blog.example/posts/first.html"))
        #expect(
            first.enclosures == [
                WebFeedEnclosure(
                    url: URL(string: "https://blog.example/posts/first.mp3")!, type: "audio/mpeg",
                    length: 1000)
            ])
        #expect(first.publishedAt == FeedDate.parse("2006-01-02T02:00:00Z"))
        #expect(first.updatedAt == FeedDate.parse("2006-01-03T10:00:00Z"))
        #expect(first.author == "Dai Lin")
        #expect(first.categories == ["swift"])
        #expect(first.summary == "Less than &lt; more")
        #expect(first.contentHTML == "<p>Hello <a href=\"x.html\">there</a> &amp; more</p>")

        let second = document.items[1]
        #expect(second.title == "Bold title")
        #expect(second.contentHTML == "<p>Escaped HTML</p>")
        #expect(second.publishedAt == FeedDate.parse("2006-01-04T00:00:00Z"))

        #expect(document.items[2].contentText == "Only text")
        #expect(document.items[2].contentHTML == nil)
    }
}

@Suite struct JSONFeedTests {
    @Test func aJSONFeed() throws {
        let document = try parse(Fixtures.jsonFeed, url: "https://json.example/feed.json")
        let feed = document.feed
        #expect(feed.format == .jsonFeed)
        #expect(feed.title == "JSON Radio")
        #expect(feed.link == URL(string: "https://json.example/"))
        #expect(feed.selfURL == URL(string: "https://json.example/feed.json"))
        #expect(feed.nextPageURL == URL(string: "https://json.example/feed.json?page=2"))
        #expect(feed.description == "A &lt;JSON&gt; feed")
        #expect(feed.imageURL == URL(string: "https://json.example/icon.png"))
        #expect(feed.author == "Eve")
        #expect(document.items.count == 2)
        let first = document.items[0]
        #expect(first.guid == "1")
        #expect(first.link == URL(string: "https://json.example/posts/1"))
        #expect(first.contentHTML == "<p>Hi</p>")
        #expect(first.summary == "Short")
        #expect(first.publishedAt == FeedDate.parse("2006-01-02T15:04:05Z"))
        #expect(first.categories == ["a", "b"])
        #expect(
            first.enclosures == [
                WebFeedEnclosure(
                    url: URL(string: "https://json.example/1.mp3")!, type: "audio/mpeg", length: 1234)
            ])
        #expect(first.durationSeconds == 62)
        #expect(document.items[1].guid == "2")
        #expect(document.items[1].contentText == "Second, text only")
        #expect(document.items[1].author == "Old style")
    }

    @Test func jsonThatIsNoJSONFeedIsRefusedWithAReason() {
        #expect(
            #expect(throws: WebFeedError.self) { _ = try parse("{\"items\": []}") }?.message
                == "The feed is not a valid JSON Feed: it has no jsonfeed.org version.")
        #expect(
            #expect(throws: WebFeedError.self) {
                _ = try parse("{\"version\": \"https://jsonfeed.org/version/1.1\"}")
            }?.message
                == "The feed is not a valid JSON Feed: it has no list of items.")
        #expect(
            #expect(throws: WebFeedError.self) { _ = try parse("{\"version\": ") }?.message
                == "The feed is not a valid JSON Feed: it is not JSON.")
    }
}

@Suite struct RefusedFeedTests {
    @Test func aWebPageIsNotAFeed() {
        let error = #expect(throws: WebFeedError.self) {
            _ = try parse("<!DOCTYPE html>\n<html><head><title>Blog</title></head><body></body></html>")
        }
        #expect(error?.reason == .notAFeed(root: "html"))
        #expect(
            error?.message
                == "The address gives a web page, not a feed; look on the page for its RSS or Atom link.")
        #expect(
            #expect(throws: WebFeedError.self) { _ = try parse("<note><to>x</to></note>") }?.message
                == "The feed is XML but not RSS, Atom or OPML (its root element is <note>).")
        #expect(#expect(throws: WebFeedError.self) { _ = try parse("Hello, world") }?.reason == .notXMLOrJSON)
        #expect(#expect(throws: WebFeedError.self) { _ = try parse("   \n ") }?.reason == .xml(.empty))
    }

    @Test func hostileAndBrokenFeedsAreRefusedWithAReason() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <rss><channel><title>&lol1;</title></channel></rss>
            """
        let error = #expect(throws: WebFeedError.self) { _ = try parse(laughs) }
        #expect(error?.reason == .xml(.declaresEntities("lol")))
        #expect(
            error?.message
                == "The feed declares XML entities (lol), which can expand without end or read files, so it was refused."
        )
        let xxe =
            "<!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><rss><channel><title>&x;</title></channel></rss>"
        #expect(
            #expect(throws: WebFeedError.self) { _ = try parse(xxe) }?.reason == .xml(.declaresEntities("x")))
        let broken = #expect(throws: WebFeedError.self) {
            _ = try parse("<rss><channel><item><title>cut</item></channel></rss>")
        }
        #expect(
            broken?.message.hasPrefix(
                "The feed is not well-formed XML: Opening and ending tag mismatch: title line 1 and item")
                == true)
    }

    @Test func limitsOnItemsAndTextHold() {
        let many = #expect(throws: WebFeedError.self) {
            _ = try parse(Fixtures.bigPodcast(episodes: 20), limits: WebFeedLimits(maxItems: 10))
        }
        #expect(many?.message == "The feed has more than 10 items.")
        let long =
            "<rss><channel><item><description>" + String(repeating: "x", count: 2_000_000)
            + "</description></item></channel></rss>"
        #expect(
            #expect(throws: WebFeedError.self) {
                _ = try parse(long, limits: WebFeedLimits(maxTextBytes: 1_000_000))
            }?.reason
                == .textTooLong(limit: 1_000_000))
        let large = #expect(throws: WebFeedError.self) {
            _ = try parse(Fixtures.bigPodcast(episodes: 200), limits: WebFeedLimits(maxBytes: 100_000))
        }
        #expect(large?.message == "The feed is larger than 100 KB.")
    }
}
