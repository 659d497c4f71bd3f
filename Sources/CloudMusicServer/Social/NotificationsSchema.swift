import Storage

/// Each person's inbox of mentions, replies, likes, follows and comments on what they own.
///
/// Counts per person and kind (all and unread) are kept by triggers in `notification_counts`, so the
/// unread badge and a page's `total` are a handful of rows however long an inbox grows; the partial index on
/// unread rows keeps the unread filter and "mark all read" to the rows they change.
enum NotificationsSchema {
    static let migration = Migration(
        version: 10, name: "notifications",
        sql: """
            -- kind: 1 mention, 2 reply, 3 like, 4 follow, 5 comment (on something the recipient owns).
            CREATE TABLE notifications (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                actor_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind INTEGER NOT NULL,
                comment_id INTEGER REFERENCES comments(id) ON DELETE CASCADE,
                feed_id INTEGER REFERENCES feeds(id) ON DELETE CASCADE,
                read_at INTEGER,
                created_at INTEGER NOT NULL,
                CHECK (user_id <> actor_id)
            );
            CREATE INDEX notifications_inbox ON notifications(user_id, id DESC);
            CREATE INDEX notifications_unread ON notifications(user_id, id DESC) WHERE read_at IS NULL;
            -- One notification per actor, kind, thing and recipient (liking twice is one like); also how an
            -- undo (unlike, unfollow) finds the notification it takes back.
            CREATE UNIQUE INDEX notifications_once
                ON notifications(actor_id, kind, coalesce(comment_id, 0), coalesce(feed_id, 0), user_id);
            -- For the cascades when a comment or a moment goes (a song's million comments must not each scan
            -- the table).
            CREATE INDEX notifications_by_comment ON notifications(comment_id) WHERE comment_id IS NOT NULL;
            CREATE INDEX notifications_by_feed ON notifications(feed_id) WHERE feed_id IS NOT NULL;
            CREATE TABLE notification_counts (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind INTEGER NOT NULL,
                total INTEGER NOT NULL DEFAULT 0,
                unread INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, kind)
            ) WITHOUT ROWID;
            CREATE TRIGGER notification_added AFTER INSERT ON notifications BEGIN
                INSERT INTO notification_counts(user_id, kind, total, unread)
                VALUES (NEW.user_id, NEW.kind, 1, NEW.read_at IS NULL)
                ON CONFLICT(user_id, kind) DO UPDATE SET total = total + 1, unread = unread + excluded.unread;
            END;
            CREATE TRIGGER notification_removed AFTER DELETE ON notifications BEGIN
                UPDATE notification_counts SET total = total - 1, unread = unread - (OLD.read_at IS NULL)
                WHERE user_id = OLD.user_id AND kind = OLD.kind;
            END;
            CREATE TRIGGER notification_read_changed AFTER UPDATE OF read_at ON notifications
            WHEN (OLD.read_at IS NULL) <> (NEW.read_at IS NULL) BEGIN
                UPDATE notification_counts SET unread = unread + (CASE WHEN NEW.read_at IS NULL THEN 1 ELSE -1 END)
                WHERE user_id = NEW.user_id AND kind = NEW.kind;
            END;
            -- Blocking someone clears what they caused in the blocker's inbox.
            CREATE TRIGGER block_clears_notifications AFTER INSERT ON blocks BEGIN
                DELETE FROM notifications WHERE user_id = NEW.blocker_id AND actor_id = NEW.blocked_id;
            END;
            """)
}
