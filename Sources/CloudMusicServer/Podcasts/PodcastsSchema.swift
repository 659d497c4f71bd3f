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
}
