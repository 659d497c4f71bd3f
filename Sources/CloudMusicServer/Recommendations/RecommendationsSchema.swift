import Storage

/// Recommendations: which songs go together (item-to-item co-occurrence from sheets, "I like" sheets and
/// listening sittings), each person's "not interested" songs and songs of the day, and how far the one-time
/// backfill of what existed before this migration got.
///
/// `song_neighbors` holds both directions of a pair, at most about `RecommendationStore.maxNeighbors` per
/// song (the weakest are pruned), and `song_mass` each song's total weight, to damp popular songs. No foreign
/// keys there (a cascade on `other_id` would need a second index on millions of rows): the trigger below
/// removes a deleted song's pairs. SQLite-only: the trigger, upserts, `json_each`.
enum RecommendationsSchema {
    static let migration = Migration(
        version: 19, name: "recommendations",
        sql: """
            CREATE TABLE song_neighbors (
                song_id INTEGER NOT NULL,
                other_id INTEGER NOT NULL,
                weight REAL NOT NULL,
                PRIMARY KEY (song_id, other_id)
            ) WITHOUT ROWID;
            CREATE INDEX song_neighbors_by_weight ON song_neighbors(song_id, weight DESC);
            CREATE TABLE song_mass (
                song_id INTEGER PRIMARY KEY,
                mass REAL NOT NULL
            );
            CREATE TRIGGER song_neighbors_go AFTER DELETE ON songs BEGIN
                DELETE FROM song_neighbors WHERE other_id = OLD.id
                    AND song_id IN (SELECT other_id FROM song_neighbors WHERE song_id = OLD.id);
                DELETE FROM song_neighbors WHERE song_id = OLD.id;
                DELETE FROM song_mass WHERE song_id = OLD.id;
            END;
            CREATE TABLE song_dislikes (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, song_id)
            ) WITHOUT ROWID;
            CREATE INDEX song_dislikes_by_song ON song_dislikes(song_id);
            CREATE INDEX song_dislikes_by_time ON song_dislikes(user_id, created_at DESC, song_id);
            -- day: yyyy-MM-dd in the server's time zone; song_ids: a JSON array.
            CREATE TABLE daily_songs (
                user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                day TEXT NOT NULL,
                song_ids TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            -- What existed before this migration is paired in bounded batches of users, oldest id first; only
            -- what happened before `cutoff`, since later events are paired as they happen.
            CREATE TABLE recommendation_backfill (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                cutoff INTEGER NOT NULL,
                next_user_id INTEGER NOT NULL DEFAULT 0,
                done INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO recommendation_backfill(id, cutoff) VALUES (1, CAST(strftime('%s', 'now') AS INTEGER));
            """)
}
