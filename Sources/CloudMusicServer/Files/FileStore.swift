import Foundation
import Storage

/// The SQL of uploaded files.
struct FileStore: Sendable {
    let database: Database

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
            sha256: try row.string(0), kind: try row.string(1), mime: try row.string(2),
            width: try row.int(3), height: try row.int(4), size: try row.int(5),
            originalFormat: try row.string(6), originalSize: try row.int(7))
    }

    func file(sha256: String) throws -> Record? {
        try database.read { db in
            try db.queryOne(
                "SELECT \(Self.columns) FROM uploaded_files WHERE sha256 = ?", sha256, decode: Self.decode)
        }
    }

    /// Records stored files for `userID` in one transaction and returns the rows as they now are. A file
    /// already recorded keeps its row (and first uploader); the person is added to its uploaders.
    func save(_ records: [Record], userID: Int64, now: Int64) throws -> [Record] {
        try database.write { db in
            var saved: [Record] = []
            for r in records {
                _ = try db.execute(
                    """
                    INSERT OR IGNORE INTO uploaded_files(\(Self.columns), user_id, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, r.sha256, r.kind, r.mime, r.width, r.height, r.size, r.originalFormat,
                    r.originalSize, userID, now)
                _ = try db.execute(
                    "INSERT OR IGNORE INTO user_files(user_id, sha256, created_at) VALUES (?, ?, ?)", userID,
                    r.sha256, now)
                guard
                    let row = try db.queryOne(
                        "SELECT \(Self.columns) FROM uploaded_files WHERE sha256 = ?", r.sha256,
                        decode: Self.decode)
                else { throw DatabaseError(code: 1, message: "uploaded_files row vanished after insert") }
                saved.append(row)
            }
            return saved
        }
    }

    /// Whether `userID` has uploaded the file `sha256` (for checks such as "only your own pictures").
    func hasUploaded(userID: Int64, sha256: String) throws -> Bool {
        try database.read { db in
            try db.queryOne("SELECT 1 FROM user_files WHERE user_id = ? AND sha256 = ?", userID, sha256) {
                _ in
                true
            } ?? false
        }
    }
}
