import Storage

/// The gPodder sync API's state (issue 30): its sign-in sessions, the devices apps register, the episode actions
/// they upload that are not a place in a known episode, and, for every person, the last change of each feed
/// address they subscribe to (applied or pending), which is what "changes since" reads.
///
/// `episode_progress` learns when the server received a place (`received_at`, milliseconds) and from which gPodder
/// device, so that a place saved late with an old time still reaches the other devices' next "since".
enum GPodderSchema {
    static let migration = Migration(
        version: 51, name: "gpodder sync",
        sql: """
            CREATE TABLE podcast_subscription_changes (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                feed_url TEXT NOT NULL,
                subscribed INTEGER NOT NULL,
                -- Milliseconds since 1970, by the server's clock.
                changed_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, feed_url)
            ) WITHOUT ROWID;
            CREATE INDEX podcast_subscription_changes_by_time ON podcast_subscription_changes(user_id, changed_at);
            -- Pending subscriptions, applied when an administrator adds the feed.
            CREATE INDEX podcast_subscription_changes_wanted ON podcast_subscription_changes(feed_url)
                WHERE subscribed = 1;
            INSERT INTO podcast_subscription_changes(user_id, feed_url, subscribed, changed_at)
                SELECT s.user_id, p.feed_url, 1, s.created_at * 1000
                FROM podcast_subscriptions s JOIN podcasts p ON p.id = s.podcast_id;
            ALTER TABLE episode_progress ADD COLUMN received_at INTEGER;
            ALTER TABLE episode_progress ADD COLUMN device TEXT;
            UPDATE episode_progress SET received_at = updated_at;
            CREATE INDEX episode_progress_received ON episode_progress(user_id, received_at);
            CREATE TABLE gpodder_sessions (
                token_hash TEXT PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX gpodder_sessions_by_user ON gpodder_sessions(user_id);
            CREATE TABLE gpodder_devices (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                device_id TEXT NOT NULL,
                caption TEXT NOT NULL DEFAULT '',
                type TEXT NOT NULL DEFAULT 'other',
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, device_id)
            ) WITHOUT ROWID;
            CREATE TABLE gpodder_episode_actions (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                device_id TEXT,
                podcast_url TEXT NOT NULL,
                episode_url TEXT NOT NULL,
                guid TEXT,
                action TEXT NOT NULL,
                -- The client's time of the action, milliseconds since 1970.
                taken_at INTEGER NOT NULL,
                started INTEGER,
                position INTEGER,
                total INTEGER,
                received_at INTEGER NOT NULL
            );
            CREATE INDEX gpodder_episode_actions_since ON gpodder_episode_actions(user_id, received_at);
            """)

    /// Only the newest of a person's actions of one kind on one episode is kept: it is the state every device
    /// syncs to (a later `download` replaces an earlier one), so the table grows with episodes, not with uploads.
    /// The actions already stored are pruned the same way.
    static let pruning = Migration(
        version: 62, name: "gpodder actions: the newest of each kind per episode",
        sql: """
            DELETE FROM gpodder_episode_actions WHERE id IN (
                SELECT a.id FROM gpodder_episode_actions a JOIN gpodder_episode_actions n
                ON n.user_id = a.user_id AND n.episode_url = a.episode_url AND n.action = a.action
                AND (n.taken_at > a.taken_at OR (n.taken_at = a.taken_at AND n.id > a.id)));
            CREATE INDEX gpodder_episode_actions_by_episode
                ON gpodder_episode_actions(user_id, episode_url, action, taken_at);
            """)
}
