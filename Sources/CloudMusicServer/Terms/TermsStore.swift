import Foundation
import MusicCore
import Storage

/// The SQL of the terms and their acceptances. Every function runs on its caller's connection.
/// SQLite-only: `json_each` for lists of ids.
struct TermsStore: Sendable {
    struct Record: Sendable, Equatable {
        var id: Int64
        var kind: TermsKind
        var version: Int
        var title: String
        var text: String
        var createdAt: Int64
        var updatedAt: Int64

        func model(accepted: Bool?) -> Terms {
            Terms(
                id: String(id), kind: kind, version: version, title: title, text: text, accepted: accepted,
                createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }
    }

    private static let columns = "id, kind, version, title, text, created_at, updated_at"

    private static func decode(_ row: Row) throws -> Record {
        Record(
            id: try row.int64("id"), kind: TermsKind(rawValue: try row.string("kind")) ?? .user,
            version: try row.int("version"), title: try row.string("title"), text: try row.string("text"),
            createdAt: try row.int64("created_at"), updatedAt: try row.int64("updated_at"))
    }

    /// The highest version of each kind, in `TermsKind` order.
    func current(_ db: Connection) throws -> [Record] {
        let records = try db.query(
            """
            SELECT \(Self.columns) FROM terms t
            WHERE version = (SELECT max(version) FROM terms WHERE kind = t.kind)
            """, decode: Self.decode)
        return TermsKind.allCases.compactMap { kind in records.first { $0.kind == kind } }
    }

    func terms(_ db: Connection, id: Int64) throws -> Record? {
        try db.queryOne("SELECT \(Self.columns) FROM terms WHERE id = ?", id, decode: Self.decode)
    }

    func page(_ db: Connection, kind: TermsKind?, paging: Paging) throws -> Page<Terms> {
        let filter = kind == nil ? "" : "WHERE kind = ?"
        let arguments: [any SQLBindable] = kind.map { [$0.rawValue] } ?? []
        let total =
            try db.queryOne("SELECT count(*) AS n FROM terms \(filter)", arguments: arguments) {
                try $0.int("n")
            }
            ?? 0
        let records = try db.query(
            "SELECT \(Self.columns) FROM terms \(filter) ORDER BY id DESC LIMIT ? OFFSET ?",
            arguments: arguments + [paging.size, paging.offset], decode: Self.decode)
        return Page(
            items: records.map { $0.model(accepted: nil) }, total: total, page: paging.page, size: paging.size
        )
    }

    /// Adds the next version of `kind` and returns its id.
    func insert(_ db: Connection, kind: TermsKind, title: String, text: String, createdBy: Int64?, now: Int64)
        throws
        -> Int64
    {
        try db.execute(
            """
            INSERT INTO terms(kind, version, title, text, created_by, created_at, updated_at)
            VALUES (?, (SELECT coalesce(max(version), 0) + 1 FROM terms WHERE kind = ?), ?, ?, ?, ?, ?)
            """, kind.rawValue, kind.rawValue, title, text, createdBy, now, now)
        return db.lastInsertRowID
    }

    /// Of `termsIDs`, those the person has accepted.
    func accepted(_ db: Connection, userID: Int64, termsIDs: [Int64]) throws -> Set<Int64> {
        guard !termsIDs.isEmpty else { return [] }
        return Set(
            try db.query(
                """
                SELECT terms_id FROM terms_acceptances
                WHERE user_id = ? AND terms_id IN (SELECT value FROM json_each(?))
                """, userID, "[" + termsIDs.map(String.init).joined(separator: ",") + "]"
            ) { try $0.int64("terms_id") })
    }

    /// Records an acceptance unless there is one already.
    func accept(_ db: Connection, userID: Int64, termsID: Int64, now: Int64) throws {
        try db.execute(
            "INSERT OR IGNORE INTO terms_acceptances(user_id, terms_id, accepted_at) VALUES (?, ?, ?)",
            userID,
            termsID, now)
    }

    func acceptances(_ db: Connection, userID: Int64) throws -> [TermsAcceptance] {
        try db.query(
            """
            SELECT a.terms_id, a.accepted_at, t.kind, t.version FROM terms_acceptances a
            JOIN terms t ON t.id = a.terms_id
            WHERE a.user_id = ? ORDER BY a.accepted_at DESC, t.id DESC
            """, userID
        ) {
            TermsAcceptance(
                termsId: String(try $0.int64("terms_id")),
                kind: TermsKind(rawValue: try $0.string("kind")) ?? .user,
                version: try $0.int("version"), acceptedAt: APIDate.string(try $0.int64("accepted_at")))
        }
    }
}
