import Storage

/// The play list and where playback stands, so a restart comes back exactly where it was.
enum MusicListSchema {
    static let migration = Migration(
        version: 1, name: "music list",
        sql: """
            -- One row per entry of the list (the same song may be in it twice); the order, the mode and the
            -- shuffle's state are the PlayOrder value in music_list_state.
            CREATE TABLE music_list_entries (
                entry_id INTEGER PRIMARY KEY,
                song TEXT NOT NULL
            );
            CREATE TABLE music_list_state (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;
            """)
}
