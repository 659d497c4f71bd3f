import Dispatch
import Foundation
import HTTPServer
import MusicCore
import Synchronization

/// An event as the log stored it, ready to send.
struct StoredEvent: Sendable {
    let id: Int64
    let userID: Int64
    let kind: ServerEventKind
    /// The payload's JSON (one line: JSONEncoder writes no line breaks).
    let data: Data

    /// The event in `text/event-stream` form.
    var frame: Data {
        var out = Data("id: \(id)\nevent: \(kind.rawValue)\ndata: ".utf8)
        out.append(data)
        out.append(contentsOf: "\n\n".utf8)
        return out
    }
}

/// Carries committed events to the open streams of their recipients.
///
/// Today's implementation is in-process. Several server instances would share one through the database
/// (PostgreSQL's LISTEN/NOTIFY carrying event ids, each instance reading the rows and delivering to its own
/// streams); the event log stays the source of truth, so a stream never depends on the hub for replay.
protocol EventHub: Sendable {
    /// Delivers events already committed, in commit order.
    func publish(_ events: [StoredEvent])
    /// A subscription for one device of a person, written to `sink`; a newer one for the same device
    /// replaces it.
    func subscribe(userID: Int64, device: Int64, sink: any EventSink) -> EventSubscription
    /// Ends the open streams of these sessions (they were signed out, or their chat token replaced).
    func endSessions(_ sessions: [(userID: Int64, sessionID: Int64)])
}

/// What a subscription is handed.
enum EventDelivery: Sendable {
    case event(StoredEvent)
    /// Time to send a comment line, so that proxies and clients see the stream is alive.
    case heartbeat
    /// A newer stream of the same device took over.
    case replaced
}

/// Where a subscription's frames go: an open event stream's socket (`PushStream`).
protocol EventSink: Sendable {
    /// Sends without waiting; false once the stream has closed.
    func send(_ data: Data) -> Bool
    /// Ends the stream.
    func finish()
}

extension PushStream: EventSink {}

/// One open stream: a publisher writes its events straight to the stream's socket, in the publisher's
/// thread and without waiting for the client (the socket keeps what the client has not taken yet).
///
/// Until the stream has sent what it missed (`open`), deliveries wait here, and those the replay already
/// covered are skipped by id.
final class EventSubscription: Sendable {
    let userID: Int64
    let device: Int64
    /// Which second of the heartbeat period this stream's heartbeat falls in.
    let heartbeatSlot: Int
    private let sink: any EventSink
    private let state = Mutex(Phase.opening([]))
    private let onCancel: @Sendable (EventSubscription) -> Void

    /// The most events kept waiting while the stream opens before it is ended.
    static let backlog = 2_000

    private enum Phase {
        case opening([StoredEvent])
        /// The id of the last event sent.
        case live(Int64)
        case ended
    }

    init(
        userID: Int64, device: Int64, sink: any EventSink, heartbeatSlot: Int = 0,
        onCancel: @escaping @Sendable (EventSubscription) -> Void
    ) {
        self.userID = userID
        self.device = device
        self.sink = sink
        self.heartbeatSlot = heartbeatSlot
        self.onCancel = onCancel
    }

    func deliver(_ delivery: EventDelivery) {
        state.withLock { phase in
            switch (phase, delivery) {
            case (.ended, _):
                return
            case (.opening(var waiting), .event(let event)):
                guard waiting.count < Self.backlog else {
                    phase = .ended
                    sink.finish()
                    return
                }
                waiting.append(event)
                phase = .opening(waiting)
            case (.opening, .heartbeat):
                return
            case (.live(let sent), .event(let event)):
                guard event.id > sent else { return }
                phase = sink.send(event.frame) ? .live(event.id) : .ended
            case (.live, .heartbeat):
                if !sink.send(Self.ping) { phase = .ended }
            case (_, .replaced):
                _ = sink.send(Self.replacedFrame)
                sink.finish()
                phase = .ended
            }
        }
    }

    /// Sends `opening` (what the stream missed, and `ready`), then what was delivered meanwhile after
    /// `latest`, the newest event the opening covers; from then on events go out as they are delivered.
    func open(with opening: Data, after latest: Int64) {
        state.withLock { phase in
            guard case .opening(let waiting) = phase else { return }
            guard sink.send(opening) else {
                phase = .ended
                return
            }
            var sent = latest
            for event in waiting where event.id > sent {
                guard sink.send(event.frame) else {
                    phase = .ended
                    return
                }
                sent = event.id
            }
            phase = .live(sent)
        }
    }

    /// Ends the stream.
    func end() {
        state.withLock { phase in
            if case .ended = phase { return }
            phase = .ended
            sink.finish()
        }
    }

    /// Ends it and leaves the hub.
    func cancel() {
        end()
        onCancel(self)
    }

    private static let ping = Data(": ping\n\n".utf8)
    private static let replacedFrame = Data("event: \(ServerEventKind.replaced.rawValue)\ndata: {}\n\n".utf8)
}

/// The hub of one server process: subscriptions by person, and one timer for every stream's heartbeat.
///
/// Heartbeats are spread over the period (a stream's falls in its slot's second), so ten thousand streams
/// never wake at once.
final class InProcessEventHub: EventHub {
    private let subscriptions = Mutex<[Int64: [EventSubscription]]>([:])
    private let nextSlot = Atomic<Int>(0)
    private let tick = Atomic<Int>(0)
    private let period: Int
    // Only set up in init and cancelled in deinit.
    private nonisolated(unsafe) let timer: DispatchSourceTimer

    init(heartbeatSeconds: Int = 25) {
        period = max(1, heartbeatSeconds)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "events.heartbeat"))
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let slot = tick.add(1, ordering: .relaxed).newValue % period
            let due = subscriptions.withLock { $0.values.flatMap { $0.filter { $0.heartbeatSlot == slot } } }
            for subscription in due { subscription.deliver(.heartbeat) }
        }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// How many streams are open, for the metrics and tests.
    var openStreams: Int { subscriptions.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Ends every open stream (the server is stopping).
    func endAll() {
        for subscription in subscriptions.withLock({ $0.values.flatMap { $0 } }) { subscription.end() }
    }

    func publish(_ events: [StoredEvent]) {
        for event in events {
            let recipients = subscriptions.withLock { $0[event.userID] ?? [] }
            for subscription in recipients { subscription.deliver(.event(event)) }
        }
    }

    func endSessions(_ sessions: [(userID: Int64, sessionID: Int64)]) {
        let ending = subscriptions.withLock { table in
            sessions.flatMap { ended in (table[ended.userID] ?? []).filter { $0.device == ended.sessionID } }
        }
        for subscription in ending { subscription.cancel() }
    }

    func subscribe(userID: Int64, device: Int64, sink: any EventSink) -> EventSubscription {
        let slot = nextSlot.add(1, ordering: .relaxed).newValue % period
        let subscription = EventSubscription(userID: userID, device: device, sink: sink, heartbeatSlot: slot)
        {
            [weak self] gone in
            self?.remove(gone)
        }
        let replaced: [EventSubscription] = subscriptions.withLock { table in
            var list = table[userID] ?? []
            let old = list.filter { $0.device == device }
            list.removeAll { $0.device == device }
            list.append(subscription)
            table[userID] = list
            return old
        }
        for old in replaced { old.deliver(.replaced) }
        return subscription
    }

    private func remove(_ subscription: EventSubscription) {
        subscriptions.withLock { table in
            guard var list = table[subscription.userID] else { return }
            list.removeAll { $0 === subscription }
            table[subscription.userID] = list.isEmpty ? nil : list
        }
    }
}
