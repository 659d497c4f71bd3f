import Storage

/// Comments on songs and sheets (moments and videos later), their likes, reports and #topics#.
///
/// A comment points at its thing by kind and id, so cleanup and counts live in triggers: a song that
/// leaves the library or a deleted sheet takes its comments with it, and every count stays right
/// whatever deleted what.
enum CommentsSchema {
    static let migration = Migration(
        version: 6, name: "comments, comment likes and reports",
        sql: """
            -- target_kind: 1 song, 2 sheet. hot: log10(1 + likes + 2 replies) + created_at / 45000 (the 1 so that a
            -- single like counts), so newer
            -- comments need more likes to rank the same (Reddit's decay) and the order never needs recomputing.
            CREATE TABLE comments (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                target_kind INTEGER NOT NULL CHECK (target_kind IN (1, 2)),
                target_id INTEGER NOT NULL,
                parent_id INTEGER REFERENCES comments(id) ON DELETE SET NULL,
                content TEXT NOT NULL,
                likes_count INTEGER NOT NULL DEFAULT 0,
                replies_count INTEGER NOT NULL DEFAULT 0,
                hot REAL NOT NULL,
                hidden INTEGER NOT NULL DEFAULT 0,
                -- The resolved @mentions and #topics# with their ranges, as the API sends them (JSON).
                mentions TEXT NOT NULL DEFAULT '[]',
                topics TEXT NOT NULL DEFAULT '[]',
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX comments_by_new ON comments(target_kind, target_id, id DESC);
            CREATE INDEX comments_by_hot ON comments(target_kind, target_id, hot DESC, id DESC);
            CREATE INDEX comments_by_parent ON comments(parent_id, id DESC) WHERE parent_id IS NOT NULL;
            CREATE INDEX comments_by_user ON comments(user_id, created_at);
            CREATE TRIGGER comment_added AFTER INSERT ON comments BEGIN
                UPDATE songs SET comments_count = comments_count + 1 WHERE NEW.target_kind = 1 AND id = NEW.target_id;
                UPDATE sheets SET comments_count = comments_count + 1 WHERE NEW.target_kind = 2 AND id = NEW.target_id;
                UPDATE comments SET replies_count = replies_count + 1,
                    hot = log10(max(likes_count + 2 * (replies_count + 1), 0) + 1) + created_at / 45000.0
                WHERE id = NEW.parent_id;
            END;
            -- A hidden comment no longer counts; deleting it then changes nothing more.
            CREATE TRIGGER comment_removed AFTER DELETE ON comments WHEN OLD.hidden = 0 BEGIN
                UPDATE songs SET comments_count = comments_count - 1 WHERE OLD.target_kind = 1 AND id = OLD.target_id;
                UPDATE sheets SET comments_count = comments_count - 1 WHERE OLD.target_kind = 2 AND id = OLD.target_id;
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
            CREATE TABLE comment_likes (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                UNIQUE (user_id, comment_id)
            );
            CREATE INDEX comment_likes_by_comment ON comment_likes(comment_id);
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
            CREATE TABLE topics (
                id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                title_key TEXT NOT NULL UNIQUE,
                comments_count INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX topics_by_popularity ON topics(comments_count DESC, id DESC);
            CREATE TABLE comment_topics (
                comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
                topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
                PRIMARY KEY (topic_id, comment_id)
            ) WITHOUT ROWID;
            CREATE INDEX comment_topics_by_comment ON comment_topics(comment_id);
            CREATE TRIGGER comment_topic_added AFTER INSERT ON comment_topics BEGIN
                UPDATE topics SET comments_count = comments_count + 1 WHERE id = NEW.topic_id;
            END;
            CREATE TRIGGER comment_topic_removed AFTER DELETE ON comment_topics BEGIN
                UPDATE topics SET comments_count = comments_count - 1 WHERE id = OLD.topic_id;
            END;
            CREATE TABLE comment_reports (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
                reason TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (comment_id, user_id)
            ) WITHOUT ROWID;
            CREATE INDEX comment_reports_by_time ON comment_reports(created_at DESC);
            """)
}

extension CommentsSchema {
    /// A comment's hot score, as SQL over the row being updated: log10(1 + likes + 2 replies) +
    /// created_at / 45000 (the 1 so that a single like counts), so newer comments need more likes to rank
    /// the same (Reddit's decay) and the order never needs recomputing as time passes.
    ///
    /// The one place the formula is written: the triggers of `hotScoreOnce` use it whenever a comment is
    /// written or its likes or replies change (migrations 6 and 8 wrote it out in each trigger; they are
    /// history now).
    static let hotScore = "log10(max(likes_count + 2 * replies_count, 0) + 1) + created_at / 45000.0"

