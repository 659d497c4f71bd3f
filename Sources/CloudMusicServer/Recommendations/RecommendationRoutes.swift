import Foundation
import HTTPServer
import MusicCore

/// The handlers of `RecommendationsAPI`.
struct RecommendationRoutes {
    let recommendations: RecommendationService

    func register(on api: EndpointRouter) {
        api.on(RecommendationsAPI.daily) { call in try recommendations.daily(viewer: call.caller) }
        api.on(RecommendationsAPI.radio) { call in
            try recommendations.radio(count: call.query.count, viewer: call.caller)
        }
        api.on(RecommendationsAPI.similarSongs) { call in
            try recommendations.similarSongs(
                id: call.path.id.rawValue, size: call.query.size, viewer: call.caller)
        }
        api.on(RecommendationsAPI.similarSheets) { call in
            try recommendations.similarSheets(
                id: call.path.id.rawValue, size: call.query.size, viewer: call.caller)
        }
        api.on(RecommendationsAPI.dislikes) { call in
            try recommendations.dislikes(paging: call.query.paging, viewer: call.caller)
        }
        api.on(RecommendationsAPI.dislike) { call in
            try recommendations.dislike(songID: call.body.songId, viewer: call.caller)
            return Done()
        }
        api.on(RecommendationsAPI.undislike) { call in
            try recommendations.undislike(songID: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
    }
}
