import Storage

/// The library's tables: folders, songs, artists, albums, genres, the search indexes and scan reports.
enum LibrarySchema {
    static let migration = Migration(
        version: 2, name: "music library",
        sql: """
            CREATE TABLE music_folders (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE
            );
            CREATE TABLE artists (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                songs_count INTEGER NOT NULL DEFAULT 0,
                albums_count INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX artists_by_name ON artists(name_key, id);
            CREATE INDEX artists_by_songs ON artists(songs_count DESC, id);
            CREATE TABLE albums (
                id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                album_key TEXT NOT NULL UNIQUE,
                artist_id INTEGER REFERENCES artists(id) ON DELETE SET NULL,
                year INTEGER,
                is_compilation INTEGER NOT NULL DEFAULT 0,
                folder_cover TEXT,
                songs_count INTEGER NOT NULL DEFAULT 0,
                duration_ms INTEGER NOT NULL DEFAULT 0,
                plays_count INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX albums_by_title ON albums(title COLLATE NOCASE, id);
            CREATE INDEX albums_by_year ON albums(year DESC, id);
            CREATE INDEX albums_by_created ON albums(created_at DESC, id);
            CREATE INDEX albums_by_plays ON albums(plays_count DESC, id);
            CREATE INDEX albums_by_artist ON albums(artist_id, year);
            CREATE TABLE genres (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                songs_count INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE songs (
                id INTEGER PRIMARY KEY,
                folder_id INTEGER NOT NULL REFERENCES music_folders(id),
                path TEXT NOT NULL UNIQUE,
                size INTEGER NOT NULL,
                mtime_ns INTEGER NOT NULL,
                fingerprint TEXT NOT NULL,
                title TEXT NOT NULL,
                album_id INTEGER REFERENCES albums(id) ON DELETE SET NULL,
                track_number INTEGER,
                track_total INTEGER,
                disc_number INTEGER,
                disc_total INTEGER,
                year INTEGER,
                duration_ms INTEGER NOT NULL DEFAULT 0,
                bit_rate INTEGER NOT NULL DEFAULT 0,
                sample_rate INTEGER NOT NULL DEFAULT 0,
                channels INTEGER NOT NULL DEFAULT 0,
                format TEXT NOT NULL,
                is_compilation INTEGER NOT NULL DEFAULT 0,
                lyric_path TEXT,
                lyric_style INTEGER NOT NULL DEFAULT 0,
                embedded_lyric TEXT,
                musicbrainz_track_id TEXT,
                musicbrainz_album_id TEXT,
                musicbrainz_artist_id TEXT,
                clicks_count INTEGER NOT NULL DEFAULT 0,
                comments_count INTEGER NOT NULL DEFAULT 0,
                plays_count INTEGER NOT NULL DEFAULT 0,
                last_played_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX songs_by_fingerprint ON songs(fingerprint);
            CREATE INDEX songs_by_album ON songs(album_id, disc_number, track_number, id);
            CREATE INDEX songs_by_title ON songs(title COLLATE NOCASE, id);
            CREATE INDEX songs_by_year ON songs(year DESC, id);
            CREATE INDEX songs_by_created ON songs(created_at DESC, id);
            CREATE INDEX songs_by_plays ON songs(plays_count DESC, id);
            CREATE TABLE song_artists (
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                artist_id INTEGER NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                PRIMARY KEY (song_id, artist_id)
            ) WITHOUT ROWID;
            CREATE INDEX song_artists_by_artist ON song_artists(artist_id, song_id);
            CREATE TABLE song_genres (
                song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
                genre_id INTEGER NOT NULL REFERENCES genres(id) ON DELETE CASCADE,
                PRIMARY KEY (song_id, genre_id)
            ) WITHOUT ROWID;
            CREATE INDEX song_genres_by_genre ON song_genres(genre_id, song_id);
            -- kind: 1 song, 2 album, 3 artist. CJK text is stored one character per token (see SearchText).
            CREATE VIRTUAL TABLE search_index USING fts5(
                kind UNINDEXED, ref UNINDEXED, title, extra, display UNINDEXED,
                tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
            CREATE TABLE scan_reports (
                id INTEGER PRIMARY KEY,
                started_at INTEGER NOT NULL,
                finished_at INTEGER,
                state TEXT NOT NULL,
                files_seen INTEGER NOT NULL DEFAULT 0,
                added INTEGER NOT NULL DEFAULT 0,
                updated INTEGER NOT NULL DEFAULT 0,
                moved INTEGER NOT NULL DEFAULT 0,
                removed INTEGER NOT NULL DEFAULT 0,
                unchanged INTEGER NOT NULL DEFAULT 0,
                failed INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE scan_issues (
                scan_id INTEGER NOT NULL REFERENCES scan_reports(id) ON DELETE CASCADE,
                path TEXT NOT NULL,
                reason TEXT NOT NULL
            );
            CREATE INDEX scan_issues_by_scan ON scan_issues(scan_id);
            """)

