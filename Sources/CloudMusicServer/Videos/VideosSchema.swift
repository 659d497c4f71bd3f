import Storage

/// Videos (MVs): the videos folders, the videos found in them or uploaded, and who likes which.
///
/// `folder_id` is null for an uploaded video, which scans never touch. `likes_count` is kept by triggers, so
/// a deleted user or video leaves it right. SQLite-only: the triggers and the expression index of `hot`.
enum VideosSchema {
    static let migration = Migration(
        version: 18, name: "videos",
        sql: """
            CREATE TABLE video_folders (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE
            );
            CREATE TABLE videos (
                id INTEGER PRIMARY KEY,
                folder_id INTEGER REFERENCES video_folders(id),
                path TEXT NOT NULL UNIQUE,
                size INTEGER NOT NULL,
                mtime_ns INTEGER NOT NULL,
                title TEXT NOT NULL,
                artist_name TEXT,
                artist_id INTEGER REFERENCES artists(id) ON DELETE SET NULL,
                song_id INTEGER REFERENCES songs(id) ON DELETE SET NULL,
                duration_ms INTEGER NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                format TEXT NOT NULL,
                video_codec TEXT NOT NULL,
                audio_codec TEXT,
                thumbnail TEXT,
                uploaded_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
                clicks_count INTEGER NOT NULL DEFAULT 0,
                comments_count INTEGER NOT NULL DEFAULT 0,
                likes_count INTEGER NOT NULL DEFAULT 0,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX videos_by_folder ON videos(folder_id);
            CREATE INDEX videos_by_new ON videos(created_at DESC, id DESC);
            CREATE INDEX videos_by_hot ON videos((likes_count * 5 + clicks_count) DESC, id DESC);
            CREATE INDEX videos_by_song ON videos(song_id);
            CREATE INDEX videos_by_artist ON videos(artist_id);
            CREATE INDEX videos_by_uploader ON videos(uploaded_by);
            CREATE TABLE video_likes (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, video_id)
            ) WITHOUT ROWID;
            CREATE INDEX video_likes_by_video ON video_likes(video_id);
            CREATE TRIGGER video_like_added AFTER INSERT ON video_likes BEGIN
                UPDATE videos SET likes_count = likes_count + 1 WHERE id = NEW.video_id;
            END;
            CREATE TRIGGER video_like_removed AFTER DELETE ON video_likes BEGIN
                UPDATE videos SET likes_count = likes_count - 1 WHERE id = OLD.video_id;
            END;
            """)
}
