import CMPV
import Foundation

/// How an `MPVPlayer` is set up; values out of range are clamped when the player is made.
public struct MPVConfiguration: Sendable, Equatable {
    /// Where the sound goes. `auto` lets libmpv pick (PulseAudio/PipeWire, then ALSA); `null` plays in real time
    /// without a sound card (tests, benchmarks, headless boxes).
    public enum AudioOutput: String, Sendable, CaseIterable {
        case auto, pulse, alsa, null
    }

    /// ReplayGain tags to honour, if any.
    public enum ReplayGain: String, Sendable, CaseIterable {
        case off, track, album
    }

    public var audioOutput: AudioOutput
    /// Progress events a second while playing, 10 to 60.
    public var progressRate: Double
    public var replayGain: ReplayGain
    /// The starting volume, 0 to 100.
    public var volume: Double
    /// Seconds before a stalled network read fails the item (2 to 120).
    public var networkTimeout: Double
    /// The most a stream may buffer ahead, in bytes (1 MiB to 512 MiB).
    public var cacheBytes: Int
    /// Extra HTTP headers for streams, such as `Authorization`; a value may not contain a comma or a line break.
    public var httpHeaders: [String: String]
    /// The output device by libmpv's name for it (`mpv --audio-device=help` lists them); nil for the default.
    public var audioDevice: String?

    public init(
        audioOutput: AudioOutput = .auto, progressRate: Double = 20, replayGain: ReplayGain = .off,
        volume: Double = 100, networkTimeout: Double = 15, cacheBytes: Int = 32 << 20,
        httpHeaders: [String: String] = [:], audioDevice: String? = nil
    ) {
        self.audioDevice = audioDevice
        self.audioOutput = audioOutput
        self.progressRate = progressRate
        self.replayGain = replayGain
        self.volume = volume
        self.networkTimeout = networkTimeout
        self.cacheBytes = cacheBytes
        self.httpHeaders = httpHeaders
    }
}

/// Why a player could not be made.
public struct PlayerError: Error, Equatable, CustomStringConvertible {
    public var code: String
    public var message: String
    public var description: String { message }
}

/// The `Player` on libmpv: audio only, gapless between an item and the one given to `setNext`.
///
/// Every call hands its work to libmpv's asynchronous API and returns at once. One thread of the player's own
/// waits for libmpv's events, keeps the state and sends `PlayerEvent`s; progress comes from that thread's clock
/// (it reads `time-pos` at the configured rate while playing, and once after each seek), so the rate does not
/// depend on how often libmpv happens to wake up. Call `shutdown()` when done (dropping the last reference does
/// it too): every `events()` stream finishes once libmpv is destroyed.
public final class MPVPlayer: Player, @unchecked Sendable {
    // @unchecked: the only stored property is `engine`, which is immutable and itself thread-safe.
    private let engine: Engine

    /// Makes a player; throws when libmpv cannot be created or set up with `configuration`.
    public init(configuration: MPVConfiguration = MPVConfiguration()) throws {
        engine = try Engine(configuration: configuration)
    }

    deinit { engine.shutdown() }

    /// Stops playback and destroys libmpv on the player's thread; later calls do nothing.
    public func shutdown() { engine.shutdown() }

    public func events() -> AsyncStream<PlayerEvent> { engine.subscribe() }
    public func load(_ item: PlayableItem, startAt: Double, autoplay: Bool) async {
        engine.load(item, startAt: startAt, autoplay: autoplay)
    }
    public func setNext(_ item: PlayableItem?) async { engine.setNext(item) }
    public func play() async { engine.play() }
    public func pause() async { engine.setFlag("pause", true) }
    public func stop() async { engine.stop() }
    public func seek(to seconds: Double) async {
        guard seconds.isFinite else { return }
        engine.command(["seek", String(format: "%.3f", max(0, seconds)), "absolute"])
    }
    public func setVolume(_ percent: Double) async {
        guard percent.isFinite else { return }
        engine.setDouble("volume", min(100, max(0, percent)))
    }
    public func setMuted(_ muted: Bool) async { engine.setFlag("mute", muted) }
    /// Plays faster or slower (0.5× to 3×), keeping the pitch; it holds for the files loaded after.
    public func setSpeed(_ rate: Double) async {
        guard rate.isFinite else { return }
        engine.setDouble("speed", min(3, max(0.5, rate)))
    }
    /// Changes where the sound goes; the next `load` uses it (after `.outputFailed`, that is the way to try
    /// another output without making a new player).
    public func setAudioOutput(_ output: MPVConfiguration.AudioOutput, device: String?) {
        engine.setAudioOutput(output, device: device)
    }
    public var state: PlaybackState { get async { engine.currentState } }

