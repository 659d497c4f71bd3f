import Storage

/// The tables the Subsonic API adds: app passwords, favourite albums and artists, ratings, bookmarks, and
/// which client last saved a play queue.
///
/// App passwords are stored sealed with the server key (secretbox), so the server can compute Subsonic's
/// `md5(password + salt)` tokens; `lookup` is a keyed BLAKE2b digest of the secret, so an `apiKey` is found
/// without opening every row. Songs are starred through "I like" (sheets), not here.
enum SubsonicSchema {
    static let migration = Migration(
        version: 20, name: "subsonic: app passwords, favourites, ratings, bookmarks",
        sql: """
            CREATE TABLE app_passwords (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                secret BLOB NOT NULL,
                lookup TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER
            );
            CREATE INDEX app_passwords_by_user ON app_passwords(user_id, id);
            CREATE TABLE favourite_albums (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, album_id)
            ) WITHOUT ROWID;
            CREATE INDEX favourite_albums_by_time ON favourite_albums(user_id, created_at DESC, album_id);
            CREATE INDEX favourite_albums_by_album ON favourite_albums(album_id);
            CREATE TABLE favourite_artists (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                artist_id INTEGER NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, artist_id)
            ) WITHOUT ROWID;
            CREATE INDEX favourite_artists_by_time ON favourite_artists(user_id, created_at DESC, artist_id);
            CREATE INDEX favourite_artists_by_artist ON favourite_artists(artist_id);
            CREATE TABLE song_ratings (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, song_id)
            ) WITHOUT ROWID;
            CREATE INDEX song_ratings_by_song ON song_ratings(song_id);
            CREATE TABLE album_ratings (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
                rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, album_id)
            ) WITHOUT ROWID;
            CREATE INDEX album_ratings_by_rating ON album_ratings(user_id, rating DESC, album_id);
            CREATE INDEX album_ratings_by_album ON album_ratings(album_id);
            CREATE TABLE artist_ratings (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                artist_id INTEGER NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
                rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, artist_id)
            ) WITHOUT ROWID;
            CREATE INDEX artist_ratings_by_artist ON artist_ratings(artist_id);
            CREATE TABLE bookmarks (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                position_ms INTEGER NOT NULL,
                comment TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, song_id)
            ) WITHOUT ROWID;
            CREATE INDEX bookmarks_by_song ON bookmarks(song_id);
            -- The client (Subsonic `c`) that saved a person's play queue at `version`; a later save by
            -- another client (the web player) leaves the version behind, and then the queue names CloudMusic.
            CREATE TABLE play_queue_clients (
                user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                version INTEGER NOT NULL,
                client TEXT NOT NULL
            );
            """)

    /// Internet radio stations (issue 26): administrators add them, everyone's apps list and play them.
    static let internetRadio = Migration(
        version: 30, name: "subsonic: internet radio stations",
        sql: """
            CREATE TABLE internet_radio_stations (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                stream_url TEXT NOT NULL,
                homepage_url TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            """)

    /// "I like" is private unless its owner makes it public (every existing one too: nobody chose to show
    /// it), and who may see what one is playing (Subsonic's getNowPlaying): 'followers' (the default),
    /// 'everyone' or 'nobody'.
    static let privacy = Migration(
        version: 31, name: "subsonic: private \"I like\", now playing visibility",
        sql: """
            UPDATE sheets SET is_private = 1 WHERE kind = 1;
            DROP TRIGGER user_gets_likes_sheet;
            CREATE TRIGGER user_gets_likes_sheet AFTER INSERT ON users BEGIN
                INSERT INTO sheets(user_id, title, kind, is_private, created_at, updated_at)
                VALUES (NEW.id, 'I like', 1, 1, NEW.created_at, NEW.created_at);
            END;
            ALTER TABLE users ADD COLUMN now_playing_visibility TEXT NOT NULL DEFAULT 'followers'
                CHECK (now_playing_visibility IN ('followers', 'everyone', 'nobody'));
            """)
}
