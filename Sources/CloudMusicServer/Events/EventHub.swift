import Dispatch
import Foundation
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
    /// A subscription for one device of a person; a newer one for the same device replaces it.
    func subscribe(userID: Int64, device: Int64) -> EventSubscription
}

/// What a stream waits for.
enum EventDelivery: Sendable {
    case event(StoredEvent)
    /// Time to send a comment line, so that proxies and clients see the stream is alive.
    case heartbeat
    /// A newer stream of the same device took over.
    case replaced
}

/// One open stream's mailbox: deliveries wait here until the stream's task takes them, so a publisher never
/// waits for a client. A stream that falls far behind is ended; its client resumes from `Last-Event-ID`.
final class EventSubscription: Sendable {
    let userID: Int64
    let device: Int64
    /// Which second of the heartbeat period this stream's heartbeat falls in.
    let heartbeatSlot: Int
    private let state = Mutex(State())
    private let onCancel: @Sendable (EventSubscription) -> Void

    /// The most deliveries kept waiting before the stream is ended.
    static let backlog = 2_000

    private struct State: ~Copyable {
        var waiting: [EventDelivery] = []
        var reader: CheckedContinuation<EventDelivery?, Never>?
        var ended = false
    }

    init(
        userID: Int64, device: Int64, heartbeatSlot: Int = 0,
        onCancel: @escaping @Sendable (EventSubscription) -> Void
    ) {
        self.userID = userID
        self.device = device
        self.heartbeatSlot = heartbeatSlot
        self.onCancel = onCancel
    }

    func deliver(_ delivery: EventDelivery) {
        let reader: CheckedContinuation<EventDelivery?, Never>? = state.withLock { s in
            if s.ended { return nil }
            if let reader = s.reader {
                s.reader = nil
                return reader
            }
            if s.waiting.count >= Self.backlog {
                s.waiting.removeAll()
                s.ended = true
            } else {
                s.waiting.append(delivery)
            }
            return nil
        }
        reader?.resume(returning: delivery)
        if case .replaced = delivery { end() }
    }

    /// The next delivery; nil once the subscription ended (cancelled, replaced or too far behind).
    func next() async -> EventDelivery? {
        await withCheckedContinuation { (continuation: CheckedContinuation<EventDelivery?, Never>) in
            let ready: EventDelivery?? = state.withLock { s in
                if !s.waiting.isEmpty { return .some(s.waiting.removeFirst()) }
                if s.ended { return .some(nil) }
                s.reader = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends it: a waiting `next` returns what was queued, then nil.
    func end() {
        let reader = state.withLock { s in
            s.ended = true
            defer { s.reader = nil }
            return s.reader
        }
        reader?.resume(returning: nil)
    }

    /// Ends it and leaves the hub.
    func cancel() {
        end()
        onCancel(self)
    }
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

    func subscribe(userID: Int64, device: Int64) -> EventSubscription {
        let slot = nextSlot.add(1, ordering: .relaxed).newValue % period
        let subscription = EventSubscription(userID: userID, device: device, heartbeatSlot: slot) {
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
