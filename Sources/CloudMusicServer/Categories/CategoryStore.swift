import Foundation
import MusicCore
import Storage

/// The SQL of categories: reads of the library's genres, songs and albums and of public sheets' tags.
/// SQLite-only: `json_each` over a sheet's tags.
struct CategoryStore: Sendable {
    /// Every genre as a category, those with most songs first.
    func categories(_ db: Connection) throws -> [Category] {
        let genres = try db.query(
            "SELECT id, name, songs_count FROM genres ORDER BY songs_count DESC, name_key"
        ) {
            (id: try $0.int64("id"), name: try $0.string("name"), songs: try $0.int("songs_count"))
        }
        guard !genres.isEmpty else { return [] }
        // Per genre: how many albums it reaches, and its most played album (most songs breaking ties).
        var albums: [Int64: Int] = [:]
        var best: [Int64: (album: Int64, plays: Int, songs: Int)] = [:]
        for row in try db.query(
            """
            SELECT sg.genre_id AS genre_id, s.album_id AS album_id, count(*) AS songs, sum(s.plays_count) AS plays
            FROM song_genres sg JOIN songs s ON s.id = sg.song_id
            WHERE s.album_id IS NOT NULL
            GROUP BY sg.genre_id, s.album_id
            """,
            decode: {
                (
                    genre: try $0.int64("genre_id"), album: try $0.int64("album_id"),
                    songs: try $0.int("songs"),
                    plays: try $0.int("plays")
                )
            })
        {
            albums[row.genre, default: 0] += 1
            if let current = best[row.genre],
                (current.plays, current.songs, -current.album) >= (row.plays, row.songs, -row.album)
            {
                continue
            }
            best[row.genre] = (row.album, row.plays, row.songs)
        }
        var sheets: [String: Int] = [:]
        for (tag, count) in try db.query(
            """
            SELECT lower(t.value) AS tag, count(*) AS n FROM sheets sh, json_each(sh.tags) t
            WHERE sh.is_private = 0 AND sh.kind = 0
            GROUP BY lower(t.value)
            """, decode: { (try $0.string("tag"), try $0.int("n")) })
        {
            sheets[tag] = count
        }
        return genres.map { genre in
            Category(
                id: String(genre.id), name: genre.name,
                icon: best[genre.id].map { CatalogAPI.albumCover.uri(IDPath(row: $0.album)) },
                songsCount: genre.songs,
                albumsCount: albums[genre.id] ?? 0, sheetsCount: sheets[Self.asciiLowercased(genre.name)] ?? 0
            )
        }
    }

    /// What SQLite's `lower()` makes of a text: ASCII letters lowercased, everything else kept.
    static func asciiLowercased(_ text: String) -> String {
        String(
            decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
