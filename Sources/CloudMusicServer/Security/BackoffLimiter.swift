import Storage

/// Counts failures (wrong sign-ins, code sends, sign-ups) per source and, once a source passes its allowance,
/// blocks it for a delay that doubles with each further failure, up to a cap. A source that stays quiet is
/// forgotten.
///
/// The counts live in the database (`failure_counts`), so every server process sharing it sees the same
/// ones. A failure costs one small write; asking whether a source is blocked is one indexed read, and a
/// success writes nothing. Times are Unix seconds passed in, so tests control the clock.
struct BackoffLimiter: Sendable {
    struct Policy: Sendable {
        /// Failures allowed before the first block.
        var allowed: Int
        /// The first block's length in seconds; each further failure doubles it.
        var baseDelay: Int64 = 30
        var maxDelay: Int64 = 900
        /// Seconds of quiet after which a source starts again from zero.
        var forgetAfter: Int64 = 3_600

        /// Until when a source with `count` failures, the last at `now`, is blocked (0: not blocked).
        func blockedUntil(count: Int, now: Int64, before: Int64) -> Int64 {
            guard count >= allowed else { return before }
            let doublings = min(count - allowed, 30)
            return max(before, now + min(baseDelay << Int64(doublings), maxDelay))
        }
    }

    /// What is counted, so that one table holds every limiter's sources apart.
    let scope: String
    let policy: Policy

    init(_ scope: String, _ policy: Policy) {
        self.scope = scope
        self.policy = policy
    }

    /// Seconds until `source` may try again, or nil when it may now.
    func retryAfter(_ db: Connection, _ source: String, now: Int64) throws -> Int? {
        let until = try db.queryOne(
            "SELECT blocked_until FROM failure_counts WHERE scope = ? AND source = ?", scope, source
        ) { try $0.int64("blocked_until") }
        guard let until, until > now else { return nil }
        return Int(until - now)
    }

    /// Records one failure of `source` in the caller's transaction, blocking it when it is over its allowance.
    func record(_ db: Connection, _ source: String, now: Int64) throws {
        let before = try db.queryOne(
            "SELECT count, last_at, blocked_until FROM failure_counts WHERE scope = ? AND source = ?", scope,
            source
        ) {
            (count: try $0.int("count"), last: try $0.int64("last_at"), until: try $0.int64("blocked_until"))
        }
        var count = 1
        var until: Int64 = 0
        if let before, now - before.last < policy.forgetAfter || before.until > now {
            count = before.count + 1
            until = before.until
        }
        until = policy.blockedUntil(count: count, now: now, before: until)
        try db.execute(
            """
            INSERT INTO failure_counts(scope, source, count, last_at, blocked_until) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(scope, source) DO UPDATE SET
                count = excluded.count, last_at = excluded.last_at, blocked_until = excluded.blocked_until
            """, scope, source, count, now, until)
        // Sources long quiet go a few at a time, so the table holds only recent ones.
        try db.execute(
            """
            DELETE FROM failure_counts WHERE (scope, source) IN (
                SELECT scope, source FROM failure_counts WHERE last_at < ? AND blocked_until <= ? LIMIT 20)
            """, now - policy.forgetAfter, now)
    }

    /// Forgets `source`'s failures (a success that has to write anyway, such as a reset password).
    func reset(_ db: Connection, _ source: String) throws {
        try db.execute("DELETE FROM failure_counts WHERE scope = ? AND source = ?", scope, source)
    }
}