    /// Splits the one search index into one per kind (rowids become the song, album or artist id).
    /// The text is copied as indexed, so no re-tokenizing is needed.
    static let searchIndexPerKind = Migration(
        version: 4, name: "search index per kind",
        sql: """
            CREATE VIRTUAL TABLE search_songs USING fts5(
                title, extra, display UNINDEXED,
                tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
            CREATE VIRTUAL TABLE search_albums USING fts5(
                title, extra, display UNINDEXED,
                tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
            CREATE VIRTUAL TABLE search_artists USING fts5(
                title, extra, display UNINDEXED,
                tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
            INSERT INTO search_songs(rowid, title, extra, display)
                SELECT ref, title, extra, display FROM search_index WHERE kind = 1 ORDER BY ref;
            INSERT INTO search_albums(rowid, title, extra, display)
                SELECT ref, title, extra, display FROM search_index WHERE kind = 2 ORDER BY ref;
            INSERT INTO search_artists(rowid, title, extra, display)
                SELECT ref, title, extra, display FROM search_index WHERE kind = 3 ORDER BY ref;
            DROP TABLE search_index;
            INSERT INTO search_songs(search_songs) VALUES ('optimize');
            INSERT INTO search_albums(search_albums) VALUES ('optimize');
            INSERT INTO search_artists(search_artists) VALUES ('optimize');
            """)

    /// Prefix indexes of up to six letters: a word of four to six letters that half the library shares
    /// ("Album", "Love") was a prefix query merging the postings of every term it starts, twice per search
    /// (8 ms on 100k songs); from its own prefix index it is one list (2 ms). About 25 MB more at 100k songs.
    static let longerPrefixes = Migration(
        version: 22, name: "search prefixes up to six letters",
        sql: ["search_songs", "search_albums", "search_artists"].map { table in
            """
            CREATE VIRTUAL TABLE \(table)_wide USING fts5(
                title, extra, display UNINDEXED,
                tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4 5 6');
            INSERT INTO \(table)_wide(rowid, title, extra, display)
                SELECT rowid, title, extra, display FROM \(table) ORDER BY rowid;
            DROP TABLE \(table);
            ALTER TABLE \(table)_wide RENAME TO \(table);
            INSERT INTO \(table)(\(table)) VALUES ('optimize');
            """
        }.joined(separator: "\n"))

    /// What the Subsonic apps show from the tags (issue 26): ReplayGain, tempo, bit depth, sort names and
    /// comments. `tags_version` says which scanner read a song's tags: songs read before this one are read
    /// again by the next scan (`LibraryStore.tagsVersion`), so a rescan fills the new columns.
    static let tagDetails = Migration(
        version: 32, name: "library: ReplayGain, tempo, bit depth, sort names, comments",
        sql: """
            ALTER TABLE songs ADD COLUMN replaygain_track_gain REAL;
            ALTER TABLE songs ADD COLUMN replaygain_track_peak REAL;
            ALTER TABLE songs ADD COLUMN replaygain_album_gain REAL;
            ALTER TABLE songs ADD COLUMN replaygain_album_peak REAL;
            ALTER TABLE songs ADD COLUMN bpm INTEGER;
            ALTER TABLE songs ADD COLUMN bit_depth INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE songs ADD COLUMN sort_title TEXT;
            ALTER TABLE songs ADD COLUMN comment TEXT;
            ALTER TABLE songs ADD COLUMN tags_version INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE artists ADD COLUMN sort_name TEXT;
            ALTER TABLE albums ADD COLUMN sort_name TEXT;
            """)
}
