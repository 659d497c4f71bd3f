import Foundation

/// What a player is doing.
public enum PlaybackState: String, Sendable, Equatable {
    case idle, loading, playing, paused, ended, failed
}

/// Something a player can play: a song's id (for events) and where its audio is, a file or a URL.
public struct PlayableItem: Sendable, Equatable {
    public var id: String
    public var url: URL
    public var title: String
    public var artist: String?

    public init(id: String, url: URL, title: String, artist: String? = nil) {
        self.id = id
        self.url = url
        self.title = title
        self.artist = artist
    }
}

/// Where playback is, in seconds.
public struct PlaybackProgress: Sendable, Equatable {
    public var itemID: String
    public var position: Double
    /// Nil until the engine knows it.
    public var duration: Double?

    public init(itemID: String, position: Double, duration: Double?) {
        self.itemID = itemID
        self.position = position
        self.duration = duration
    }
}

/// What a player tells its listeners, in order.
public enum PlayerEvent: Sendable, Equatable {
    case state(PlaybackState)
    /// At the player's progress rate while playing (at least 10 a second), and after a seek.
    case progress(PlaybackProgress)
    case buffering(Bool)
    /// The item played to its end (not stopped, not replaced) and nothing queued followed it, so the player's
    /// owner decides what plays next. When the item given to `setNext` takes over, `.advanced` comes instead.
    case ended(itemID: String)
    /// The item could not be played (missing, unreadable, network); the player did not stop because of it. If an
    /// item was queued with `setNext`, `.advanced` follows; otherwise the state becomes `.failed`.
    case failed(itemID: String, message: String)
    /// The player moved on its own to the item given to `setNext` (gapless), after the one before it ended or
    /// failed; no `.ended` is sent for the one before, and the state does not pass through idle or loading.
    case advanced(itemID: String)
    /// The sound output could not be opened, so the item did not play. The item is not at fault, and the player
    /// did not move on to the one given to `setNext` (it would fail the same way); the state becomes `.failed`.
    /// The next `load` tries the output again.
    case outputFailed(itemID: String, SoundOutputFailure)
    /// The sound output opened: sent when an item starts the first time, and the first time after `.outputFailed`.
    case outputOpened
}

/// The player engine the apps call MusicPlayerManager: one item at a time, plus the next one queued so that
/// it starts without a gap. Every call returns without waiting for the engine's work; what happens comes as
/// events.
public protocol Player: AnyObject, Sendable {
    /// A new stream of everything that happens from now on; each caller gets its own.
    func events() -> AsyncStream<PlayerEvent>
    /// Replaces what plays with `item`, from `startAt` seconds; paused unless `autoplay`.
    func load(_ item: PlayableItem, startAt: Double, autoplay: Bool) async
    /// The item to play right after the current one ends (nil: stop at the end).
    func setNext(_ item: PlayableItem?) async
    /// Resumes; after `.ended`, plays the last item again from the start.
    func play() async
    func pause() async
    func stop() async
    func seek(to seconds: Double) async
    /// 0 to 100.
    func setVolume(_ percent: Double) async
    func setMuted(_ muted: Bool) async
    var state: PlaybackState { get async }
}

/// What a platform's now-playing panel shows (lock screen, MPRIS, the terminal's status line).
public struct NowPlayingInfo: Sendable, Equatable {
    public var title: String
    public var artist: String?
    public var album: String?
    public var cover: URL?
    public var duration: Double?
    public var position: Double
    public var isPlaying: Bool

    public init(
        title: String, artist: String? = nil, album: String? = nil, cover: URL? = nil,
        duration: Double? = nil,
        position: Double = 0, isPlaying: Bool = false
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.cover = cover
        self.duration = duration
        self.position = position
        self.isPlaying = isPlaying
    }
}

/// A command from outside the app: headphone buttons, the lock screen, a media key.
public enum RemoteCommand: Sendable, Equatable {
    case play, pause, togglePlayPause, next, previous
    case seek(to: Double)
}

/// The platform's media session (the apps' now-playing info and remote commands); each client brings its own.
public protocol MediaSession: AnyObject, Sendable {
    /// Shows what plays now; nil clears it.
    func update(_ info: NowPlayingInfo?)
    /// The commands people send; the player's owner acts on them.
    func commands() -> AsyncStream<RemoteCommand>
}
