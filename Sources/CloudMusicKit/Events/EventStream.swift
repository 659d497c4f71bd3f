import Foundation
import MusicCore

/// What the event stream tells its listener: the server's events, decoded, and how the connection fares.
public enum ServerEvent: Sendable, Equatable {
    /// The stream is open and has sent what was missed; later events are live.
    case ready(lastEventID: String)
    case message(MessageEvent)
    case read(ReadEvent)
    case conversation(ConversationEvent)
    case notification(NotificationEvent)
    /// One's play queue, saved from a device (this one's own saves come too).
    case queue(QueueEvent)
    case likes(LikesEvent)
    /// Events were missed that the server no longer keeps: reload what is shown.
    case reload
    /// Another stream of this device (session) took over; this one has ended and does not reconnect.
    case replaced
    /// The connection was lost; it is opened again after `retryIn` seconds, resuming where it stopped.
    case disconnected(reason: String, retryIn: TimeInterval)
}

/// The live event stream (`GET /v1/events`) as an AsyncSequence of typed events.
///
/// It opens the stream with the chat token, reads Server-Sent Events, and reconnects when the connection
/// drops (exponential back-off with jitter, capped), sending `Last-Event-ID` so the server replays exactly
/// what was missed. A refused chat token (401) is replaced once by a new one from `POST /v1/events/token`
/// while the client holds a session; when that is refused too, the sequence ends with the `.unauthorized`
/// error. After `.replaced` the sequence ends. Cancelling the task that iterates stops it, closing the
/// connection at once.
///
/// Over `http://` it reads a socket of its own on a dedicated thread (`SocketHTTPStream`); over `https://`
/// it uses URLSession.
public final class EventStream: Sendable {
    public struct Configuration: Sendable {
        /// The first reconnection waits about this long, each next one twice as long (half of it at random),
        /// up to `maxRetryDelay`; nil for what the server asks (`retry:`), else 2 s.
        public var retryDelay: TimeInterval?
        public var maxRetryDelay: TimeInterval = 30
        /// A connection that sends nothing (not even the server's 25-second comment) for this long is
        /// taken as dead and opened again.
        public var idleTimeout: TimeInterval = 65
        public var connectTimeout: TimeInterval = 15
        /// How the stream is read.
        public var transport: Transport = .automatic
        public init() {}
    }

    public enum Transport: Sendable {
        /// A socket of its own for `http`, URLSession for `https`.
        case automatic
        case socket
        case urlSession
    }

    public let client: APIClient
    public let configuration: Configuration
    private let state: Locked<State>

    private struct State {
        var chatToken: String?
        var lastEventID: String?
        var serverRetry: TimeInterval?
        var running: [UUID: Connection] = [:]
    }

    /// - Parameters:
    ///   - chatToken: the `chatToken` from signing in; nil to ask for one with the client's session.
    ///   - lastEventID: where to resume (an id seen on an earlier stream); nil for from now on.
    public init(
        client: APIClient, chatToken: String? = nil, lastEventID: String? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.client = client
        self.configuration = configuration
        state = Locked(State(chatToken: chatToken, lastEventID: lastEventID))
    }

    /// The id of the last event received: where the next connection resumes.
    public var lastEventID: String? { state.current.lastEventID }

    /// The chat token in use (a new one after a refused one was replaced).
    public var chatToken: String? { state.current.chatToken }

