import Synchronization

/// What each person's players are playing, from `scrobble?submission=false`: one entry per person and
/// client, gone once the song would have ended (plus a grace minute). Kept in memory: one server instance.
final class NowPlaying: Sendable {
    struct Entry: Sendable {
        var userID: Int64
        var username: String
        var client: String
        /// A small number per person and client, stable while the server runs.
        var playerID: Int
        var songID: Int64
        /// Unix seconds.
        var startedAt: Int64
        var durationSeconds: Int64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var playerIDs: [String: Int] = [:]
    }

    private let state = Mutex(State())
    static let grace: Int64 = 60

    func start(
        userID: Int64, username: String, client: String, songID: Int64, durationSeconds: Int64, now: Int64
    ) {
        let key = "\(userID)\u{1F}\(client)"
        state.withLock { state in
            let playerID = state.playerIDs[key] ?? (state.playerIDs.count + 1)
            state.playerIDs[key] = playerID
            state.entries[key] = Entry(
                userID: userID, username: username, client: client, playerID: playerID, songID: songID,
                startedAt: now,
                durationSeconds: durationSeconds)
            if state.entries.count > 10_000 {
                state.entries = state.entries.filter { !Self.expired($0.value, now: now) }
            }
        }
    }

    /// The live entries, newest first; only `userID`'s unless `everyone`.
    func entries(userID: Int64, everyone: Bool, now: Int64) -> [Entry] {
        state.withLock { state in
            state.entries = state.entries.filter { !Self.expired($0.value, now: now) }
            return state.entries.values.filter { everyone || $0.userID == userID }
                .sorted { ($0.startedAt, $0.playerID) > ($1.startedAt, $1.playerID) }
        }
    }

    private static func expired(_ entry: Entry, now: Int64) -> Bool {
        now > entry.startedAt + entry.durationSeconds + grace
    }
}
