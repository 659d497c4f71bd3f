import Foundation
import HTTPServer
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Errors

enum ClientError: Error, CustomStringConvertible {
    case connect(Int32)
    case send(Int32)
    case timeout(String)
    case closed(String)
    case malformed(String)

    var description: String {
        switch self {
        case .connect(let e): "connect failed: \(String(cString: strerror(e)))"
        case .send(let e): "send failed: \(String(cString: strerror(e)))"
        case .timeout(let s): "timed out \(s)"
        case .closed(let s): "connection closed \(s)"
        case .malformed(let s): "malformed response: \(s)"
        }
    }
}

// MARK: - Response

struct RawResponse: Sendable {
    var status: Int
    var reason: String
    var headers: [(name: String, value: String)]
    var body: Data
    var wasChunked = false

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// The body parsed as any JSON value.
    var value: Any? { try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed) }
}

struct ResponseHead: Sendable {
    var status: Int
    var reason: String
    var headers: [(name: String, value: String)]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var isChunked: Bool { header("Transfer-Encoding")?.lowercased().contains("chunked") ?? false }
}

// MARK: - Raw socket client

/// A blocking HTTP/1.1 client over a POSIX socket; every read has a deadline.
final class RawClient: @unchecked Sendable {
    private(set) var fd: Int32
    var timeout: Double
    private var pending: [UInt8] = []

