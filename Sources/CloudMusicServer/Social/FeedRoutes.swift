import Foundation
import HTTPServer
import MusicCore

/// The handlers of `FeedsAPI`: publish, everyone's / one person's / a topic's moments, the timeline of the
/// people one follows, nearby, and delete.
struct FeedRoutes {
    let feeds: FeedService

    func register(on api: EndpointRouter) {
        api.on(FeedsAPI.list) { call in
            let scope: FeedStore.Scope
            switch (call.query.userId, call.query.topicId) {
            case (nil, nil): scope = .everyone
            case (let user?, nil): scope = .user(user)
            case (nil, let topic?): scope = .topic(topic)
            default: throw ServiceError.invalid("Ask for one user's moments or one topic's, not both.")
            }
            return try feeds.list(scope, cursor: call.query.cursor, size: call.query.size, viewer: call.caller)
        }
        api.on(FeedsAPI.create) { call in try feeds.publish(call.body, viewer: call.caller) }
        api.on(FeedsAPI.timeline) { call in
            try feeds.timeline(cursor: call.query.cursor, size: call.query.size, viewer: call.caller)
        }
        api.on(FeedsAPI.nearby) { call in
            try feeds.nearby(
                latitude: call.query.latitude, longitude: call.query.longitude, radius: call.query.radius,
                cursor: call.query.cursor, size: call.query.size, viewer: call.caller)
        }
        api.on(FeedsAPI.detail) { call in try feeds.visibleFeed(id: call.path.id, viewer: call.caller) }
        api.on(FeedsAPI.delete) { call in
            try feeds.delete(id: call.path.id, viewer: call.caller)
            return Done()
        }
    }
}
