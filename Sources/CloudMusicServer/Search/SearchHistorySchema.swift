import Storage

/// Each person's searches, and the daily counts hot searches are made from.
enum SearchHistorySchema {
    static let migration = Migration(
        version: 25, name: "search history and hot searches",
        sql: """
            -- A person's searches: one row per different words (query_key is them folded), the newest on top.
            CREATE TABLE search_history (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                query_key TEXT NOT NULL,
                query TEXT NOT NULL,
                searched_at INTEGER NOT NULL
            );
            CREATE UNIQUE INDEX search_history_by_words ON search_history(user_id, query_key);
            CREATE INDEX search_history_by_time ON search_history(user_id, searched_at DESC, id DESC);
            -- How many people searched some words on a day (server time, days since 1970): a person counts
            -- once per words and day, so a week's hot searches read at most seven days of different words.
            CREATE TABLE search_counts (
                day INTEGER NOT NULL,
                query_key TEXT NOT NULL,
                query TEXT NOT NULL,
                searchers INTEGER NOT NULL,
                PRIMARY KEY (day, query_key)
            ) WITHOUT ROWID;
            -- The week's plays for hot searches, read as one index range.
            CREATE INDEX song_plays_by_time ON song_plays(last_played_at);
            """)
}
