import MusicCore
import Storage

/// Podcasts (issue 30): the feeds, their episodes kept by guid, who subscribes, and each person's place in
/// each episode.
///
/// `search_text` is the title and author folded (lower case, full-width folded) for a substring search with
/// `instr`, which finds Chinese text of any length; a feed count in the thousands needs no index for it.
/// `next_refresh_at` orders the scheduler's work; `failures` and `last_error` are the back-off's memory.
enum PodcastsSchema {
    static let migration = Migration(
        version: 50, name: "podcasts",
        sql: """
            CREATE TABLE podcasts (
                id INTEGER PRIMARY KEY,
                feed_url TEXT NOT NULL UNIQUE,
                title TEXT NOT NULL,
                author TEXT,
                description_text TEXT NOT NULL DEFAULT '',
                description_html TEXT,
                link TEXT,
                image_url TEXT,
                categories TEXT NOT NULL DEFAULT '[]',
                explicit INTEGER NOT NULL DEFAULT 0,
                language TEXT,
                search_text TEXT NOT NULL DEFAULT '',
                etag TEXT,
                last_modified TEXT,
                refreshed_at INTEGER,
                next_refresh_at INTEGER NOT NULL,
                failures INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                keep TEXT NOT NULL DEFAULT 'stream' CHECK (keep IN ('stream', 'download')),
                retention INTEGER NOT NULL DEFAULT 10 CHECK (retention BETWEEN 1 AND 1000),
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX podcasts_due ON podcasts(next_refresh_at);
            CREATE INDEX podcasts_by_title ON podcasts(title, id);
            CREATE TABLE podcast_episodes (
                id INTEGER PRIMARY KEY,
                podcast_id INTEGER NOT NULL REFERENCES podcasts(id) ON DELETE CASCADE,
                guid TEXT NOT NULL,
                title TEXT NOT NULL,
                description_text TEXT NOT NULL DEFAULT '',
                published_at INTEGER,
                duration INTEGER,
                enclosure_url TEXT NOT NULL,
                enclosure_type TEXT,
                enclosure_length INTEGER,
                season INTEGER,
                episode INTEGER,
                chapters_url TEXT,
                transcript_url TEXT,
                image_url TEXT,
                file_name TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (podcast_id, guid)
            );
            -- The album page, newest or oldest first; unpublished dates sort as 0.
            CREATE INDEX podcast_episodes_by_date
                ON podcast_episodes(podcast_id, coalesce(published_at, 0) DESC, id DESC);
            CREATE TABLE podcast_subscriptions (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                podcast_id INTEGER NOT NULL REFERENCES podcasts(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, podcast_id)
            ) WITHOUT ROWID;
            CREATE INDEX podcast_subscriptions_by_podcast ON podcast_subscriptions(podcast_id);
            CREATE TABLE episode_progress (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                episode_id INTEGER NOT NULL REFERENCES podcast_episodes(id) ON DELETE CASCADE,
                position REAL NOT NULL CHECK (position >= 0),
                finished INTEGER NOT NULL DEFAULT 0,
                -- Milliseconds since 1970, when the client took the place: the later one wins.
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, episode_id)
            ) WITHOUT ROWID;
            CREATE INDEX episode_progress_by_episode ON episode_progress(episode_id);
            CREATE INDEX episode_progress_recent ON episode_progress(user_id, finished, updated_at DESC);
            """)

    /// The album page of a 5,000-episode podcast (p99 < 20 ms): a stored episode count instead of a count of
    /// the rows on every page, and an index whose entries hold all a page's order needs (the date and the id),
    /// so a page of ids is read from the index alone, in either direction. An unknown date sorts first (SQLite's
    /// NULL), as the coalesce to 0 did for any date after 1970.
    static let albumOrder = Migration(
        version: 53, name: "podcast album order",
        sql: """
            ALTER TABLE podcasts ADD COLUMN episodes_count INTEGER NOT NULL DEFAULT 0;
            UPDATE podcasts SET episodes_count =
                (SELECT count(*) FROM podcast_episodes e WHERE e.podcast_id = podcasts.id);
            CREATE TRIGGER podcast_episode_added AFTER INSERT ON podcast_episodes BEGIN
                UPDATE podcasts SET episodes_count = episodes_count + 1 WHERE id = NEW.podcast_id;
            END;
            CREATE TRIGGER podcast_episode_removed AFTER DELETE ON podcast_episodes BEGIN
                UPDATE podcasts SET episodes_count = episodes_count - 1 WHERE id = OLD.podcast_id;
            END;
            DROP INDEX podcast_episodes_by_date;
            CREATE INDEX podcast_episodes_by_published ON podcast_episodes(podcast_id, published_at, id);
            -- The newest episodes of all podcasts (Subsonic's getNewestPodcasts).
            CREATE INDEX podcast_episodes_newest ON podcast_episodes(published_at, id);
            """)

