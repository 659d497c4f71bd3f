import Foundation
import MusicCore
import Storage

/// Each person's search history, and hot searches (热搜) made from what people searched and played.
///
/// Hot searches cost a request one lookup: the list is kept as JSON and rebuilt in the background every five
/// minutes from two small reads, the week's daily search counts (a person counts once per words and day,
/// when their history takes the search) and the songs most people played in the week (one range of the
/// `last_played_at` index, grouped by song). Nothing reads a whole history table.
final class SearchHistoryService: Sendable {
    let database: Database
    let store = SearchHistoryStore()
    let clock: @Sendable () -> Double
    private let hotCache = ExpiringCache<Int, PreparedAnswer<[HotSearch]>>(capacity: 1)

    static let hotCount = 10
    static let hotLifetime: Double = 300
    static let maxQuery = 100
    static let perMinute = 30
    static let noSearch = ServiceError.notFound("That search is not in your history.")

    init(database: Database, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.database = database
        self.clock = clock
    }

    func history(viewer: Viewer) throws -> [SearchHistoryEntry] {
        try database.read { db in try store.history(db, userID: viewer.userID) }.map(Self.model)
    }

    /// Keeps a search in the person's history and, the first time today, counts it for hot searches.
    func record(_ draft: SearchDraft, viewer: Viewer) throws -> SearchHistoryEntry {
        let query = draft.query.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !query.isEmpty else {
            throw ServiceError.invalid("Give 'query': the words that were searched.")
        }
        guard query.count <= Self.maxQuery else {
            throw ServiceError.invalid("'query' can be at most \(Self.maxQuery) characters.")
        }
        guard !query.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ServiceError.invalid("'query' cannot contain control characters.")
        }
        let key = Self.key(query)
        let now = Int64(clock())
        let day = now / 86_400
        let entry = try database.write { db in
            // Hot searches count people, so one person cannot add many words a second to them.
            guard try store.searches(db, userID: viewer.userID, since: now - 60) < Self.perMinute else {
                throw ServiceError.rateLimited(
                    "You are searching very fast. Wait a minute.", retryAfter: 60)
            }
            let (entry, newToday) = try store.record(
                db, userID: viewer.userID, query: query, key: key, now: now, dayStart: day * 86_400)
            if newToday { try store.count(db, day: day, query: query, key: key) }
            return entry
        }
        return Self.model(entry)
    }

    func delete(id: Int64, viewer: Viewer) throws {
        guard try database.write({ db in try store.delete(db, userID: viewer.userID, id: id) }) else {
            throw Self.noSearch
        }
    }

    func clear(viewer: Viewer) throws {
        try database.write { db in try store.clear(db, userID: viewer.userID) }
    }

    /// The week's hot searches: people who searched the words, and people who played a song of that title.
    func hot() throws -> PreparedAnswer<[HotSearch]> {
        try hotCache.value(0) { [self] in
            let now = Int64(clock())
            let firstDay = now / 86_400 - 6
            let (searched, played) = try database.read { db in
                (
                    try store.searched(db, since: firstDay, limit: Self.hotCount * 3),
                    try store.played(db, since: now - 7 * 86_400, limit: Self.hotCount * 3)
                )
            }
            try database.write { db in try store.forget(db, before: firstDay - 1) }
            let answer = try PreparedAnswer(Self.rank(searched: searched, played: played))
            return (answer, clock() + Self.hotLifetime)
        }
    }

    /// Searches and plays of the same words add up (a search counts as much as three plays); best first.
    static func rank(
        searched: [(key: String, query: String, people: Int)], played: [(title: String, people: Int)]
    )
        -> [HotSearch]
    {
        var scores: [String: (query: String, score: Int)] = [:]
        for entry in searched { scores[entry.key] = (entry.query, entry.people * 3) }
        for entry in played {
            let key = Self.key(entry.title)
            scores[key, default: (entry.title, 0)].score += entry.people
        }
        return scores.values.sorted { ($0.score, $1.query) > ($1.score, $0.query) }.prefix(hotCount).map {
            HotSearch(query: $0.query, score: $0.score)
        }
    }

    /// The same words however they were typed: case, full-width forms and spaces folded.
    static func key(_ query: String) -> String {
        (query.applyingTransform(.fullwidthToHalfwidth, reverse: false) ?? query).lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func model(_ entry: SearchHistoryStore.Entry) -> SearchHistoryEntry {
        SearchHistoryEntry(
            id: String(entry.id), query: entry.query, searchedAt: APIDate.string(entry.searchedAt))
    }
}
