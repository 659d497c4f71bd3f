import CMicroHTTPD
import Foundation
import Synchronization

/// The state libmicrohttpd's callbacks share; lives from `HTTPServer.start` to the end of `shutdown`.
///
/// Its work is split by callback and by job, one file each: `Connections` (connections opening and closing),
/// `RequestLine` (the request line, before MHD parses it), `Access` (each call of a request) with `RequestHead`
/// (limits and framing) and `BodyReader` (the body; `Multipart` for uploads), `Dispatch` (routing and handlers),
/// `CORS`, `Answer` (responses, default headers, errors rendered), `Completion` (metrics and the access log) and
/// `Reaper` (header deadlines and stalled streams). Requests keep their own state in `RequestState`.
final class ServerCore: Sendable {
    let config: ServerConfiguration
    let table: RouteTable
    let metrics: Metrics
    let logger: Logger
    let errorRenderer: ErrorRenderer
    let inFlight = Atomic<Int>(0)
    let shuttingDown = Atomic<Bool>(false)
    let corsAny: Bool
    let corsOrigins: Set<String>
    let connections = Mutex<[Int32: ConnectionEntry]>([:])
    let streams = Mutex<[ObjectIdentifier: StreamWriter]>([:])
    let reaper = Reaper()
    let logAccess: Bool
    let streamExecutor = StreamExecutor()
    let pushStreams: PushStreams

    init(configuration: ServerConfiguration, table: RouteTable, metrics: Metrics) {
        config = configuration
        self.table = table
        self.metrics = metrics
        logger = configuration.logger
        errorRenderer = configuration.errorRenderer
        corsAny = configuration.corsOrigins.contains("*")
        corsOrigins = Set(configuration.corsOrigins)
        logAccess = configuration.logger.isEnabled(.info)
        pushStreams = PushStreams(
            limit: configuration.pushStreamLimit, perAddressLimit: configuration.perAddressConnectionLimit,
            stallTimeoutSeconds: configuration.streamWriteTimeoutSeconds, metrics: metrics)
    }

    /// Ends every streamed and pushed response: their producers' writes throw.
    func closeAllStreams() {
        let all = streams.withLock { Array($0.values) }
        for w in all { w.close() }
        pushStreams.finishAll()
    }
}
