import Foundation
import MusicCore
import Storage

/// The audiobooks' SQL (`AudiobooksSchema`): books as podcasts of the kind `audiobook`, parts as their episodes.
struct AudiobookStore: Sendable {
    typealias BookFields = AudiobookFields

    /// One part to write.
    struct Part: Sendable {
        /// Its path inside the audiobooks folder: its guid and its file.
        var path: String
        var fields: PodcastEpisodeFields
        /// Its chapters as JSON, when the file has chapter atoms.
        var chapters: String?
    }

    /// Never due: books are scanned, not refreshed.
    static let neverDue: Int64 = 253_402_300_799
    static let keyPrefix = "audiobook:"

    static func decodeBook(_ row: Row) throws -> BookFields? { try AudiobookFields.decode(row) }

    /// Every book by its key (its path inside the folder), with the stamp of its files when last read.
    func books(_ db: Connection) throws -> [String: (id: Int64, stamp: String?)] {
        var books: [String: (id: Int64, stamp: String?)] = [:]
        for (id, url, stamp) in try db.query(
            "SELECT id, feed_url, book_stamp FROM podcasts WHERE kind = 'audiobook'",
            decode: { (try $0.int64("id"), try $0.string("feed_url"), try $0.optionalString("book_stamp")) })
        where url.hasPrefix(Self.keyPrefix) {
            books[String(url.dropFirst(Self.keyPrefix.count))] = (id, stamp)
        }
        return books
    }

    /// Writes a book and its parts (new ones added, changed ones updated, those gone deleted with their
    /// progress); answers its id.
    func write(
        _ db: Connection, key: String, existing: Int64?, fields: PodcastFields, book: BookFields,
        stamp: String, parts: [Part], now: Int64
    ) throws -> Int64 {
        let id: Int64
        if let existing {
            id = existing
            try db.execute(
                """
                UPDATE podcasts SET title = ?, author = ?, description_text = ?, search_text = ?, narrator = ?,
                    series = ?, series_part = ?, year = ?, book_cover = ?, book_stamp = ?, refreshed_at = ?,
                    updated_at = ?
                WHERE id = ?
                """, fields.title, fields.author, fields.descriptionText, fields.searchText, book.narrator,
                book.series, book.seriesPart, book.year, book.cover, stamp, now, now, id)
        } else {
            id = try db.queryOne(
                """
                INSERT INTO podcasts(feed_url, title, author, description_text, search_text, kind, narrator, series,
                    series_part, year, book_cover, book_stamp, refreshed_at, next_refresh_at, created_at,
                    updated_at)
                VALUES (?, ?, ?, ?, ?, 'audiobook', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """, Self.keyPrefix + key, fields.title, fields.author, fields.descriptionText,
                fields.searchText,
                book.narrator, book.series, book.seriesPart, book.year, book.cover, stamp, now, Self.neverDue,
                now,
                now
            ) { try $0.int64("id") }!
        }
        var known: [String: Int64] = [:]
        for (partID, guid) in try db.query(
            "SELECT id, guid FROM podcast_episodes WHERE podcast_id = ?", id,
            decode: { (try $0.int64("id"), try $0.string("guid")) })
        {
            known[guid] = partID
        }
        for part in parts {
            let f = part.fields
            if let partID = known.removeValue(forKey: part.path) {
                try db.execute(
                    """
                    UPDATE podcast_episodes SET title = ?, duration = ?, enclosure_type = ?, enclosure_length = ?,
                        episode = ?, file_name = ?, chapters = ?, updated_at = ?
                    WHERE id = ?
                    """, f.title, f.duration, f.enclosureType, f.enclosureLength, f.episode, part.path,
                    part.chapters, now, partID)
            } else {
                try db.execute(
                    """
                    INSERT INTO podcast_episodes(podcast_id, guid, title, duration, enclosure_url, enclosure_type,
                        enclosure_length, episode, file_name, chapters, created_at, updated_at)
                    VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?)
                    """, id, part.path, f.title, f.duration, f.enclosureType, f.enclosureLength, f.episode,
                    part.path, part.chapters, now, now)
            }
        }
        for partID in known.values {
            try db.execute("DELETE FROM podcast_episodes WHERE id = ?", partID)
        }
        return id
    }

