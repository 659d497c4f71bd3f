import Foundation
import MusicCore
import Storage

/// The recommendation engine on a database file, for Benchmarks/recommendations: the schema brought up to date,
/// the backfill run to its end, and the same calls the server makes. Not an API of the server.
@_spi(Benchmarks) public final class RecommendationLab {
    public let database: Database
    let service: RecommendationService
    let engine = RecommendationEngine()

    /// Opens (creating when missing) a database and brings its schema up to date.
    public init(databasePath: String) throws {
        database = try Database(path: databasePath)
        try Schema.migrator.migrate(database)
        service = RecommendationService(database: database)
    }

    /// Pairs everything recorded before the schema got recommendations, in the server's bounded batches.
    public func backfill(progress: (Int) -> Void = { _ in }) throws {
        try RecommendationBackfill(database: database, usersPerBatch: 50).runToEnd(progress: progress)
    }

    /// A day's songs for a person as the engine makes them (nothing stored).
    public func dailySongIDs(userID: Int64, now: Int64, count: Int = 30) throws -> [Int64] {
        try database.read { db in try engine.daily(db, userID: userID, now: now, count: count) }
    }

    /// `GET /v1/recommendations/songs` without HTTP: made, kept and turned into songs on a person's first call
    /// of the day, read back on the next.
    public func dailySongs(userID: Int64) throws -> [Song] {
        try service.daily(viewer: Viewer(userID: userID, sessionID: 0, isAdmin: false)).songs
    }

    /// `GET /v1/radio/next` without HTTP.
    public func radio(userID: Int64, count: Int) throws -> [Song] {
        try service.radio(count: count, viewer: Viewer(userID: userID, sessionID: 0, isAdmin: false))
    }

    /// `GET /v1/songs/{id}/similar` without HTTP.
    public func similarSongs(songID: Int64, size: Int = 20) throws -> [Song] {
        try service.similarSongs(id: songID, size: size, viewer: nil)
    }

    /// A counted play as `POST /v1/plays` records it, with its pairing: one transaction.
    public func play(userID: Int64, songID: Int64, at time: Int64) throws {
        try database.write { db in
            _ = try SheetService.countPlay(db, userID: userID, songID: songID, at: time)
        }
    }
}
