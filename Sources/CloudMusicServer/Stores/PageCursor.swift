import MusicCore

/// The keys deep pages travel by (`cursor` in, `nextCursor` out): a row's id, or a score and an id, the
/// score as its bit pattern so the next page starts exactly after this one.
enum PageCursor {
    static let notOurs = ServiceError.invalid(
        "That 'cursor' is not one this server gave out; start again without it.")

    /// An id cursor; nil when the text is absent or empty. A score before the id (the contract's one cursor
    /// shape, `[score:]id`) is not needed here and is passed over.
    static func id(_ text: String?) throws -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let id = Int64(text.split(separator: ":").last ?? ""), id > 0 else { throw notOurs }
        return id
    }

    /// A score-and-id cursor; nil when the text is absent or empty. A cursor without a score (or whose score is
    /// not a number) has `first`, the score the list starts from (infinity for a list highest first).
    static func scored(_ text: String?, first: Double) throws -> (score: Double, id: Int64)? {
        guard let text, !text.isEmpty else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let id = Int64(parts[parts.count - 1]), id > 0 else {
            throw notOurs
        }
        guard parts.count == 2 else { return (first, id) }
        guard let bits = UInt64(parts[0]) else { throw notOurs }
        let score = Double(bitPattern: bits)
        return (score.isNaN ? first : score, id)
    }

    /// A cursor's score as a time (whole seconds), within what a time can be.
    static func time(_ score: Double) -> Int64 {
        Int64(max(-9.2e18, min(9.2e18, score.rounded(.down))))
    }

    static func scored(_ score: Double, id: String) -> String { "\(score.bitPattern):\(id)" }
}
