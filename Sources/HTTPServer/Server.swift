import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// Why the server could not start.
public struct ServerStartError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of epoll threads calling synchronous handlers.
public final class HTTPServer: Sendable {
    public let configuration: ServerConfiguration
    public let router: Router
    /// Request counts and latencies, for `/metrics`.
    public let metrics: Metrics

    struct Running {
        var core: ServerCore?
        var daemon: OpaquePointer?
        var listenFD: Int32 = -1
        var port = 0
        var stopped = false
    }

    private let running = Mutex(Running())

    /// `metrics` is where requests are counted; pass the one a `/metrics` route of the router reads.
    public init(configuration: ServerConfiguration, router: Router, metrics: Metrics = Metrics()) {
        self.configuration = configuration
        self.router = router
        self.metrics = metrics
    }

    /// The bound port; 0 before `start`.
    public var port: Int { running.withLock { $0.port } }

    /// Binds, listens and starts the worker threads; throws a `ServerStartError` saying what went wrong.
    public func start() throws {
        let config = configuration
        try running.withLock { r in
            guard r.daemon == nil, !r.stopped else {
                throw ServerStartError(message: "The server was already started.")
            }
            raiseFileLimit(to: config.connectionLimit + config.pushStreamLimit + 64, logger: config.logger)
            addBuiltInRoutes()
            let fd = try makeListenSocket(host: config.host, port: config.port)
            let core = ServerCore(configuration: config, table: router.table(), metrics: metrics)
            let coreRef = Unmanaged.passRetained(core).toOpaque()

            // TURBO also means MHD closes a connection without shutting its socket down, which push streams
            // rely on: they keep the socket open through a duplicate descriptor after MHD lets go of it.
            var flags =
                MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
                | MHD_USE_TURBO.rawValue
            if config.logger.isEnabled(.debug) { flags |= MHD_USE_ERROR_LOG.rawValue }
            let threads = config.threads > 0 ? config.threads : ProcessInfo.processInfo.activeProcessorCount
            var c = cm_daemon_config()
            c.flags = UInt32(flags)
            c.listen_fd = fd
            c.thread_pool_size = UInt32(max(1, threads))
            c.connection_limit = UInt32(max(1, config.connectionLimit))
            c.per_ip_limit = UInt32(max(0, config.perAddressConnectionLimit))
            c.connection_timeout = UInt32(max(0, config.idleTimeoutSeconds))
            // The pool holds the request line and headers, a 64-byte record per header, and a little room
            // for reading the body and writing response headers; MHD answers 431 (its own body) when a
            // request's head doesn't fit. Query parameters take no room: see `ServerCore.requestLine`.
            c.memory_limit = max(8 << 10, config.maxHeaderBytes + (4 << 10))
            c.memory_increment = 1024
            c.handler = accessHandlerCallback
            c.handler_cls = coreRef
            c.completed = requestCompletedCallback
            c.completed_cls = coreRef
            c.notify = connectionNotifyCallback
            c.notify_cls = coreRef
            c.unescape = identityUnescapeCallback
            c.unescape_cls = nil
            c.uri_log = requestLineCallback
            c.uri_log_cls = coreRef
            guard let daemon = cm_start_daemon(&c) else {
                Foundation.close(fd)
                Unmanaged<ServerCore>.fromOpaque(coreRef).release()
                throw ServerStartError(
                    message:
                        "The HTTP server could not start on \(config.host):\(config.port) (libmicrohttpd refused the settings)."
                )
            }
            core.startReaper()
            r.core = core
            r.daemon = daemon
            r.listenFD = fd
            let bound = Int(cm_daemon_port(daemon))
            r.port = bound > 0 ? bound : boundPort(fd)
            config.logger.info("event=listening addr=\(config.host) port=\(r.port) threads=\(threads)")
        }
    }

