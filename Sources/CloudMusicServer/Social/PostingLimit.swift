import MusicCore

/// How many comments or moments one person may write in a minute and in a day.
///
/// A service checks it inside the write transaction that stores the post, so requests sent at once
/// cannot all pass a limit the first one reached.
struct PostingLimit: Sendable {
    let perMinute: Int
    let perDay: Int
    /// What the person is doing, for the messages: "commenting", "posting".
    let doing: String
    /// What they write, plural: "comments", "moments".
    let things: String

    /// Throws `rateLimited` when the person reached a limit; `writtenSince` counts their posts since a time.
    func check(now: Int64, writtenSince: (Int64) throws -> Int) throws {
        if try writtenSince(now - 60) >= perMinute {
            throw ServiceError.rateLimited("You are \(word: doing) very fast. Wait a minute.", retryAfter: 60)
        }
        if try writtenSince(now - 86_400) >= perDay {
            throw ServiceError.rateLimited(
                "That is the most \(word: things) for one day (\(perDay)).", retryAfter: 3_600)
        }
    }
}
