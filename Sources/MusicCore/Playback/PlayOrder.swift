/// The order a play list plays in, as the apps' MusicListManager keeps it: the list as given (`list`), one
/// song again and again when it ends (`single`), or a shuffle that plays every song once before any song
/// repeats, where "previous" walks back through what actually played.
///
/// It works on entry ids, not songs or indexes: the same song may be in the list twice, and ids stay
/// valid while the list is edited. The random generator's state is part of the value, so a saved order
/// restored after a restart continues exactly as it would have.
public struct PlayOrder: Codable, Sendable, Equatable {
    /// The list's entries in list order.
    public private(set) var entries: [Int64] = []
    public private(set) var current: Int64?
    public private(set) var mode: LoopMode = .list
    /// Shuffle: entries not yet played in this round.
    private var unplayed: [Int64] = []
    /// Shuffle: entries in the order they played; `cursor` is where `current` is in it.
    private var history: [Int64] = []
    private var cursor = 0
    private var random: SplitMix64
    private var lastID: Int64 = 0

    /// How much shuffle history is kept for "previous".
    public static let historyLimit = 1_000

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    public var isEmpty: Bool { entries.isEmpty }

    public var currentIndex: Int? { current.flatMap { entries.firstIndex(of: $0) } }

    // MARK: Editing the list

    /// Replaces the list with `count` new entries; `start` becomes current. Returns the new entry ids.
    @discardableResult
    public mutating func replace(count: Int, start: Int?) -> [Int64] {
        entries = (0..<max(0, count)).map { _ in makeID() }
        current = start.flatMap { entries.indices.contains($0) ? entries[$0] : nil }
        restartShuffle()
        return entries
    }

    /// Adds entries at the end of the list.
    @discardableResult
    public mutating func append(count: Int) -> [Int64] {
        let added = (0..<max(0, count)).map { _ in makeID() }
        entries += added
        if mode == .shuffle { unplayed += added }
        if current == nil { current = added.first }
        return added
    }

    /// Adds an entry right after the current one, to play next in every mode.
    @discardableResult
    public mutating func insertNext() -> Int64 {
        let id = makeID()
        let index = currentIndex.map { $0 + 1 } ?? entries.count
        entries.insert(id, at: index)
        if current == nil {
            current = id
            restartShuffle()
        } else if mode == .shuffle {
            history.insert(id, at: cursor + 1)
            trimHistory()
        }
        return id
    }

    /// Takes an entry out. When it was current, the one that plays next becomes current (nil when the list
    /// is now empty); returns whether current changed.
    @discardableResult
    public mutating func remove(_ id: Int64) -> Bool {
        guard let index = entries.firstIndex(of: id) else { return false }
        let wasCurrent = id == current
        // After the last entry, the list wraps to the first.
        let following = entries.count > 1 ? entries[(index + 1) % entries.count] : nil
        entries.remove(at: index)
        unplayed.removeAll { $0 == id }
        var removedAt: Int?
        if let position = history.firstIndex(of: id) {
            history.remove(at: position)
            removedAt = position
            if position < cursor { cursor -= 1 }
        }
        guard wasCurrent else { return false }
        if entries.isEmpty {
            clear()
            return true
        }
        switch mode {
        case .list, .single:
            current = following
        case .shuffle:
            // Go on as "next" would from where it stood in history.
            current = nil
            cursor = (removedAt ?? history.count) - 1
            current = advanceShuffle()
        }
        return true
    }

    /// Moves an entry to another place in the list (list order only; a shuffle's order is its own).
    public mutating func move(from source: Int, to destination: Int) {
        guard entries.indices.contains(source), entries.indices.contains(destination) else { return }
        let id = entries.remove(at: source)
        entries.insert(id, at: destination)
    }

    public mutating func clear() {
        entries = []
        current = nil
        unplayed = []
        history = []
        cursor = 0
    }

    // MARK: Moving through it

    public mutating func setMode(_ newMode: LoopMode) {
        guard newMode != mode else { return }
        mode = newMode
        restartShuffle()
    }

    /// Makes `id` current, as when a person taps a song.
    public mutating func select(_ id: Int64) {
        guard entries.contains(id), id != current else { return }
        current = id
        if mode == .shuffle {
            unplayed.removeAll { $0 == id }
            if history.isEmpty {
                history = [id]
                cursor = 0
            } else {
                history.removeSubrange(min(cursor + 1, history.count)...)
                history.append(id)
                cursor = history.count - 1
                trimHistory()
            }
        }
    }

    /// Moves to the next entry: `ended` when the song finished by itself (`single` then plays it again),
    /// otherwise a person asked for the next song. Wraps at the end of the list.
    @discardableResult
    public mutating func next(ended: Bool = false) -> Int64? {
        guard !entries.isEmpty else { return nil }
        switch mode {
        case .single where ended && current != nil:
            break
        case .list, .single:
            let index = currentIndex.map { ($0 + 1) % entries.count } ?? 0
            current = entries[index]
        case .shuffle:
            current = advanceShuffle()
        }
        return current
    }

    /// Moves to the previous entry: the one before in the list (wrapping to the last), or in a shuffle the
    /// one that played before.
    @discardableResult
    public mutating func previous() -> Int64? {
        guard !entries.isEmpty else { return nil }
        switch mode {
        case .list, .single:
            let index = currentIndex.map { ($0 - 1 + entries.count) % entries.count } ?? 0
            current = entries[index]
        case .shuffle:
            if cursor > 0 && history.count > 1 {
                cursor -= 1
                current = history[cursor]
            } else {
                // Before the first that played: a song not yet played this round, put in front of history.
                if unplayed.isEmpty { unplayed = entries.filter { $0 != current } }
                guard !unplayed.isEmpty else { return current }
                let id = unplayed.remove(at: Int(random.next() % UInt64(unplayed.count)))
                history.insert(id, at: 0)
                cursor = 0
                current = id
                trimHistory()
            }
        }
        return current
    }

    /// What `next(ended: true)` would move to, without moving: the entry to queue for a gapless start.
    public func upcoming() -> Int64? {
        var copy = self
        return copy.next(ended: true)
    }

    // MARK: Internals

    private mutating func makeID() -> Int64 {
        lastID += 1
        return lastID
    }

    private mutating func restartShuffle() {
        guard mode == .shuffle else {
            unplayed = []
            history = []
            cursor = 0
            return
        }
        unplayed = entries.filter { $0 != current }
        history = current.map { [$0] } ?? []
        cursor = 0
    }

    /// Forward in history after a walk back, else a random entry not yet played this round; a new round
    /// starts (everything but the current) once all have played.
    private mutating func advanceShuffle() -> Int64? {
        if cursor + 1 < history.count {
            cursor += 1
            return history[cursor]
        }
        if unplayed.isEmpty { unplayed = entries.filter { $0 != current } }
        guard !unplayed.isEmpty else { return current ?? entries.first }
        let id = unplayed.remove(at: Int(random.next() % UInt64(unplayed.count)))
        history.append(id)
        cursor = history.count - 1
        trimHistory()
        return id
    }

    private mutating func trimHistory() {
        let excess = history.count - Self.historyLimit
        guard excess > 0 else { return }
        history.removeFirst(excess)
        cursor = max(0, cursor - excess)
    }
}

/// A small, fast generator whose whole state is one number, so it can be saved and restored.
public struct SplitMix64: RandomNumberGenerator, Codable, Sendable, Equatable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