    /// The counting triggers without the hot score, and two triggers that set it from `hotScore`: when a
    /// comment is written and when its likes or replies change, however they changed (a like, a reply, a
    /// hidden reply, a cascade). Existing scores were computed by the same formula and stay as they are.
    static let hotScoreOnce = Migration(
        version: 12, name: "comments' hot score from one formula",
        sql: """
            DROP TRIGGER comment_added;
            DROP TRIGGER comment_removed;
            DROP TRIGGER comment_hidden_changed;
            DROP TRIGGER comment_liked;
            DROP TRIGGER comment_unliked;
            CREATE TRIGGER comment_added AFTER INSERT ON comments BEGIN
                UPDATE comments SET hot = \(hotScore) WHERE id = NEW.id;
                UPDATE songs SET comments_count = comments_count + 1 WHERE NEW.target_kind = 1 AND id = NEW.target_id;
                UPDATE sheets SET comments_count = comments_count + 1 WHERE NEW.target_kind = 2 AND id = NEW.target_id;
                UPDATE feeds SET comments_count = comments_count + 1 WHERE NEW.target_kind = 3 AND id = NEW.target_id;
                UPDATE comments SET replies_count = replies_count + 1 WHERE id = NEW.parent_id;
            END;
            -- A hidden comment no longer counts; deleting it then changes nothing more.
            CREATE TRIGGER comment_removed AFTER DELETE ON comments WHEN OLD.hidden = 0 BEGIN
                UPDATE songs SET comments_count = comments_count - 1 WHERE OLD.target_kind = 1 AND id = OLD.target_id;
                UPDATE sheets SET comments_count = comments_count - 1 WHERE OLD.target_kind = 2 AND id = OLD.target_id;
                UPDATE feeds SET comments_count = comments_count - 1 WHERE OLD.target_kind = 3 AND id = OLD.target_id;
                UPDATE comments SET replies_count = replies_count - 1 WHERE id = OLD.parent_id;
            END;
            CREATE TRIGGER comment_hidden_changed AFTER UPDATE OF hidden ON comments
            WHEN OLD.hidden <> NEW.hidden BEGIN
                UPDATE songs SET comments_count = comments_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE NEW.target_kind = 1 AND id = NEW.target_id;
                UPDATE sheets SET comments_count = comments_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE NEW.target_kind = 2 AND id = NEW.target_id;
                UPDATE feeds SET comments_count = comments_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE NEW.target_kind = 3 AND id = NEW.target_id;
                UPDATE comments SET replies_count = replies_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE id = NEW.parent_id;
            END;
            CREATE TRIGGER comment_liked AFTER INSERT ON comment_likes BEGIN
                UPDATE comments SET likes_count = likes_count + 1 WHERE id = NEW.comment_id;
            END;
            CREATE TRIGGER comment_unliked AFTER DELETE ON comment_likes BEGIN
                UPDATE comments SET likes_count = likes_count - 1 WHERE id = OLD.comment_id;
            END;
            CREATE TRIGGER comment_counts_changed AFTER UPDATE OF likes_count, replies_count ON comments BEGIN
                UPDATE comments SET hot = \(hotScore) WHERE id = NEW.id;
            END;
            """)

    /// Comments on videos (target kind 4): the counting triggers again with the videos' line, and a video's
    /// comments go with it.
    static let onVideos = Migration(
        version: 21, name: "comments on videos",
        sql: """
            DROP TRIGGER comment_added;
            DROP TRIGGER comment_removed;
            DROP TRIGGER comment_hidden_changed;
            CREATE TRIGGER comment_added AFTER INSERT ON comments BEGIN
                UPDATE comments SET hot = \(hotScore) WHERE id = NEW.id;
            \(countChange("+ 1", row: "NEW"))
                UPDATE comments SET replies_count = replies_count + 1 WHERE id = NEW.parent_id;
            END;
            -- A hidden comment no longer counts; deleting it then changes nothing more.
            CREATE TRIGGER comment_removed AFTER DELETE ON comments WHEN OLD.hidden = 0 BEGIN
            \(countChange("- 1", row: "OLD"))
                UPDATE comments SET replies_count = replies_count - 1 WHERE id = OLD.parent_id;
            END;
            CREATE TRIGGER comment_hidden_changed AFTER UPDATE OF hidden ON comments
            WHEN OLD.hidden <> NEW.hidden BEGIN
            \(countChange("+ (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)", row: "NEW"))
                UPDATE comments SET replies_count = replies_count + (CASE NEW.hidden WHEN 0 THEN 1 ELSE -1 END)
                WHERE id = NEW.parent_id;
            END;
            CREATE TRIGGER video_comments_go AFTER DELETE ON videos BEGIN
                DELETE FROM comments WHERE target_kind = 4 AND target_id = OLD.id;
            END;
            """)

    /// Comments on podcast episodes (target kind 5, allowed by the CHECK since migration 8): an episode's
    /// comments go with it. Episodes keep no count of their own (the podcasts' tables are
    /// `PodcastService`'s); their few comments are counted when listed.
    static let onEpisodes = Migration(
        version: 52, name: "comments on podcast episodes",
        sql: """
            CREATE TRIGGER episode_comments_go AFTER DELETE ON podcast_episodes BEGIN
                DELETE FROM comments WHERE target_kind = 5 AND target_id = OLD.id;
            END;
            """)

    /// The things comments are on, by target kind, whose `comments_count` the triggers keep.
    static let countedTables = [(1, "songs"), (2, "sheets"), (3, "feeds"), (4, "videos")]

    /// One UPDATE per counted table, adding `change` to the count of `row`'s thing.
    private static func countChange(_ change: String, row: String) -> String {
        countedTables.map { kind, table in
            "    UPDATE \(table) SET comments_count = comments_count \(change) WHERE \(row).target_kind = \(kind) AND id = \(row).target_id;"
        }.joined(separator: "\n")
    }
}
