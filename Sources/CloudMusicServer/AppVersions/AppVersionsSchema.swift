import Storage

/// The published versions of the apps, for update checks.
enum AppVersionsSchema {
    static let migration = Migration(
        version: 16, name: "app versions",
        sql: """
            -- version: a semantic version as published; the service compares them, so that 1.10.0 is after 1.9.0.
            CREATE TABLE app_versions (
                id INTEGER PRIMARY KEY,
                platform TEXT NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
                version TEXT NOT NULL,
                build INTEGER NOT NULL,
                notes TEXT NOT NULL DEFAULT '',
                uri TEXT,
                force INTEGER NOT NULL DEFAULT 0,
                created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (platform, version)
            );
            """)
}
