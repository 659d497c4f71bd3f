import MusicCore

/// The keys deep pages travel by (`cursor` in, `nextCursor` out): a row's id, or a score and an id, the
/// score as its bit pattern so the next page starts exactly after this one.
enum PageCursor {
    static let notOurs = ServiceError.invalid(
        "That 'cursor' is not one this server gave out; start again without it.")

    /// An id cursor; nil when the text is absent or empty.
    static func id(_ text: String?) throws -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let id = Int64(text), id > 0 else { throw notOurs }
        return id
    }

    /// A score-and-id cursor; nil when the text is absent or empty.
    static func scored(_ text: String?) throws -> (score: Double, id: Int64)? {
        guard let text, !text.isEmpty else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let bits = UInt64(parts[0]), let id = Int64(parts[1]), id > 0 else {
            throw notOurs
        }
        let score = Double(bitPattern: bits)
        guard score.isFinite else { throw notOurs }
        return (score, id)
    }

    static func scored(_ score: Double, id: String) -> String { "\(score.bitPattern):\(id)" }
}
