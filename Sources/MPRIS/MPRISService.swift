import CloudMusicKit
import Foundation

/// What an MPRIS client asks for that `RemoteCommand` has no case for.
public enum MPRISRequest: Sendable, Equatable {
    /// 0 to 1. The volume shown changes only when the owner calls `updateVolume`.
    case setVolume(Double)
    /// "None", "Track" or "Playlist". Shown once the owner calls `updateLoop`.
    case setLoopStatus(String)
    /// Shown once the owner calls `updateLoop`.
    case setShuffle(Bool)
    case stop
    /// Sent although CanRaise and CanQuit are false, for clients that call them anyway.
    case raise, quit
}

/// The terminal player's MPRIS2 service on the D-Bus session bus, so that media keys and now-playing widgets
/// see and control it.
///
/// Safe to call from any thread. The connection is read by a thread of its own; updates send their signals
/// from the caller's thread.
public final class MPRISService: MediaSession, Sendable {
    /// The well-known name this service owns, such as "org.mpris.MediaPlayer2.cloudmusic".
    public let busName: String
    private let bus: BusConnection
    private let object: MediaPlayerObject

    private init(bus: BusConnection, object: MediaPlayerObject, busName: String) {
        self.bus = bus
        self.object = object
        self.busName = busName
    }

    deinit { shutdown() }

    /// Connects to the session bus and owns org.mpris.MediaPlayer2.`name`, or `name`.instance<pid> when
    /// another player has that. Returns nil, quietly, when there is no session bus or no name could be had.
    ///
    /// - Parameter address: the bus to use; nil means the session bus (DBUS_SESSION_BUS_ADDRESS, else
    ///   $XDG_RUNTIME_DIR/bus).
    public static func start(
        name: String = "cloudmusic", identity: String = "CloudMusic", address: String? = nil
    )
        -> MPRISService?
    {
        guard let address = address ?? sessionBusAddress() else { return nil }
        let object = MediaPlayerObject(identity: identity)
        guard let bus = BusConnection.open(address: address, handler: { object.handle($0) }) else {
            return nil
        }
        guard bus.register(path: MediaPlayerObject.path) else {
            bus.close()
            return nil
        }
        let base = "org.mpris.MediaPlayer2." + name
        let pid = ProcessInfo.processInfo.processIdentifier
        // The spec's way to run two instances: the second takes the name with ".instance<pid>".
        let candidates = [base, "\(base).instance\(pid)"] + (2...9).map { "\(base).instance\(pid)_\($0)" }
        guard let owned = candidates.first(where: { bus.requestName($0) }) else {
            bus.close()
            return nil
        }
        bus.startLoop()
        return MPRISService(bus: bus, object: object, busName: owned)
    }

    private static func sessionBusAddress() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        // systemd's user bus, which libdbus also falls back to; anything else (X11 autolaunch) is not tried.
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            FileManager.default.fileExists(atPath: runtime + "/bus")
        {
            return "unix:path=" + runtime + "/bus"
        }
        return nil
    }

    /// Shows what plays now; nil shows nothing (PlaybackStatus "Stopped", empty Metadata).
    ///
    /// Sends PropertiesChanged for what changed, but not for the position alone (clients move it on
    /// themselves); sends Seeked when the position is more than 2 seconds from where it should be by now.
    public func update(_ info: NowPlayingInfo?) {
        let now = MediaPlayerObject.now()
        change { state in
            let expected = state.info != nil ? state.position(at: now) : nil
            let sameTrack =
                state.info != nil && info != nil && state.trackID == info.map(PlayerState.trackID(for:))
            state.info = info
            state.updatedAt = now
            guard let info, let expected, sameTrack, abs(info.position - expected) > PlayerState.seekTolerance
            else { return nil }
            return state.position(at: now)
        }
    }

    /// The commands people send (media keys, widgets); each caller gets its own stream.
    public func commands() -> AsyncStream<RemoteCommand> {
        object.commands.stream()
    }

    /// What people ask for beyond `RemoteCommand`: volume, loop and shuffle changes, Stop, Raise and Quit.
    public func requests() -> AsyncStream<MPRISRequest> {
        object.requests.stream()
    }

    /// Shows the player's volume, 0 to 1.
    public func updateVolume(_ volume: Double) {
        guard volume.isFinite else { return }
        change { state in
            state.volume = min(1, max(0, volume))
            return nil
        }
    }

    /// Shows the loop mode: `status` is "None", "Track" or "Playlist" (anything else is ignored).
    public func updateLoop(status: String, shuffle: Bool) {
        change { state in
            if PlayerState.loopStatuses.contains(status) { state.loopStatus = status }
            state.shuffle = shuffle
            return nil
        }
    }

    /// Releases the name, closes the connection, stops its thread and ends the streams; idempotent.
    public func shutdown() {
        bus.close(releasing: [busName])
        object.commands.finish()
        object.requests.finish()
    }

    /// Applies `body` and signals what changed; `body` returns a position to announce with Seeked.
    /// Signals go out under the state's lock so that they leave in the order the changes were made.
    private func change(_ body: (inout PlayerState) -> Double?) {
        object.state.withLock { state in
            let old = state
            let seekedTo = body(&state)
            let changed = state.changedProperties(since: old)
            if !changed.isEmpty {
                bus.emitSignal(
                    path: MediaPlayerObject.path, interface: MediaPlayerObject.propertiesInterface,
                    member: "PropertiesChanged",
                    arguments: [.string(MediaPlayerObject.playerInterface), .vardict(changed), .strings([])])
            }
            if let seekedTo, let micros = PlayerState.microseconds(seekedTo) {
                bus.emitSignal(
                    path: MediaPlayerObject.path, interface: MediaPlayerObject.playerInterface,
                    member: "Seeked",
                    arguments: [.int64(micros)])
            }
        }
    }
}