    /// Stops accepting, lets in-flight requests finish for up to the grace period, then stops.
    public func shutdown() {
        let taken: (ServerCore, OpaquePointer, Int32)? = running.withLock { r in
            guard let core = r.core, let d = r.daemon, !r.stopped else { return nil }
            r.stopped = true
            return (core, d, r.listenFD)
        }
        guard let (core, daemon, listenFD) = taken else { return }
        let logger = configuration.logger
        logger.info("event=shutdown phase=quiesce inflight=\(core.inFlight.load(ordering: .relaxed))")
        core.shuttingDown.store(true, ordering: .relaxed)
        let quiesced = MHD_quiesce_daemon(daemon)
        // MHD must not see the listening fd closed before it stops; shutting it down refuses new connections now.
        if quiesced >= 0 { _ = Foundation.shutdown(quiesced, Int32(SHUT_RDWR)) }
        configuration.willShutDown?()
        let deadline = monotonicNanos() + UInt64(max(0, configuration.shutdownGraceSeconds)) * 1_000_000_000
        while core.inFlight.load(ordering: .relaxed) > 0 && monotonicNanos() < deadline {
            usleep(10_000)
        }
        let left = core.inFlight.load(ordering: .relaxed)
        if left > 0 { logger.warning("event=shutdown phase=grace_expired inflight=\(left)") }
        core.closeAllStreams()
        core.stopReaper()
        MHD_stop_daemon(daemon)
        core.pushStreams.stop()
        Foundation.close(quiesced >= 0 ? quiesced : listenFD)
        running.withLock { r in
            r.daemon = nil
            r.core = nil
        }
        Unmanaged.passUnretained(core).release()
        logger.info("event=shutdown phase=done")
    }

    /// Blocks until SIGINT or SIGTERM, then shuts down and returns.
    public func runUntilSignalled() {
        // A parent may start us with these blocked (a thread's mask is inherited across exec), and then
        // no stop request would ever arrive.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "HTTPServer.signals")
        let sources = [SIGINT, SIGTERM].map { sig -> DispatchSourceSignal in
            let s = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            s.setEventHandler { done.signal() }
            s.resume()
            return s
        }
        done.wait()
        configuration.logger.info("event=signal")
        shutdown()
        for s in sources { s.cancel() }
    }

    private func addBuiltInRoutes() {
        if !router.has(.GET, "/health") {
            router.get("/health") { _ in Response(status: 200, headers: jsonHeaders, body: .data(healthBody))
            }
        }
        if !router.has(.GET, "/metrics") {
            router.get("/metrics") { [metrics] _ in
                Response.raw(
                    Data(metrics.render().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
            }
        }
    }
}

private let healthBody = Data(#"{"status":0,"data":{"status":"ok"}}"#.utf8)

@inline(__always) func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

private func raiseFileLimit(to wanted: Int, logger: Logger) {
    var rl = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &rl) == 0 else { return }
    if rl.rlim_cur < rl.rlim_max {
        rl.rlim_cur = rl.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &rl)
    }
    if Int(rl.rlim_cur) < wanted {
        logger.warning(
            "event=rlimit nofile=\(rl.rlim_cur) wanted=\(wanted) note=\"raise the open-file limit to allow that many connections\""
        )
    }
}

private func boundPort(_ fd: Int32) -> Int {
    var ss = sockaddr_storage()
    var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let ok = withUnsafeMutablePointer(to: &ss) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    guard ok == 0 else { return 0 }
    if ss.ss_family == sa_family_t(AF_INET) {
        return withUnsafePointer(to: &ss) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }
    return withUnsafePointer(to: &ss) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
            Int(UInt16(bigEndian: $0.pointee.sin6_port))
        }
    }
}

