import Foundation
import MusicCore
import Storage

/// The SQL of published app versions. Every function runs on its caller's connection.
struct AppVersionStore: Sendable {
    struct Record: Sendable, Equatable {
        var id: Int64
        var platform: AppPlatform
        var version: String
        var build: Int
        var notes: String
        var uri: String?
        var force: Bool
        var createdAt: Int64
        var updatedAt: Int64

        func model() -> AppVersion {
            AppVersion(
                id: String(id), platform: platform, version: version, build: build, notes: notes, uri: uri,
                force: force, createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }
    }

    private static let columns = "id, platform, version, build, notes, uri, force, created_at, updated_at"

    private static func decode(_ row: Row) throws -> Record {
        Record(
            id: try row.int64("id"), platform: AppPlatform(rawValue: try row.string("platform")) ?? .web,
            version: try row.string("version"), build: try row.int("build"), notes: try row.string("notes"),
            uri: try row.optionalString("uri"), force: try row.bool("force"),
            createdAt: try row.int64("created_at"), updatedAt: try row.int64("updated_at"))
    }

    /// Every version of a platform.
    func versions(_ db: Connection, platform: AppPlatform) throws -> [Record] {
        try db.query(
            "SELECT \(Self.columns) FROM app_versions WHERE platform = ?", platform.rawValue,
            decode: Self.decode)
    }

    /// A page of versions, newest published first, of one platform or all.
    func page(_ db: Connection, platform: AppPlatform?, paging: Paging) throws -> Page<AppVersion> {
        let filter = platform == nil ? "" : "WHERE platform = ?"
        let arguments: [any SQLBindable] = platform.map { [$0.rawValue] } ?? []
        let total =
            try db.queryOne("SELECT count(*) AS n FROM app_versions \(filter)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let records = try db.query(
            "SELECT \(Self.columns) FROM app_versions \(filter) ORDER BY id DESC LIMIT ? OFFSET ?",
            arguments: arguments + [paging.size, paging.offset], decode: Self.decode)
        return Page(items: records.map { $0.model() }, total: total, page: paging.page, size: paging.size)
    }

    func version(_ db: Connection, id: Int64) throws -> Record? {
        try db.queryOne("SELECT \(Self.columns) FROM app_versions WHERE id = ?", id, decode: Self.decode)
    }

    func insert(
        _ db: Connection, platform: AppPlatform, version: String, build: Int, notes: String, uri: String?,
        force: Bool, createdBy: Int64?, now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO app_versions(platform, version, build, notes, uri, force, created_by, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, platform.rawValue, version, build, notes, uri, force, createdBy, now, now)
        return db.lastInsertRowID
    }

    func update(_ db: Connection, _ record: Record, now: Int64) throws {
        try db.execute(
            "UPDATE app_versions SET notes = ?, uri = ?, force = ?, updated_at = ? WHERE id = ?",
            record.notes,
            record.uri, record.force, now, record.id)
    }

    func delete(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM app_versions WHERE id = ?", id)
    }
}
