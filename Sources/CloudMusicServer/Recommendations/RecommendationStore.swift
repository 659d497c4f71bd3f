import Foundation
import MusicCore
import Storage

/// The SQL of recommendations: the co-occurrence of songs, kept up to date as songs are added to sheets and
/// played (the hooks below run inside the Sheets service's transactions), each person's signals, dislikes and
/// songs of the day, and the catalog reads the fallback needs.
///
/// Every function runs on the connection of its caller's transaction. It reads the catalog's and the sheets'
/// tables (`songs`, `song_artists`, `song_genres`, `sheets`, `sheet_songs`, `song_plays`) without writing
/// them. SQLite-only: upserts, `json_each`, the trigger of `RecommendationsSchema`.
struct RecommendationStore: Sendable {
    /// A play pairs the song with the person's this many songs played last before it.
    static let playPartners = 8
    /// A song added to a sheet pairs with this many songs beside it (the newest, or the ones added with it).
    static let sheetPartners = 10
    static let playWeight = 0.5
    static let sheetWeight = 1.0
    /// A song keeps at most this many neighbours; past it, the weakest are pruned down to `keptNeighbors`, so
    /// new pairs get room to grow before they compete.
    static let maxNeighbors = 150
    static let keptNeighbors = 120
    /// Songs of one addition to a sheet that are paired; the rest of a huge import is left out.
    static let maxPairedPerAddition = 500

    /// An unordered pair of songs (`low < high`).
    struct Pair: Hashable, Sendable {
        let low: Int64
        let high: Int64
        init?(_ a: Int64, _ b: Int64) {
            guard a != b else { return nil }
            low = min(a, b)
            high = max(a, b)
        }
    }

    // MARK: Hooks (called inside the Sheets service's transactions)

    /// Pairs songs about to be added to a sheet with the songs beside them: call it before they are inserted,
    /// so songs already in the sheet are told apart and skipped.
    func songsAddedToSheet(_ db: Connection, sheetID: Int64, songIDs: [Int64]) throws {
        guard
            let isLikes = try db.queryOne(
                "SELECT kind FROM sheets WHERE id = ?", sheetID, decode: { try $0.int("kind") == 1 })
        else { return }
        let present = Set(
            try db.query(
                """
                SELECT song_id FROM sheet_songs
                WHERE sheet_id = ? AND song_id IN (SELECT value FROM json_each(?))
                """, sheetID, JSONColumn.text(songIDs)
            ) { try $0.int64("song_id") })
        var seen = present
        let new = songIDs.filter { seen.insert($0).inserted }.prefix(Self.maxPairedPerAddition)
        guard !new.isEmpty else { return }
        // The songs added last: at the top of "I like", at the end of other sheets.
        let newest = try db.query(
            "SELECT song_id FROM sheet_songs WHERE sheet_id = ? ORDER BY position \(isLikes ? "" : "DESC") LIMIT ?",
            sheetID, Self.sheetPartners
        ) { try $0.int64("song_id") }
        let sequence = newest.reversed() + Array(new)
        var pairs: [Pair: Double] = [:]
        Self.windowPairs(
            sequence, newFrom: newest.count, window: Self.sheetPartners, weight: Self.sheetWeight,
            into: &pairs)
        try add(db, pairs)
    }

    /// Pairs a song just played with the person's songs played last before it: call it after the play is
    /// recorded.
    func songPlayed(_ db: Connection, userID: Int64, songID: Int64) throws {
        let recent = try db.query(
            """
            SELECT song_id FROM song_plays WHERE user_id = ? AND song_id != ?
            ORDER BY last_played_at DESC, song_id LIMIT ?
            """, userID, songID, Self.playPartners
        ) { try $0.int64("song_id") }
        guard !recent.isEmpty else { return }
        var pairs: [Pair: Double] = [:]
        Self.windowPairs(
            recent.reversed() + [songID], newFrom: recent.count, window: Self.playPartners,
            weight: Self.playWeight,
            into: &pairs)
        try add(db, pairs)
    }

    /// Pairs each element from `newFrom` on with the `window` elements before it.
    static func windowPairs(
        _ sequence: [Int64], newFrom: Int, window: Int, weight: Double, into pairs: inout [Pair: Double]
    ) {
        guard newFrom < sequence.count else { return }
        for index in max(newFrom, 1)..<sequence.count {
            for other in sequence[max(0, index - window)..<index] {
                if let pair = Pair(sequence[index], other) { pairs[pair, default: 0] += weight }
            }
        }
    }

