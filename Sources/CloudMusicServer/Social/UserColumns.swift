import MusicCore
import Storage

/// The columns of a `UserSummary` (an author, an actor, a quoted comment's author) under one name prefix, so
/// a query that shows several people reads each by name.
enum UserColumns {
    /// `u.id AS user_id, u.nickname AS user_nickname, u.avatar_version AS user_avatar_version` for table
    /// `u` and prefix `user`.
    static func select(_ table: String, as prefix: String) -> String {
        "\(table).id AS \(prefix)_id, \(table).nickname AS \(prefix)_nickname, "
            + "\(table).avatar_version AS \(prefix)_avatar_version"
    }

    /// The person under `prefix`, who must be there (an inner join).
    static func person(_ row: Row, _ prefix: String) throws -> UserSummary {
        let id = try row.int64(prefix + "_id")
        return UserSummary(
            id: String(id), nickname: try row.string(prefix + "_nickname"),
            icon: avatar(userID: id, version: try row.optionalInt64(prefix + "_avatar_version")))
    }

    /// The person under `prefix`, or nil when an outer join found nobody.
    static func summary(_ row: Row, _ prefix: String) throws -> UserSummary? {
        try row.isNull(prefix + "_id") ? nil : person(row, prefix)
    }

    /// A user's picture address, versioned so a new picture is fetched again; nil when they have none.
    static func avatar(userID: Int64, version: Int64?) -> String? {
        version.map { AccountsAPI.avatar.uri(IDPath(row: userID)) + "?v=\($0)" }
    }
}
