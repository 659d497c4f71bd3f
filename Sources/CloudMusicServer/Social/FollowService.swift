import Foundation
import MusicCore
import Storage

/// The rules of follows and blocks: whom one may follow or block, the lists of people they make, and
/// finding people by nickname. Each use case is one transaction, its notification included.
struct FollowService: Sendable {
    let database: Database
    let store = FollowStore()
    let notifications: NotificationStore
    let accounts: AccountService
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    init(database: Database, accounts: AccountService, events: EventLog) {
        self.database = database
        notifications = NotificationStore(events: events)
        self.accounts = accounts
    }

    /// The other person a request names: someone the viewer may see (not disabled), and not oneself.
    private func other(_ db: Connection, _ reference: UserReference, viewer: Viewer, action: String) throws
        -> Int64
    {
        let id = reference.userId.rawValue
        _ = try accounts.user(db, id: id, viewer: viewer)
        guard id != viewer.userID else { throw ServiceError.invalid("You cannot \(word: action) yourself.") }
        return id
    }

    /// Follows someone who has not blocked the viewer (nor been blocked by them); their profile comes back.
    func follow(_ reference: UserReference, viewer: Viewer) throws -> User {
        try database.write { db in
            let id = try other(db, reference, viewer: viewer, action: "follow")
            if try store.isBlocked(db, by: id, viewer.userID) {
                throw ServiceError.forbidden("You cannot follow this person.")
            }
            if try store.isBlocked(db, by: viewer.userID, id) {
                throw ServiceError.invalid("You blocked this person. Unblock them first.")
            }
            let now = clock()
            if try store.follow(db, followerID: viewer.userID, followeeID: id, now: now) {
                try notifications.record(db, kind: .follow, to: id, from: viewer.userID, at: now)
            }
            var profile = try accounts.user(db, id: id, viewer: viewer)
            profile.following = try store.follows(db, followerID: viewer.userID, followeeID: id)
            return profile
        }
    }

    func unfollow(userID: Int64, viewer: Viewer) throws {
        try database.write { db in
            guard try store.unfollow(db, followerID: viewer.userID, followeeID: userID) else {
                throw ServiceError.notFound("You do not follow that person.")
            }
            try notifications.remove(db, kind: .follow, from: viewer.userID, to: userID)
        }
    }

    /// A person's following, followers or friends; a person one may not see is a 404.
    func users(_ relation: FollowStore.Relation, of userID: Int64, paging: Paging, viewer: Viewer?) throws
        -> Page<User>
    {
        try database.read { db in
            _ = try accounts.user(db, id: userID, viewer: viewer)
            return try store.users(db, relation, of: userID, paging: paging, viewerID: viewer?.userID)
        }
    }

    func searchUsers(_ query: UserSearchQuery, viewer: Viewer?) throws -> [User] {
        try database.read { db in
            try store.searchUsers(
                db, prefix: AccountRules.nicknameKey(query.query), limit: query.size, viewerID: viewer?.userID
            )
        }
    }

    func blockedUsers(paging: Paging, viewer: Viewer) throws -> Page<User> {
        try database.read { db in try store.blockedUsers(db, by: viewer.userID, paging: paging) }
    }

    func block(_ reference: UserReference, viewer: Viewer) throws {
        try database.write { db in
            let id = try other(db, reference, viewer: viewer, action: "block")
            try store.block(db, blockerID: viewer.userID, blockedID: id, now: clock())
        }
    }

    func unblock(userID: Int64, viewer: Viewer) throws {
        try database.write { db in
            guard try store.unblock(db, blockerID: viewer.userID, blockedID: userID) else {
                throw ServiceError.notFound("You have not blocked that person.")
            }
        }
    }
}
