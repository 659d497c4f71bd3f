import Foundation
import MusicCore
import Storage

/// The SQL of search history and hot searches.
struct SearchHistoryStore: Sendable {
    static let kept = 50

    struct Entry: Sendable, Equatable {
        var id: Int64
        var query: String
        var searchedAt: Int64
    }

    func history(_ db: Connection, userID: Int64) throws -> [Entry] {
        try db.query(
            """
            SELECT id, query, searched_at FROM search_history WHERE user_id = ?
            ORDER BY searched_at DESC, id DESC LIMIT ?
            """, userID, Self.kept, decode: Self.entry)
    }

    /// Keeps a search (an older one of the same words moves to the top); true when the person had not searched
    /// these words today, so that they count once a day for hot searches.
    func record(_ db: Connection, userID: Int64, query: String, key: String, now: Int64, dayStart: Int64)
        throws
        -> (entry: Entry, newToday: Bool)
    {
        let before = try db.queryOne(
            "SELECT searched_at FROM search_history WHERE user_id = ? AND query_key = ?", userID, key
        ) { try $0.int64("searched_at") }
        // A new row (a new, higher id) for words searched again, so that searches within one second keep
        // their order.
        try db.execute("DELETE FROM search_history WHERE user_id = ? AND query_key = ?", userID, key)
        try db.execute(
            "INSERT INTO search_history(user_id, query_key, query, searched_at) VALUES (?, ?, ?, ?)", userID,
            key,
            query, now)
        // Past the most kept, the oldest go.
        try db.execute(
            """
            DELETE FROM search_history WHERE user_id = ? AND id NOT IN (
                SELECT id FROM search_history WHERE user_id = ? ORDER BY searched_at DESC, id DESC LIMIT ?)
            """, userID, userID, Self.kept)
        let entry = try db.queryOne(
            "SELECT id, query, searched_at FROM search_history WHERE user_id = ? AND query_key = ?", userID,
            key,
            decode: Self.entry)!
        return (entry, before.map { $0 < dayStart } ?? true)
    }

    /// How many different words the person searched since `time` (one index range).
    func searches(_ db: Connection, userID: Int64, since time: Int64) throws -> Int {
        try db.queryOne(
            "SELECT count(*) AS n FROM search_history WHERE user_id = ? AND searched_at >= ?", userID, time
        ) { try $0.int("n") } ?? 0
    }

    func count(_ db: Connection, day: Int64, query: String, key: String) throws {
        try db.execute(
            """
            INSERT INTO search_counts(day, query_key, query, searchers) VALUES (?, ?, ?, 1)
            ON CONFLICT(day, query_key) DO UPDATE SET searchers = searchers + 1, query = excluded.query
            """, day, key, query)
    }

    /// True when a row was deleted.
    func delete(_ db: Connection, userID: Int64, id: Int64) throws -> Bool {
        try db.execute("DELETE FROM search_history WHERE user_id = ? AND id = ?", userID, id) > 0
    }

    func clear(_ db: Connection, userID: Int64) throws {
        try db.execute("DELETE FROM search_history WHERE user_id = ?", userID)
    }

    /// The words searched by most people since `firstDay`, with how many.
    func searched(_ db: Connection, since firstDay: Int64, limit: Int) throws -> [(
        key: String, query: String, people: Int
    )] {
        try db.query(
            """
            SELECT query_key, max(query) AS query, sum(searchers) AS people FROM search_counts WHERE day >= ?
            GROUP BY query_key ORDER BY people DESC, query_key LIMIT ?
            """, firstDay, limit
        ) { (try $0.string("query_key"), try $0.string("query"), try $0.int("people")) }
    }

    /// The titles of the songs most people played since `time`, with how many people.
    func played(_ db: Connection, since time: Int64, limit: Int) throws -> [(title: String, people: Int)] {
        try db.query(
            """
            SELECT s.title AS title, p.people AS people FROM (
                SELECT song_id, count(*) AS people FROM song_plays WHERE last_played_at >= ?
                GROUP BY song_id ORDER BY people DESC, song_id LIMIT ?) p
            JOIN songs s ON s.id = p.song_id ORDER BY p.people DESC, s.id
            """, time, limit
        ) { (try $0.string("title"), try $0.int("people")) }
    }

    /// Forgets daily counts older than `firstDay`.
    func forget(_ db: Connection, before firstDay: Int64) throws {
        try db.execute("DELETE FROM search_counts WHERE day < ?", firstDay)
    }

    private static func entry(_ row: Row) throws -> Entry {
        Entry(
            id: try row.int64("id"), query: try row.string("query"), searchedAt: try row.int64("searched_at"))
    }
}
