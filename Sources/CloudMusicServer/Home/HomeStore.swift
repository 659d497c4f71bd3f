import Foundation
import MusicCore
import Storage

/// The SQL of the home screen: module settings, people's layouts, and the reads that pick songs for the
/// personal modules (play history, genres). SQLite-only: `json_each` for lists of ids.
struct HomeStore: Sendable {
    struct SettingRow: Sendable, Equatable {
        var moduleType: String
        var enabled: Bool
        var title: String?
        var size: Int
    }

    struct LayoutRow: Sendable, Equatable {
        var moduleType: String
        var hidden: Bool
    }

    /// The saved module settings in order.
    func settings(_ db: Connection) throws -> [SettingRow] {
        try db.query(
            "SELECT module_type, enabled, title, size FROM home_modules ORDER BY position, module_type"
        ) {
            SettingRow(
                moduleType: try $0.string("module_type"), enabled: try $0.bool("enabled"),
                title: try $0.optionalString("title"), size: try $0.int("size"))
        }
    }

    func saveSettings(_ db: Connection, _ rows: [SettingRow]) throws {
        try db.execute("DELETE FROM home_modules")
        for (position, row) in rows.enumerated() {
            try db.execute(
                "INSERT INTO home_modules(module_type, position, enabled, title, size) VALUES (?, ?, ?, ?, ?)",
                row.moduleType, position, row.enabled, row.title, row.size)
        }
    }

    /// A person's saved order, first to last (empty when they have none).
    func layout(_ db: Connection, userID: Int64) throws -> [LayoutRow] {
        try db.query(
            "SELECT module_type, hidden FROM home_layouts WHERE user_id = ? ORDER BY position", userID
        ) {
            LayoutRow(moduleType: try $0.string("module_type"), hidden: try $0.bool("hidden"))
        }
    }

    func saveLayout(_ db: Connection, userID: Int64, _ rows: [LayoutRow]) throws {
        try db.execute("DELETE FROM home_layouts WHERE user_id = ?", userID)
        for (position, row) in rows.enumerated() {
            try db.execute(
                "INSERT INTO home_layouts(user_id, module_type, position, hidden) VALUES (?, ?, ?, ?)",
                userID,
                row.moduleType, position, row.hidden)
        }
    }

    // MARK: Songs for the personal modules

    /// When the person last played anything and how many songs they played in that second (nil: never), to
    /// know whether their recently played changed: two index lookups, and a play in the same second as the
    /// last one still counts as a change.
    func lastPlayed(_ db: Connection, userID: Int64) throws -> HomeService.LastPlayed? {
        guard
            let time = try db.queryOne(
                "SELECT last_played_at FROM song_plays WHERE user_id = ? ORDER BY last_played_at DESC LIMIT 1",
                userID, decode: { try $0.int64("last_played_at") })
        else { return nil }
        let songs =
            try db.queryOne(
                "SELECT count(*) AS n FROM song_plays WHERE user_id = ? AND last_played_at = ?", userID, time
            ) { try $0.int("n") } ?? 0
        return HomeService.LastPlayed(time: time, songs: songs)
    }

    /// The person's most recently played songs.
    func recentSongIDs(_ db: Connection, userID: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            "SELECT song_id FROM song_plays WHERE user_id = ? ORDER BY last_played_at DESC, song_id LIMIT ?",
            userID,
            limit
        ) { try $0.int64("song_id") }
    }

    /// Other people's public sheets that hold the most of the 50 songs the person played last, then the
    /// most collected: an index range of the person's plays and one of `sheet_songs` per song.
    func sheetsHoldingRecentSongs(_ db: Connection, userID: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            """
            WITH recent AS (
                SELECT song_id FROM song_plays WHERE user_id = ? ORDER BY last_played_at DESC LIMIT 50)
            SELECT sh.id AS id, count(DISTINCT ss.song_id) AS shared
            FROM recent r JOIN sheet_songs ss ON ss.song_id = r.song_id JOIN sheets sh ON sh.id = ss.sheet_id
            WHERE sh.is_private = 0 AND sh.kind = 0 AND sh.user_id != ?
            GROUP BY sh.id ORDER BY shared DESC, sh.collects_count DESC, sh.id LIMIT ?
            """, userID, userID, limit
        ) { try $0.int64("id") }
    }

    /// The genres of the songs the person played most, by plays.
    func topGenres(_ db: Connection, userID: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            """
            SELECT sg.genre_id AS genre_id, sum(sp.plays_count) AS plays
            FROM song_plays sp JOIN song_genres sg ON sg.song_id = sp.song_id
            WHERE sp.user_id = ?
            GROUP BY sg.genre_id ORDER BY plays DESC, sg.genre_id LIMIT ?
            """, userID, limit
        ) { try $0.int64("genre_id") }
    }

    /// The most played songs of the library, or of any of `genreIDs`.
    func mostPlayedSongIDs(_ db: Connection, genreIDs: [Int64], limit: Int) throws -> [Int64] {
        if genreIDs.isEmpty {
            return try db.query("SELECT id FROM songs ORDER BY plays_count DESC, id LIMIT ?", limit) {
                try $0.int64("id")
            }
        }
        return try db.query(
            """
            SELECT s.id FROM songs s
            WHERE EXISTS (
                SELECT 1 FROM song_genres sg
                WHERE sg.song_id = s.id AND sg.genre_id IN (SELECT value FROM json_each(?)))
            ORDER BY s.plays_count DESC, s.id LIMIT ?
            """, "[" + genreIDs.map(String.init).joined(separator: ",") + "]", limit
        ) { try $0.int64("id") }
    }
}
