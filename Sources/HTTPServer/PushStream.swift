import CMicroHTTPD
import Foundation
import Synchronization

/// A long-lived response that whoever has something to send writes straight to its socket: no task waits
/// for it and libmicrohttpd no longer holds it.
///
/// After its head the connection leaves libmicrohttpd (which, with `MHD_USE_TURBO`, closes its descriptor
/// without shutting the socket down) and the server's `PushStreams` own a duplicate of the descriptor. An
/// idle stream then costs a socket and this object, not a connection's memory pool, and a write is one
/// non-blocking `send` on the caller's thread. What the socket cannot take at once waits here and goes out
/// when it becomes writable; a client that takes nothing for `streamWriteTimeoutSeconds`, or lets more
/// than `maxPending` bytes pile up, is dropped (an event-stream client then resumes from its last event).
public final class PushStream: Sendable {
    struct State: ~Copyable {
        var fd: Int32
        var pending: [UInt8] = []
        /// How much of `pending` has been sent.
        var pendingSent = 0
        /// Monotonic ns when the client last took data while some was waiting.
        var lastProgress: UInt64 = 0
        /// `finish` was called: close once `pending` has gone out.
        var finishing = false
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []
        var bytesSent = 0
    }

    let id: UInt64
    /// The client's address.
    public let address: String
    /// HTTP/1.1 bodies go out chunked, as libmicrohttpd sends streamed bodies; HTTP/1.0 ones end at the close.
    let chunked: Bool
    private let state: Mutex<State>
    private let owner: PushStreams

    /// The most bytes left waiting for a slow client before it is dropped.
    static let maxPending = 256 << 10

    init(id: UInt64, fd: Int32, address: String, chunked: Bool, owner: PushStreams) {
        self.id = id
        self.address = address
        self.chunked = chunked
        self.owner = owner
        state = Mutex(State(fd: fd))
    }

    /// True once the client has gone, the stream was finished or the server is stopping.
    public var isClosed: Bool { state.withLock { $0.closed || $0.finishing } }

    /// Bytes written to the socket so far.
    public var bytesSent: Int { state.withLock { $0.bytesSent } }

    /// Sends `data` as the next part of the body without waiting; false once the stream has closed (this
    /// write included: the client was gone, or too far behind).
    @discardableResult
    public func send(_ data: Data) -> Bool {
        guard !data.isEmpty else { return !isClosed }
        var frame: [UInt8] = []
        frame.reserveCapacity(data.count + 12)
        if chunked {
            frame.append(contentsOf: String(data.count, radix: 16).utf8)
            frame.append(contentsOf: [13, 10])
        }
        frame.append(contentsOf: data)
        if chunked { frame.append(contentsOf: [13, 10]) }
        return enqueue(frame, finishing: false)
    }

    /// Ends the body; the connection closes once what is waiting has gone out.
    public func finish() {
        enqueue(chunked ? Array("0\r\n\r\n".utf8) : [], finishing: true)
    }

