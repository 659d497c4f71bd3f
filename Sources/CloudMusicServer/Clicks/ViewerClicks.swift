import Foundation
import Logging
import Storage
import Synchronization

/// What a click is on: a video, and (when they move over) songs and sheets. Each kind has one writer.
struct ClickKind: Hashable, Sendable {
    let name: String
    static let video = ClickKind(name: "video")
    static let song = ClickKind(name: "song")
    static let sheet = ClickKind(name: "sheet")
}

/// Who clicked: a signed-in person, else the client's address.
enum ClickViewer: Hashable, Sendable {
    case user(Int64)
    case address(String)

    init(userID: Int64?, address: String) {
        self = userID.map(ClickViewer.user) ?? .address(address)
    }
}

/// Counts a view of a thing as a click at most once per viewer in `window` seconds, keyed by (kind, id,
/// viewer), and writes the counts every few seconds in one transaction per flush, so readers of a popular
/// thing never queue behind the single writer.
///
/// What was counted lives in memory: one server instance (a restart forgets who clicked, so a viewer may count
/// again at once), and a crash loses at most the last few seconds of counts. Memory stays bounded: entries
/// older than the window are swept as new ones come.
final class ViewerClicks: Sendable {
    typealias Writer = @Sendable (Connection, [Int64: Int]) throws -> Void

    private struct Key: Hashable {
        var kind: ClickKind
        var id: Int64
        var viewer: ClickViewer
    }

    private struct State {
        /// When each (kind, id, viewer) was last counted.
        var lastCounted: [Key: Int64] = [:]
        /// Counts not written yet, per kind and id.
        var pending: [ClickKind: [Int64: Int]] = [:]
        /// When the oldest entries were last swept.
        var sweptAt: Int64 = 0
    }

    let window: Int64
    private let state = Mutex(State())
    private let writers: [ClickKind: Writer]
    private let database: Database
    private let interval: Duration
    private let stopped = Atomic<Bool>(false)
    private let clock: @Sendable () -> Int64

    init(
        database: Database, writers: [ClickKind: Writer], window: Int64 = 30,
        interval: Duration = .seconds(2),
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.database = database
        self.writers = writers
        self.window = window
        self.interval = interval
        self.clock = clock
    }

    /// Counts a view unless this viewer's last counted view of it is under `window` seconds old; returns
    /// the clicks on the thing not written yet (to add to what the database says).
    @discardableResult
    func view(_ kind: ClickKind, id: Int64, by viewer: ClickViewer) -> Int {
        let now = clock()
        let key = Key(kind: kind, id: id, viewer: viewer)
        return state.withLock { state in
            if now - state.sweptAt >= window {
                state.lastCounted = state.lastCounted.filter { now - $0.value < window }
                state.sweptAt = now
            }
            if let last = state.lastCounted[key], now - last < window, now >= last {
                return state.pending[kind]?[id] ?? 0
            }
            state.lastCounted[key] = now
            state.pending[kind, default: [:]][id, default: 0] += 1
            return state.pending[kind]![id]!
        }
    }

    /// The clicks on the thing not written yet.
    func unwritten(_ kind: ClickKind, id: Int64) -> Int {
        state.withLock { $0.pending[kind]?[id] ?? 0 }
    }

    /// Writes what was counted; on failure the counts are kept for the next try.
    func flush() throws {
        let batch = state.withLock { state in
            let batch = state.pending
            state.pending = [:]
            return batch
        }
        guard !batch.isEmpty else { return }
        do {
            try database.write { db in
                for (kind, counts) in batch { try writers[kind]?(db, counts) }
            }
        } catch {
            state.withLock { state in
                for (kind, counts) in batch {
                    state.pending[kind, default: [:]].merge(counts, uniquingKeysWith: +)
                }
            }
            throw error
        }
    }

    func start(logger: Logger) {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Double(interval.components.seconds))
                do { try flush() } catch {
                    logger.error("event=viewer_click_flush_failed error=\"\(error)\"")
                }
            }
        }
        thread.name = "viewer-clicks"
        thread.start()
    }

    /// Writes the last counts (at shutdown).
    func stop() throws {
        stopped.store(true, ordering: .relaxed)
        try flush()
    }
}
