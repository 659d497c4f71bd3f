import Foundation
import HTTPServer
import MusicCore

/// The moments API (`v1/feeds`): publish, everyone's / one user's / a topic's moments, the timeline of
/// the people I follow, nearby, and delete. Likes go through `v1/likes`, comments through `v1/comments`.
struct FeedRoutes {
    let feeds: FeedService
    let accounts: AccountService

    func register(on router: Router) {
        router.get("/v1/feeds") { request in
            let (_, size) = try request.paging()
            let scope: FeedStore.Scope
            switch (try request.optionalIDQuery("userId"), try request.optionalIDQuery("topicId")) {
            case (nil, nil): scope = .everyone
            case (let user?, nil): scope = .user(user)
            case (nil, let topic?): scope = .topic(topic)
            default: throw HTTPError.badRequest("Ask for one user's moments or one topic's, not both.")
            }
            return .json(
                try feeds.list(
                    scope, cursor: request.query["cursor"], size: size, viewer: try accounts.viewer(request)))
        }
        router.post("/v1/feeds") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(try feeds.publish(try request.decode(FeedService.FeedInput.self), viewer: viewer), status: 201)
        }
        router.get("/v1/feeds/timeline") { request in
            let viewer = try accounts.requireViewer(request)
            let (_, size) = try request.paging()
            return .json(try feeds.timeline(cursor: request.query["cursor"], size: size, viewer: viewer))
        }
        router.get("/v1/feeds/nearby") { request in
            let (_, size) = try request.paging()
            return .json(
                try feeds.nearby(
                    latitude: try request.doubleQuery("latitude"), longitude: try request.doubleQuery("longitude"),
                    radius: try request.doubleQuery("radius"), cursor: request.query["cursor"], size: size,
                    viewer: try accounts.viewer(request)))
        }
        router.get("/v1/feeds/:id") { request in
            .json(try feeds.visibleFeed(id: try request.id(thing: "moment"), viewer: try accounts.viewer(request)))
        }
        router.delete("/v1/feeds/:id") { request in
            let viewer = try accounts.requireViewer(request)
            try feeds.delete(id: try request.id(thing: "moment"), viewer: viewer)
            return .ok()
        }
    }
}