    /// Episode search (`GET /v1/episodes?q=`): each episode's title lower-cased (ASCII; Chinese needs no
    /// folding) in a narrow table of its own, kept by triggers, so a substring search with `instr` (any length,
    /// Chinese included) reads a few dozen bytes an episode instead of rows holding the show notes.
    /// Episodes found by their show notes as well as their titles, with every script's case and accents folded:
    /// a full-text index (FTS5 `unicode61`) written by the store with `SearchText.indexText` (CJK characters as
    /// their own tokens, so a Chinese substring of any length is a phrase), in place of the scan of lower-cased
    /// titles. Existing episodes are indexed here.
    static let episodeNotesSearch = Migration(version: 63, name: "episode search over titles and notes") {
        db in
        try db.executeScript(
            """
            DROP TRIGGER podcast_episode_search_added;
            DROP TRIGGER podcast_episode_search_changed;
            DROP TRIGGER podcast_episode_search_removed;
            DROP TABLE podcast_episode_search;
            CREATE VIRTUAL TABLE episode_search USING fts5(
                title, notes, tokenize = 'unicode61 remove_diacritics 2');
            CREATE TRIGGER episode_search_gone AFTER DELETE ON podcast_episodes BEGIN
                DELETE FROM episode_search WHERE rowid = OLD.id;
            END;
            """)
        let episodes = try db.query("SELECT id, title, description_text FROM podcast_episodes") {
            (try $0.int64("id"), try $0.string("title"), try $0.string("description_text"))
        }
        // Written out here, not through the store: what this migration wrote stays what it was.
        for (id, title, notes) in episodes {
            try db.execute(
                "INSERT INTO episode_search(rowid, title, notes) VALUES (?, ?, ?)", id,
                SearchText.indexText(title),
                SearchText.indexText(String(notes.prefix(20_000))))
        }
    }

    static let episodeSearch = Migration(
        version: 54, name: "podcast episode search",
        sql: """
            CREATE TABLE podcast_episode_search (
                episode_id INTEGER PRIMARY KEY,
                text TEXT NOT NULL
            );
            INSERT INTO podcast_episode_search(episode_id, text) SELECT id, lower(title) FROM podcast_episodes;
            CREATE TRIGGER podcast_episode_search_added AFTER INSERT ON podcast_episodes BEGIN
                INSERT INTO podcast_episode_search(episode_id, text) VALUES (NEW.id, lower(NEW.title));
            END;
            CREATE TRIGGER podcast_episode_search_changed AFTER UPDATE OF title ON podcast_episodes BEGIN
                UPDATE podcast_episode_search SET text = lower(NEW.title) WHERE episode_id = NEW.id;
            END;
            CREATE TRIGGER podcast_episode_search_removed AFTER DELETE ON podcast_episodes BEGIN
                DELETE FROM podcast_episode_search WHERE episode_id = OLD.id;
            END;
            """)
}

extension PodcastsSchema {
    /// Likes of episodes (`POST v1/likes` with `episodeId`, issue 30): one per person and episode, gone with the
    /// episode (its podcast deleted, a book's part gone from the folder) or the person. Ids start at 2^41 so
    /// that `DELETE v1/likes/{id}` tells an episode's like from a moment's (2^40 up) and a comment's; the
    /// count the album page sends is kept on the episode by triggers.
    static let likes = Migration(
        version: 56, name: "likes of podcast episodes",
        sql: """
            ALTER TABLE podcast_episodes ADD COLUMN likes_count INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE episode_likes (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                episode_id INTEGER NOT NULL REFERENCES podcast_episodes(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                UNIQUE (user_id, episode_id)
            );
            INSERT INTO sqlite_sequence(name, seq) VALUES ('episode_likes', \(PodcastStore.firstLikeID - 1));
            CREATE INDEX episode_likes_by_episode ON episode_likes(episode_id);
            CREATE TRIGGER episode_liked AFTER INSERT ON episode_likes BEGIN
                UPDATE podcast_episodes SET likes_count = likes_count + 1 WHERE id = NEW.episode_id;
            END;
            CREATE TRIGGER episode_unliked AFTER DELETE ON episode_likes BEGIN
                UPDATE podcast_episodes SET likes_count = likes_count - 1 WHERE id = OLD.episode_id;
            END;
            """)
}