    /// Runs `action` once the stream has closed, for whatever reason (at once when it already has). Actions
    /// run on the push streams' own thread, never inside a `send`, so they may take any lock.
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if s.closed { return true }
            s.closeHandlers.append(action)
            return false
        }
        if now { action() }
    }

    /// The response head, written before the stream is handed to its opener.
    func sendHead(_ head: [UInt8]) -> Bool { enqueue(head, finishing: false) }

    @discardableResult
    private func enqueue(_ bytes: [UInt8], finishing: Bool) -> Bool {
        var handlers: [@Sendable () -> Void] = []
        let accepted = state.withLock { s -> Bool in
            if s.closed || s.finishing { return false }
            if s.pending.count == s.pendingSent {
                let written = Self.write(s.fd, bytes, from: 0)
                guard written >= 0 else {
                    handlers = close(&s)
                    return false
                }
                s.bytesSent += written
                if written < bytes.count {
                    s.pending = Array(bytes[written...])
                    s.pendingSent = 0
                    s.lastProgress = monotonicNanos()
                    owner.watch(s.fd, id: id, writable: true)
                }
            } else {
                guard s.pending.count - s.pendingSent + bytes.count <= Self.maxPending else {
                    handlers = close(&s)
                    return false
                }
                s.pending.append(contentsOf: bytes)
            }
            if finishing {
                s.finishing = true
                if s.pending.count == s.pendingSent { handlers = close(&s) }
            }
            return true
        }
        owner.runOnClose(handlers)
        return accepted
    }

    /// The socket can take more (the push streams' thread).
    func writable() {
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            guard !s.closed, s.pending.count > s.pendingSent else { return [] }
            let written = Self.write(s.fd, s.pending, from: s.pendingSent)
            guard written >= 0 else { return close(&s) }
            if written > 0 { s.lastProgress = monotonicNanos() }
            s.bytesSent += written
            s.pendingSent += written
            if s.pendingSent == s.pending.count {
                s.pending = []
                s.pendingSent = 0
                if s.finishing { return close(&s) }
                owner.watch(s.fd, id: id, writable: false)
            } else if s.pendingSent >= 64 << 10 {
                s.pending.removeFirst(s.pendingSent)
                s.pendingSent = 0
            }
            return []
        }
        owner.runOnClose(handlers)
    }

    /// The client sent something (the push streams' thread): read and dropped; the end of its data, or an
    /// error, means it has gone.
    func readable() {
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            guard !s.closed else { return [] }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
                for _ in 0..<16 {
                    let n = recv(s.fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                    if n > 0 { continue }
                    if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return [] }
                    return close(&s)
                }
                return []
            }
        }
        owner.runOnClose(handlers)
    }

    /// Closes the connection now, whatever is waiting.
    func abort() {
        let handlers: [@Sendable () -> Void] = state.withLock { s in s.closed ? [] : close(&s) }
        owner.runOnClose(handlers)
    }

    /// True when data has waited more than `timeout` ns and the client has taken none of it meanwhile.
    func isStalled(now: UInt64, timeout: UInt64) -> Bool {
        state.withLock { s in
            !s.closed && s.pending.count > s.pendingSent && now > s.lastProgress
                && now - s.lastProgress > timeout
        }
    }

    private func close(_ s: inout State) -> [@Sendable () -> Void] {
        owner.forget(self, fd: s.fd)
        Foundation.close(s.fd)
        s.fd = -1
        s.closed = true
        s.pending = []
        s.pendingSent = 0
        defer { s.closeHandlers.removeAll() }
        return s.closeHandlers
    }

    /// Writes `bytes[from...]` without blocking; how many went out, or -1 when the connection is broken.
    private static func write(_ fd: Int32, _ bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBytes { raw in
            var offset = start
            while offset < raw.count {
                let n = Foundation.send(
                    fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    break
                } else {
                    return -1
                }
            }
            return offset - start
        }
    }
}

/// The push streams of one server: their descriptors, one epoll thread that notices clients leaving and
/// sockets becoming writable again, and the limits on how many may be open.
final class PushStreams: Sendable {
    private struct Table {
        var streams: [UInt64: PushStream] = [:]
        var perAddress: [String: Int] = [:]
        var nextID: UInt64 = 1
        /// Close handlers waiting to run on the thread.
        var handlers: [@Sendable () -> Void] = []
        var threadStarted = false
        var stopping = false
    }

    let limit: Int
    let perAddressLimit: Int
    let stallTimeout: UInt64
    private let epollFD: Int32
    private let wakeFD: Int32
    private let table = Mutex(Table())
    private let stopped = DispatchSemaphore(value: 0)
    private let metrics: Metrics

    init(limit: Int, perAddressLimit: Int, stallTimeoutSeconds: Int, metrics: Metrics) {
        self.metrics = metrics
        self.limit = limit
        self.perAddressLimit = perAddressLimit
        stallTimeout = UInt64(max(1, stallTimeoutSeconds)) * 1_000_000_000
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = 0
        _ = epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        Foundation.close(epollFD)
        Foundation.close(wakeFD)
    }

    /// How many are open.
    var count: Int { table.withLock { $0.streams.count } }

