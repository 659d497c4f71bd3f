import Storage

/// Downloads and the lists cached for offline browsing.
enum ClientCacheSchema {
    /// One row per downloaded (or downloading) song; the bytes live in `<folder>/<file_name>`, and in
    /// `<folder>/<song_id>.part` until complete.
    static let downloads = Migration(
        version: 2, name: "downloads",
        sql: """
            CREATE TABLE downloads (
                song_id TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                file_name TEXT NOT NULL,
                title TEXT,
                state TEXT NOT NULL,
                bytes_done INTEGER NOT NULL DEFAULT 0,
                bytes_total INTEGER,
                expected_size INTEGER,
                etag TEXT,
                last_modified TEXT,
                error TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX downloads_by_state ON downloads (state, created_at);
            """)

    /// The last good answer of each list request, keyed by request.
    static let offlineLists = Migration(
        version: 3, name: "offline lists",
        sql: """
            CREATE TABLE cached_responses (
                key TEXT PRIMARY KEY,
                body BLOB NOT NULL,
                fetched_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX cached_responses_by_age ON cached_responses (fetched_at);
            """)

    /// Each person's place in the episodes they played, kept until the server has it (`pending`).
    static let episodeProgress = Migration(
        version: 4, name: "episode progress",
        sql: """
            CREATE TABLE episode_progress (
                user_id TEXT NOT NULL,
                episode_id TEXT NOT NULL,
                position REAL NOT NULL,
                finished INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                pending INTEGER NOT NULL,
                PRIMARY KEY (user_id, episode_id)
            ) WITHOUT ROWID;
            CREATE INDEX episode_progress_pending ON episode_progress (user_id) WHERE pending = 1;
            """)
}