    // MARK: Co-occurrence

    /// Adds weight to pairs (both directions), to each song's mass, and prunes songs past `maxNeighbors`.
    func add(_ db: Connection, _ pairs: [Pair: Double]) throws {
        guard !pairs.isEmpty else { return }
        var mass: [Int64: Double] = [:]
        let upsert = """
            INSERT INTO song_neighbors(song_id, other_id, weight) VALUES (?, ?, ?)
            ON CONFLICT(song_id, other_id) DO UPDATE SET weight = weight + excluded.weight
            """
        for (pair, weight) in pairs {
            try db.execute(upsert, pair.low, pair.high, weight)
            try db.execute(upsert, pair.high, pair.low, weight)
            mass[pair.low, default: 0] += weight
            mass[pair.high, default: 0] += weight
        }
        for (songID, weight) in mass {
            try db.execute(
                """
                INSERT INTO song_mass(song_id, mass) VALUES (?, ?)
                ON CONFLICT(song_id) DO UPDATE SET mass = mass + excluded.mass
                """, songID, weight)
            let count =
                try db.queryOne("SELECT count(*) AS n FROM song_neighbors WHERE song_id = ?", songID) {
                    try $0.int("n")
                } ?? 0
            if count > Self.maxNeighbors {
                try db.execute(
                    """
                    DELETE FROM song_neighbors WHERE song_id = ? AND other_id IN (
                        SELECT other_id FROM song_neighbors WHERE song_id = ?
                        ORDER BY weight DESC, other_id LIMIT -1 OFFSET ?)
                    """, songID, songID, Self.keptNeighbors)
            }
        }
    }

    /// A song's strongest neighbours.
    func neighbors(_ db: Connection, songID: Int64, limit: Int) throws -> [(id: Int64, weight: Double)] {
        try db.query(
            "SELECT other_id, weight FROM song_neighbors WHERE song_id = ? ORDER BY weight DESC LIMIT ?",
            songID,
            limit
        ) { (try $0.int64("other_id"), try $0.double("weight")) }
    }

    /// The masses of these songs (absent: none yet).
    func masses(_ db: Connection, ids: [Int64]) throws -> [Int64: Double] {
        guard !ids.isEmpty else { return [:] }
        var result: [Int64: Double] = [:]
        for (id, mass) in try db.query(
            "SELECT song_id, mass FROM song_mass WHERE song_id IN (SELECT value FROM json_each(?))",
            JSONColumn.text(ids), decode: { (try $0.int64("song_id"), try $0.double("mass")) })
        {
            result[id] = mass
        }
        return result
    }

    // MARK: A person's signals

    /// Every song the person played: how often and when last.
    func plays(_ db: Connection, userID: Int64) throws -> [(songID: Int64, count: Int, last: Int64)] {
        try db.query("SELECT song_id, plays_count, last_played_at FROM song_plays WHERE user_id = ?", userID)
        {
            (try $0.int64("song_id"), try $0.int("plays_count"), try $0.int64("last_played_at"))
        }
    }

