import MusicCore
import Storage

/// Likes of episodes (`PodcastsSchema.likes`): their count is kept on the episode by triggers, and the
/// viewer's like is read with the episode.
extension PodcastStore {
    /// Like ids from this value up are episodes' likes (the schema starts their sequence there).
    static let firstLikeID: Int64 = 1 << 41

    /// The person's like of the episode: the existing one, or a new one (`isNew`).
    func like(_ db: Connection, userID: Int64, episodeID: Int64, now: Int64) throws -> (
        likeID: Int64, isNew: Bool
    ) {
        if let existing = try db.queryOne(
            "SELECT id FROM episode_likes WHERE user_id = ? AND episode_id = ?", userID, episodeID,
            decode: { try $0.int64("id") })
        {
            return (existing, false)
        }
        try db.execute(
            "INSERT INTO episode_likes(user_id, episode_id, created_at) VALUES (?, ?, ?)", userID, episodeID,
            now)
        return (db.lastInsertRowID, true)
    }

    /// Who made the like, or nil when there is no such like.
    func likeOwner(_ db: Connection, likeID: Int64) throws -> Int64? {
        try db.queryOne("SELECT user_id FROM episode_likes WHERE id = ?", likeID) { try $0.int64("user_id") }
    }

    func unlike(_ db: Connection, likeID: Int64) throws {
        try db.execute("DELETE FROM episode_likes WHERE id = ?", likeID)
    }
}

/// Episodes shared in moments: what a moment draws of one, read in the moment's own statement.
extension PodcastStore {
    /// A scalar subquery giving the episode whose id is the SQL expression `id` as one JSON column (SQLite's
    /// `json_object`), or NULL when there is no such episode (any more).
    static func sharedEpisode(id: String) -> String {
        """
        (SELECT json_object('id', CAST(se.id AS TEXT), 'title', se.title, 'podcastId', CAST(sp.id AS TEXT),
                'podcastTitle', sp.title, 'duration', se.duration)
            FROM podcast_episodes se JOIN podcasts sp ON sp.id = se.podcast_id WHERE se.id = \(id))
        """
    }

    /// The columns `sharedEpisode` writes.
    private struct SharedEpisodeColumns: Decodable {
        var id: String
        var title: String
        var podcastId: String
        var podcastTitle: String
        var duration: Int?
    }

    static func decodeSharedEpisode(_ text: String) throws -> SharedEpisode {
        let columns = try JSONColumn.decode(SharedEpisodeColumns.self, text)
        return SharedEpisode(
            id: columns.id, title: columns.title, podcastId: columns.podcastId,
            podcastTitle: columns.podcastTitle,
            duration: columns.duration)
    }
}
