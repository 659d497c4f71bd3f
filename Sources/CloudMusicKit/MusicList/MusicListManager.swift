import Foundation
import MusicCore

/// What a music list tells its listeners.
public enum MusicListEvent: Sendable, Equatable {
    case listChanged
    case currentChanged(Song?)
    case modeChanged(LoopMode)
    case state(PlaybackState)
    case progress(position: Double, duration: Double?)
    /// The song could not be played and was skipped.
    case skipped(Song, message: String)
    /// The sound output failed, or works again. While it has failed the list stays where it is: no song is
    /// skipped for it, and the next play (or `next`, `previous`, a new list) tries the output again.
    case soundOutput(SoundOutput)
}

/// The server's copy of the play queue, as the manager syncs it (the repository implements it).
public protocol QueueSyncing: Sendable {
    func fetchQueue() async throws -> PlayQueue
    /// Saves over `baseVersion`; throws `QueueSyncConflict` when the server holds a newer queue.
    func saveQueue(_ queue: PlayQueue, baseVersion: Int?) async throws -> PlayQueue
    /// The songs for ids, in the order given (ids the server no longer has are left out).
    func songs(ids: [String]) async throws -> [Song]
}

/// The server refused a save because another device saved a newer queue.
public struct QueueSyncConflict: Error, Sendable {
    public init() {}
}

