import Foundation
import HTTPServer
import Logging
import MusicCore

/// The handlers of `NewsAPI`.
struct NewsRoutes {
    let news: NewsService
    /// Pictures fetched for articles, by token, for an hour.
    let pictures = ExpiringCache<String, PodcastRoutes.PreparedPicture>(capacity: 300)

    func register(on api: EndpointRouter) {
        api.on(NewsAPI.channels) { call in try news.channels(viewer: call.caller) }
        api.on(NewsAPI.createChannel) { call in try news.createChannel(call.body, viewer: call.caller) }
        api.on(NewsAPI.updateChannel) { call in
            try news.updateChannel(id: call.path.id.rawValue, change: call.body, viewer: call.caller)
        }
        api.on(NewsAPI.deleteChannel) { call in
            try news.deleteChannel(id: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(NewsAPI.sources) { call in try news.sources(viewer: call.caller) }
        api.on(NewsAPI.addSource) { call in
            try waitFor { [news] in try await news.addSource(call.body, viewer: call.caller) }
        }
        api.on(NewsAPI.deleteSource) { call in
            try news.deleteSource(id: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(NewsAPI.refreshSource) { call in
            try waitFor { [news] in
                try await news.refreshSource(id: call.path.id.rawValue, viewer: call.caller)
            }
        }
        api.on(NewsAPI.articles) { call in
            try news.articles(channelID: call.path.id.rawValue, query: call.query, viewer: call.caller)
        }
        api.on(NewsAPI.article) { call in try news.article(id: call.path.id.rawValue, viewer: call.caller) }
        api.on(NewsAPI.markRead) { call in
            try news.markRead(id: call.path.id.rawValue, call.body.read, viewer: call.caller)
        }
        api.on(NewsAPI.markSaved) { call in
            try news.markSaved(id: call.path.id.rawValue, call.body.saved, viewer: call.caller)
        }
        api.on(NewsAPI.markHidden) { call in
            try news.markHidden(id: call.path.id.rawValue, call.body.hidden, viewer: call.caller)
        }
        api.on(NewsAPI.readAll) { call in
            try news.readAll(channelID: call.path.id.rawValue, upTo: call.body.upTo, viewer: call.caller)
        }
        api.on(NewsAPI.saved) { call in try news.saved(query: call.query, viewer: call.caller) }
        api.on(NewsAPI.search) { call in try news.search(query: call.query, viewer: call.caller) }
        api.on(NewsAPI.image) { [pictures] call in
            let token = call.path.token
            let picture = try pictures.value(token, serveStale: false) { [news] in
                let (data, type) = try waitFor { try await news.image(token: token) }
                return (
                    PodcastRoutes.PreparedPicture(data: data, type: type),
                    Date().timeIntervalSince1970 + 3_600
                )
            }
            var response = Response.raw(picture.data, contentType: picture.type)
            response.headers.add("Cache-Control", "public, max-age=86400, immutable")
            response.headers.add("X-Content-Type-Options", "nosniff")
            return response
        }
    }
}

/// Refreshes the news sources that are due, checking once a minute; started by `serve`, stopped before it
/// returns.
final class NewsScheduler: Sendable {
    private let scheduler: FeedRefreshScheduler

    init(news: NewsService, logger: Logger) {
        scheduler = FeedRefreshScheduler(
            name: "news", pause: .seconds(min(60, max(1, news.refreshInterval))), logger: logger
        ) {
            let report = try await news.refreshDue()
            guard report.changed + report.failed > 0 else { return nil }
            return
                "changed=\(report.changed) unchanged=\(report.unchanged) failed=\(report.failed) added=\(report.added)"
        }
    }

    func start() { scheduler.start() }
    func stop(seconds: Double = 10) { scheduler.stop(seconds: seconds) }
}
