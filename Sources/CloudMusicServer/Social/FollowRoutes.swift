import Foundation
import HTTPServer
import MusicCore

/// Follows (`v1/friends`), following/followers/friends lists, and blocks.
struct FollowRoutes {
    let store: FollowStore
    let accounts: AccountService
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    struct UserBody: Decodable {
        var userId: String
    }

    /// The other person a request names: someone who exists (and is not disabled), and not oneself.
    func other(_ text: String, viewer: AccountService.Viewer, action: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else { throw AccountService.noUser }
        _ = try accounts.user(id: id, viewer: viewer)
        guard id != viewer.userID else { throw HTTPError.badRequest("You cannot \(action) yourself.") }
        return id
    }

    func register(on router: Router) {
        router.post("/v1/friends") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try other(try request.decode(UserBody.self).userId, viewer: viewer, action: "follow")
            if try store.isBlocked(by: id, viewer.userID) {
                throw HTTPError.forbidden("You cannot follow this person.")
            }
            if try store.isBlocked(by: viewer.userID, id) {
                throw HTTPError.badRequest("You blocked this person. Unblock them first.")
            }
            try store.follow(followerID: viewer.userID, followeeID: id, now: clock())
            return .json(try accounts.profile(id: id, viewer: viewer), status: 201)
        }
        router.delete("/v1/friends/:id") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "user")
            guard try store.unfollow(followerID: viewer.userID, followeeID: id) else {
                throw HTTPError.notFound("You do not follow that person.")
            }
            return .ok()
        }
        for (path, relation) in [
            ("following", FollowStore.Relation.following), ("followers", .followers), ("friends", .friends),
        ] {
            router.get("/v1/users/:id/\(path)") { request in
                let id = try request.id(thing: "user")
                let viewer = try accounts.viewer(request)
                _ = try accounts.user(id: id, viewer: viewer)
                let (page, size) = try request.paging()
                return .json(
                    try store.users(relation, of: id, page: page, size: size, viewerID: viewer?.userID))
            }
        }
        router.get("/v1/searches/users") { request in
            let viewer = try accounts.viewer(request)
            let typed = (request.query["query"] ?? "").trimmingCharacters(in: .whitespaces)
            guard !typed.isEmpty else {
                throw HTTPError.badRequest("Type the start of a nickname in 'query'.")
            }
            guard typed.count <= 32 else {
                throw HTTPError.badRequest("A nickname has at most 32 characters.")
            }
            let limit = try request.integerQuery("size", default: 20, range: 1...50)
            let users = try store.searchUsers(
                prefix: AccountRules.nicknameKey(typed), limit: limit, viewerID: viewer?.userID)
            return .json(users)
        }
        router.get("/v1/blocks") { request in
            let viewer = try accounts.requireViewer(request)
            let (page, size) = try request.paging()
            return .json(try store.blockedUsers(by: viewer.userID, page: page, size: size))
        }
        router.post("/v1/blocks") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try other(try request.decode(UserBody.self).userId, viewer: viewer, action: "block")
            try store.block(blockerID: viewer.userID, blockedID: id, now: clock())
            return .ok()
        }
        router.delete("/v1/blocks/:id") { request in
            let viewer = try accounts.requireViewer(request)
            guard try store.unblock(blockerID: viewer.userID, blockedID: try request.id(thing: "user")) else {
                throw HTTPError.notFound("You have not blocked that person.")
            }
            return .ok()
        }
    }
}
