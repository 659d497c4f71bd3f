import Storage

/// Audiobooks (issue 30) are podcasts of a second kind: a book is a `podcasts` row with `kind = 'audiobook'`,
/// its parts are its episodes (`episode` = the part's number, `file_name` = its path inside the audiobooks
/// folder), so subscriptions, progress and continue listening work for books unchanged.
///
/// `feed_url` holds `audiobook:` and the book's path inside the folder (its key across scans); `book_stamp`
/// the names, sizes and times of its files, so an unchanged book is not read again; `book_cover` the path of
/// its cover (a picture, or the part whose embedded picture it is); `chapters` a part's chapters as JSON.
enum AudiobooksSchema {
    static let migration = Migration(
        version: 55, name: "audiobooks",
        sql: """
            ALTER TABLE podcasts ADD COLUMN kind TEXT NOT NULL DEFAULT 'podcast'
                CHECK (kind IN ('podcast', 'audiobook'));
            ALTER TABLE podcasts ADD COLUMN narrator TEXT;
            ALTER TABLE podcasts ADD COLUMN series TEXT;
            ALTER TABLE podcasts ADD COLUMN series_part REAL;
            ALTER TABLE podcasts ADD COLUMN year INTEGER;
            ALTER TABLE podcasts ADD COLUMN book_cover TEXT;
            ALTER TABLE podcasts ADD COLUMN book_stamp TEXT;
            ALTER TABLE podcast_episodes ADD COLUMN chapters TEXT;
            CREATE INDEX podcasts_by_kind ON podcasts(kind, title, id);
            -- A book's parts in order.
            CREATE INDEX podcast_episodes_by_part ON podcast_episodes(podcast_id, episode, id);
            """)

    /// Books an administrator deleted (`DELETE /v1/podcasts/{id}`), which a scan leaves out while their files
    /// are as they were. Keyed by the book's path inside the folder (its key across scans) and holding the
    /// stamp of its files (names, sizes, times: what a scan already computes, no file read), so a book whose
    /// files change (a new edition copied over it) comes back at the next scan, and an unchanged one never
    /// does until an administrator restores it. A content hash would survive a touch of the files, but costs a
    /// read of every book at every scan; a path alone would hide a new book put where a deleted one was.
    static let deletions = Migration(
        version: 58, name: "deleted audiobooks",
        sql: """
            CREATE TABLE audiobook_deletions (
                id INTEGER PRIMARY KEY,
                book_key TEXT NOT NULL UNIQUE,
                stamp TEXT NOT NULL,
                title TEXT NOT NULL,
                deleted_at INTEGER NOT NULL
            );
            """)
}