    func delete(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM podcasts WHERE id = ? AND kind = 'audiobook'", id)
    }

    /// Remembers that an administrator deleted the book `id` (nothing when `id` is a feed's podcast), with the
    /// stamp of its files, so scans leave it out until they change.
    func rememberDeletion(_ db: Connection, id: Int64, now: Int64) throws {
        try db.execute(
            """
            INSERT INTO audiobook_deletions(book_key, stamp, title, deleted_at)
            SELECT substr(feed_url, ?), coalesce(book_stamp, ''), title, ? FROM podcasts
            WHERE id = ? AND kind = 'audiobook' AND feed_url LIKE 'audiobook:%'
            ON CONFLICT(book_key) DO UPDATE SET stamp = excluded.stamp, title = excluded.title,
                deleted_at = excluded.deleted_at
            """, Self.keyPrefix.count + 1, now, id)
    }

    /// The deleted books' stamps by their key.
    func deletions(_ db: Connection) throws -> [String: String] {
        var stamps: [String: String] = [:]
        for (key, stamp) in try db.query(
            "SELECT book_key, stamp FROM audiobook_deletions",
            decode: { (try $0.string("book_key"), try $0.string("stamp")) })
        {
            stamps[key] = stamp
        }
        return stamps
    }

    /// The deleted books, the last deleted first.
    func deletedBooks(_ db: Connection) throws -> [DeletedAudiobook] {
        try db.query(
            "SELECT id, book_key, title, deleted_at FROM audiobook_deletions ORDER BY deleted_at DESC, id DESC"
        ) {
            DeletedAudiobook(
                id: String(try $0.int64("id")), path: try $0.string("book_key"),
                title: try $0.string("title"),
                deletedAt: APIDate.string(try $0.int64("deleted_at")))
        }
    }

    /// Forgets a deletion (by its id or the book's key): the next scan adds the book again. False when there
    /// was none.
    @discardableResult
    func forgetDeletion(_ db: Connection, id: Int64? = nil, key: String? = nil) throws -> Bool {
        if let id { return try db.execute("DELETE FROM audiobook_deletions WHERE id = ?", id) > 0 }
        guard let key else { return false }
        return try db.execute("DELETE FROM audiobook_deletions WHERE book_key = ?", key) > 0
    }

    /// A part's file (inside the folder), duration and chapters JSON; nil when `id` is no book's part.
    func part(_ db: Connection, id: Int64) throws -> (
        path: String, title: String, duration: Int?, chapters: String?
    )? {
        try db.queryOne(
            """
            SELECT e.file_name, e.title, e.duration, e.chapters FROM podcast_episodes e
            JOIN podcasts p ON p.id = e.podcast_id
            WHERE e.id = ? AND p.kind = 'audiobook' AND e.file_name IS NOT NULL
            """, id
        ) {
            (
                try $0.string("file_name"), try $0.string("title"), try $0.optionalInt("duration"),
                try $0.optionalString("chapters")
            )
        }
    }

    /// A book's cover and first part (paths inside the folder); nil when `id` is no book.
    func coverSources(_ db: Connection, id: Int64) throws -> (cover: String?, firstPart: String?)? {
        try db.queryOne(
            """
            SELECT p.book_cover,
                (SELECT e.file_name FROM podcast_episodes e WHERE e.podcast_id = p.id ORDER BY e.episode, e.id
                 LIMIT 1) AS first_part
            FROM podcasts p WHERE p.id = ? AND p.kind = 'audiobook'
            """, id
        ) { (try $0.optionalString("book_cover"), try $0.optionalString("first_part")) }
    }
}
