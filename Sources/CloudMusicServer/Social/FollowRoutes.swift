import Foundation
import HTTPServer
import MusicCore

/// The handlers of `FollowsAPI`: follows, following/followers/friends lists, finding people, and blocks.
struct FollowRoutes {
    let follows: FollowService

    func register(on api: EndpointRouter) {
        api.on(FollowsAPI.follow) { call in try follows.follow(call.body, viewer: call.caller) }
        api.on(FollowsAPI.unfollow) { call in
            try follows.unfollow(userID: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        for (endpoint, relation) in [
            (FollowsAPI.following, FollowStore.Relation.following), (FollowsAPI.followers, .followers),
            (FollowsAPI.friends, .friends),
        ] {
            api.on(endpoint) { call in
                try follows.users(
                    relation, of: call.path.id.rawValue, paging: call.query.paging, viewer: call.caller)
            }
        }
        api.on(FollowsAPI.searchUsers) { call in try follows.searchUsers(call.query, viewer: call.caller) }
        api.on(FollowsAPI.blocks) { call in
            try follows.blockedUsers(paging: call.query.paging, viewer: call.caller)
        }
        api.on(FollowsAPI.block) { call in
            try follows.block(call.body, viewer: call.caller)
            return Done()
        }
        api.on(FollowsAPI.unblock) { call in
            try follows.unblock(userID: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
    }
}
