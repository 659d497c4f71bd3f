import Foundation
import MusicCore

/// The server's play queue through the repository, for `MusicListManager.syncWithServer`.
extension MusicRepository: QueueSyncing {
    public func fetchQueue() async throws -> PlayQueue { try await queue() }

    public func saveQueue(_ queue: PlayQueue, baseVersion: Int?) async throws -> PlayQueue {
        do {
            return try await saveQueue(
                QueueDraft(
                    songIds: try .ids(queue.songIds, field: "songIds"), currentIndex: queue.currentIndex,
                    position: queue.position,
                    loopMode: queue.loopMode, baseVersion: baseVersion))
        } catch let error as APIError where error.kind == .conflict {
            throw QueueSyncConflict()
        }
    }

    /// The queue's songs, eight requests at a time (the API has no batch lookup); songs the server no
    /// longer has are left out, and any other failure is thrown.
    public func songs(ids: [String]) async throws -> [Song] {
        var found: [String: Song] = [:]
        for batch in stride(from: 0, to: ids.count, by: 8).map({ Array(ids[$0..<min($0 + 8, ids.count)]) }) {
            try await withThrowingTaskGroup(of: Song?.self) { group in
                for id in Set(batch) where found[id] == nil {
                    group.addTask {
                        do {
                            return try await self.song(id: id).value
                        } catch let error as APIError where error.kind == .notFound {
                            return nil
                        }
                    }
                }
                for try await song in group { if let song { found[song.id] = song } }
            }
        }
        return ids.compactMap { found[$0] }
    }
}
