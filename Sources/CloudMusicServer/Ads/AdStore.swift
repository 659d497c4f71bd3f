import Foundation
import MusicCore
import Storage

/// The SQL of ads. Every function runs on its caller's connection.
struct AdStore: Sendable {
    /// One ad as stored.
    struct Record: Sendable, Equatable {
        var id: Int64 = 0
        var title: String
        var position: Int
        var style: Int
        var link: String?
        /// File names under the ads folder: the picture or video, and a video's first frame.
        var mediaFile: String
        var mediaType: String
        var posterFile: String?
        var width: Int
        var height: Int
        var durationMilliseconds: Int?
        var size: Int
        var codecs: String?
        var startsAt: Int64?
        var endsAt: Int64?
        var sort: Int
        var createdAt: Int64 = 0
        var updatedAt: Int64 = 0

        /// The picture clients show: the picture itself, or a video's first frame.
        var pictureFile: String { posterFile ?? mediaFile }

        /// What the API sends. Addresses carry the file's version (`?v=`), so a replaced file is a new one.
        func model() -> Ad {
            let path = IDPath<Ad>(row: id)
            let icon = AdsAPI.icon.uri(path) + "?v=" + Self.version(of: pictureFile)
            let uri =
                style == AdStyle.video.rawValue
                ? AdsAPI.video.uri(path) + "?v=" + Self.version(of: mediaFile) : link
            return Ad(
                id: String(id), title: title, icon: icon, uri: uri, style: style, position: position,
                link: link,
                width: width, height: height, duration: durationMilliseconds,
                startsAt: startsAt.map(APIDate.string), endsAt: endsAt.map(APIDate.string), sort: sort,
                createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }

        /// The hash part of a stored file's name (`0a1b2c3d4e5f6071.jpg`).
        static func version(of file: String) -> String { String(file.split(separator: ".").first ?? "") }
    }

    private static let columns = """
        id, title, position, style, link, media_file, media_type, poster_file, width, height, duration_ms, size,
        codecs, starts_at, ends_at, sort, created_at, updated_at
        """

    private static func decode(_ row: Row) throws -> Record {
        Record(
            id: try row.int64("id"), title: try row.string("title"), position: try row.int("position"),
            style: try row.int("style"), link: try row.optionalString("link"),
            mediaFile: try row.string("media_file"), mediaType: try row.string("media_type"),
            posterFile: try row.optionalString("poster_file"), width: try row.int("width"),
            height: try row.int("height"), durationMilliseconds: try row.optionalInt("duration_ms"),
            size: try row.int("size"), codecs: try row.optionalString("codecs"),
            startsAt: try row.optionalInt64("starts_at"), endsAt: try row.optionalInt64("ends_at"),
            sort: try row.int("sort"), createdAt: try row.int64("created_at"),
            updatedAt: try row.int64("updated_at"))
    }

    /// A page of ads in showing order (position, then sort), of one position or all; with `showingAt`, only
    /// those inside their time window then.
    func ads(_ db: Connection, position: Int?, showingAt now: Int64?, paging: Paging) throws
        -> (records: [Record], total: Int)
    {
        var conditions: [String] = []
        var arguments: [any SQLBindable] = []
        if let position {
            conditions.append("position = ?")
            arguments.append(position)
        }
        if let now {
            conditions.append("(starts_at IS NULL OR starts_at <= ?) AND (ends_at IS NULL OR ends_at > ?)")
            arguments += [now, now]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let total =
            try db.queryOne("SELECT count(*) AS n FROM ads \(filter)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let records = try db.query(
            "SELECT \(Self.columns) FROM ads \(filter) ORDER BY position, sort, id LIMIT ? OFFSET ?",
            arguments: arguments + [paging.size, paging.offset], decode: Self.decode)
        return (records, total)
    }

    /// The soonest moment after `now` at which an ad of `position` (or any) starts or stops showing.
    func nextChange(_ db: Connection, position: Int?, after now: Int64) throws -> Int64? {
        let filter = position == nil ? "" : "AND position = ?"
        let arguments: [any SQLBindable] = [now, now] + (position.map { [$0] } ?? [])
        return try db.queryOne(
            """
            SELECT min(moment) AS next FROM (
                SELECT starts_at AS moment, position FROM ads WHERE starts_at > ?
                UNION ALL SELECT ends_at AS moment, position FROM ads WHERE ends_at > ?
            ) WHERE 1 \(filter)
            """, arguments: arguments
        ) { try $0.optionalInt64("next") } ?? nil
    }

    func ad(_ db: Connection, id: Int64) throws -> Record? {
        try db.queryOne("SELECT \(Self.columns) FROM ads WHERE id = ?", id, decode: Self.decode)
    }

    /// Every ad of a position in showing order.
    func ads(_ db: Connection, position: Int) throws -> [Record] {
        try db.query(
            "SELECT \(Self.columns) FROM ads WHERE position = ? ORDER BY sort, id", position,
            decode: Self.decode)
    }

    /// The sort after the last of a position's ads (0 when it has none).
    func nextSort(_ db: Connection, position: Int) throws -> Int {
        let next = try db.queryOne("SELECT max(sort) + 1 AS next FROM ads WHERE position = ?", position) {
            try $0.optionalInt("next")
        }
        return (next ?? nil) ?? 0
    }

    /// Inserts `record` (its id and times are the store's) and returns its id.
    func insert(_ db: Connection, _ record: Record, createdBy: Int64?, now: Int64) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO ads(title, position, style, link, media_file, media_type, poster_file, width, height,
                duration_ms, size, codecs, starts_at, ends_at, sort, created_by, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, record.title, record.position, record.style, record.link, record.mediaFile, record.mediaType,
            record.posterFile, record.width, record.height, record.durationMilliseconds, record.size,
            record.codecs, record.startsAt, record.endsAt, record.sort, createdBy, now, now)
        return db.lastInsertRowID
    }

    /// Writes every field of `record` but its id and creation time.
    func update(_ db: Connection, _ record: Record, now: Int64) throws {
        try db.execute(
            """
            UPDATE ads SET title = ?, position = ?, style = ?, link = ?, media_file = ?, media_type = ?,
                poster_file = ?, width = ?, height = ?, duration_ms = ?, size = ?, codecs = ?, starts_at = ?,
                ends_at = ?, sort = ?, updated_at = ?
            WHERE id = ?
            """, record.title, record.position, record.style, record.link, record.mediaFile, record.mediaType,
            record.posterFile, record.width, record.height, record.durationMilliseconds, record.size,
            record.codecs, record.startsAt, record.endsAt, record.sort, now, record.id)
    }

    func setSort(_ db: Connection, id: Int64, sort: Int, now: Int64) throws {
        try db.execute("UPDATE ads SET sort = ?, updated_at = ? WHERE id = ?", sort, now, id)
    }

    func delete(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM ads WHERE id = ?", id)
    }

    /// Of `names`, those no ad uses.
    func unusedFiles(_ db: Connection, _ names: [String]) throws -> [String] {
        var unused: [String] = []
        for name in names where !name.isEmpty {
            let used = try db.queryOne(
                "SELECT 1 AS used FROM ads WHERE media_file = ? OR poster_file = ? LIMIT 1", name, name
            ) { _ in true }
            if used == nil { unused.append(name) }
        }
        return unused
    }
}
