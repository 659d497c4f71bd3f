import Foundation
import Storage

/// The SQL of uploaded files. Every function runs on the connection of its caller's transaction.
struct FileStore: Sendable {
    /// One stored upload: its hash, what was stored and what was uploaded.
    struct Record: Sendable, Equatable {
        var sha256: String
        var kind: String
        var mime: String
        var width: Int
        var height: Int
        var size: Int
        var originalFormat: String
        var originalSize: Int
    }

    private static let columns =
        "sha256, kind, mime, width, height, size, original_format, original_size"

    private static func decode(_ row: Row) throws -> Record {
        Record(
            sha256: try row.string("sha256"), kind: try row.string("kind"), mime: try row.string("mime"),
            width: try row.int("width"), height: try row.int("height"), size: try row.int("size"),
            originalFormat: try row.string("original_format"), originalSize: try row.int("original_size"))
    }

    func file(_ db: Connection, sha256: String) throws -> Record? {
        try db.queryOne(
            "SELECT \(Self.columns) FROM uploaded_files WHERE sha256 = ?", sha256, decode: Self.decode)
    }

    /// The stored files of these digests, in no order (those not stored are left out).
    func files(_ db: Connection, sha256s: [String]) throws -> [Record] {
        guard !sha256s.isEmpty else { return [] }
        return try db.query(
            "SELECT \(Self.columns) FROM uploaded_files WHERE sha256 IN (SELECT value FROM json_each(?))",
            JSONColumn.text(sha256s), decode: Self.decode)
    }

    /// Records a stored file for `userID` and returns its row as it now is. A file already recorded keeps
    /// its row (and first uploader); the person is added to its uploaders.
    func save(_ db: Connection, _ r: Record, userID: Int64, now: Int64) throws -> Record {
        try db.execute(
            """
            INSERT OR IGNORE INTO uploaded_files(\(Self.columns), user_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, r.sha256, r.kind, r.mime, r.width, r.height, r.size, r.originalFormat, r.originalSize,
            userID,
            now)
        try db.execute(
            "INSERT OR IGNORE INTO user_files(user_id, sha256, created_at) VALUES (?, ?, ?)", userID,
            r.sha256, now)
        guard let row = try file(db, sha256: r.sha256) else {
            throw DatabaseError(code: 1, message: "uploaded_files row vanished after insert")
        }
        return row
    }

    /// Whether `userID` has uploaded the file `sha256` (for checks such as "only your own pictures").
    func hasUploaded(_ db: Connection, userID: Int64, sha256: String) throws -> Bool {
        try db.queryOne(
            "SELECT 1 AS found FROM user_files WHERE user_id = ? AND sha256 = ?", userID, sha256
        ) { _ in true } ?? false
    }
}
