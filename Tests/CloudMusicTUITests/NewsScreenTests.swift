import CloudMusicKit
import MusicCore
import Testing

@testable import CloudMusicTUI

/// The news screen as a pure function of state: channels with unread counts, a channel's articles (unread
/// marked, older ones asked for near the end), an article opened as text and marked read.
@Suite struct NewsScreenTests {
    static func channel(_ id: String, _ title: String, unread: Int, position: Int = 0) -> NewsChannel {
        NewsChannel(id: id, title: title, position: position, personal: false, unreadCount: unread)
    }

    static func article(_ id: String, read: Bool = false) -> NewsArticle {
        NewsArticle(
            id: id, title: "第\(id)条新闻", summary: "摘要\(id)", url: "https://example.com/\(id)", author: "记者",
            publishedAt: "2026-12-0\(id)T08:00:00Z", sourceTitle: "科技日报", channelId: "c1", images: [],
            hasVideo: false, read: read, saved: false)
    }

    @Test func aChannelOpensAndAnArticleIsReadAsText() {
        var state = AppState(server: AppFixture.server, signedIn: ("u1", "Ann"))
        #expect(state.reduce(.key(.character("N"))) == [.loadNewsChannels])
        #expect(state.screen == .news)
        _ = state.reduce(
            .newsChannelsLoaded([
                Self.channel("c2", "科技", unread: 0, position: 1), Self.channel("c1", "头条", unread: 2),
            ]))
        #expect(state.news.channels.map(\.id) == ["c1", "c2"])
        #expect(state.reduce(.key(.enter)) == [.openNewsChannel(id: "c1", cursor: nil)])
        let page = NewsArticlePage(
            list: [Self.article("3"), Self.article("2", read: true)], next: nil, newest: "n")
        _ = state.reduce(.newsArticlesLoaded(channelID: "c1", page, more: false))
        // Opened is read: the mark is sent and the channel's unread count falls.
        #expect(
            state.reduce(.key(.enter)) == [.openNewsArticle(id: "3"), .markNewsRead(articleID: "3", true)])
        #expect(state.news.articles[0].read)
        #expect(state.news.channels[0].unreadCount == 1)
        let detail = NewsArticleDetail(
            Self.article("3", read: true), content: "<p>第一段<script>x()</script></p><p>第二段</p>", videos: [])
        _ = state.reduce(.newsArticleLoaded(detail))
        #expect(state.news.readingText == "第一段\n\n第二段")
        // R marks it unread again; Esc goes back to the articles, then the channels, then out.
        #expect(state.reduce(.key(.character("R"))) == [.markNewsRead(articleID: "3", false)])
        #expect(!state.news.articles[0].read)
        _ = state.reduce(.key(.escape))
        #expect(state.news.reading == nil && state.news.open?.id == "c1")
        #expect(state.reduce(.key(.character("R"))) == [.markNewsChannelRead(channelID: "c1")])
        #expect(state.news.articles.allSatisfy(\.read) && state.news.channels[0].unreadCount == 0)
        #expect(state.reduce(.key(.escape)) == [.loadNewsChannels])
        _ = state.reduce(.key(.escape))
        #expect(state.screen == .home)
    }

    @Test func olderArticlesLoadNearTheEndAndStrayAnswersAreIgnored() {
        var state = AppState(server: AppFixture.server, signedIn: ("u1", "Ann"))
        _ = state.reduce(.key(.character("N")))
        _ = state.reduce(.newsChannelsLoaded([Self.channel("c1", "头条", unread: 5)]))
        _ = state.reduce(.key(.enter))
        _ = state.reduce(
            .newsArticlesLoaded(
                channelID: "other", NewsArticlePage(list: [], next: nil, newest: nil), more: false))
        #expect(state.news.articlesStatus == .loading)
        let page = NewsArticlePage(list: (1...6).map { Self.article(String($0)) }, next: "older", newest: "n")
        _ = state.reduce(.newsArticlesLoaded(channelID: "c1", page, more: false))
        #expect(state.reduce(.key(.down)) == [.openNewsChannel(id: "c1", cursor: "older")])
        // Asked once until it comes.
        #expect(state.reduce(.key(.down)) == [])
        let older = NewsArticlePage(list: [Self.article("6"), Self.article("7")], next: nil, newest: nil)
        _ = state.reduce(.newsArticlesLoaded(channelID: "c1", older, more: true))
        #expect(state.news.articles.map(\.id) == ["1", "2", "3", "4", "5", "6", "7"])
        #expect(state.news.next == nil)
    }

    @Test func newsNeedsASignedInPerson() {
        var state = AppState(server: AppFixture.server)
        state.screen = .home
        #expect(state.reduce(.key(.character("N"))) == [])
        #expect(state.screen != .news && state.toast?.isError == true)
    }

    @Test func theViewsFitAnySize() {
        let channels = [
            Self.channel("c1", "头条", unread: 1200), Self.channel("c2", ViewTest.messy, unread: 0),
        ]
        let list = NewsView.channels(channels, selected: 0, scrollOffset: 0, width: 80, height: 4)
        #expect(list.lines[1].text.hasPrefix("  头条") && list.lines[1].text.hasSuffix("999+"))
        let articles = [Self.article("1"), Self.article("2", read: true)]
        let rows = NewsView.articles(
            of: channels[0], articles, selected: 1, scrollOffset: 0, width: 80, height: 6)
        #expect(rows.lines[0].text.hasPrefix("头条 · 1200 unread"))
        #expect(rows.lines[2].text.hasPrefix("  •  第1条新闻"))
        #expect(rows.lines[3].allSatisfy { $0.style == .selected })
        let detail = NewsArticleDetail(articles[0], content: "", videos: [])
        let text = NewsView.article(
            detail, text: String(repeating: "很长的一段文字。", count: 40), scrollOffset: 0, width: 40, height: 8)
        #expect(text.lines[0].text.hasPrefix("第1条新闻"))
        #expect(text.lines[1].text.hasPrefix("科技日报 · 记者 · 2026-12-01T08:00"))
        for (width, height) in ViewTest.sizes {
            ViewTest.expectShape(
                NewsView.channels(channels, selected: 1, scrollOffset: 0, width: width, height: height).lines,
                width: width, height: height)
            ViewTest.expectShape(
                NewsView.articles(
                    of: channels[1], articles, selected: 0, scrollOffset: 0, width: width, height: height
                )
                .lines, width: width, height: height)
            ViewTest.expectShape(
                NewsView.article(detail, text: ViewTest.messy, scrollOffset: 3, width: width, height: height)
                    .lines,
                width: width, height: height)
        }
    }
}