    init(port: Int, timeout: Double = 3) throws {
        signal(SIGPIPE, SIG_IGN)
        self.timeout = timeout
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError.connect(errno) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if rc != 0 {
            let e = errno
            Glibc.close(fd)
            fd = -1  // deinit runs for a fully initialised object: don't close a reused number twice
            throw ClientError.connect(e)
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Closes abruptly: with a zero linger time the kernel sends a reset, as when a client crashes.
    func reset() {
        guard fd >= 0 else { return }
        var l = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        Glibc.close(fd)
        fd = -1
    }

    func send(_ s: String) throws { try send(Array(s.utf8)) }
    func send(_ d: Data) throws { try send([UInt8](d)) }

    func send(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { p in
                Glibc.send(fd, p.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw ClientError.send(errno)
            }
            off += n
        }
    }

    /// Sets the socket's receive buffer, so that a client that reads slowly holds the server back sooner.
    func setReceiveBuffer(_ bytes: Int32) {
        var value = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads what has arrived, at most `max` bytes, to be parsed later; false at end of stream.
    func readSome(max: Int) throws -> Bool {
        try fill(deadline: now() + timeout, what: "reading some", limit: max)
    }

    /// Whether the bytes read but not yet parsed end with `suffix`.
    func pendingEnds(with suffix: String) -> Bool {
        pending.count >= suffix.utf8.count && pending.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// Reads more bytes into `pending`; returns false at end of stream. Throws on timeout.
    @discardableResult
    private func fill(deadline: Double, what: String, limit: Int = 65536) throws -> Bool {
        var buf = [UInt8](repeating: 0, count: limit)
        while true {
            let left = deadline - now()
            if left <= 0 { throw ClientError.timeout(what) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(max(1, left * 1000)))
            if r < 0 {
                if errno == EINTR { continue }
                throw ClientError.closed("poll: \(errno) \(what)")
            }
            if r == 0 { continue }
            let n = recv(fd, &buf, buf.count, 0)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET { return false }
                throw ClientError.closed("recv errno \(errno) \(what)")
            }
            if n == 0 { return false }
            pending.append(contentsOf: buf[0..<n])
            return true
        }
    }

    private func readLine(deadline: Double) throws -> String {
        while true {
            if let i = indexOfCRLF() {
                let line = String(decoding: pending[0..<i], as: UTF8.self)
                pending.removeFirst(i + 2)
                return line
            }
            guard try fill(deadline: deadline, what: "reading a line") else {
                throw ClientError.closed("while reading a line (have \(pending.count) bytes)")
            }
        }
    }

    private func indexOfCRLF() -> Int? {
        guard pending.count >= 2 else { return nil }
        for i in 0..<(pending.count - 1) where pending[i] == 13 && pending[i + 1] == 10 { return i }
        return nil
    }

    private func readExactly(_ n: Int, deadline: Double) throws -> [UInt8] {
        while pending.count < n {
            guard try fill(deadline: deadline, what: "reading \(n) bytes") else {
                throw ClientError.closed("after \(pending.count) of \(n) bytes")
            }
        }
        let out = Array(pending[0..<n])
        pending.removeFirst(n)
        return out
    }

    /// Reads a status line and headers.
    func readHead() throws -> ResponseHead {
        let deadline = now() + timeout
        var line = try readLine(deadline: deadline)
        while line.isEmpty { line = try readLine(deadline: deadline) }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw ClientError.malformed("status line \(line)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let h = try readLine(deadline: deadline)
            if h.isEmpty { break }
            guard let colon = h.firstIndex(of: ":") else { throw ClientError.malformed("header \(h)") }
            headers.append(
                (
                    name: String(h[..<colon]),
                    value: h[h.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                ))
        }
        return ResponseHead(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers)
    }

    /// The next chunk of a chunked body; nil after the last one (trailers consumed).
    func readChunk() throws -> Data? {
        let deadline = now() + timeout
        let sizeLine = try readLine(deadline: deadline)
        let hex = sizeLine.split(separator: ";").first.map(String.init) ?? ""
        guard let size = Int(hex.trimmingCharacters(in: .whitespaces), radix: 16) else {
            throw ClientError.malformed("chunk size \(sizeLine)")
        }
        if size == 0 {
            while try !readLine(deadline: deadline).isEmpty {}
            return nil
        }
        let data = try readExactly(size, deadline: deadline)
        let crlf = try readExactly(2, deadline: deadline)
        guard crlf == [13, 10] else { throw ClientError.malformed("chunk without CRLF") }
        return Data(data)
    }

    /// Reads one complete response; `head` means the request was HEAD (no body follows).
    func readResponse(head: Bool = false) throws -> RawResponse {
        let h = try readHead()
        var resp = RawResponse(status: h.status, reason: h.reason, headers: h.headers, body: Data())
        if head || (100..<200).contains(h.status) || h.status == 204 || h.status == 304 { return resp }
        if h.isChunked {
            resp.wasChunked = true
            while let c = try readChunk() { resp.body.append(c) }
        } else if let cl = h.header("Content-Length"), let n = Int(cl) {
            resp.body = Data(try readExactly(n, deadline: now() + timeout))
        } else {
            let deadline = now() + timeout
            while try fill(deadline: deadline, what: "reading to close") {}
            resp.body = Data(pending)
            pending.removeAll()
        }
        return resp
    }

    /// Waits until the peer closes; returns whatever arrived, or nil when it is still open at the deadline.
    func readUntilClosed(timeout t: Double) -> Data? {
        let deadline = now() + t
        do {
            while try fill(deadline: deadline, what: "waiting for close") {}
        } catch {
            if case ClientError.timeout = error { return nil }
        }
        let out = Data(pending)
        pending.removeAll()
        return out
    }
}

@inline(__always) func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Builds a request's bytes.
func requestBytes(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: Data? = nil,
    keepAlive: Bool = false
) -> [UInt8] {
    var s = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (n, v) in headers { s += "\(n): \(v)\r\n" }
    if let body, !headers.contains(where: { $0.0.lowercased() == "transfer-encoding" }) {
        s += "Content-Length: \(body.count)\r\n"
    }
    if !keepAlive { s += "Connection: close\r\n" }
    s += "\r\n"
    var bytes = Array(s.utf8)
    if let body { bytes.append(contentsOf: body) }
    return bytes
}

/// Encodes `parts` as a chunked body.
func chunked(_ parts: [Data]) -> Data {
    var d = Data()
    for p in parts where !p.isEmpty {
        d.append(contentsOf: "\(String(p.count, radix: 16))\r\n".utf8)
        d.append(p)
        d.append(contentsOf: "\r\n".utf8)
    }
    d.append(contentsOf: "0\r\n\r\n".utf8)
    return d
}

// MARK: - Running blocking work off the cooperative pool

/// Runs `body` on its own thread so blocking socket calls never hold a Swift concurrency thread.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
        let t = Thread {
            do { c.resume(returning: try body()) } catch { c.resume(throwing: error) }
        }
        t.start()
    }
}

/// One request on a fresh connection.
func fetch(
    _ port: Int, _ target: String, headers: [(String, String)] = [], timeout: Double = 3
) async throws -> RawResponse {
    try await fetch(port, "GET", target, headers: headers, body: nil, timeout: timeout)
}

/// One request on a fresh connection.
func fetch(
    _ port: Int, _ method: String, _ target: String, headers: [(String, String)] = [],
    body: Data? = nil, timeout: Double = 3
) async throws -> RawResponse {
    try await onThread {
        let c = try RawClient(port: port, timeout: timeout)
        try c.send(requestBytes(method, target, headers: headers, body: body))
        return try c.readResponse(head: method == "HEAD")
    }
}

// MARK: - Server fixture

/// Collects log lines.
final class LogCapture: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(level: .info) { [self] line in lines.withLock { $0.append(line) } }
    }

