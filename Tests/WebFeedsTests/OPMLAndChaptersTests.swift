import Foundation
import MusicCore
import Testing

@testable import WebFeeds

@Suite struct OPMLTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0">
          <head><title>My subscriptions</title></head>
          <body>
            <outline text="News">
              <outline text="Tech">
                <outline type="rss" text="Tech Daily" xmlUrl="https://tech.example/feed.xml" htmlUrl="https://tech.example/"/>
              </outline>
              <outline type="rss" title="World" text="ignored" xmlUrl="http://world.example/rss"/>
            </outline>
            <outline type="rss" text="Podcast" xmlURL="https://pod.example/feed" category="/Audio/Stories,/Other"/>
            <outline type="rss" text="Again" xmlUrl="https://tech.example/feed.xml"/>
            <outline type="rss" text="Local" xmlUrl="file:///etc/passwd"/>
            <outline type="rss" text="Script" xmlUrl="javascript:alert(1)"/>
            <outline text="Empty folder"/>
          </body>
        </opml>
        """

    @Test func subscriptionsWithTheirFolders() throws {
        let document = try OPMLReader.read(Data(Self.export.utf8))
        #expect(document.title == "My subscriptions")
        #expect(
            document.subscriptions == [
                FeedSubscription(
                    feedURL: URL(string: "https://tech.example/feed.xml")!, title: "Tech Daily",
                    siteURL: URL(string: "https://tech.example/"), folders: ["News", "Tech"]),
                FeedSubscription(
                    feedURL: URL(string: "http://world.example/rss")!, title: "World", folders: ["News"]),
                FeedSubscription(
                    feedURL: URL(string: "https://pod.example/feed")!, title: "Podcast",
                    folders: ["Audio", "Stories"]),
            ])
        #expect(document.skipped == ["file:///etc/passwd", "javascript:alert(1)"])
    }

    @Test func whatIsNoOPMLIsRefused() {
        let error = #expect(throws: WebFeedError.self) { _ = try OPMLReader.read(Data("<rss/>".utf8)) }
        #expect(
            error?.message == "The OPML file is XML but not RSS, Atom or OPML (its root element is <rss>).")
        let entities = #expect(throws: WebFeedError.self) {
            _ = try OPMLReader.read(
                Data("<!DOCTYPE o [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><opml>&e;</opml>".utf8))
        }
        #expect(entities?.reason == .xml(.declaresEntities("e")))
        let many = (1...20).map { "<outline xmlUrl=\"https://x.example/\($0)\"/>" }.joined()
        let tooMany = #expect(throws: WebFeedError.self) {
            _ = try OPMLReader.read(
                Data("<opml><body>\(many)</body></opml>".utf8), limits: WebFeedLimits(maxItems: 10))
        }
        #expect(tooMany?.message == "The OPML file has more than 10 items.")
    }
}

@Suite struct PodcastChaptersTests {
    @Test func chaptersInOrderWithTheirAddresses() throws {
        let json = """
            {"version": "1.2.0", "chapters": [
              {"startTime": 120.5, "title": "Second", "img": "img/2.jpg", "url": "https://radio.example/notes"},
              {"startTime": 0, "title": "Intro", "endTime": 120.5},
              {"startTime": 300, "toc": false, "img": "javascript:alert(1)"},
              {"title": "No start"},
              {"startTime": -5, "title": "Negative"}
            ]}
            """
        let chapters = try PodcastChapters.parse(
            Data(json.utf8), url: URL(string: "https://radio.example/chapters/2.json")!)
        #expect(
            chapters == [
                PodcastChapter(start: 0, end: 120.5, title: "Intro"),
                PodcastChapter(
                    start: 120.5, title: "Second",
                    imageURL: URL(string: "https://radio.example/chapters/img/2.jpg"),
                    url: URL(string: "https://radio.example/notes")),
                PodcastChapter(start: 300, listed: false),
            ])
    }

    @Test func whatIsNoChaptersDocumentIsRefused() {
        let url = URL(string: "https://radio.example/c.json")!
        #expect(
            #expect(throws: WebFeedError.self) {
                _ = try PodcastChapters.parse(Data("[1,2]".utf8), url: url)
            }?.message
                == "The chapters document is not a valid chapters document: it is not a JSON object.")
        #expect(
            #expect(throws: WebFeedError.self) { _ = try PodcastChapters.parse(Data("{}".utf8), url: url) }?
                .reason
                == .json("it has no list of chapters"))
    }
}