/// The play list and what plays now, as the apps' MusicListManager: set the list, append, insert next,
/// remove, move, clear; list, single and shuffle loop modes; next and previous that wrap; moving on when a
/// song ends. It drives a `Player`, skips what cannot be played, saves everything to the LocalStore (a
/// restart comes back to the same list, song, position and shuffle) and syncs with the server's queue.
public actor MusicListManager {
    public struct Snapshot: Sendable, Equatable {
        public var songs: [Song]
        public var currentIndex: Int?
        public var mode: LoopMode
        public var position: Double
        public var duration: Double?
        public var state: PlaybackState
        public var soundOutput: SoundOutput
        public var current: Song? { currentIndex.map { songs[$0] } }
    }

    private let store: MusicListStore
    private let player: (any Player)?
    private let source: @Sendable (Song) async -> URL?
    private let sync: (any QueueSyncing)?
    private var order: PlayOrder
    private var songs: [Int64: Song]
    private var position: Double
    private var duration: Double?
    private var state: PlaybackState = .idle
    private var soundOutput: SoundOutput = .unknown
    private var syncedVersion: Int?
    private var unsynced: Bool
    private var failuresInARow = 0
    private var savedPosition: Double
    private var subscribers: [UUID: AsyncStream<MusicListEvent>.Continuation] = [:]
    private var listening: Task<Void, Never>?
    private var pendingPush: Task<Void, Never>?
    private var syncing: Task<Void, any Error>?
    /// The entry given to the player with `setNext`: only its `.advanced` is followed (one arriving after
    /// a newer load, e.g. right after a failure, is stale).
    private var queuedNext: Int64?

    /// How often (in seconds of playback) the position is written down.
    public static let positionSaveInterval = 5.0

    /// - Parameters:
    ///   - source: where a song's audio is: its downloaded file when there is one, else its stream URL;
    ///     nil when it cannot be played.
    ///   - sync: the server's queue, when signed in.
    ///   - seed: the shuffle's seed for a new list (a restored list keeps its own).
    public init(
        store: LocalStore, player: (any Player)?, sync: (any QueueSyncing)? = nil,
        seed: UInt64 = UInt64.random(in: 0...UInt64.max), source: @escaping @Sendable (Song) async -> URL?
    ) async throws {
        self.store = MusicListStore(database: store.database)
        self.player = player
        self.source = source
        self.sync = sync
        if let saved = try self.store.load() {
            order = saved.order
            songs = saved.songs
            position = saved.position
            syncedVersion = saved.syncedVersion
            unsynced = saved.unsynced
        } else {
            order = PlayOrder(seed: seed)
            songs = [:]
            position = 0
            unsynced = false
        }
        savedPosition = position
        if let events = player?.events() {
            listening = Task { [weak self] in
                for await event in events { await self?.handle(event) }
            }
        }
    }

    deinit {
        listening?.cancel()
        pendingPush?.cancel()
        for continuation in subscribers.values { continuation.finish() }
    }

    // MARK: Reading

    public func snapshot() -> Snapshot {
        Snapshot(
            songs: order.entries.compactMap { songs[$0] }, currentIndex: order.currentIndex, mode: order.mode,
            position: position, duration: duration, state: state, soundOutput: soundOutput)
    }

    public var currentSong: Song? { order.current.flatMap { songs[$0] } }

    /// Everything that happens from now on; each caller gets its own stream.
    public func events() -> AsyncStream<MusicListEvent> {
        let (stream, continuation) = AsyncStream<MusicListEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    private func emit(_ event: MusicListEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    // MARK: Editing the list

    /// Replaces the list and starts `startAt` (playing it unless `autoplay` is false), `from` seconds in.
    public func setList(_ newSongs: [Song], startAt: Int = 0, from seconds: Double = 0, autoplay: Bool = true)
        async throws
    {
        let start = newSongs.indices.contains(startAt) ? startAt : (newSongs.isEmpty ? nil : 0)
        let ids = order.replace(count: newSongs.count, start: start)
        songs = Dictionary(uniqueKeysWithValues: zip(ids, newSongs))
        position = max(0, seconds)
        try save(added: Array(zip(ids, newSongs)), replaceAll: true)
        emit(.listChanged)
        try await currentDidChange(autoplay: autoplay, from: position)
    }

    public func append(_ more: [Song]) async throws {
        let wasEmpty = order.current == nil
        let ids = order.append(count: more.count)
        for (id, song) in zip(ids, more) { songs[id] = song }
        try save(added: Array(zip(ids, more)))
        emit(.listChanged)
        if wasEmpty && order.current != nil {
            try await currentDidChange(autoplay: false)
        } else {
            await queueUpcoming()
        }
    }

    /// Puts `song` right after the current one, to play next; a copy already waiting in the list moves.
    public func insertNext(_ song: Song) async throws {
        var removed: [Int64] = []
        for (id, existing) in songs where existing.id == song.id && id != order.current {
            order.remove(id)
            songs[id] = nil
            removed.append(id)
        }
        let wasEmpty = order.current == nil
        let id = order.insertNext()
        songs[id] = song
        try save(added: [(id, song)], removed: removed)
        emit(.listChanged)
        if wasEmpty {
            try await currentDidChange(autoplay: false)
        } else {
            await queueUpcoming()
        }
    }

    /// Removes the song at `index`; removing the current song plays the next one.
    public func remove(at index: Int) async throws {
        guard order.entries.indices.contains(index) else { return }
        let id = order.entries[index]
        let wasCurrent = order.remove(id)
        songs[id] = nil
        if wasCurrent { position = 0 }
        try save(removed: [id])
        emit(.listChanged)
        if wasCurrent {
            let playing = state == .playing || state == .loading
            try await currentDidChange(autoplay: playing)
        } else {
            await queueUpcoming()
        }
    }

    public func move(from source: Int, to destination: Int) async throws {
        order.move(from: source, to: destination)
        try save()
        emit(.listChanged)
        await queueUpcoming()
    }

    public func clear() async throws {
        order.clear()
        songs = [:]
        position = 0
        duration = nil
        try save(replaceAll: true)
        emit(.listChanged)
        try await currentDidChange(autoplay: false)
    }

    // MARK: Playing

    /// Plays the song at `index` from its start.
    public func play(at index: Int) async throws {
        guard order.entries.indices.contains(index) else { return }
        let id = order.entries[index]
        if id == order.current {
            await player?.seek(to: 0)
            await player?.play()
            return
        }
        order.select(id)
        position = 0
        try save()
        try await currentDidChange(autoplay: true)
    }

    public func next() async throws {
        guard order.next() != nil else { return }
        position = 0
        try save()
        try await currentDidChange(autoplay: true)
    }

    public func previous() async throws {
        guard order.previous() != nil else { return }
        position = 0
        try save()
        try await currentDidChange(autoplay: true)
    }

    public func setMode(_ mode: LoopMode) async throws {
        order.setMode(mode)
        try save()
        emit(.modeChanged(mode))
        await queueUpcoming()
    }

    /// Resumes, or starts the current song where it stood (after a restart: the saved position).
    public func play() async throws {
        guard order.current != nil else { return }
        if state == .idle || state == .ended || state == .failed {
            try await currentDidChange(autoplay: true, from: position)
        } else {
            await player?.play()
        }
    }

    /// Pauses while playing, else plays: what a play/pause key does.
    public func togglePlayPause() async throws {
        if state == .playing { await pause() } else { try await play() }
    }

    public func pause() async {
        await player?.pause()
        try? store.savePosition(position)
        savedPosition = position
        markUnsynced()
    }

    public func seek(to seconds: Double) async {
        position = max(0, seconds)
        await player?.seek(to: position)
    }

    // MARK: The player's events

    private func handle(_ event: PlayerEvent) async {
        switch event {
        case .state(let newState):
            state = newState
            emit(.state(newState))
        case .progress(let progress):
            guard progress.itemID == order.current.map(String.init) else { return }
            position = progress.position
            duration = progress.duration
            failuresInARow = 0
            emit(.progress(position: position, duration: duration))
            if abs(position - savedPosition) >= Self.positionSaveInterval {
                try? store.savePosition(position)
                savedPosition = position
            }
        case .buffering:
            break
        case .ended(let itemID):
            guard itemID == order.current.map(String.init) else { return }
            if order.next(ended: true) == nil { return }
            position = 0
            try? save()
            try? await currentDidChange(autoplay: true)
        case .advanced(let itemID):
            // The player went on to the song it had queued: follow it, then queue the one after.
            guard let id = Int64(itemID), id == queuedNext, songs[id] != nil else { return }
            if order.upcoming() == id { order.next(ended: true) } else { order.select(id) }
            position = 0
            try? save()
            emit(.currentChanged(currentSong))
            markUnsynced()
            await queueUpcoming()
        case .failed(let itemID, let message):
            guard itemID == order.current.map(String.init), let song = currentSong else { return }
            await skip(song, message: message)
        case .outputFailed(_, let failure):
            // Not the song's fault: every other song would fail the same way, so the list stays put.
            setSoundOutput(.failed(failure))
        case .outputOpened:
            setSoundOutput(.working)
        }
    }

    private func setSoundOutput(_ new: SoundOutput) {
        guard new != soundOutput else { return }
        soundOutput = new
        emit(.soundOutput(new))
    }

    /// Reports a song that cannot be played and goes on to the next, unless every song failed in a row.
    private func skip(_ song: Song, message: String) async {
        emit(.skipped(song, message: message))
        failuresInARow += 1
        guard failuresInARow < order.entries.count, order.next() != nil else {
            state = .failed
            emit(.state(.failed))
            return
        }
        position = 0
        try? save()
        try? await currentDidChange(autoplay: true)
    }

    // MARK: Internals

    /// Loads the current song into the player (and queues the next for a gapless start).
    private func currentDidChange(autoplay: Bool, from start: Double = 0, byThisDevice: Bool = true)
        async throws
    {
        emit(.currentChanged(currentSong))
        if byThisDevice { markUnsynced() }
        guard let player else { return }
        queuedNext = nil
        guard let id = order.current, let song = songs[id] else {
            await player.stop()
            return
        }
        guard let url = await source(song) else {
            await skip(
                song,
                message:
                    "“\(song.title)” cannot be played: it is not downloaded and the server is not reachable.")
            return
        }
        await player.load(item(id, song, url), startAt: start, autoplay: autoplay)
        await queueUpcoming()
    }

    private func queueUpcoming() async {
        guard let player else { return }
        guard let next = order.upcoming(), let song = songs[next], order.current != nil,
            let url = await source(song)
        else {
            queuedNext = nil
            await player.setNext(nil)
            return
        }
        queuedNext = next
        await player.setNext(item(next, song, url))
    }

    private func item(_ id: Int64, _ song: Song, _ url: URL) -> PlayableItem {
        PlayableItem(
            id: String(id), url: url, title: song.title,
            artist: song.artistNames ?? "")
    }

    /// Writes down a change made here, which the server has yet to hear of.
    private func save(added: [(Int64, Song)] = [], removed: [Int64] = [], replaceAll: Bool = false) throws {
        unsynced = true
        try persist(added: added, removed: removed, replaceAll: replaceAll)
        schedulePush()
    }

    /// Writes the list, order and state as they are now.
    private func persist(added: [(Int64, Song)] = [], removed: [Int64] = [], replaceAll: Bool = false) throws
    {
        try store.save(
            order: order, added: added, removed: removed, replaceAll: replaceAll, position: position,
            syncedVersion: syncedVersion, unsynced: unsynced)
        savedPosition = position
    }

    private func markUnsynced() {
        // Podcast episodes are not songs: a list holding them stays on this device.
        guard sync != nil, !songs.values.contains(where: { EpisodeSong.episodeID(of: $0) != nil }) else {
            return
        }
        unsynced = true
        schedulePush()
    }

    // MARK: The server's queue

    /// Pushes a changed list a moment after the last change, so a burst of edits is one save.
    private func schedulePush() {
        guard sync != nil else { return }
        pendingPush?.cancel()
        pendingPush = Task { [weak self] in
            try? await Task.sleep(for: .seconds(1))
            guard !Task.isCancelled else { return }
            try? await self?.syncWithServer()
        }
    }

    /// Brings the local list and the server's queue together: local changes not yet saved go up (unless
    /// another device saved a newer queue, which then wins); otherwise a newer server queue comes down.
    public func syncWithServer() async throws {
        // One at a time: the actor lets a second call in while the first awaits the network. A finished
        // sync whose owner has not yet cleared it is cleared here: awaiting it again would spin.
        while let running = syncing {
            _ = try? await running.value
            if syncing == running { syncing = nil }
        }
        let task = Task { try await self.performSync() }
        syncing = task
        defer { if syncing == task { syncing = nil } }
        try await task.value
    }

    /// Applies a queue another device saved (the event stream's `queue` event) as a sync that finds it on
    /// the server does: a newer version is taken (over local changes not yet saved, as a conflict would
    /// decide), and this device's own save, or anything older, is ignored. When the song playing here is
    /// still the queue's current one (the other device added or moved songs), it plays on from where it is.
    public func applyRemoteQueue(_ remote: PlayQueue) async throws {
        while let running = syncing {
            _ = try? await running.value
            if syncing == running { syncing = nil }
        }
        let task = Task { try await self.performApply(remote) }
        syncing = task
        defer { if syncing == task { syncing = nil } }
        try await task.value
    }

    private func performApply(_ remote: PlayQueue) async throws {
        guard let sync, remote.version > (syncedVersion ?? 0) else { return }
        guard !unsynced else {
            // Changes here wait to be saved: the sync decides, exactly as it would have.
            try await performSync()
            return
        }
        try await adopt(remote, songs: try await sync.songs(ids: remote.songIds))
    }

    private func performSync() async throws {
        guard let sync else { return }
        let remote = try await sync.fetchQueue()
        if unsynced {
            do {
                let saved = try await sync.saveQueue(
                    localQueue(), baseVersion: syncedVersion ?? remote.version)
                syncedVersion = saved.version
                unsynced = false
                try persist()
                return
            } catch is QueueSyncConflict {
                // Another device saved since: its queue wins.
            }
        } else if remote.version == syncedVersion {
            return
        }
        try await adopt(remote, songs: try await sync.songs(ids: remote.songIds))
    }

    private func localQueue() -> PlayQueue {
        let ids = order.entries.compactMap { songs[$0]?.id }
        return PlayQueue(
            songIds: ids, currentIndex: order.currentIndex, position: Int(position * 1000),
            loopMode: order.mode,
            version: syncedVersion ?? 0, updatedAt: nil)
    }

    /// Takes the server's queue. A song playing here that is still its current one goes on playing from
    /// where it is; else the current song is loaded paused at the position saved with the queue.
    private func adopt(_ remote: PlayQueue, songs remoteSongs: [Song]) async throws {
        let byID = Dictionary(remoteSongs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = remote.songIds.compactMap { byID[$0] }
        let currentID = remote.currentIndex.flatMap {
            remote.songIds.indices.contains($0) ? remote.songIds[$0] : nil
        }
        let start = currentID.flatMap { id in kept.firstIndex { $0.id == id } }
        let playsOn = start != nil && (state == .playing || state == .loading) && currentSong?.id == currentID
        let here = position
        order.setMode(remote.loopMode)
        let ids = order.replace(count: kept.count, start: start)
        songs = Dictionary(uniqueKeysWithValues: zip(ids, kept))
        position = playsOn ? here : start == nil ? 0 : Double(remote.position) / 1000
        syncedVersion = remote.version
        unsynced = false
        try persist(added: Array(zip(ids, kept)), replaceAll: true)
        emit(.listChanged)
        emit(.modeChanged(order.mode))
        try await currentDidChange(autoplay: playsOn, from: position, byThisDevice: false)
    }
}
