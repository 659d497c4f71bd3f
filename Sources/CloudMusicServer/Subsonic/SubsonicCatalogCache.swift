import Foundation
import Storage
import Synchronization

/// What the Subsonic API keeps of the catalog between requests: the ranked ids of searches (`search2`,
/// `search3`), for `searchSeconds` as the v1 search keeps its answers, and albums' genres and MusicBrainz ids
/// (what album lists would otherwise read from every song of every album listed). Only catalog facts are
/// kept, never a person's stars, ratings or plays, which are read at every request.
///
/// Everything kept belongs to one state of the library, its *generation*: the id of the last scan, read in the
/// request's own read transaction. The library changes only in scans (the scanner is the only writer of songs,
/// albums, artists and their search indexes), so a finished scan, from this process or any other, is a new
/// generation and what was kept is dropped; while a scan runs nothing is kept or used. A request whose
/// snapshot is older than what is kept neither uses nor keeps anything.
final class SubsonicCatalogCache: Sendable {
    struct SearchKey: Hashable, Sendable {
        var index: CatalogSearchIndex
        /// The query as the search reads it (trimmed, without the trailing `*`).
        var query: String
        var offset: Int
        var count: Int
    }

    private struct Kept {
        var ids: [Int64]
        var expires: Double
    }

    private struct State {
        var generation: Int64 = -1
        var searches: [SearchKey: Kept] = [:]
        var albumFacts: [Int64: SubsonicStore.AlbumFacts] = [:]

        /// Takes `generation` when it is newer (dropping what was kept); whether it is the kept one now.
        mutating func enter(_ generation: Int64) -> Bool {
            if self.generation < generation {
                self.generation = generation
                searches.removeAll()
                albumFacts.removeAll()
            }
            return self.generation == generation
        }
    }

    private let state = Mutex(State())
    let searchSeconds: Double
    let capacity: Int
    let clock: @Sendable () -> Double

    /// The most albums whose facts are kept (then all are dropped and kept again as they are asked).
    let albumCapacity: Int

    init(
        searchSeconds: Double = 30, capacity: Int = 2_000, albumCapacity: Int = 100_000,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.searchSeconds = searchSeconds
        self.capacity = capacity
        self.albumCapacity = albumCapacity
        self.clock = clock
    }

    /// The library's generation as `db`'s snapshot sees it: the last scan's id once it has finished (0 before
    /// any scan), nil while a scan runs or when the last one ended without finishing.
    static func generation(_ db: Connection) throws -> Int64? {
        guard
            let last = try db.queryOne(
                "SELECT id, state FROM scan_reports ORDER BY id DESC LIMIT 1",
                decode: { (id: try $0.int64("id"), state: try $0.string("state")) })
        else { return 0 }
        return last.state == "finished" ? last.id : nil
    }

    /// The ids `search` finds for `key`, kept for `searchSeconds` within `generation`.
    func searchIDs(_ key: SearchKey, generation: Int64?, search: () throws -> [Int64]) rethrows -> [Int64] {
        let now = clock()
        guard let generation else { return try search() }
        let kept: [Int64]? = state.withLock { state in
            guard state.enter(generation), let kept = state.searches[key], kept.expires > now else {
                return nil
            }
            return kept.ids
        }
        if let kept { return kept }
        let ids = try search()
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.searches.count >= capacity && state.searches[key] == nil {
                state.searches = state.searches.filter { $0.value.expires > now }
                if state.searches.count >= capacity { state.searches.removeAll(keepingCapacity: true) }
            }
            state.searches[key] = Kept(ids: ids, expires: now + searchSeconds)
        }
        return ids
    }

    /// The facts of the albums `ids`: those kept for `generation`, and the others from `find` (which answers
    /// each id it is given), kept from now on.
    func albumFacts(
        _ ids: [Int64], generation: Int64?, find: ([Int64]) throws -> [Int64: SubsonicStore.AlbumFacts]
    ) rethrows -> [Int64: SubsonicStore.AlbumFacts] {
        guard let generation else { return try find(ids) }
        var facts: [Int64: SubsonicStore.AlbumFacts] = [:]
        let missing: [Int64] = state.withLock { state in
            guard state.enter(generation) else { return ids }
            var missing: [Int64] = []
            for id in ids {
                if let known = state.albumFacts[id] { facts[id] = known } else { missing.append(id) }
            }
            return missing
        }
        guard !missing.isEmpty else { return facts }
        let found = try find(missing)
        facts.merge(found) { _, new in new }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.albumFacts.count + found.count > albumCapacity { state.albumFacts.removeAll() }
            state.albumFacts.merge(found) { _, new in new }
        }
        return facts
    }

    var albumFactsKept: Int { state.withLock { $0.albumFacts.count } }

    /// How many searches are kept (tests).
    var searchesKept: Int { state.withLock { $0.searches.count } }
}