    /// Connects and delivers events until the iterating task is cancelled, the stream is replaced, or the
    /// session ends (thrown as `APIError` `.unauthorized`).
    public func events() -> AsyncThrowingStream<ServerEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ServerEvent, any Error>.makeStream()
        let task = Task { [self] in
            do {
                try await run(continuation)
                continuation.finish()
            } catch let error as APIError where error.kind == .cancelled {
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    // MARK: The connection loop

    private enum Ending {
        /// The server ended the answer (it restarts, or let go of a slow stream).
        case closed(reachedReady: Bool)
        case failed(APIError, reachedReady: Bool)
        case replaced
    }

    private func run(_ continuation: AsyncThrowingStream<ServerEvent, any Error>.Continuation) async throws {
        var failures = 0
        var renewedToken = false
        while true {
            try Task.checkCancellation()
            let ending: Ending
            do {
                // A token to open the stream with: the one given, else a new one for the session (asking for
                // it can fail as a connection does, and is tried again as one is).
                if state.current.chatToken == nil { try await renewToken() }
                ending = try await connectOnce(continuation)
            } catch let error as APIError {
                ending = .failed(error, reachedReady: false)
            }
            var reason = "The server closed the event stream."
            var atLeast: TimeInterval = 0
            switch ending {
            case .replaced:
                return
            case .closed(let reachedReady), .failed(_, let reachedReady):
                if reachedReady {
                    failures = 0
                    renewedToken = false
                }
            }
            if case .failed(let error, _) = ending {
                switch error.kind {
                case .cancelled:
                    throw error
                case .unauthorized where !renewedToken && client.sessionToken != nil:
                    // The chat token was refused: this session's new one, then at once again.
                    renewedToken = true
                    state.withLock { $0.chatToken = nil }
                    continue
                case .unauthorized:
                    throw error
                case .badRequest where state.current.lastEventID != nil:
                    // The server does not know where to resume from: start afresh, and say what was missed.
                    state.withLock { $0.lastEventID = nil }
                    continuation.yield(.reload)
                    continue
                default:
                    reason = error.message
                    if case .rateLimited(let retryAfter?) = error.kind {
                        atLeast = min(retryAfter, configuration.maxRetryDelay * 4)
                    }
                }
            }
            let delay = max(atLeast, retryDelay(after: failures))
            failures += 1
            continuation.yield(.disconnected(reason: reason, retryIn: delay))
            try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
        }
    }

    /// The wait before reconnecting after `failures` failures in a row: exponential, capped, half jitter.
    func retryDelay(after failures: Int) -> TimeInterval {
        let base = configuration.retryDelay ?? state.current.serverRetry ?? 2
        let full = min(configuration.maxRetryDelay, base * pow(2, Double(min(failures, 20))))
        return full / 2 + Double.random(in: 0...(full / 2))
    }

    private func renewToken() async throws {
        guard client.sessionToken != nil else {
            throw APIError(
                kind: .unauthorized, httpStatus: 401,
                message: "Sign in to receive messages and notifications.")
        }
        let fresh = try await client.send(EventsAPI.token)
        state.withLock { $0.chatToken = fresh.chatToken }
    }

    /// One connection, from the request to the end of the answer; events go to `continuation` as they come.
    private func connectOnce(_ continuation: AsyncThrowingStream<ServerEvent, any Error>.Continuation)
        async throws -> Ending
    {
        let current = state.current
        var headers = [("Accept", "text/event-stream"), ("Cache-Control", "no-cache")]
        if let token = current.chatToken { headers.append(("Authorization", token)) }
        if let last = current.lastEventID, !last.isEmpty { headers.append(("Last-Event-ID", last)) }
        let request = SocketHTTPStream.Request(
            url: client.url(EventsAPI.stream, path: NoPath()), headers: headers)
        let useSocket: Bool
        switch configuration.transport {
        case .automatic: useSocket = request.url.scheme?.lowercased() == "http"
        case .socket: useSocket = true
        case .urlSession: useSocket = false
        }
        let connection = Connection(
            transport: useSocket ? .socket(try SocketHTTPStream()) : .urlSession(URLSessionHTTPStream()))
        let id = UUID()
        state.withLock { $0.running[id] = connection }
        defer { _ = state.withLock { $0.running.removeValue(forKey: id) } }
        let configuration = configuration
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Ending, any Error>) in
                let thread = Thread { [self] in
                    done.resume(
                        with: Result {
                            try self.read(
                                request, on: connection, configuration: configuration, into: continuation)
                        })
                }
                thread.name = "cloudmusic.events"
                thread.start()
            }
        } onCancel: {
            connection.cancel()
        }
    }

    /// Reads one answer on the current (dedicated) thread.
    private func read(
        _ request: SocketHTTPStream.Request, on connection: Connection, configuration: Configuration,
        into continuation: AsyncThrowingStream<ServerEvent, any Error>.Continuation
    ) throws -> Ending {
        var parser = SSEParser()
        var failedHead: HTTPResponseReader.Head?
        var failedBody: [UInt8] = []
        var reachedReady = false
        var replaced = false
        let onHead: (HTTPResponseReader.Head) throws -> Void = { head in
            let type = head.headers["content-type"]?.lowercased() ?? ""
            if head.status != 200 || !type.hasPrefix("text/event-stream") { failedHead = head }
        }
        let onBody: ([UInt8]) throws -> Void = { [self] bytes in
            if failedHead != nil {
                if failedBody.count < 64 << 10 { failedBody += bytes }
                return
            }
            let events: [SSEParser.Event]
            do {
                events = try parser.feed(bytes)
            } catch {
                throw APIError(kind: .decoding, message: "The event stream sent an event too large to read.")
            }
            if let retry = parser.retry {
                state.withLock { $0.serverRetry = TimeInterval(retry) / 1000 }
            }
            for event in events {
                guard let decoded = Self.decode(event) else { continue }
                if !event.lastEventID.isEmpty {
                    state.withLock { $0.lastEventID = event.lastEventID }
                }
                if case .ready = decoded { reachedReady = true }
                continuation.yield(decoded)
                if decoded == .replaced {
                    replaced = true
                    connection.cancel()
                    return
                }
            }
        }
        do {
            switch connection.transport {
            case .socket(let socket):
                try socket.run(
                    request, connectTimeout: configuration.connectTimeout,
                    idleTimeout: configuration.idleTimeout,
                    onHead: onHead, onBody: onBody)
            case .urlSession(let session):
                try session.run(
                    request, connectTimeout: configuration.connectTimeout,
                    idleTimeout: configuration.idleTimeout,
                    onHead: onHead, onBody: onBody)
            }
        } catch let error as APIError {
            if replaced { return .replaced }
            return .failed(error, reachedReady: reachedReady)
        }
        if replaced { return .replaced }
        if let failedHead { throw Self.error(failedHead, body: failedBody) }
        return .closed(reachedReady: reachedReady)
    }

    /// An event as the typed value it carries; nil for kinds this client does not know and payloads it
    /// cannot read (a newer server may send more).
    static func decode(_ event: SSEParser.Event) -> ServerEvent? {
        guard let kind = ServerEventKind(rawValue: event.type) else { return nil }
        let data = Data(event.data.utf8)
        let decoder = JSONDecoder()
        func payload<T: Decodable>(_ type: T.Type) -> T? { try? decoder.decode(type, from: data) }
        switch kind {
        case .ready:
            let ready = payload(ReadyEvent.self)
            return .ready(lastEventID: ready?.lastEventId ?? event.lastEventID)
        case .message: return payload(MessageEvent.self).map(ServerEvent.message)
        case .read: return payload(ReadEvent.self).map(ServerEvent.read)
        case .conversation: return payload(ConversationEvent.self).map(ServerEvent.conversation)
        case .notification: return payload(NotificationEvent.self).map(ServerEvent.notification)
        case .queue: return payload(QueueEvent.self).map(ServerEvent.queue)
        case .likes: return payload(LikesEvent.self).map(ServerEvent.likes)
        case .reload: return .reload
        case .replaced: return .replaced
        }
    }

    /// The API's error for a refused stream, with the server's own sentence when it sent one.
    static func error(_ head: HTTPResponseReader.Head, body: [UInt8]) -> APIError {
        let envelope = try? JSONDecoder().decode(APIResponse<EmptyData>.self, from: Data(body))
        let retryAfter = head.headers["retry-after"].flatMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        if head.status == 200 {
            return APIError(
                kind: .decoding, httpStatus: 200,
                message:
                    "The server answered the event stream with \(head.headers["content-type"] ?? "no type").")
        }
        return APIError(
            kind: APIError.kind(forHTTPStatus: head.status, retryAfter: retryAfter), httpStatus: head.status,
            code: envelope?.status,
            message: envelope?.message ?? "The event stream was refused (HTTP \(head.status)).")
    }

    /// One connection's transport, cancellable from any thread.
    final class Connection: Sendable {
        enum Transport: Sendable {
            case socket(SocketHTTPStream)
            case urlSession(URLSessionHTTPStream)
        }
        let transport: Transport
        init(transport: Transport) { self.transport = transport }
        func cancel() {
            switch transport {
            case .socket(let socket): socket.cancel()
            case .urlSession(let session): session.cancel()
            }
        }
    }
}
