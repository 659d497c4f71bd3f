import MusicCore
import Storage

/// Each person's music: sheets and their songs, collections, play history and the play queue.
///
/// Counts on sheets are kept by triggers, so a song removed from the library (a cascade) or a user
/// deleted (cascades again) leaves every count right without the code that deleted knowing.
enum SheetsSchema {
    static let migration = Migration(
        version: 5, name: "sheets, collections, play history and queues",
        sql: """
            -- kind: 0 a sheet, 1 the owner's "I like" sheet.
            CREATE TABLE sheets (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                detail TEXT,
                tags TEXT NOT NULL DEFAULT '[]',
                is_private INTEGER NOT NULL DEFAULT 0,
                kind INTEGER NOT NULL DEFAULT 0 CHECK (kind IN (0, 1)),
                cover_version INTEGER,
                songs_count INTEGER NOT NULL DEFAULT 0,
                clicks_count INTEGER NOT NULL DEFAULT 0,
                collects_count INTEGER NOT NULL DEFAULT 0,
                comments_count INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX sheets_by_user ON sheets(user_id, kind DESC, id DESC);
            CREATE UNIQUE INDEX sheets_one_likes_per_user ON sheets(user_id) WHERE kind = 1;
            CREATE INDEX sheets_public_by_new ON sheets(id DESC) WHERE is_private = 0 AND kind = 0;
            CREATE INDEX sheets_public_by_collects ON sheets(collects_count DESC, id DESC)
                WHERE is_private = 0 AND kind = 0;
            CREATE TABLE sheet_songs (
                sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                added_at INTEGER NOT NULL,
                PRIMARY KEY (sheet_id, song_id)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX sheet_songs_by_position ON sheet_songs(sheet_id, position);
            CREATE INDEX sheet_songs_by_song ON sheet_songs(song_id);
            CREATE TRIGGER sheet_song_added AFTER INSERT ON sheet_songs BEGIN
                UPDATE sheets SET songs_count = songs_count + 1 WHERE id = NEW.sheet_id;
            END;
            CREATE TRIGGER sheet_song_removed AFTER DELETE ON sheet_songs BEGIN
                UPDATE sheets SET songs_count = songs_count - 1 WHERE id = OLD.sheet_id;
            END;
            CREATE TABLE collections (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, sheet_id)
            ) WITHOUT ROWID;
            CREATE INDEX collections_by_user ON collections(user_id, created_at DESC, sheet_id);
            CREATE INDEX collections_by_sheet ON collections(sheet_id);
            CREATE TRIGGER collection_added AFTER INSERT ON collections BEGIN
                UPDATE sheets SET collects_count = collects_count + 1 WHERE id = NEW.sheet_id;
            END;
            CREATE TRIGGER collection_removed AFTER DELETE ON collections BEGIN
                UPDATE sheets SET collects_count = collects_count - 1 WHERE id = OLD.sheet_id;
            END;
            -- Every user has an "I like" sheet from the start, however the user was made.
            CREATE TRIGGER user_gets_likes_sheet AFTER INSERT ON users BEGIN
                INSERT INTO sheets(user_id, title, kind, created_at, updated_at)
                VALUES (NEW.id, 'I like', 1, NEW.created_at, NEW.created_at);
            END;
            INSERT INTO sheets(user_id, title, kind, created_at, updated_at)
                SELECT id, 'I like', 1, created_at, created_at FROM users;
            CREATE TABLE song_plays (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                plays_count INTEGER NOT NULL,
                last_played_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, song_id)
            ) WITHOUT ROWID;
            CREATE INDEX song_plays_by_recent ON song_plays(user_id, last_played_at DESC, song_id);
            CREATE INDEX song_plays_by_count ON song_plays(user_id, plays_count DESC, last_played_at DESC, song_id);
            CREATE INDEX song_plays_by_song ON song_plays(song_id);
            CREATE INDEX songs_by_last_played ON songs(last_played_at DESC, id);
            ALTER TABLE albums ADD COLUMN last_played_at INTEGER;
            CREATE INDEX albums_by_last_played ON albums(last_played_at DESC, id);
            CREATE TABLE play_queues (
                user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                current_position INTEGER,
                position_ms INTEGER NOT NULL DEFAULT 0,
                loop_mode TEXT NOT NULL DEFAULT 'list',
                version INTEGER NOT NULL DEFAULT 0,
                updated_at INTEGER NOT NULL
            );
            -- A song that leaves the library leaves every queue with it.
            CREATE TABLE play_queue_items (
                user_id INTEGER NOT NULL REFERENCES play_queues(user_id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                PRIMARY KEY (user_id, position)
            ) WITHOUT ROWID;
            CREATE INDEX play_queue_items_by_song ON play_queue_items(song_id);
            """)

