import CloudMusicKit
import Foundation
import Synchronization

/// The /org/mpris/MediaPlayer2 object: answers calls from its state, and hands what people ask for to the
/// command and request streams. Knows nothing of libdbus.
final class MediaPlayerObject: Sendable {
    static let path = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let introspectableInterface = "org.freedesktop.DBus.Introspectable"

    let identity: String
    let state = Mutex(PlayerState())
    let commands = Broadcaster<RemoteCommand>()
    let requests = Broadcaster<MPRISRequest>()

    init(identity: String) {
        self.identity = identity
    }

    /// Monotonic seconds, for moving Position on while playing.
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    var rootProperties: [(String, DBusValue)] {
        [
            ("CanQuit", .boolean(false)),
            ("CanRaise", .boolean(false)),
            ("HasTrackList", .boolean(false)),
            ("Identity", .string(identity)),
            ("SupportedUriSchemes", .strings([])),
            ("SupportedMimeTypes", .strings([])),
        ]
    }

    func handle(_ call: MethodCall) -> CallOutcome {
        guard call.path == Self.path else { return Self.unknownMethod(call) }
        guard let arguments = call.arguments else { return Self.invalidArgs("Unsupported argument types") }
        // A call may leave the interface out; then the first interface with that member takes it.
        let interfaces =
            call.interface.map { [$0] }
            ?? [
                Self.playerInterface, Self.rootInterface, Self.propertiesInterface,
                Self.introspectableInterface,
            ]
        for interface in interfaces {
            if let outcome = handle(
                interface: interface, member: call.member, signature: call.signature, arguments)
            {
                return outcome
            }
        }
        return Self.unknownMethod(call)
    }

    /// Nil when `interface` has no method `member`.
    private func handle(interface: String, member: String, signature: String, _ arguments: [DBusValue])
        -> CallOutcome?
    {
        // Checks the signature before the method runs, so that every method sees the arguments it expects.
        func expecting(_ expected: String, _ body: () -> CallOutcome) -> CallOutcome {
            guard signature == expected else {
                return Self.invalidArgs("\(member) takes (\(expected)), not (\(signature))")
            }
            return body()
        }
        func command(_ command: RemoteCommand) -> CallOutcome {
            expecting("") {
                commands.yield(command)
                return .reply([])
            }
        }
        func request(_ request: MPRISRequest) -> CallOutcome {
            expecting("") {
                requests.yield(request)
                return .reply([])
            }
        }
        switch (interface, member) {
        case (Self.introspectableInterface, "Introspect"):
            return expecting("") { .reply([.string(Introspection.xml)]) }
        case (Self.propertiesInterface, "Get"):
            return expecting("ss") {
                guard case .string(let interface) = arguments[0], case .string(let name) = arguments[1] else {
                    return Self.invalidArgs("Get takes an interface and a property name")
                }
                return get(interface: interface, name: name)
            }
        case (Self.propertiesInterface, "GetAll"):
            return expecting("s") {
                guard case .string(let interface) = arguments[0] else {
                    return Self.invalidArgs("GetAll takes (s)")
                }
                return getAll(interface: interface)
            }
        case (Self.propertiesInterface, "Set"):
            return expecting("ssv") {
                guard case .string(let interface) = arguments[0], case .string(let name) = arguments[1],
                    case .variant(let value) = arguments[2]
                else { return Self.invalidArgs("Set takes (ssv)") }
                return set(interface: interface, name: name, value: value)
            }
        case (Self.rootInterface, "Raise"): return request(.raise)
        case (Self.rootInterface, "Quit"): return request(.quit)
        case (Self.playerInterface, "Next"): return command(.next)
        case (Self.playerInterface, "Previous"): return command(.previous)
        case (Self.playerInterface, "Pause"): return command(.pause)
        case (Self.playerInterface, "PlayPause"): return command(.togglePlayPause)
        case (Self.playerInterface, "Play"): return command(.play)
        case (Self.playerInterface, "Stop"): return request(.stop)
        case (Self.playerInterface, "Seek"):
            return expecting("x") {
                guard case .int64(let offset) = arguments[0] else {
                    return Self.invalidArgs("Seek takes (x)")
                }
                seek(by: offset)
                return .reply([])
            }
        case (Self.playerInterface, "SetPosition"):
            return expecting("ox") {
                guard case .objectPath(let track) = arguments[0], case .int64(let position) = arguments[1]
                else {
                    return Self.invalidArgs("SetPosition takes (ox)")
                }
                setPosition(track: track, micros: position)
                return .reply([])
            }
        case (Self.playerInterface, "OpenUri"):
            return expecting("s") {
                .error(
                    name: "org.freedesktop.DBus.Error.NotSupported", message: "CloudMusic does not open URIs")
            }
        default:
            return nil
        }
    }

    // MARK: Properties

    private func properties(of interface: String) -> [(String, DBusValue)]? {
        switch interface {
        case Self.rootInterface: rootProperties
        case Self.playerInterface: state.withLock { $0.playerProperties(at: Self.now()) }
        default: nil
        }
    }

