/// Hot searches (热搜) and each person's search history, which the search screen shows before anything is
/// typed.
public enum SearchHistoryAPI {
    public static let hot = Endpoint<NoPath, NoQuery, NoBody, [HotSearch], Anyone>(
        "hot", .GET, "/v1/searches/hot",
        "What people searched for and played most in the last seven days, best first (recomputed every few "
            + "minutes; sent with an ETag)")
    public static let history = Endpoint<NoPath, NoQuery, NoBody, [SearchHistoryEntry], SignedIn>(
        "history", .GET, "/v1/searches/history", "One's own recent searches, newest first (at most 50)")
    public static let record = Endpoint<NoPath, NoQuery, SearchDraft, SearchHistoryEntry, SignedIn>(
        "record", .POST, "/v1/searches/history",
        "Keep a search in one's history (the same words again move to the top) and count it for hot searches",
        status: 201)
    public static let delete = Endpoint<IDPath<SearchHistoryEntry>, NoQuery, NoBody, Done, SignedIn>(
        "delete", .DELETE, "/v1/searches/history/{id}", "Forget one search of one's history",
        resource: "search", idempotent: true)
    public static let clear = Endpoint<NoPath, NoQuery, NoBody, Done, SignedIn>(
        "clear", .DELETE, "/v1/searches/history", "Forget one's whole search history", idempotent: true)

    public static let group = APIGroup(
        "searchHistory", "Hot searches and one's own search history", [hot, history, record, delete, clear])
}

/// One hot search: the words, and how much they were searched and played this week.
public struct HotSearch: Codable, Sendable, Equatable {
    public var query: String
    /// People who searched these words plus plays of the song of this title, over seven days.
    public var score: Int
    public init(query: String, score: Int) {
        self.query = query
        self.score = score
    }
}

/// A search one made, as one's history keeps it.
public struct SearchHistoryEntry: Codable, Sendable, Equatable {
    public var id: String
    public var query: String
    public var searchedAt: String
    public init(id: String, query: String, searchedAt: String) {
        self.id = id
        self.query = query
        self.searchedAt = searchedAt
    }
}

/// A search to keep: `query` of 1-100 characters.
public struct SearchDraft: Codable, Sendable, Equatable {
    public var query: String
    public init(query: String) { self.query = query }
}
