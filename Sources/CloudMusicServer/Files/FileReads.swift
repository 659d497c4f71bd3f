import MusicCore
import Storage

/// What other features read of uploaded files (a message's picture), on the caller's connection;
/// `FileStore` stays inside Files.
struct FileReads: Sendable {
    private let store = FileStore()

    /// Whether the person uploaded the file.
    func hasUploaded(_ db: Connection, userID: Int64, sha256: String) throws -> Bool {
        try store.hasUploaded(db, userID: userID, sha256: sha256)
    }

    /// The files of these hashes as models, by hash, in one query.
    func files(_ db: Connection, sha256s: [String]) throws -> [String: StoredFile] {
        var pictures: [String: StoredFile] = [:]
        for file in try store.files(db, sha256s: sha256s) {
            pictures[file.sha256] = try UploadService.model(file)
        }
        return pictures
    }
}
