import Storage

/// What other features read of follows and blocks (who may message whom), on the caller's connection;
/// `FollowStore` stays inside Social.
struct FollowReads: Sendable {
    private let store = FollowStore()

    /// Whether `blockerID` blocked `blockedID`.
    func isBlocked(_ db: Connection, by blockerID: Int64, _ blockedID: Int64) throws -> Bool {
        try store.isBlocked(db, by: blockerID, blockedID)
    }

    /// Whether `followerID` follows `followeeID`.
    func follows(_ db: Connection, followerID: Int64, followeeID: Int64) throws -> Bool {
        try store.follows(db, followerID: followerID, followeeID: followeeID)
    }
}
