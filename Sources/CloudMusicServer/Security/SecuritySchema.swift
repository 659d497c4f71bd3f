import Storage

/// The table behind `BackoffLimiter`.
enum SecuritySchema {
    static let failureCounts = Migration(
        version: 40, name: "failure counts",
        sql: """
            -- scope: which limit (sign-in by address, by address and account, ...); source: what failed.
            CREATE TABLE failure_counts (
                scope TEXT NOT NULL,
                source TEXT NOT NULL,
                count INTEGER NOT NULL,
                last_at INTEGER NOT NULL,
                blocked_until INTEGER NOT NULL,
                PRIMARY KEY (scope, source)
            ) WITHOUT ROWID;
            CREATE INDEX failure_counts_by_time ON failure_counts(last_at);
            """)
}