    /// Takes over a duplicate of connection descriptor `fd`; an error to answer instead when a limit is
    /// reached or no descriptor is left.
    func open(fd: Int32, address: String, chunked: Bool) -> Result<PushStream, HTTPError> {
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else {
            return .failure(
                HTTPError(
                    status: 503,
                    message: "The server has no room for another stream right now; try again later.",
                    headers: [("Retry-After", "30")]))
        }
        _ = fcntl(own, F_SETFL, fcntl(own, F_GETFL) | O_NONBLOCK)
        let admitted: Result<PushStream, HTTPError> = table.withLock { t in
            if t.stopping || t.streams.count >= limit {
                return .failure(
                    HTTPError(
                        status: 503,
                        message: "The server has as many open streams as it allows; try again later.",
                        headers: [("Retry-After", "30")]))
            }
            if perAddressLimit > 0 && t.perAddress[address, default: 0] >= perAddressLimit {
                return .failure(
                    HTTPError(
                        status: 429,
                        message:
                            "This address has \(perAddressLimit) streams open, as many as one address may; close one first.",
                        headers: [("Retry-After", "30")]))
            }
            let stream = PushStream(id: t.nextID, fd: own, address: address, chunked: chunked, owner: self)
            t.nextID += 1
            t.streams[stream.id] = stream
            t.perAddress[address, default: 0] += 1
            metrics.openPushStreams.add(1, ordering: .relaxed)
            // Registered before the table lock is let go, so that no `forget` can come first.
            var event = epoll_event()
            event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
            event.data.u64 = stream.id
            _ = epoll_ctl(epollFD, EPOLL_CTL_ADD, own, &event)
            if !t.threadStarted {
                t.threadStarted = true
                startThread()
            }
            return .success(stream)
        }
        if case .failure = admitted { Foundation.close(own) }
        return admitted
    }

    /// Ends every stream's body and refuses new ones (the server is stopping).
    func finishAll() {
        let all = table.withLock { t in
            t.stopping = true
            return Array(t.streams.values)
        }
        for stream in all { stream.finish() }
    }

    /// Closes what is left and stops the thread.
    func stop() {
        let (all, running) = table.withLock { t in
            t.stopping = true
            return (Array(t.streams.values), t.threadStarted)
        }
        for stream in all { stream.abort() }
        guard running else { return }
        wake()
        stopped.wait()
    }

    /// Called by a stream, under its lock, while `fd` is still its own.
    func watch(_ fd: Int32, id: UInt64, writable: Bool) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (writable ? EPOLLOUT.rawValue : 0)
        event.data.u64 = id
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Called by a stream, under its lock, just before it closes `fd`.
    func forget(_ stream: PushStream, fd: Int32) {
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
        table.withLock { t in
            guard t.streams.removeValue(forKey: stream.id) != nil else { return }
            metrics.openPushStreams.subtract(1, ordering: .relaxed)
            let left = t.perAddress[stream.address, default: 1] - 1
            t.perAddress[stream.address] = left > 0 ? left : nil
        }
    }

    /// Hands close handlers to the thread, so they never run inside a caller's lock.
    func runOnClose(_ handlers: [@Sendable () -> Void]) {
        guard !handlers.isEmpty else { return }
        table.withLock { $0.handlers.append(contentsOf: handlers) }
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = Foundation.write(wakeFD, &one, 8)
    }

    private func startThread() {
        let thread = Thread { [self] in run() }
        thread.name = "http-push-streams"
        thread.start()
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var lastStallCheck = monotonicNanos()
        while true {
            let n = events.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress, 256, 1000) }
            for i in 0..<max(0, Int(n)) {
                let id = events[i].data.u64
                let flags = events[i].events
                if id == 0 {
                    var drained: UInt64 = 0
                    _ = Foundation.read(wakeFD, &drained, 8)
                    continue
                }
                guard let stream = table.withLock({ $0.streams[id] }) else { continue }
                if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
                    stream.abort()
                    continue
                }
                if flags & EPOLLOUT.rawValue != 0 { stream.writable() }
                if flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 { stream.readable() }
            }
            let (handlers, stopping) = table.withLock { t in
                defer { t.handlers.removeAll() }
                return (t.handlers, t.stopping && t.streams.isEmpty)
            }
            for handler in handlers { handler() }
            if stopping { break }
            let now = monotonicNanos()
            if now - lastStallCheck >= 1_000_000_000 {
                lastStallCheck = now
                let all = table.withLock { Array($0.streams.values) }
                for stream in all where stream.isStalled(now: now, timeout: stallTimeout) { stream.abort() }
            }
        }
        stopped.signal()
    }
}
