import Foundation
import HTTPServer
import MusicCore

/// The handlers of `FollowsAPI`: follows, following/followers/friends lists, finding people, and blocks.
struct FollowRoutes {
    let store: FollowStore
    let accounts: AccountService
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// The other person a request names: someone who exists (and is not disabled), and not oneself.
    func other(_ text: String, viewer: Viewer, action: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else { throw AccountService.noUser }
        _ = try accounts.user(id: id, viewer: viewer)
        guard id != viewer.userID else { throw ServiceError.invalid("You cannot \(action) yourself.") }
        return id
    }

    func register(on api: EndpointRouter) {
        api.on(FollowsAPI.follow) { call in
            let viewer = call.caller
            let id = try other(call.body.userId, viewer: viewer, action: "follow")
            if try store.isBlocked(by: id, viewer.userID) {
                throw ServiceError.forbidden("You cannot follow this person.")
            }
            if try store.isBlocked(by: viewer.userID, id) {
                throw ServiceError.invalid("You blocked this person. Unblock them first.")
            }
            try store.follow(followerID: viewer.userID, followeeID: id, now: clock())
            return try accounts.profile(id: id, viewer: viewer)
        }
        api.on(FollowsAPI.unfollow) { call in
            guard try store.unfollow(followerID: call.caller.userID, followeeID: call.path.id) else {
                throw ServiceError.notFound("You do not follow that person.")
            }
            return Done()
        }
        for (endpoint, relation) in [
            (FollowsAPI.following, FollowStore.Relation.following), (FollowsAPI.followers, .followers),
            (FollowsAPI.friends, .friends),
        ] {
            api.on(endpoint) { call in
                _ = try accounts.user(id: call.path.id, viewer: call.caller)
                return try store.users(
                    relation, of: call.path.id, page: call.query.paging.page, size: call.query.paging.size,
                    viewerID: call.caller?.userID)
            }
        }
        api.on(FollowsAPI.searchUsers) { call in
            try store.searchUsers(
                prefix: AccountRules.nicknameKey(call.query.query), limit: call.query.size,
                viewerID: call.caller?.userID)
        }
        api.on(FollowsAPI.blocks) { call in
            try store.blockedUsers(by: call.caller.userID, page: call.query.paging.page, size: call.query.paging.size)
        }
        api.on(FollowsAPI.block) { call in
            let id = try other(call.body.userId, viewer: call.caller, action: "block")
            try store.block(blockerID: call.caller.userID, blockedID: id, now: clock())
            return Done()
        }
        api.on(FollowsAPI.unblock) { call in
            guard try store.unblock(blockerID: call.caller.userID, blockedID: call.path.id) else {
                throw ServiceError.notFound("You have not blocked that person.")
            }
            return Done()
        }
    }
}
