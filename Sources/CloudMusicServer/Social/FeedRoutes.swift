import Foundation
import HTTPServer
import MusicCore

/// The handlers of `FeedsAPI`: publish, everyone's / one person's / a topic's moments, the timeline of the
/// people one follows, nearby, and delete.
struct FeedRoutes {
    let feeds: FeedService

    func register(on api: EndpointRouter) {
        api.on(FeedsAPI.list) { call in try feeds.list(call.query, viewer: call.caller) }
        api.on(FeedsAPI.create) { call in try feeds.publish(call.body, viewer: call.caller) }
        api.on(FeedsAPI.timeline) { call in try feeds.timeline(call.query, viewer: call.caller) }
        api.on(FeedsAPI.nearby) { call in try feeds.nearby(call.query, viewer: call.caller) }
        api.on(FeedsAPI.detail) { call in
            try feeds.visibleFeed(id: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(FeedsAPI.delete) { call in
            try feeds.delete(id: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
    }
}