private func makeListenSocket(host: String, port: Int) throws -> Int32 {
    guard (0...65535).contains(port) else {
        throw ServerStartError(message: "The port \(port) is not a valid port number (0-65535).")
    }
    var v4 = sockaddr_in()
    var v6 = sockaddr_in6()
    let family: Int32
    if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
        family = AF_INET
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = UInt16(port).bigEndian
    } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
        family = AF_INET6
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = UInt16(port).bigEndian
    } else if host == "localhost" {
        return try makeListenSocket(host: "127.0.0.1", port: port)
    } else {
        throw ServerStartError(
            message: "The host '\(host)' is not an IP address; use e.g. 127.0.0.1, 0.0.0.0 or ::.")
    }
    let fd = socket(
        family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else {
        throw ServerStartError(message: "Could not create a socket: \(String(cString: strerror(errno))).")
    }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let rc: Int32
    if family == AF_INET {
        rc = withUnsafePointer(to: &v4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    } else {
        rc = withUnsafePointer(to: &v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }
    if rc != 0 {
        let e = errno
        Foundation.close(fd)
        switch e {
        case EADDRINUSE:
            throw ServerStartError(
                message:
                    "Port \(port) on \(host) is already in use. Stop the other program using it or choose another port."
            )
        case EACCES:
            throw ServerStartError(
                message:
                    "Not allowed to listen on port \(port); ports below 1024 need extra privileges. Choose a port above 1024."
            )
        case EADDRNOTAVAIL:
            throw ServerStartError(
                message:
                    "The address \(host) does not belong to this machine; choose one of its addresses, or 0.0.0.0."
            )
        default:
            throw ServerStartError(
                message: "Could not listen on \(host):\(port): \(String(cString: strerror(e))).")
        }
    }
    guard listen(fd, 1024) == 0 else {
        let e = errno
        Foundation.close(fd)
        throw ServerStartError(
            message: "Could not listen on \(host):\(port): \(String(cString: strerror(e))).")
    }
    return fd
}

// MARK: - C callbacks (no captures; `cls` is the retained ServerCore)

let accessHandlerCallback: MHD_AccessHandlerCallback = {
    cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    return core.access(connection!, url!, method!, version, uploadData, uploadDataSize!, conCls!)
}

let requestCompletedCallback: MHD_RequestCompletedCallback = { cls, connection, conCls, toe in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    core.completed(connection, conCls, toe)
}

let connectionNotifyCallback: MHD_NotifyConnectionCallback = { cls, connection, socketContext, toe in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    core.connectionNotify(connection!, socketContext!, toe)
}

let requestLineCallback: cm_uri_log_callback = { cls, uri, _ in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    return core.requestLine(uri!)
}

/// Leaves the URL alone so the path can be decoded strictly (bad escapes answer 400).
let identityUnescapeCallback: cm_unescape_callback = { _, _, s in
    strlen(s!)
}

let streamReaderCallback: MHD_ContentReaderCallback = { cls, _, buf, max in
    let w = Unmanaged<StreamWriter>.fromOpaque(cls!).takeUnretainedValue()
    return w.read(into: buf!, max: max)
}

/// The content of a HEAD answer of known length: never read, and nothing if it were.
let headReaderCallback: MHD_ContentReaderCallback = { _, _, _, _ in -1 }

let streamFreeCallback: MHD_ContentReaderFreeCallback = { cls in
    let w = Unmanaged<StreamWriter>.fromOpaque(cls!).takeRetainedValue()
    w.detach()
}

let headerIterator: MHD_KeyValueIterator = { cls, _, key, value in
    let box = cls!.assumingMemoryBound(to: [(name: String, value: String)].self)
    if let key {
        box.pointee.append((name: String(cString: key), value: value.map { String(cString: $0) } ?? ""))
    }
    return MHD_Result.YES
}

let postIterator: MHD_PostDataIterator = { cls, _, key, filename, contentType, _, data, off, size in
    let st = Unmanaged<RequestState>.fromOpaque(cls!).takeUnretainedValue()
    return st.multipart!.part(
        key: key, filename: filename, contentType: contentType, data: data, offset: off, size: size)
        ? MHD_Result.YES : MHD_Result.NO
}
