import Foundation
import MusicCore
import Storage

/// A person's places in episodes, kept in the LocalStore first, so a place taken offline is not lost, and sent
/// to the server when it can be reached.
///
/// Of two places the one taken later wins, here as on the server: a save stamps the time it was taken, a
/// place from the server replaces the one here only when it is not older, and a place taken here later than
/// the server's is sent (`sync`, or at the next `save` or `progress`). Places are kept per signed-in person.
public final class EpisodeProgressRepository: Sendable {
    public let repository: MusicRepository
    public let store: LocalStore

    public init(repository: MusicRepository, store: LocalStore) {
        self.repository = repository
        self.store = store
    }

    /// A place kept here.
    struct Local: Sendable {
        var episodeID: String
        var position: Double
        var finished: Bool
        /// Milliseconds since 1970: when the place was taken.
        var takenAt: Int64

        var model: EpisodeProgress {
            EpisodeProgress(
                episodeId: episodeID, position: position, finished: finished,
                updatedAt: Self.timestamp(takenAt))
        }

        /// The API's timestamp to the millisecond, which the server keeps.
        static func timestamp(_ milliseconds: Int64) -> String {
            let seconds = ISO8601Timestamp.string(
                from: Date(timeIntervalSince1970: Double(milliseconds / 1_000)))
            let fraction = Int(milliseconds % 1_000)
            return String(seconds.dropLast()) + "." + String(String(fraction + 1_000).dropFirst()) + "Z"
        }
    }

    private var user: String { repository.userID ?? "-" }

    /// Saves the place taken at `date`: here at once, then on the server when it answers. Answers the place
    /// that now wins (the server's answer, or offline the one kept here).
    @discardableResult
    public func save(episodeID: String, position: Double, finished: Bool = false, at date: Date = Date())
        async throws -> EpisodeProgress
    {
        let place = Local(
            episodeID: episodeID, position: position, finished: finished,
            takenAt: Int64((date.timeIntervalSince1970 * 1_000).rounded()))
        try keep(place, pending: true)
        do {
            return try await send(place)
        } catch let error as APIError where error.kind == .network {
            return try local(episodeID)?.model ?? place.model
        }
    }

    /// The place to resume from: the server's, unless the one kept here was taken later (then it is sent);
    /// offline, the one kept here. Nil when the episode was never played.
    public func progress(episodeID: String) async throws -> EpisodeProgress? {
        let remote: EpisodeProgress
        do {
            remote = try await repository.client.send(PodcastsAPI.progress, path: IDPath(episodeID))
        } catch let error as APIError where error.kind == .network {
            return try local(episodeID)?.model
        }
        let remoteTaken = remote.updatedAt.flatMap(Self.milliseconds)
        if let mine = try local(episodeID), mine.takenAt > remoteTaken ?? Int64.min {
            do {
                return try await send(mine)
            } catch let error as APIError where error.kind == .network {
                return mine.model
            }
        }
        guard let remoteTaken else { return nil }
        try keep(
            Local(
                episodeID: episodeID, position: remote.position, finished: remote.finished,
                takenAt: remoteTaken), pending: false)
        return remote
    }

    /// Sends every place taken here that the server does not have yet; answers how many were sent. Stops at
    /// the first network error (the rest wait for the next sync).
    @discardableResult
    public func sync() async throws -> Int {
        var sent = 0
        for place in try pending() {
            do {
                _ = try await send(place)
                sent += 1
            } catch let error as APIError where error.kind == .notFound {
                try forget(place.episodeID)  // the episode is gone from the server
            }
        }
        return sent
    }

    /// How many places wait to be sent.
    public func pendingCount() throws -> Int {
        try store.database.read { db in
            try db.queryOne(
                "SELECT count(*) AS n FROM episode_progress WHERE user_id = ? AND pending = 1", user
            ) { try $0.int("n") } ?? 0
        }
    }

    // MARK: The server

    /// PUTs `place` with the time it was taken; keeps what the server answers (the place that won there).
    private func send(_ place: Local) async throws -> EpisodeProgress {
        let answer = try await repository.client.send(
            PodcastsAPI.saveProgress, path: IDPath(place.episodeID),
            body: EpisodeProgressDraft(
                position: place.position, finished: place.finished,
                updatedAt: Local.timestamp(place.takenAt)))
        if let taken = answer.updatedAt.flatMap(Self.milliseconds) {
            try keep(
                Local(
                    episodeID: place.episodeID, position: answer.position, finished: answer.finished,
                    takenAt: max(taken, place.takenAt)), pending: false)
        }
        return answer
    }

    static func milliseconds(_ text: String) -> Int64? {
        ISO8601Timestamp.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1_000).rounded()) }
    }

    // MARK: The LocalStore

    /// Keeps `place` unless the one here was taken later; `pending` marks it for sending.
    private func keep(_ place: Local, pending: Bool) throws {
        try store.database.write { db in
            _ = try db.execute(
                """
                INSERT INTO episode_progress (user_id, episode_id, position, finished, updated_at, pending)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, episode_id) DO UPDATE SET position = excluded.position,
                    finished = excluded.finished, updated_at = excluded.updated_at, pending = excluded.pending
                WHERE excluded.updated_at >= episode_progress.updated_at
                """, user, place.episodeID, place.position, place.finished ? 1 : 0, place.takenAt,
                pending ? 1 : 0)
        }
    }

    private func local(_ episodeID: String) throws -> Local? {
        try store.database.read { db in
            try db.queryOne(
                """
                SELECT episode_id, position, finished, updated_at FROM episode_progress
                WHERE user_id = ? AND episode_id = ?
                """, user, episodeID, decode: Self.row)
        }
    }

    private func pending() throws -> [Local] {
        try store.database.read { db in
            try db.query(
                """
                SELECT episode_id, position, finished, updated_at FROM episode_progress
                WHERE user_id = ? AND pending = 1 ORDER BY updated_at
                """, user, decode: Self.row)
        }
    }

    private func forget(_ episodeID: String) throws {
        try store.database.write { db in
            _ = try db.execute(
                "DELETE FROM episode_progress WHERE user_id = ? AND episode_id = ?", user, episodeID)
        }
    }

    private static func row(_ row: Row) throws -> Local {
        Local(
            episodeID: try row.string("episode_id"), position: try row.double("position"),
            finished: try row.int64("finished") != 0, takenAt: try row.int64("updated_at"))
    }
}
