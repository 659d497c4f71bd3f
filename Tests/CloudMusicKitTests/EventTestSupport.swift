import CloudMusicKit
import Foundation
import MusicCore
import ServerTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Reads an event stream on a queue of its own (so it keeps up however busy the cooperative pool is) and
/// keeps what came, for tests to wait on.
final class EventCollector: Sendable {
    private let state = State()
    private let task: Task<Void, Never>

    enum Ending: Sendable {
        case finished
        case failed(any Error)
    }

    private final class State: Sendable {
        let seen = Mutex<[ServerEvent]>([])
        let ending = Mutex<Ending?>(nil)
    }

    /// Starts reading `stream`; `onEvent` runs for each event before it is kept.
    init(_ stream: EventStream, onEvent: (@Sendable (ServerEvent) async -> Void)? = nil) {
        let state = state
        let events = stream.events()
        task = Task(executorPreference: OwnQueueExecutor()) {
            do {
                for try await event in events {
                    await onEvent?(event)
                    state.seen.withLock { $0.append(event) }
                }
                state.ending.withLock { $0 = .finished }
            } catch {
                state.ending.withLock { $0 = .failed(error) }
            }
        }
    }

    deinit { task.cancel() }

    var events: [ServerEvent] { state.seen.withLock { $0 } }
    var ended: Ending? { state.ending.withLock { $0 } }

    /// The messages' texts, in the order they came.
    var texts: [String] {
        events.compactMap { event in
            if case .message(let message) = event { return message.message.content ?? "" }
            return nil
        }
    }

    var readyCount: Int { events.filter { if case .ready = $0 { true } else { false } }.count }

    func stop() { task.cancel() }

    /// Waits (up to `seconds`, a bound for a hang on a loaded machine) until the events satisfy `condition`.
    @discardableResult
    func waitFor(
        _ what: String, seconds: Double = 90, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @escaping @Sendable ([ServerEvent]) -> Bool
    ) async throws -> [ServerEvent] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let now = events
            if condition(now) { return now }
            if let ended, case .failed(let error) = ended {
                throw FixtureError(message: "the stream failed while waiting for \(what): \(error)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError(message: "waited \(seconds) s for \(what); the events were: \(events)")
    }

    /// Waits until the stream has ended, and answers how.
    func waitForEnd(seconds: Double = 60) async throws -> Ending {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let ended { return ended }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError(message: "the stream did not end within \(seconds) s; the events were: \(events)")
    }
}

/// Waits (up to `seconds`) until `condition` holds; for state kept by actors.
func eventually(
    _ what: String, seconds: Double = 90, _ condition: @Sendable () async throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw FixtureError(message: "waited \(seconds) s for \(what)")
}

enum EventFixture {
    /// A quick reconnection for tests.
    static var configuration: EventStream.Configuration {
        var configuration = EventStream.Configuration()
        configuration.retryDelay = 0.05
        configuration.maxRetryDelay = 0.5
        return configuration
    }

    /// Signs up and in `name` on `server` (through `port` when given), answering the repository and the
    /// sign-in's result (with the chat token). A name signed up before is signed in again, from `device`.
    static func person(_ server: TestServer, _ name: String, device: String = "tests", port: Int? = nil)
        async throws -> (MusicRepository, LoginResult)
    {
        let person = try await server.person(name, device: device, port: port, mayExist: true)
        let base = URL(string: "http://127.0.0.1:\(port ?? server.port)/")!
        var configuration = APIClient.Configuration()
        configuration.baseRetryDelay = 0.05
        let repository = MusicRepository(client: APIClient(baseURL: base, configuration: configuration))
        repository.restoreSession(token: person.session, userID: person.id)
        return (
            repository, LoginResult(userId: person.id, session: person.session, chatToken: person.chatToken)
        )
    }

    static func isMessage(_ text: String) -> @Sendable (ServerEvent) -> Bool {
        { event in
            if case .message(let message) = event { return message.message.content == text }
            return false
        }
    }
}

/// A loopback TCP proxy to the test server whose connections can be cut at once, and which then turns
/// new ones away (accepts and closes them) until `release`: a network that drops and comes back.
final class DroppingProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let targetPort: Int
    private let lock = NSLock()
    private var open: [Int32] = []
    private var holding = false
    private var accepted = 0

    init(targetPort: Int) throws {
        self.targetPort = targetPort
        (listener, port) = try LoopbackSocket.listen(backlog: 64)
        Thread { [self] in acceptLoop() }.start()
    }

    /// Connections accepted so far (those turned away included).
    var connections: Int { lock.withLock { accepted } }

    /// Cuts every open connection, and turns new ones away until `release`.
    func drop() {
        // Under the lock: a relay closes its descriptors only after taking them out of `open`.
        lock.withLock {
            holding = true
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
            open = []
        }
    }

    func release() { lock.withLock { holding = false } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        drop()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let turnAway = lock.withLock {
                accepted += 1
                return holding
            }
            if turnAway {
                close(client)
                continue
            }
            Thread { [self] in relay(client) }.start()
        }
    }

    private func relay(_ client: Int32) {
        guard let upstream = LoopbackSocket.connect(port: targetPort) else {
            close(client)
            return
        }
        lock.withLock { open += [client, upstream] }
        let done = DispatchSemaphore(value: 0)
        Thread {
            Self.pipe(from: client, to: upstream)
            done.signal()
        }.start()
        Self.pipe(from: upstream, to: client)
        done.wait()
        lock.withLock { open.removeAll { $0 == client || $0 == upstream } }
        close(client)
        close(upstream)
    }

    /// Copies until either side ends, then ends both.
    private static func pipe(from source: Int32, to target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(source, &buffer, buffer.count)
            if count <= 0 { break }
            var sent = 0
            while sent < count {
                let n = buffer.withUnsafeBytes {
                    send(target, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                if n <= 0 { break }
                sent += n
            }
            if sent < count { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(target, Int32(SHUT_RDWR))
    }
}
