import Storage

/// Moments (the API's feeds): text with pictures and an optional place, their likes, #topics#, and
/// comments on them.
///
/// Comments gain a third kind of thing, so their table is rebuilt (its CHECK allowed only songs and
/// sheets) with foreign keys off; its triggers come back counting moments' comments too.
enum FeedsSchema {
    static let migration = Migration(
        version: 8, name: "moments", rebuildsTables: true,
        sql: """
            ALTER TABLE users ADD COLUMN feeds_count INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE feeds (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                content TEXT NOT NULL,
                -- [{uri, icon, width, height}] as the API sends them (JSON).
                images TEXT NOT NULL DEFAULT '[]',
                province TEXT,
                city TEXT,
                place TEXT,
                latitude REAL CHECK (latitude BETWEEN -90 AND 90),
                longitude REAL CHECK (longitude BETWEEN -180 AND 180),
                mentions TEXT NOT NULL DEFAULT '[]',
                topics TEXT NOT NULL DEFAULT '[]',
                likes_count INTEGER NOT NULL DEFAULT 0,
                comments_count INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                CHECK ((latitude IS NULL) = (longitude IS NULL))
            );
            CREATE INDEX feeds_by_user ON feeds(user_id, id DESC);
            -- Placed moments, for "nearby": an R*Tree of their points (stored as float32 boxes rounded
            -- outwards, so the box search never misses one; distances use the exact columns).
            CREATE VIRTUAL TABLE feed_places USING rtree(id, min_lat, max_lat, min_lng, max_lng);
            CREATE TRIGGER feed_added AFTER INSERT ON feeds BEGIN
                UPDATE users SET feeds_count = feeds_count + 1 WHERE id = NEW.user_id;
                INSERT INTO feed_places(id, min_lat, max_lat, min_lng, max_lng)
                SELECT NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude
                WHERE NEW.latitude IS NOT NULL;
            END;
            -- Ids start at 2^40 so that `DELETE v1/likes/{id}` tells a moment's like from a comment's.
            CREATE TABLE feed_likes (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                UNIQUE (user_id, feed_id)
            );
            INSERT INTO sqlite_sequence(name, seq) VALUES ('feed_likes', \(FeedStore.firstLikeID - 1));
            CREATE INDEX feed_likes_by_feed ON feed_likes(feed_id);
            CREATE TRIGGER feed_liked AFTER INSERT ON feed_likes BEGIN
                UPDATE feeds SET likes_count = likes_count + 1 WHERE id = NEW.feed_id;
            END;
            CREATE TRIGGER feed_unliked AFTER DELETE ON feed_likes BEGIN
                UPDATE feeds SET likes_count = likes_count - 1 WHERE id = OLD.feed_id;
            END;
            ALTER TABLE topics ADD COLUMN feeds_count INTEGER NOT NULL DEFAULT 0;
            DROP INDEX topics_by_popularity;
            CREATE INDEX topics_by_popularity ON topics((comments_count + feeds_count) DESC, id DESC);
            CREATE TABLE feed_topics (
                feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
                PRIMARY KEY (topic_id, feed_id)
            ) WITHOUT ROWID;
            CREATE INDEX feed_topics_by_feed ON feed_topics(feed_id);
            CREATE TRIGGER feed_topic_added AFTER INSERT ON feed_topics BEGIN
                UPDATE topics SET feeds_count = feeds_count + 1 WHERE id = NEW.topic_id;
            END;
            CREATE TRIGGER feed_topic_removed AFTER DELETE ON feed_topics BEGIN
                UPDATE topics SET feeds_count = feeds_count - 1 WHERE id = OLD.topic_id;
            END;

            -- Comments, rebuilt to allow target_kind 3 (a moment); ids, counts and hot scores are kept.
            DROP TRIGGER song_comments_go;
            DROP TRIGGER sheet_comments_go;
            DROP TRIGGER comment_liked;
            DROP TRIGGER comment_unliked;
            CREATE TABLE comments_new (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                -- 1 song, 2 sheet, 3 moment (room for videos).
                target_kind INTEGER NOT NULL CHECK (target_kind BETWEEN 1 AND 9),
                target_id INTEGER NOT NULL,
                parent_id INTEGER REFERENCES comments(id) ON DELETE SET NULL,
                content TEXT NOT NULL,
                likes_count INTEGER NOT NULL DEFAULT 0,
                replies_count INTEGER NOT NULL DEFAULT 0,
                hot REAL NOT NULL,
                hidden INTEGER NOT NULL DEFAULT 0,
                mentions TEXT NOT NULL DEFAULT '[]',
                topics TEXT NOT NULL DEFAULT '[]',
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            INSERT INTO comments_new SELECT id, user_id, target_kind, target_id, parent_id, content, likes_count,
                replies_count, hot, hidden, mentions, topics, created_at, updated_at FROM comments;
            DROP TABLE comments;
            ALTER TABLE comments_new RENAME TO comments;
            CREATE INDEX comments_by_new ON comments(target_kind, target_id, id DESC);
            CREATE INDEX comments_by_hot ON comments(target_kind, target_id, hot DESC, id DESC);
            CREATE INDEX comments_by_parent ON comments(parent_id, id DESC) WHERE parent_id IS NOT NULL;
            CREATE INDEX comments_by_user ON comments(user_id, created_at);
            CREATE TRIGGER comment_added AFTER INSERT ON comments BEGIN
                UPDATE songs SET comments_count = comments_count + 1 WHERE NEW.target_kind = 1 AND id = NEW.target_id;
                UPDATE sheets SET comments_count = comments_count + 1 WHERE NEW.target_kind = 2 AND id = NEW.target_id;
                UPDATE feeds SET comments_count = comments_count + 1 WHERE NEW.target_kind = 3 AND id = NEW.target_id;
                UPDATE comments SET replies_count = replies_count + 1,
                    hot = log10(max(likes_count + 2 * (replies_count + 1), 0) + 1) + created_at / 45000.0
                WHERE id = NEW.parent_id;
            END;
            CREATE TRIGGER comment_removed AFTER DELETE ON comments WHEN OLD.hidden = 0 BEGIN
                UPDATE songs SET comments_count = comments_count - 1 WHERE OLD.target_kind = 1 AND id = OLD.target_id;
                UPDATE sheets SET comments_count = comments_count - 1 WHERE OLD.target_kind = 2 AND id = OLD.target_id;
                UPDATE feeds SET comments_count = comments_count - 1 WHERE OLD.target_kind = 3 AND id = OLD.target_id;
                UPDATE comments SET replies_count = replies_count - 1,
                    hot = log10(max(likes_count + 2 * (replies_count - 1), 0) + 1) + created_at / 45000.0
                WHERE id = OLD.parent_id;
            END;
            CREATE TRIGGER comment_hidden_changed AFTER UPDATE OF hidden ON comments
            WHEN OLD.hidden <> NEW.hidden BEGIN
                UPDATE songs SET comments_count = comments_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE NEW.target_kind = 1 AND id = NEW.target_id;
                UPDATE sheets SET comments_count = comments_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE NEW.target_kind = 2 AND id = NEW.target_id;
                UPDATE feeds SET comments_count = comments_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE NEW.target_kind = 3 AND id = NEW.target_id;
                UPDATE comments SET replies_count = replies_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END),
                    hot = log10(max(likes_count + 2 * (replies_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)), 0)
                        + 1) + created_at / 45000.0
                WHERE id = NEW.parent_id;
            END;
            CREATE TRIGGER song_comments_go AFTER DELETE ON songs BEGIN
                DELETE FROM comments WHERE target_kind = 1 AND target_id = OLD.id;
            END;
            CREATE TRIGGER sheet_comments_go AFTER DELETE ON sheets BEGIN
                DELETE FROM comments WHERE target_kind = 2 AND target_id = OLD.id;
            END;
            CREATE TRIGGER comment_liked AFTER INSERT ON comment_likes BEGIN
                UPDATE comments SET likes_count = likes_count + 1,
                    hot = log10(max(likes_count + 1 + 2 * replies_count, 0) + 1) + created_at / 45000.0
                WHERE id = NEW.comment_id;
            END;
            CREATE TRIGGER comment_unliked AFTER DELETE ON comment_likes BEGIN
                UPDATE comments SET likes_count = likes_count - 1,
                    hot = log10(max(likes_count - 1 + 2 * replies_count, 0) + 1) + created_at / 45000.0
                WHERE id = OLD.comment_id;
            END;
            -- After the rebuild: a trigger that names a table being renamed would fail the rename.
            CREATE TRIGGER feed_removed AFTER DELETE ON feeds BEGIN
                UPDATE users SET feeds_count = feeds_count - 1 WHERE id = OLD.user_id;
                DELETE FROM feed_places WHERE id = OLD.id;
                DELETE FROM comments WHERE target_kind = 3 AND target_id = OLD.id;
            END;
            """)
}

extension FeedsSchema {
    /// How many moments there are in all, kept by triggers (as each person's and each topic's count is),
    /// so everyone's moments answer `total` without counting the table.
    static let totals = Migration(
        version: 13, name: "moments' total",
        sql: """
            CREATE TABLE feed_totals (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                feeds_count INTEGER NOT NULL
            );
            INSERT INTO feed_totals(id, feeds_count) SELECT 1, count(*) FROM feeds;
            CREATE TRIGGER feed_totals_added AFTER INSERT ON feeds BEGIN
                UPDATE feed_totals SET feeds_count = feeds_count + 1;
            END;
            CREATE TRIGGER feed_totals_removed AFTER DELETE ON feeds BEGIN
                UPDATE feed_totals SET feeds_count = feeds_count - 1;
            END;
            """)
}

extension FeedsSchema {
    /// A moment may share a podcast episode (issue 30). The id stays when the episode goes (no foreign key),
    /// so the moment still reads, its share drawn as gone.
    static let episodeShares = Migration(
        version: 57, name: "moments sharing podcast episodes",
        sql: """
            ALTER TABLE feeds ADD COLUMN episode_id INTEGER;
            """)
}