    private func get(interface: String, name: String) -> CallOutcome {
        // An empty interface name means "whichever has it" in org.freedesktop.DBus.Properties.
        let interfaces = interface.isEmpty ? [Self.rootInterface, Self.playerInterface] : [interface]
        var knownInterface = false
        for interface in interfaces {
            guard let properties = properties(of: interface) else { continue }
            knownInterface = true
            if let value = properties.first(where: { $0.0 == name })?.1 { return .reply([.variant(value)]) }
        }
        guard knownInterface else { return Self.unknownInterface(interface) }
        return .error(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "No property \(name)")
    }

    private func getAll(interface: String) -> CallOutcome {
        if interface.isEmpty {
            return .reply([.vardict(rootProperties + (properties(of: Self.playerInterface) ?? []))])
        }
        guard let properties = properties(of: interface) else { return Self.unknownInterface(interface) }
        return .reply([.vardict(properties)])
    }

    /// Hands writable properties to `requests`; the owner applies them and reports back through the update
    /// calls, which is when they change here and PropertiesChanged goes out.
    private func set(interface: String, name: String, value: DBusValue) -> CallOutcome {
        guard interface.isEmpty || interface == Self.playerInterface || interface == Self.rootInterface else {
            return Self.unknownInterface(interface)
        }
        let known = rootProperties.map(\.0) + state.withLock { $0.playerProperties(at: 0).map(\.0) }
        switch (name, value) {
        case ("Volume", .double(let volume)):
            guard volume.isFinite else { return Self.invalidArgs("Volume must be a number") }
            requests.yield(.setVolume(min(1, max(0, volume))))
        case ("LoopStatus", .string(let status)):
            guard PlayerState.loopStatuses.contains(status) else {
                return Self.invalidArgs("LoopStatus is None, Track or Playlist, not \(status)")
            }
            requests.yield(.setLoopStatus(status))
        case ("Shuffle", .boolean(let shuffle)):
            requests.yield(.setShuffle(shuffle))
        case ("Rate", .double):
            // MinimumRate and MaximumRate are both 1: any rate asked for is ignored, as the spec says.
            break
        case ("Volume", _), ("LoopStatus", _), ("Shuffle", _), ("Rate", _):
            return Self.invalidArgs("\(name) does not take a value of type \(value.signature)")
        default:
            guard known.contains(name) else {
                return .error(
                    name: "org.freedesktop.DBus.Error.UnknownProperty", message: "No property \(name)")
            }
            return .error(
                name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "\(name) is read-only")
        }
        return .reply([])
    }

    // MARK: Seeking

    private func seek(by offsetMicros: Int64) {
        let target: (position: Double, duration: Double?)? = state.withLock { state in
            guard let info = state.info else { return nil }
            return (state.position(at: Self.now()) + Double(offsetMicros) / 1_000_000, info.duration)
        }
        guard let target else { return }
        // The spec: seeking past the end acts like Next; seeking before the start goes to the start.
        if let duration = target.duration, target.position > duration {
            commands.yield(.next)
        } else {
            commands.yield(.seek(to: max(0, target.position)))
        }
    }

    private func setPosition(track: String, micros: Int64) {
        let accepted = state.withLock { state -> Bool in
            guard let info = state.info, state.trackID == track, micros >= 0 else { return false }
            // The spec: a position past the track's end is ignored.
            if let duration = info.duration, Double(micros) / 1_000_000 > duration { return false }
            return true
        }
        if accepted { commands.yield(.seek(to: Double(micros) / 1_000_000)) }
    }

    // MARK: Errors

    private static func invalidArgs(_ message: String) -> CallOutcome {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    private static func unknownInterface(_ interface: String) -> CallOutcome {
        .error(name: "org.freedesktop.DBus.Error.UnknownInterface", message: "No interface \(interface)")
    }

    private static func unknownMethod(_ call: MethodCall) -> CallOutcome {
        .error(
            name: "org.freedesktop.DBus.Error.UnknownMethod",
            message:
                "No method \(call.member) with signature (\(call.signature)) on \(call.interface ?? "any interface")"
        )
    }
}

/// Hands each value to every open stream; each caller of `stream()` gets its own.
final class Broadcaster<Element: Sendable>: Sendable {
    private struct Listeners {
        var next = 0
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
        var finished = false
    }

    private let listeners = Mutex(Listeners())

    func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self, bufferingPolicy: .bufferingNewest(256))
        let id: Int? = listeners.withLock { listeners in
            guard !listeners.finished else { return nil }
            defer { listeners.next += 1 }
            listeners.continuations[listeners.next] = continuation
            return listeners.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ element: Element) {
        for continuation in listeners.withLock({ Array($0.continuations.values) }) {
            continuation.yield(element)
        }
    }

    /// Ends every stream, and makes later ones end at once.
    func finish() {
        let continuations = listeners.withLock { listeners in
            listeners.finished = true
            defer { listeners.continuations = [:] }
            return Array(listeners.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