    /// Public sheets by title and tags, for `v1/searches/sheets`. Index text comes from Swift
    /// (`SearchText.indexText` spaces CJK characters apart), so rows are written by `SheetStore.reindex`;
    /// only a deleted sheet leaves through a trigger, since a cascade deletes sheets too.
    ///
    /// The sheets already there are indexed with this migration's own SQL, written for the schema as it is at
    /// this version: the store's follows the schema as it is later. Their words are spaced as every search's
    /// are; a change to that spacing comes with a migration that indexes the sheets again.
    static let searchIndex = Migration(version: 11, name: "sheet search") { db in
        try db.executeScript(
            """
            CREATE VIRTUAL TABLE search_sheets USING fts5(
                title, tags, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
            CREATE TRIGGER sheet_search_go AFTER DELETE ON sheets BEGIN
                DELETE FROM search_sheets WHERE rowid = OLD.id;
            END;
            """)
        // Tags are a JSON list of strings; anything else counts as no tags.
        let sheets = try db.query(
            """
            SELECT id, title,
                CASE WHEN json_valid(tags) AND json_type(tags) = 'array'
                    AND NOT EXISTS (SELECT 1 FROM json_each(sheets.tags) WHERE type <> 'text')
                THEN (SELECT group_concat(value, ' ') FROM json_each(sheets.tags)) END AS tag_text
            FROM sheets WHERE kind = 0 AND is_private = 0
            """
        ) {
            (
                id: try $0.int64("id"), title: try $0.string("title"),
                tags: try $0.optionalString("tag_text") ?? ""
            )
        }
        for sheet in sheets {
            try db.execute(
                "INSERT INTO search_sheets(rowid, title, tags) VALUES (?, ?, ?)", sheet.id,
                SearchText.indexText(sheet.title), SearchText.indexText(sheet.tags))
        }
    }

    /// A sheet's entries are keyed by their place, so a song may come twice (Subsonic playlists hold
    /// repeats, and apps remove by index). The counts' triggers come back with the table.
    static let repeats = Migration(
        version: 33, name: "sheets: a song may come twice", rebuildsTables: true,
        sql: """
            CREATE TABLE sheet_songs_new (
                sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                added_at INTEGER NOT NULL,
                PRIMARY KEY (sheet_id, position)
            ) WITHOUT ROWID;
            INSERT INTO sheet_songs_new(sheet_id, song_id, position, added_at)
                SELECT sheet_id, song_id, position, added_at FROM sheet_songs;
            DROP TABLE sheet_songs;
            ALTER TABLE sheet_songs_new RENAME TO sheet_songs;
            CREATE INDEX sheet_songs_by_sheet_song ON sheet_songs(sheet_id, song_id);
            CREATE INDEX sheet_songs_by_song ON sheet_songs(song_id);
            CREATE TRIGGER sheet_song_added AFTER INSERT ON sheet_songs BEGIN
                UPDATE sheets SET songs_count = songs_count + 1 WHERE id = NEW.sheet_id;
            END;
            CREATE TRIGGER sheet_song_removed AFTER DELETE ON sheet_songs BEGIN
                UPDATE sheets SET songs_count = songs_count - 1 WHERE id = OLD.sheet_id;
            END;
            """)
}
