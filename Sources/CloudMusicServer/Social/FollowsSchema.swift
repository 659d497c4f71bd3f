import Storage

/// Follows (friends are mutual follows) and blocks. Counts on users are kept by triggers.
enum FollowsSchema {
    static let migration = Migration(
        version: 7, name: "follows and blocks",
        sql: """
            ALTER TABLE users ADD COLUMN followings_count INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE users ADD COLUMN followers_count INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE follows (
                follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                followee_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (follower_id, followee_id),
                CHECK (follower_id <> followee_id)
            ) WITHOUT ROWID;
            CREATE INDEX follows_by_follower ON follows(follower_id, created_at DESC, followee_id);
            CREATE INDEX follows_by_followee ON follows(followee_id, created_at DESC, follower_id);
            CREATE TRIGGER follow_added AFTER INSERT ON follows BEGIN
                UPDATE users SET followings_count = followings_count + 1 WHERE id = NEW.follower_id;
                UPDATE users SET followers_count = followers_count + 1 WHERE id = NEW.followee_id;
            END;
            CREATE TRIGGER follow_removed AFTER DELETE ON follows BEGIN
                UPDATE users SET followings_count = followings_count - 1 WHERE id = OLD.follower_id;
                UPDATE users SET followers_count = followers_count - 1 WHERE id = OLD.followee_id;
            END;
            CREATE TABLE blocks (
                blocker_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                blocked_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (blocker_id, blocked_id),
                CHECK (blocker_id <> blocked_id)
            ) WITHOUT ROWID;
            CREATE INDEX blocks_by_blocked ON blocks(blocked_id, blocker_id);
            -- A block ends the blocked person's follow of the blocker.
            CREATE TRIGGER block_added AFTER INSERT ON blocks BEGIN
                DELETE FROM follows WHERE follower_id = NEW.blocked_id AND followee_id = NEW.blocker_id;
            END;
            """)
}
