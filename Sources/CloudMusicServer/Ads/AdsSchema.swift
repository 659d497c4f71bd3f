import Storage

/// Ads: one row per ad, its picture or video stored under `<dataFolder>/ads`.
enum AdsSchema {
    static let migration = Migration(
        version: 14, name: "ads",
        sql: """
            -- position: 0 splash, 10 home banner, 20 in a list. style: 0 image, 10 video, 20 app link.
            -- media_file: the picture or video under <dataFolder>/ads; poster_file: a video's first frame.
            -- starts_at / ends_at: unix seconds, NULL for at once / never.
            CREATE TABLE ads (
                id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                position INTEGER NOT NULL,
                style INTEGER NOT NULL CHECK (style IN (0, 10, 20)),
                link TEXT,
                media_file TEXT NOT NULL,
                media_type TEXT NOT NULL,
                poster_file TEXT,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                duration_ms INTEGER,
                size INTEGER NOT NULL,
                codecs TEXT,
                starts_at INTEGER,
                ends_at INTEGER,
                sort INTEGER NOT NULL DEFAULT 0,
                created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at)
            );
            CREATE INDEX ads_by_position ON ads(position, sort, id);
            """)
}