    /// The songs of the person's "I like" sheet, newest first.
    func liked(_ db: Connection, userID: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            """
            SELECT ss.song_id FROM sheets s JOIN sheet_songs ss ON ss.sheet_id = s.id
            WHERE s.user_id = ? AND s.kind = 1 ORDER BY ss.position LIMIT ?
            """, userID, limit
        ) { try $0.int64("song_id") }
    }

    /// The songs the person added to their own sheets last.
    func ownSheetSongs(_ db: Connection, userID: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            """
            SELECT DISTINCT ss.song_id, ss.added_at FROM sheets s JOIN sheet_songs ss ON ss.sheet_id = s.id
            WHERE s.user_id = ? AND s.kind = 0 ORDER BY ss.added_at DESC LIMIT ?
            """, userID, limit
        ) { try $0.int64("song_id") }
    }

    // MARK: Not interested

    func dislikedIDs(_ db: Connection, userID: Int64) throws -> Set<Int64> {
        Set(
            try db.query("SELECT song_id FROM song_dislikes WHERE user_id = ?", userID) {
                try $0.int64("song_id")
            })
    }

    func dislike(_ db: Connection, userID: Int64, songID: Int64, now: Int64) throws {
        try db.execute(
            "INSERT INTO song_dislikes(user_id, song_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            userID, songID, now)
    }

    func undislike(_ db: Connection, userID: Int64, songID: Int64) throws {
        try db.execute("DELETE FROM song_dislikes WHERE user_id = ? AND song_id = ?", userID, songID)
    }

    func disliked(_ db: Connection, userID: Int64, paging: Paging) throws -> (ids: [Int64], total: Int) {
        let total =
            try db.queryOne("SELECT count(*) AS n FROM song_dislikes WHERE user_id = ?", userID) {
                try $0.int("n")
            }
            ?? 0
        let ids = try db.query(
            """
            SELECT song_id FROM song_dislikes WHERE user_id = ? ORDER BY created_at DESC, song_id LIMIT ? OFFSET ?
            """, userID, paging.size, paging.offset
        ) { try $0.int64("song_id") }
        return (ids, total)
    }

    // MARK: Songs of the day

    func daily(_ db: Connection, userID: Int64) throws -> (day: String, ids: [Int64])? {
        try db.queryOne("SELECT day, song_ids FROM daily_songs WHERE user_id = ?", userID) {
            (try $0.string("day"), (try? JSONColumn.decode([Int64].self, try $0.string("song_ids"))) ?? [])
        }
    }

    /// Keeps the day's list unless one for that day is already there (the first made wins).
    func saveDaily(_ db: Connection, userID: Int64, day: String, ids: [Int64], now: Int64) throws {
        try db.execute(
            """
            INSERT INTO daily_songs(user_id, day, song_ids, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(user_id) DO UPDATE SET day = excluded.day, song_ids = excluded.song_ids,
                created_at = excluded.created_at
            WHERE daily_songs.day != excluded.day
            """, userID, day, JSONColumn.text(ids), now)
    }

    // MARK: The catalog, for the fallback

    /// Artists, genres, album and year of songs.
    struct Facts: Sendable {
        var artists: [Int64] = []
        var genres: [Int64] = []
        var albumID: Int64?
        var year: Int?
    }

    func facts(_ db: Connection, ids: [Int64]) throws -> [Int64: Facts] {
        guard !ids.isEmpty else { return [:] }
        let list = JSONColumn.text(ids)
        var facts: [Int64: Facts] = [:]
        for (id, album, year) in try db.query(
            "SELECT id, album_id, year FROM songs WHERE id IN (SELECT value FROM json_each(?))", list,
            decode: { (try $0.int64("id"), try $0.optionalInt64("album_id"), try $0.optionalInt("year")) })
        {
            facts[id] = Facts(albumID: album, year: year)
        }
        for (id, artist) in try db.query(
            """
            SELECT song_id, artist_id FROM song_artists WHERE song_id IN (SELECT value FROM json_each(?))
            ORDER BY song_id, position
            """, list, decode: { (try $0.int64("song_id"), try $0.int64("artist_id")) })
        {
            facts[id]?.artists.append(artist)
        }
        for (id, genre) in try db.query(
            "SELECT song_id, genre_id FROM song_genres WHERE song_id IN (SELECT value FROM json_each(?))",
            list,
            decode: { (try $0.int64("song_id"), try $0.int64("genre_id")) })
        {
            facts[id]?.genres.append(genre)
        }
        return facts
    }

    /// An artist's songs, most played or newest first.
    func artistSongs(_ db: Connection, artistID: Int64, newest: Bool, limit: Int) throws -> [Int64] {
        let order = newest ? "s.created_at DESC, s.id DESC" : "s.plays_count DESC, s.id"
        return try db.query(
            """
            SELECT s.id FROM song_artists sa JOIN songs s ON s.id = sa.song_id WHERE sa.artist_id = ?
            ORDER BY \(order) LIMIT ?
            """, artistID, limit
        ) { try $0.int64("id") }
    }

    /// An album's songs in order.
    func albumSongs(_ db: Connection, albumID: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            "SELECT id FROM songs WHERE album_id = ? ORDER BY disc_number, track_number, id LIMIT ?", albumID,
            limit
        ) { try $0.int64("id") }
    }

    /// The most played songs of any of these genres, with their years, walking the library's most played
    /// first (so a large genre costs no sort).
    func genreSongs(_ db: Connection, genreIDs: [Int64], offset: Int, limit: Int) throws -> [(
        id: Int64, year: Int?
    )] {
        try db.query(
            """
            SELECT s.id, s.year FROM songs s INDEXED BY songs_by_plays
            WHERE EXISTS (SELECT 1 FROM song_genres g WHERE g.song_id = s.id
                AND g.genre_id IN (SELECT value FROM json_each(?)))
            ORDER BY s.plays_count DESC, s.id LIMIT ? OFFSET ?
            """, JSONColumn.text(genreIDs), limit, offset
        ) { (try $0.int64("id"), try $0.optionalInt("year")) }
    }

    /// The library's most played songs.
    func mostPlayed(_ db: Connection, offset: Int, limit: Int) throws -> [Int64] {
        try db.query("SELECT id FROM songs ORDER BY plays_count DESC, id LIMIT ? OFFSET ?", limit, offset) {
            try $0.int64("id")
        }
    }

    /// The songs added to the library last.
    func newest(_ db: Connection, limit: Int) throws -> [Int64] {
        try db.query("SELECT id FROM songs ORDER BY created_at DESC, id DESC LIMIT ?", limit) {
            try $0.int64("id")
        }
    }

    // MARK: Sheets

    /// Public sheets (not "I like") holding any of these songs, with how many of them each holds.
    func sheetsSharing(_ db: Connection, songIDs: [Int64], excluding sheetID: Int64, limit: Int) throws
        -> [(id: Int64, shared: Int, songs: Int)]
    {
        try db.query(
            """
            SELECT ss.sheet_id AS id, count(*) AS shared, s.songs_count AS songs FROM sheet_songs ss
            JOIN sheets s ON s.id = ss.sheet_id
            WHERE ss.song_id IN (SELECT value FROM json_each(?)) AND ss.sheet_id != ?
                AND s.is_private = 0 AND s.kind = 0
            GROUP BY ss.sheet_id ORDER BY shared DESC, ss.sheet_id DESC LIMIT ?
            """, JSONColumn.text(songIDs), sheetID, limit
        ) { (try $0.int64("id"), try $0.int("shared"), try $0.int("songs")) }
    }

    // MARK: Backfill

    /// Pairs what a batch of people did before the migration (plays, sheets and "I like", oldest first);
    /// false once every person has been done.
    func backfill(_ db: Connection, users limit: Int) throws -> Bool {
        guard
            let (cutoff, next) = try db.queryOne(
                "SELECT cutoff, next_user_id FROM recommendation_backfill WHERE id = 1 AND done = 0",
                decode: { (try $0.int64("cutoff"), try $0.int64("next_user_id")) })
        else { return false }
        let users = try db.query("SELECT id FROM users WHERE id > ? ORDER BY id LIMIT ?", next, limit) {
            try $0.int64("id")
        }
        guard let last = users.last else {
            try db.execute("UPDATE recommendation_backfill SET done = 1 WHERE id = 1")
            return false
        }
        for userID in users {
            var pairs: [Pair: Double] = [:]
            let played = try db.query(
                """
                SELECT song_id FROM song_plays WHERE user_id = ? AND last_played_at < ?
                ORDER BY last_played_at, song_id
                """, userID, cutoff
            ) { try $0.int64("song_id") }
            Self.windowPairs(
                played, newFrom: 1, window: Self.playPartners, weight: Self.playWeight, into: &pairs)
            let sheets = try db.query("SELECT id, kind FROM sheets WHERE user_id = ?", userID) {
                (try $0.int64("id"), try $0.int("kind") == 1)
            }
            for (sheetID, isLikes) in sheets {
                // Oldest first: "I like" keeps its newest at the top.
                let songs = try db.query(
                    """
                    SELECT song_id FROM sheet_songs WHERE sheet_id = ? AND added_at < ?
                    ORDER BY CASE WHEN ? THEN -position ELSE position END
                    """, sheetID, cutoff, isLikes
                ) { try $0.int64("song_id") }
                Self.windowPairs(
                    songs, newFrom: 1, window: Self.sheetPartners, weight: Self.sheetWeight, into: &pairs)
            }
            try add(db, pairs)
        }
        try db.execute("UPDATE recommendation_backfill SET next_user_id = ? WHERE id = 1", last)
        return true
    }
}
