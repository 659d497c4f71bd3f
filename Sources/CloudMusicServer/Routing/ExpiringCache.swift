import Foundation
import Synchronization

/// Values kept in memory until they expire or are invalidated, for answers that are read far more often
/// than what they are built from changes (home modules, categories, the ads showing now, searches).
///
/// An expired value is still answered while one background rebuild runs (stale while revalidate), so no
/// request waits for a rebuild but the first one of a key; an invalidated value is gone, so the next
/// request builds it again and sees the change that invalidated it. A rebuild that started before an
/// invalidation is not kept. One server instance: each keeps its own cache.
final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        /// Seconds since 1970.
        var expires: Double
        var refreshing = false
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Grows with every invalidation; a build that began under an older one is dropped.
        var generation = 0
    }

    private enum Found {
        case fresh(Value)
        case stale(Value, refresh: Bool, generation: Int)
        case missing(generation: Int)
    }

    private let state = Mutex(State())
    /// When there are more entries, expired ones go (and if that is not enough, all of them).
    let capacity: Int
    let clock: @Sendable () -> Double

    init(capacity: Int = 10_000, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.capacity = capacity
        self.clock = clock
    }

    /// The value of `key`: a kept one, else one `build` makes. `build` answers the value and until when it
    /// holds (seconds since 1970). With `serveStale` false an expired value is never answered (for values
    /// that expire at a known moment, such as an ad's end), so the request that finds it expired rebuilds it.
    func value(
        _ key: Key, serveStale: Bool = true, build: @escaping @Sendable () throws -> (Value, expires: Double)
    ) throws -> Value {
        let now = clock()
        let found: Found = state.withLock { state in
            guard var entry = state.entries[key] else { return .missing(generation: state.generation) }
            if entry.expires > now { return .fresh(entry.value) }
            if !serveStale { return .missing(generation: state.generation) }
            let refresh = !entry.refreshing
            entry.refreshing = true
            state.entries[key] = entry
            return .stale(entry.value, refresh: refresh, generation: state.generation)
        }
        switch found {
        case .fresh(let value):
            return value
        case .stale(let value, let refresh, let generation):
            if refresh {
                DispatchQueue.global(qos: .utility).async { [self] in
                    if let built = try? build() {
                        store(key, built.0, expires: built.expires, generation: generation)
                    } else {
                        state.withLock { $0.entries[key]?.refreshing = false }
                    }
                }
            }
            return value
        case .missing(let generation):
            let built = try build()
            store(key, built.0, expires: built.expires, generation: generation)
            return built.0
        }
    }

    private func store(_ key: Key, _ value: Value, expires: Double, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity && state.entries[key] == nil {
                let now = clock()
                state.entries = state.entries.filter { $0.value.expires > now }
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[key] = Entry(value: value, expires: expires)
        }
    }

    /// Forgets the keys `matching` says, so they are built again when next asked.
    func invalidate(where matching: (Key) -> Bool) {
        state.withLock { state in
            state.generation += 1
            state.entries = state.entries.filter { !matching($0.key) }
        }
    }

    func invalidate(_ key: Key) { invalidate { $0 == key } }

    func invalidateAll() { invalidate { _ in true } }
}