    var all: [String] { lines.withLock { $0 } }

    /// Waits for a line containing every piece of `parts` (the timeout only ends a hung test, as `eventually`'s).
    func waitFor(_ parts: [String], timeout: Double = 60) async -> String? {
        let deadline = now() + timeout
        func find() -> String? { all.first { line in parts.allSatisfy { line.contains($0) } } }
        while now() < deadline {
            if let l = find() { return l }
            try? await Task.sleep(for: .milliseconds(10))
        }
        // One look after the deadline too: the sleep before it may have lasted past it.
        return find()
    }
}

/// Errors as `{"status":<status>,"message":"..."}`, an application's words for them (the tests' servers use it
/// unless a test asks for another).
let jsonRefusal: ErrorRenderer.Render = { error, _ in
    var json = JSONWriter()
    json.object { o in
        o.key("status")
        o.int(error.status)
        o.key("message")
        o.string(error.message)
    }
    var headers = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
    for (name, value) in error.headers { headers.add(name, value) }
    return Response(status: error.status, headers: headers, body: Data(json.bytes))
}

/// A quiet logger for tests that don't look at the log.
let quietLogger = Logger(level: .error) { _ in }

func makeServer(
    _ configure: (inout ServerConfiguration) -> Void = { _ in }, routes: (Router) -> Void
) throws -> HTTPServer {
    var c = ServerConfiguration()
    c.port = 0
    c.threads = 2
    c.shutdownGraceSeconds = 2
    // Long, unless a test sets them to test them: a test holding a connection may wait its turn on the
    // cooperative pool for longer than the usual 10 and 30 s before using it again (seen: a stream's client
    // dropped as idle while the test that held it waited).
    c.headerTimeoutSeconds = 600
    c.idleTimeoutSeconds = 600
    // A client the test holds unread while it waits for its turn is not a stalled reader.
    c.streamWriteTimeoutSeconds = 600
    c.logger = quietLogger
    c.errorRenderer = ErrorRenderer(jsonRefusal)
    configure(&c)
    let router = Router()
    routes(router)
    let server = HTTPServer(configuration: c, router: router)
    try server.start()
    return server
}

/// Starts a server, runs `body`, and always shuts the server down.
func withServer(
    config configure: (inout ServerConfiguration) -> Void = { _ in }, routes: (Router) -> Void = { _ in },
    _ body: (HTTPServer) async throws -> Void
) async throws {
    let server = try makeServer(configure, routes: routes)
    #expect(server.port > 0)
    do {
        try await body(server)
    } catch {
        _ = try? await onThread { server.shutdown() }
        throw error
    }
    _ = try await onThread { server.shutdown() }
}

/// A thread-safe box for values handlers or producers record.
final class Box<T: Sendable>: Sendable {
    private let m: Mutex<T>
    init(_ v: T) { m = Mutex(v) }
    var value: T {
        get { m.withLock { $0 } }
        set { m.withLock { $0 = newValue } }
    }
    func update(_ f: (inout T) -> Void) { m.withLock { f(&$0) } }
}

/// Waits until `condition` holds or the timeout passes; returns whether it held.
///
/// The timeout only ends a hung test: between two looks the test waits for a turn on the cooperative pool,
/// which every other test shares (two threads, two loaded cores), sometimes for seconds.
func eventually(timeout: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = now() + timeout
    while now() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

struct Echo: Codable, Sendable, Equatable {
    var name: String
    var count: Int
}
