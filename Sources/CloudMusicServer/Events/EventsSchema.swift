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

extension EventsSchema {
    /// Every end of a session, written by the database itself (so no way of ending one is missed: signing out,
    /// a password change or reset, disabling, deleting, expiry), for every server process to close the event
    /// streams that session holds open. A new chat token is not an end: the stream the device opens with it
    /// replaces the old one (`replaced`), so two tabs of one session never close each other in turn.
    static let sessionEnds = Migration(
        version: 41, name: "session ends",
        sql: """
            CREATE TABLE session_ends (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                session_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                ended_at INTEGER NOT NULL
            );
            CREATE INDEX session_ends_by_time ON session_ends(ended_at);
            CREATE TRIGGER sessions_end AFTER DELETE ON sessions BEGIN
                INSERT INTO session_ends(session_id, user_id, ended_at)
                VALUES (old.id, old.user_id, CAST(strftime('%s', 'now') AS INTEGER));
            END;
            """)
}
