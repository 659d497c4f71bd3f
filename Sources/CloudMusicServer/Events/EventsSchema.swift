import Storage

/// The event log behind `GET /v1/events`: one row per event and recipient, kept for a day so a client that
/// lost its connection resumes from its `Last-Event-ID`. Written in the transaction of what caused it.
enum EventsSchema {
    static let migration = Migration(
        version: 23, name: "event log",
        sql: """
            -- AUTOINCREMENT: ids never go back, even after the newest rows were purged, so an old
            -- Last-Event-ID can never skip a newer event.
            CREATE TABLE events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                data TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX events_by_user ON events(user_id, id);
            CREATE INDEX events_by_time ON events(created_at);
            -- The chat token opens the event stream: found by its hash.
            CREATE INDEX sessions_by_chat_token ON sessions(chat_token_hash);
            """)
}
