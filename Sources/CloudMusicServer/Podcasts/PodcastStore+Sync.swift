import Foundation
import Storage

/// The SQL of sync with gPodder apps: each person's last change of each feed address (pending ones too), and the
/// places received since a time.
extension PodcastStore {
    /// A place as a gPodder play action shows it.
    struct PlaceChange: Sendable {
        var feedURL: String
        var enclosureURL: String
        var guid: String
        var duration: Int?
        var progress: ProgressRecord
        var device: String?
    }

    func recordSubscriptionChange(
        _ db: Connection, userID: Int64, feedURL: String, subscribed: Bool, at: Int64
    )
        throws
    {
        try db.execute(
            """
            INSERT INTO podcast_subscription_changes(user_id, feed_url, subscribed, changed_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, feed_url) DO UPDATE SET subscribed = excluded.subscribed,
                changed_at = excluded.changed_at
            """, userID, feedURL, subscribed, at)
    }

    /// Subscribes everyone whose last change of `feedURL` was a subscription (made before the feed was here).
    func applyWantedSubscriptions(_ db: Connection, podcastID: Int64, feedURL: String, now: Int64) throws {
        try db.execute(
            """
            INSERT INTO podcast_subscriptions(user_id, podcast_id, created_at)
            SELECT user_id, ?, ? FROM podcast_subscription_changes WHERE feed_url = ? AND subscribed = 1
            ON CONFLICT DO NOTHING
            """, podcastID, now, feedURL)
    }

    /// The addresses whose subscription changed at or after `since` (milliseconds), oldest change first.
    /// Books (`audiobook:` keys, not feeds) stay out: a gPodder app could only fail to fetch them.
    func subscriptionChanges(_ db: Connection, userID: Int64, since: Int64, limit: Int) throws -> [(
        url: String, subscribed: Bool
    )] {
        try db.query(
            """
            SELECT feed_url, subscribed FROM podcast_subscription_changes WHERE user_id = ? AND changed_at >= ?
                AND feed_url NOT LIKE 'audiobook:%'
            ORDER BY changed_at, feed_url LIMIT ?
            """, userID, since, limit
        ) { (try $0.string("feed_url"), try $0.bool("subscribed")) }
    }

    /// The episode of the podcast at `feedURL` with this guid, else with this audio address.
    func episodeID(_ db: Connection, feedURL: String, guid: String?, enclosureURL: String) throws -> Int64? {
        try db.queryOne(
            """
            SELECT e.id FROM podcast_episodes e JOIN podcasts p ON p.id = e.podcast_id
            WHERE p.feed_url = ?1 AND (e.guid = ?2 OR e.enclosure_url = ?3)
            ORDER BY e.guid IS ?2 DESC, e.id LIMIT 1
            """, feedURL, guid, enclosureURL
        ) { try $0.int64("id") }
    }

    /// The places of `userID` received at or after `since` (milliseconds), the oldest received first.
    func placesReceived(
        _ db: Connection, userID: Int64, since: Int64, feedURL: String?, device: String?, limit: Int
    )
        throws -> [PlaceChange]
    {
        try db.query(
            """
            SELECT p.feed_url, e.enclosure_url, e.guid, e.duration, pr.position, pr.finished, pr.updated_at, pr.device
            FROM episode_progress pr JOIN podcast_episodes e ON e.id = pr.episode_id
            JOIN podcasts p ON p.id = e.podcast_id
            WHERE pr.user_id = ?1 AND pr.received_at >= ?2 AND p.kind = 'podcast'
                AND (?3 IS NULL OR p.feed_url = ?3) AND (?4 IS NULL OR pr.device = ?4)
            ORDER BY pr.received_at, pr.episode_id LIMIT ?5
            """, userID, since, feedURL, device, limit
        ) { row in
            PlaceChange(
                feedURL: try row.string("feed_url"), enclosureURL: try row.string("enclosure_url"),
                guid: try row.string("guid"), duration: try row.optionalInt("duration"),
                progress: ProgressRecord(
                    position: try row.double("position"), finished: try row.bool("finished"),
                    updatedAt: try row.int64("updated_at")),
                device: try row.optionalString("device"))
        }
    }

    /// Every category the feeds name, with how many podcasts name it, the most used first.
    func categories(_ db: Connection) throws -> [(name: String, count: Int)] {
        try db.query(
            """
            SELECT c.value AS name, count(*) AS n FROM podcasts p, json_each(p.categories) c
            GROUP BY c.value ORDER BY n DESC, c.value LIMIT 500
            """
        ) { (try $0.string("name"), try $0.int("n")) }
    }
}
