import Foundation
import Storage

/// The client's own SQLite file: the play list and its state, downloads, the lists cached for offline
/// browsing, and places in episodes. One file, one forward-only migration list, each feature's tables in its
/// own migration.
public final class LocalStore: Sendable {
    public let database: Database

    public init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        database = try Database(path: path)
        try Self.migrator.migrate(database)
    }

    static let migrator = Migrator([
        MusicListSchema.migration,
        ClientCacheSchema.downloads,
        ClientCacheSchema.offlineLists,
        ClientCacheSchema.episodeProgress,
    ])
}
