import Synchronization

/// Counts events (failed sign-ins, code sends) per key and, once a key passes its allowance, blocks it
/// for a delay that doubles with each further event, up to a cap. A key that stays quiet is forgotten.
///
/// State lives in memory: one server instance. Times are Unix seconds passed in, so tests control the clock.
final class BackoffLimiter: Sendable {
    struct Policy: Sendable {
        /// Events allowed before the first block.
        var allowed: Int
        /// The first block's length in seconds; each further event doubles it.
        var baseDelay: Int64
        var maxDelay: Int64
        /// Seconds of quiet after which a key starts again from zero.
        var forgetAfter: Int64
    }

    private struct Entry {
        var count: Int
        var last: Int64
        var blockedUntil: Int64
    }

    let policy: Policy
    private let entries = Mutex<[String: Entry]>([:])

    init(_ policy: Policy) { self.policy = policy }

    /// Seconds until `key` may try again, or nil when it may now.
    func retryAfter(_ key: String, now: Int64) -> Int? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.blockedUntil > now else { return nil }
            return Int(entry.blockedUntil - now)
        }
    }

    /// Records one event for `key`, blocking it when it is over its allowance.
    func record(_ key: String, now: Int64) {
        entries.withLock { entries in
            if entries.count > 50_000 {
                entries = entries.filter {
                    now - $0.value.last < policy.forgetAfter || $0.value.blockedUntil > now
                }
            }
            var entry = entries[key] ?? Entry(count: 0, last: now, blockedUntil: 0)
            if now - entry.last >= policy.forgetAfter && entry.blockedUntil <= now { entry.count = 0 }
            entry.count += 1
            entry.last = now
            if entry.count >= policy.allowed {
                let doublings = min(entry.count - policy.allowed, 30)
                let delay = min(policy.baseDelay << Int64(doublings), policy.maxDelay)
                entry.blockedUntil = max(entry.blockedUntil, now + delay)
            }
            entries[key] = entry
        }
    }

    /// Forgets `key` (after a successful sign-in).
    func reset(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