    /// A libmpv property as text, for tests and diagnostics: unlike everything else here, it waits for libmpv.
    func property(_ name: String) -> String? { engine.property(name) }
}

/// Owns the `mpv_handle`: the only place that touches it.
///
/// `@unchecked Sendable` because callers' threads and the event thread share it: every mutable property is read
/// and written only while holding `lock`, and the handle is used by callers only under the lock while `closed` is
/// false. The event thread is the only one that waits on the handle and the only one that destroys it (after
/// setting `closed` under the lock), as libmpv requires.
private final class Engine: @unchecked Sendable {
    private enum Role { case current, next }
    private enum PendingEnd {
        case none
        case ended(PlayableItem)
        case failed, stopped, outputFailed
    }

    private let handle: OpaquePointer
    private let lock = NSLock()
    private let progressInterval: Double
    private let loadfileTakesIndex: Bool

    // Guarded by `lock`.
    private var closed = false
    private var subscribers: [UInt64: AsyncStream<PlayerEvent>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var nextToken: UInt64 = 1
    private var pendingCommands: [UInt64: (item: PlayableItem, role: Role)] = [:]
    private var entries: [Int64: (item: PlayableItem, role: Role)] = [:]
    private var state: PlaybackState = .idle
    private var lastItem: PlayableItem?
    /// The output device asked for, to name it when it cannot be opened.
    private var device: String?

    // Only the event thread touches these.
    private var current: (id: Int64, item: PlayableItem)?
    private var unmatchedStart: Int64?
    private var pendingEnd: PendingEnd = .none
    private var duration: Double?
    private var paused = false
    private var buffering = false
    private var lastError: String?
    /// libmpv's log lines since the current item started, as `[prefix] text` (the newest 40).
    private var recentLog: [String] = []
    /// An item the sound output failed for, reported once libmpv's log lines that explain why are in.
    private var outputFailure: (item: PlayableItem, reason: String)?
    /// Whether the output opened for the last item that started; nil before the first.
    private var outputWorks: Bool?

    private static let loadfileToken: UInt64 = 1 << 62
    private static let stopToken: UInt64 = 1 << 61

    init(configuration c: MPVConfiguration) throws {
        // libmpv refuses to start unless numbers are formatted the C way.
        setlocale(LC_NUMERIC, "C")
        guard let handle = mpv_create() else {
            throw PlayerError(code: "mpv-create", message: "The audio engine (libmpv) could not be started.")
        }
        self.handle = handle
        progressInterval = 1 / min(60, max(10, c.progressRate.isFinite ? c.progressRate : 20))
        // libmpv 0.38 (client API 2.3) put an index argument before loadfile's per-file options.
        loadfileTakesIndex = mpv_client_api_version() >= (2 << 16 | 3)

        var options: [(String, String)] = [
            ("config", "no"), ("load-scripts", "no"), ("ytdl", "no"), ("terminal", "no"),
            ("input-default-bindings", "no"), ("idle", "yes"), ("video", "no"), ("audio-display", "no"),
            ("gapless-audio", "weak"), ("prefetch-playlist", "yes"), ("audio-client-name", "CloudMusic"),
            ("replaygain", c.replayGain == .off ? "no" : c.replayGain.rawValue),
            ("volume", String(format: "%.1f", c.volume.isFinite ? min(100, max(0, c.volume)) : 100)),
            ("cache", "auto"), ("cache-secs", "60"),
            ("demuxer-max-bytes", String(min(512 << 20, max(1 << 20, c.cacheBytes)))),
            ("demuxer-max-back-bytes", String(4 << 20)),
            (
                "network-timeout",
                String(format: "%.0f", min(120, max(2, c.networkTimeout.isFinite ? c.networkTimeout : 15)))
            ),
            ("user-agent", "CloudMusicKit"),
        ]
        if c.audioOutput != .auto { options.append(("ao", c.audioOutput.rawValue)) }
        if let device = c.audioDevice, !device.isEmpty {
            options.append(("audio-device", device))
            self.device = device
        }
        if !c.httpHeaders.isEmpty {
            let fields = c.httpHeaders.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            guard fields.allSatisfy({ !$0.contains(where: { $0 == "," || $0 == "\n" || $0 == "\r" }) }) else {
                mpv_terminate_destroy(handle)
                throw PlayerError(
                    code: "bad-header",
                    message: "An HTTP header for streams contains a comma or a line break.")
            }
            options.append(("http-header-fields", fields.joined(separator: ",")))
        }
        for (name, value) in options {
            let status = mpv_set_option_string(handle, name, value)
            guard status >= 0 else {
                mpv_terminate_destroy(handle)
                throw PlayerError(
                    code: "mpv-option",
                    message:
                        "The audio engine rejected \(name)=\(value): \(String(cString: mpv_error_string(status)))."
                )
            }
        }
        let status = mpv_initialize(handle)
        guard status >= 0 else {
            mpv_terminate_destroy(handle)
            throw PlayerError(
                code: "mpv-initialize",
                message: "The audio engine could not start: \(String(cString: mpv_error_string(status))).")
        }
        mpv_request_log_messages(handle, "error")
        mpv_observe_property(handle, 1, "pause", MPV_FORMAT_FLAG)
        mpv_observe_property(handle, 2, "duration", MPV_FORMAT_DOUBLE)
        mpv_observe_property(handle, 3, "paused-for-cache", MPV_FORMAT_FLAG)

        let thread = Thread { [self] in self.run() }
        thread.name = "CloudMusic.mpv-events"
        thread.start()
    }

    // MARK: Calls from any thread (never wait on libmpv)

    var currentState: PlaybackState { lock.withLock { state } }

    func subscribe() -> AsyncStream<PlayerEvent> {
        // Bounded so that a listener that stops reading costs at most this much; the newest events are kept.
        let (stream, continuation) = AsyncStream.makeStream(
            of: PlayerEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let id: UInt64? = lock.withLock {
            guard !closed else { return nil }
            nextSubscriber += 1
            subscribers[nextSubscriber] = continuation
            return nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    func load(_ item: PlayableItem, startAt: Double, autoplay: Bool) {
        guard let target = Self.target(of: item) else {
            emit(.failed(itemID: item.id, message: "“\(item.title)” has no playable address."))
            return
        }
        let start = startAt.isFinite ? max(0, startAt) : 0
        lock.withLock {
            guard !closed else { return }
            lastItem = item
            var flag: Int32 = autoplay ? 0 : 1
            mpv_set_property_async(handle, 0, "pause", MPV_FORMAT_FLAG, &flag)
            let token = Self.loadfileToken | nextToken
            nextToken += 1
            pendingCommands[token] = (item, .current)
            var arguments = ["loadfile", target, "replace"]
            if loadfileTakesIndex { arguments.append("-1") }
            if start > 0 { arguments.append(String(format: "start=%.3f", start)) }
            if runCommand(arguments, token: token) < 0 { pendingCommands[token] = nil }
        }
    }

    func setNext(_ item: PlayableItem?) {
        let target = item.flatMap(Self.target(of:))
        lock.withLock {
            guard !closed else { return }
            // Keep the playlist at the current item plus at most one next item.
            _ = runCommand(["playlist-clear"], token: 0)
            guard let item, let target else { return }
            let token = Self.loadfileToken | nextToken
            nextToken += 1
            pendingCommands[token] = (item, .next)
            if runCommand(["loadfile", target, "append"], token: token) < 0 { pendingCommands[token] = nil }
        }
    }

    func play() {
        let restart: PlayableItem? = lock.withLock { state == .ended ? lastItem : nil }
        if let restart {
            load(restart, startAt: 0, autoplay: true)
        } else {
            setFlag("pause", false)
        }
    }

    func stop() {
        lock.withLock {
            guard !closed else { return }
            _ = runCommand(["stop"], token: Self.stopToken)
        }
    }

    func command(_ arguments: [String]) {
        lock.withLock {
            guard !closed else { return }
            _ = runCommand(arguments, token: 0)
        }
    }

    func setFlag(_ name: String, _ value: Bool) {
        lock.withLock {
            guard !closed else { return }
            var flag: Int32 = value ? 1 : 0
            mpv_set_property_async(handle, 0, name, MPV_FORMAT_FLAG, &flag)
        }
    }

    func setDouble(_ name: String, _ value: Double) {
        lock.withLock {
            guard !closed else { return }
            var number = value
            mpv_set_property_async(handle, 0, name, MPV_FORMAT_DOUBLE, &number)
        }
    }

    func setAudioOutput(_ output: MPVConfiguration.AudioOutput, device: String?) {
        let device = device.flatMap { $0.isEmpty ? nil : $0 }
        lock.withLock {
            guard !closed else { return }
            self.device = device
            // An empty `ao` is libmpv's own choice, as when it is not set.
            for (name, value) in [
                ("ao", output == .auto ? "" : output.rawValue), ("audio-device", device ?? "auto"),
            ] {
                value.withCString { text in
                    var pointer: UnsafePointer<CChar>? = text
                    mpv_set_property_async(handle, 0, name, MPV_FORMAT_STRING, &pointer)
                }
            }
        }
    }

    func property(_ name: String) -> String? {
        lock.withLock {
            guard !closed, let text = mpv_get_property_string(handle, name) else { return nil }
            defer { mpv_free(text) }
            return String(cString: text)
        }
    }

    func shutdown() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            // Under the lock: the event thread reads `closed` under it before it destroys the handle, so the
            // handle is still alive here. It then leaves its loop; nobody else uses the handle after this.
            mpv_wakeup(handle)
        }
    }

    /// Runs with `lock` held and `closed` false.
    private func runCommand(_ arguments: [String], token: UInt64) -> Int32 {
        var pointers = arguments.map { UnsafePointer<CChar>(strdup($0)) }
        pointers.append(nil)
        defer { for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) } }
        return pointers.withUnsafeMutableBufferPointer { mpv_command_async(handle, token, $0.baseAddress) }
    }

