import Storage

/// The play list and where playback stands, so a restart comes back exactly where it was.
enum MusicListSchema {
    static let migration = Migration(
        version: 1, name: "music list",
        sql: """
            CREATE TABLE music_list (
                position INTEGER PRIMARY KEY,
                song TEXT NOT NULL
            );
            CREATE TABLE music_list_state (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;
            """)
}
