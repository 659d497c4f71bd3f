import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One long HTTP/1.1 GET over a plain TCP socket, read on a thread of its own: the event stream's transport
/// for `http://` servers.
///
/// Why not URLSession: on Linux, FoundationNetworking delivers a streaming body through libcurl's multi
/// handle and the session's delegate queue; under load an earlier client built that way sat on a stream
/// whose first event never arrived. Here the bytes are read by a blocking `poll`/`read` loop on a dedicated
/// thread that nothing else shares, so a busy cooperative pool cannot hold them up, a silent connection is
/// noticed (`idleTimeout`) and `cancel` wakes the loop at once (a pipe in the same `poll`).
final class SocketHTTPStream: @unchecked Sendable {
    // @unchecked: the descriptors are set up in init and only read after; `cancel` writes to the pipe,
    // which is safe from any thread.
    struct Request: Sendable {
        var url: URL
        var headers: [(String, String)]
    }

    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let cancelled = Locked(false)

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw APIError(kind: .network, message: "The event stream could not start (\(Self.errnoText())).")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Ends `run` from any thread; `run` then throws `.cancelled`.
    func cancel() {
        let first = cancelled.withLock { value in
            defer { value = true }
            return !value
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Connects, sends the request and reads the answer until it ends, calling `onHead` once and `onBody`
    /// with each piece of the body. Blocks: call it on a thread of its own (`start`).
    func run(
        _ request: Request, connectTimeout: TimeInterval, idleTimeout: TimeInterval,
        onHead: (HTTPResponseReader.Head) throws -> Void, onBody: ([UInt8]) throws -> Void
    ) throws {
        guard let host = request.url.host, !host.isEmpty else {
            throw APIError(kind: .badRequest, message: "'\(request.url)' has no host.")
        }
        let port = request.url.port ?? 80
        let socket = try openSocket(host: host, port: port, timeout: connectTimeout)
        defer { close(socket) }

        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { target += "?" + query }
        let hostHeader = host.contains(":") ? "[\(host)]" : host
        var head =
            "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\(request.url.port.map { ":\($0)" } ?? "")\r\n"
        for (name, value) in request.headers {
            // A value cannot start another header.
            let clean = value.filter { $0 != "\r" && $0 != "\n" }
            head += "\(name): \(clean)\r\n"
        }
        head += "\r\n"
        try sendAll(Array(head.utf8), on: socket, timeout: connectTimeout)

        var reader = HTTPResponseReader()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            try wait(for: socket, events: Int16(POLLIN), timeout: idleTimeout, what: "sent nothing")
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                throw APIError(kind: .network, message: "The event stream broke (\(Self.errnoText())).")
            }
            if count == 0 {
                if reader.readsUntilClose || reader.isDone { return }
                throw APIError(kind: .network, message: "The server closed the event stream.")
            }
            let outputs: [HTTPResponseReader.Output]
            do {
                outputs = try reader.feed(buffer[0..<count])
            } catch .malformed(let message) {
                throw APIError(kind: .decoding, message: message)
            }
            for output in outputs {
                switch output {
                case .head(let head): try onHead(head)
                case .body(let bytes): try onBody(bytes)
                case .end: return
                }
            }
        }
    }

    // MARK: Sockets

    private func openSocket(host: String, port: Int, timeout: TimeInterval) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw APIError(kind: .network, message: "The server could not be reached (\(host): \(reason)).")
        }
        defer { freeaddrinfo(list) }
        var lastError = APIError(kind: .network, message: "The server could not be reached.")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(
                address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                address.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
            if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = APIError(
                    kind: .network, message: "The server could not be reached (\(Self.errnoText())).")
                close(fd)
                continue
            }
            do {
                try wait(
                    for: fd, events: Int16(POLLOUT), timeout: timeout, what: "did not accept the connection")
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return fd }
                lastError = APIError(
                    kind: .network,
                    message: "The server could not be reached (\(String(cString: strerror(error)))).")
                close(fd)
            } catch {
                close(fd)
                throw error
            }
        }
        throw lastError
    }

    private func sendAll(_ bytes: [UInt8], on socket: Int32, timeout: TimeInterval) throws {
        var sent = 0
        while sent < bytes.count {
            try wait(for: socket, events: Int16(POLLOUT), timeout: timeout, what: "did not take the request")
            let count = bytes[sent...].withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                throw APIError(kind: .network, message: "The event stream broke (\(Self.errnoText())).")
            }
            sent += count
        }
    }

    /// Waits until `socket` is ready for `events`; throws on cancel, on timeout and on a socket error.
    private func wait(for socket: Int32, events: Int16, timeout: TimeInterval, what: String) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if cancelled.current {
                throw APIError(kind: .cancelled, message: "The event stream was stopped.")
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw APIError(
                    kind: .network, message: "The server \(what) for \(Int(timeout.rounded())) seconds.")
            }
            var fds = [
                pollfd(fd: socket, events: events, revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw APIError(kind: .network, message: "The event stream broke (\(Self.errnoText())).")
            }
            if fds[1].revents != 0 || cancelled.current {
                throw APIError(kind: .cancelled, message: "The event stream was stopped.")
            }
            // Errors and hang-ups are read (and reported) by the read or send that follows.
            if fds[0].revents != 0 { return }
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
