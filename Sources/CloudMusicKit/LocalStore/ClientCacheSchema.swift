import Storage

/// Downloads and the lists cached for offline browsing.
enum ClientCacheSchema {
    static let downloads = Migration(
        version: 2, name: "downloads",
        sql: """
            CREATE TABLE downloads (
                song_id TEXT PRIMARY KEY,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)

    static let offlineLists = Migration(
        version: 3, name: "offline lists",
        sql: """
            CREATE TABLE cached_responses (
                key TEXT PRIMARY KEY,
                body BLOB NOT NULL,
                fetched_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)
}
