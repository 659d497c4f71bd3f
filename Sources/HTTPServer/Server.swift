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
            core.reaper.start(core)
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
        core.reaper.stop()
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

private let healthBody = Data(#"{"status":"ok"}"#.utf8)

@inline(__always) func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
