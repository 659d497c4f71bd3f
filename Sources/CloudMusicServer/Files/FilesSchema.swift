import Storage

/// Uploaded files, stored once per content: `uploaded_files` has one row per distinct upload (keyed by the
/// SHA-256 of the bytes as uploaded), `user_files` one row per person who uploaded it.
enum FilesSchema {
    static let migration = Migration(
        version: 9, name: "uploaded files",
        sql: """
            -- sha256: hex of the ORIGINAL uploaded bytes (so the same upload always maps to the same row);
            -- the stored file is the server's re-encoding, named after it. kind: 'image' for now. mime,
            -- width, height and size describe the stored file; original_format and original_size the upload.
            CREATE TABLE uploaded_files (
                sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
                kind TEXT NOT NULL,
                mime TEXT NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                size INTEGER NOT NULL,
                original_format TEXT NOT NULL,
                original_size INTEGER NOT NULL,
                user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX uploaded_files_by_user ON uploaded_files(user_id) WHERE user_id IS NOT NULL;
            CREATE TABLE user_files (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                sha256 TEXT NOT NULL REFERENCES uploaded_files(sha256) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, sha256)
            ) WITHOUT ROWID;
            CREATE INDEX user_files_by_file ON user_files(sha256);
            """)
}