    private static func target(of item: PlayableItem) -> String? {
        let text = item.url.isFileURL ? item.url.path : item.url.absoluteString
        guard !text.isEmpty, text.utf8.count <= 16 * 1024, !text.contains("\0") else { return nil }
        return text
    }

    private func emit(_ event: PlayerEvent) {
        let targets = lock.withLock { Array(subscribers.values) }
        for continuation in targets { continuation.yield(event) }
    }

    private func setState(_ new: PlaybackState) {
        let changed: Bool = lock.withLock {
            guard state != new else { return false }
            state = new
            return true
        }
        if changed { emit(.state(new)) }
    }

    // MARK: The event thread

    private func run() {
        var nextTick = ContinuousClock.now
        while true {
            let playing = lock.withLock { state == .playing && !closed }
            var timeout = -1.0
            if playing {
                let now = ContinuousClock.now
                if now >= nextTick {
                    sendProgress()
                    nextTick = now + .seconds(progressInterval)
                }
                let wait = nextTick - now
                timeout = max(
                    0.001, Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
            } else {
                nextTick = ContinuousClock.now
            }
            // libmpv hands out log lines only once no event is waiting, so the lines that explain a failed sound
            // output come after its END_FILE (and often after IDLE): take everything waiting, then report it.
            if outputFailure != nil { timeout = 0 }
            let event = mpv_wait_event(handle, timeout)!.pointee
            if event.event_id == MPV_EVENT_SHUTDOWN { lock.withLock { closed = true } }
            if lock.withLock({ closed }) { break }
            if event.event_id == MPV_EVENT_NONE, outputFailure != nil { reportOutputFailure() }
            process(event)
        }
        mpv_terminate_destroy(handle)
        let finished = lock.withLock {
            let all = Array(subscribers.values)
            subscribers.removeAll()
            return all
        }
        for continuation in finished { continuation.finish() }
    }

    private func sendProgress() {
        guard let current else { return }
        var position = 0.0
        guard mpv_get_property(handle, "time-pos", MPV_FORMAT_DOUBLE, &position) >= 0 else { return }
        emit(
            .progress(
                PlaybackProgress(itemID: current.item.id, position: max(0, position), duration: duration)))
    }

    private func process(_ event: mpv_event) {
        switch event.event_id {
        case MPV_EVENT_COMMAND_REPLY:
            commandReplied(event)
        case MPV_EVENT_START_FILE:
            let id = event.data.assumingMemoryBound(to: mpv_event_start_file.self).pointee.playlist_entry_id
            started(entry: id)
        case MPV_EVENT_END_FILE:
            let end = event.data.assumingMemoryBound(to: mpv_event_end_file.self).pointee
            ended(entry: end.playlist_entry_id, reason: end.reason, error: end.error)
        case MPV_EVENT_FILE_LOADED:
            // Read, not only observed: libmpv sends no change when the next item is exactly as long as the last.
            var seconds = 0.0
            duration = mpv_get_property(handle, "duration", MPV_FORMAT_DOUBLE, &seconds) >= 0 ? seconds : nil
        case MPV_EVENT_PLAYBACK_RESTART:
            // The file is ready (after a load or a seek).
            guard current != nil else { return }
            // Without an output the item cannot play: its END_FILE says why next, and `.playing` would be false.
            guard outputOpened() else { return }
            // Read, not the observed value: a `pause` set just before a load may not have been reported yet.
            var flag: Int32 = 0
            if mpv_get_property(handle, "pause", MPV_FORMAT_FLAG, &flag) >= 0 { paused = flag != 0 }
            setState(paused ? .paused : .playing)
            sendProgress()
        case MPV_EVENT_IDLE:
            wentIdle()
        case MPV_EVENT_PROPERTY_CHANGE:
            propertyChanged(event.data.assumingMemoryBound(to: mpv_event_property.self).pointee)
        case MPV_EVENT_LOG_MESSAGE:
            let message = event.data.assumingMemoryBound(to: mpv_event_log_message.self).pointee
            lastError = String(cString: message.text).trimmingCharacters(in: .whitespacesAndNewlines)
            recentLog.append("[\(String(cString: message.prefix))] \(lastError ?? "")")
            if recentLog.count > 40 { recentLog.removeFirst(recentLog.count - 40) }
        default:
            break
        }
    }

    private func commandReplied(_ event: mpv_event) {
        if event.reply_userdata == Self.stopToken {
            // With a file, its END_FILE and then IDLE follow; without one (after an end or a failure) none do.
            if current == nil && lock.withLock({ pendingCommands.isEmpty }) { setState(.idle) }
            return
        }
        guard event.reply_userdata & Self.loadfileToken != 0 else { return }
        let pending = lock.withLock { pendingCommands.removeValue(forKey: event.reply_userdata) }
        guard let pending else { return }
        guard event.error >= 0, let id = Self.entryID(in: event) else {
            emit(
                .failed(
                    itemID: pending.item.id,
                    message:
                        "“\(pending.item.title)” could not be queued: \(String(cString: mpv_error_string(event.error)))."
                )
            )
            return
        }
        lock.withLock {
            entries[id] = pending
            if pending.role == .current { entries = entries.filter { $0.key >= id } }
        }
        if unmatchedStart == id {
            unmatchedStart = nil
            started(entry: id)
        }
    }

    private static func entryID(in event: mpv_event) -> Int64? {
        let reply = event.data.assumingMemoryBound(to: mpv_event_command.self).pointee.result
        guard reply.format == MPV_FORMAT_NODE_MAP, let list = reply.u.list?.pointee else { return nil }
        for index in 0..<Int(list.num) where String(cString: list.keys[index]!) == "playlist_entry_id" {
            let value = list.values[index]
            if value.format == MPV_FORMAT_INT64 { return value.u.int64 }
        }
        return nil
    }

    private func started(entry id: Int64) {
        guard let entry = lock.withLock({ entries[id] }) else {
            // The start came before the command's reply: it is handled when the reply arrives.
            unmatchedStart = id
            return
        }
        // A new item started before the failure's log lines came in: report it with what is there.
        if outputFailure != nil { reportOutputFailure() }
        let previous = pendingEnd
        pendingEnd = .none
        current = (id, entry.item)
        duration = nil
        lastError = nil
        recentLog = []
        lock.withLock {
            lastItem = entry.item
            entries = entries.filter { $0.key >= id }
        }
        switch (entry.role, previous) {
        case (.next, .ended), (.next, .failed):
            // libmpv moved on by itself to the queued item; it keeps playing (or paused) without a stop.
            emit(.advanced(itemID: entry.item.id))
        default:
            setState(.loading)
        }
    }

    private func ended(entry id: Int64, reason: mpv_end_file_reason, error: Int32) {
        let item = lock.withLock { entries[id]?.item }
        if current?.id == id { current = nil }
        guard let item else { return }
        switch reason {
        case MPV_END_FILE_REASON_EOF:
            pendingEnd = .ended(item)
        case MPV_END_FILE_REASON_ERROR where error == MPV_ERROR_AO_INIT_FAILED.rawValue:
            outputFailed(item, reason: String(cString: mpv_error_string(error)))
        case MPV_END_FILE_REASON_ERROR:
            var message = "“\(item.title)” could not be played (\(String(cString: mpv_error_string(error))))."
            if let lastError, !lastError.isEmpty { message += " \(lastError)" }
            emit(.failed(itemID: item.id, message: message))
            pendingEnd = .failed
        case MPV_END_FILE_REASON_STOP:
            pendingEnd = .stopped
        default:
            break
        }
    }

    /// Nothing is left to play: what ended last decides the state.
    private func wentIdle() {
        current = nil
        switch pendingEnd {
        case .ended(let item):
            emit(.ended(itemID: item.id))
            setState(.ended)
        case .failed:
            setState(.failed)
        case .outputFailed:
            // Still waiting for the log lines: the report sets the state.
            if outputFailure == nil { setState(.failed) }
        case .stopped, .none:
            setState(.idle)
        }
        pendingEnd = .none
        if buffering {
            buffering = false
            emit(.buffering(false))
        }
    }

    /// Whether the sound output is open now; the first time it is (and the first time after a failure), says so.
    private func outputOpened() -> Bool {
        guard let name = mpv_get_property_string(handle, "current-ao") else { return false }
        mpv_free(name)
        if outputWorks != true {
            outputWorks = true
            emit(.outputOpened)
        }
        return true
    }

    /// The sound output failed for `item`: not the item's fault, so libmpv must not go on to the queued item,
    /// which would fail the same way (one after another through the whole list).
    private func outputFailed(_ item: PlayableItem, reason: String) {
        outputFailure = (item, reason)
        pendingEnd = .outputFailed
        lock.withLock {
            entries = entries.filter { $0.value.role == .current }
            // A load asked for since replaces the playlist itself; stopping now would stop that item instead.
            guard !closed, !pendingCommands.values.contains(where: { $0.role == .current }) else { return }
            _ = runCommand(["stop"], token: 0)
        }
    }

    private func reportOutputFailure() {
        guard let failure = outputFailure else { return }
        outputFailure = nil
        outputWorks = false
        let device = lock.withLock { self.device }
        emit(
            .outputFailed(
                itemID: failure.item.id,
                SoundOutputFailure(reason: failure.reason, log: recentLog, device: device)))
        setState(.failed)
    }

    private func propertyChanged(_ property: mpv_event_property) {
        let name = String(cString: property.name)
        switch (name, property.format) {
        case ("pause", MPV_FORMAT_FLAG):
            paused = property.data.assumingMemoryBound(to: Int32.self).pointee != 0
            let now = currentState
            if now == .playing || now == .paused { setState(paused ? .paused : .playing) }
        case ("duration", MPV_FORMAT_DOUBLE):
            duration = property.data.assumingMemoryBound(to: Double.self).pointee
        case ("duration", _):
            duration = nil
        case ("paused-for-cache", MPV_FORMAT_FLAG):
            let now = property.data.assumingMemoryBound(to: Int32.self).pointee != 0
            if now != buffering {
                buffering = now
                emit(.buffering(now))
            }
        default:
            break
        }
    }
}
