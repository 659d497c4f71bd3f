import CMicroHTTPD
import Foundation
import Synchronization

/// One open connection, for the header deadline and the client address.
final class ConnectionEntry: Sendable {
    let fd: Int32
    let address: String
    /// What the connection waits for, since when (monotonic ns): 0 while a request runs; an even time while
    /// a request's headers are due (since the connection opened, or since the next request's first bytes
    /// arrived); an odd time while a kept-alive connection waits, idle, for its next request.
    let waitingSince: Atomic<UInt64>

    init(fd: Int32, address: String, since: UInt64) {
        self.fd = fd
        self.address = address
        self.waitingSince = Atomic(since & ~1)
    }
}

/// What one request collects between MHD's calls.
final class RequestState {
    enum BodyKind { case none, buffered, urlencoded, multipart }

    let start: UInt64
    /// Whether MHD has called the access handler for this request yet.
    var started = false
    var method: HTTPMethod = .GET
    /// The request's method as sent, when it is not one of `HTTPMethod`'s.
    var unknownMethod: String?
    var rawPath = ""
    /// The raw query string (after "?"), taken from MHD before it parsed it; nil when there is none.
    var query: String?
    /// The request target's length in bytes, query included.
    var targetBytes = 0
    /// Why the request line is refused (too many query parameters, too long an address).
    var targetError: HTTPError?
    var address = ""
    var route = ""
    var kind = BodyKind.none
    var contentType: String?
    var limit = 0
    var received = 0
    var buffer = Data()
    var rejected: HTTPError?
    var multipart: MultipartState?
    var queued = false
    var status = 0
    var bytes = 0
    var writer: StreamWriter?
    /// The request said HTTP/1.0 (no chunked bodies).
    var http10 = false
    /// The push stream this request became.
    var pushed: PushStream?

    init(start: UInt64) { self.start = start }
}

/// Streams multipart parts: fields into memory, files into temporary files.
final class MultipartState {
    var processor: OpaquePointer?
    var fields: [String: [UInt8]] = [:]
    var fieldOrder: [String] = []
    var files: [UploadedFile] = []
    var tempPaths: [String] = []
    var total = 0
    let limit: Int
    var failure: HTTPError?

    // The part being written.
    var currentKey: String?
    var currentFileName: String?
    var currentContentType: String?
    var currentFD: Int32 = -1
    var currentPath = ""
    var currentSize = 0

    init(limit: Int) { self.limit = limit }

    func part(
        key: UnsafePointer<CChar>?, filename: UnsafePointer<CChar>?, contentType: UnsafePointer<CChar>?,
        data: UnsafePointer<CChar>?, offset: UInt64, size: Int
    ) -> Bool {
        total += size
        if total > limit {
            failure = HTTPError.tooLarge("The upload is larger than the \(formatBytes(limit)) allowed.")
            return false
        }
        let k = key.map { String(cString: $0) } ?? ""
        if let filename {
            let name = String(cString: filename)
            if offset == 0 || currentFD < 0 || currentKey != k || currentFileName != name {
                finishFile()
                let dir =
                    ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
                var template = Array("\(dir)/cloudmusic-upload-XXXXXX".utf8CString)
                let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard fd >= 0 else {
                    failure = HTTPError(
                        status: 500,
                        message: "The server could not store the upload. Please tell the administrator.")
                    return false
                }
                currentFD = fd
                currentPath = String(cString: template)
                tempPaths.append(currentPath)
                currentKey = k
                currentFileName = name
                currentContentType = contentType.map { String(cString: $0) }
                currentSize = 0
            }
            if size > 0, let data {
                var off = 0
                while off < size {
                    let n = Foundation.write(currentFD, data + off, size - off)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = HTTPError(
                            status: 500,
                            message: "The server could not store the upload. Please tell the administrator.")
                        return false
                    }
                    off += n
                }
                currentSize += size
            }
        } else {
            finishFile()
            if fields[k] == nil { fieldOrder.append(k) }
            if offset == 0 { fields[k] = [] }
            if size > 0, let data {
                data.withMemoryRebound(to: UInt8.self, capacity: size) {
                    fields[k, default: []].append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                }
            }
        }
        return true
    }

    func finishFile() {
        guard currentFD >= 0 else { return }
        Foundation.close(currentFD)
        currentFD = -1
        files.append(
            UploadedFile(
                fieldName: currentKey ?? "", fileName: currentFileName, contentType: currentContentType,
                path: currentPath, size: currentSize))
    }

    func form() -> MultipartForm {
        finishFile()
        var f: [String: String] = [:]
        for (k, v) in fields { f[k] = String(decoding: v, as: UTF8.self) }
        return MultipartForm(fields: f, files: files)
    }

    /// Closes and deletes everything; safe to call twice.
    func cleanup() {
        if let p = processor {
            MHD_destroy_post_processor(p)
            processor = nil
        }
        if currentFD >= 0 {
            Foundation.close(currentFD)
            currentFD = -1
        }
        for p in tempPaths { unlink(p) }
        tempPaths.removeAll()
    }
}

/// How far past its limit a body is read and dropped so that the client can be told 413.
let bodyDiscardAllowance = 64 << 20

/// The parameters in a raw query string: its non-empty pieces between "&"s.
func countQueryParameters(_ query: UnsafeRawBufferPointer) -> Int {
    var count = 0
    var pieceLength = 0
    for b in query {
        if b == 0x26 {
            if pieceLength > 0 { count += 1 }
            pieceLength = 0
        } else {
            pieceLength += 1
        }
    }
    return pieceLength > 0 ? count + 1 : count
}

func formatBytes(_ n: Int) -> String {
    if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MB" }
    if n >= 1 << 10 && n % (1 << 10) == 0 { return "\(n >> 10) KB" }
    return "\(n) bytes"
}

/// The state shared by MHD's callbacks; lives from `start` to the end of `shutdown`.
final class ServerCore: @unchecked Sendable {
    let config: ServerConfiguration
    let table: RouteTable
    let metrics: Metrics
    let logger: Logger
    let inFlight = Atomic<Int>(0)
    let shuttingDown = Atomic<Bool>(false)
    let corsAny: Bool
    let corsOrigins: Set<String>
    let connections = Mutex<[Int32: ConnectionEntry]>([:])
    let streams = Mutex<[ObjectIdentifier: StreamWriter]>([:])
    let reaperStop = Atomic<Bool>(false)
    let reaperDone = DispatchSemaphore(value: 0)
    let reaperWake = DispatchSemaphore(value: 0)
    let logAccess: Bool
    let streamExecutor = StreamExecutor()
    let pushStreams: PushStreams

    init(configuration: ServerConfiguration, table: RouteTable, metrics: Metrics) {
        config = configuration
        self.table = table
        self.metrics = metrics
        logger = configuration.logger
        corsAny = configuration.corsOrigins.contains("*")
        corsOrigins = Set(configuration.corsOrigins)
        logAccess = configuration.logger.isEnabled(.info)
        pushStreams = PushStreams(
            limit: configuration.pushStreamLimit, perAddressLimit: configuration.perAddressConnectionLimit,
            stallTimeoutSeconds: configuration.streamWriteTimeoutSeconds, metrics: metrics)
    }

    // MARK: Connections and the header deadline

    func connectionNotify(
        _ connection: OpaquePointer, _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        _ toe: MHD_ConnectionNotificationCode
    ) {
        if toe == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
            let fd = cm_connection_fd(connection)
            let entry = ConnectionEntry(fd: fd, address: clientAddress(connection), since: monotonicNanos())
            socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
            connections.withLock { $0[fd] = entry }
            metrics.openConnections.add(1, ordering: .relaxed)
        } else {
            guard let p = socketContext.pointee else { return }
            socketContext.pointee = nil
            let entry = Unmanaged<ConnectionEntry>.fromOpaque(p).takeRetainedValue()
            connections.withLock { table in
                if table[entry.fd] === entry { table[entry.fd] = nil }
            }
            metrics.openConnections.subtract(1, ordering: .relaxed)
        }
    }

    @inline(__always) func entry(_ connection: OpaquePointer) -> ConnectionEntry? {
        guard let p = cm_connection_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionEntry>.fromOpaque(p).takeUnretainedValue()
    }

    /// Starts the thread that drops connections past their header deadline and streams whose client has
    /// stopped reading.
    func startReaper() {
        let headerSeconds = max(1, config.headerTimeoutSeconds)
        let streamSeconds = max(1, config.streamWriteTimeoutSeconds)
        let timeout = UInt64(headerSeconds) * 1_000_000_000
        let streamTimeout = UInt64(streamSeconds) * 1_000_000_000
        let interval = min(1_000_000, max(100_000, min(headerSeconds, streamSeconds) * 250_000))
        let thread = Thread { [self] in
            while !reaperStop.load(ordering: .relaxed) {
                // Waits on a semaphore rather than sleeping so that stopping doesn't wait out the interval.
                if reaperWake.wait(timeout: .now() + .microseconds(interval)) == .success { break }
                let now = monotonicNanos()
                connections.withLock { table in
                    for (_, e) in table {
                        var since = e.waitingSince.load(ordering: .relaxed)
                        if since & 1 == 1 {
                            // Kept alive and idle: MHD closes it after idleTimeoutSeconds without traffic. Once
                            // the next request's first bytes arrive, its headers are due within the timeout.
                            guard let arrived = nextRequestArrival(e.fd, idleSince: since, now: now),
                                e.waitingSince.compareExchange(
                                    expected: since, desired: arrived, ordering: .relaxed
                                ).exchanged
                            else { continue }
                            since = arrived
                        }
                        if since != 0 && now > since && now - since > timeout {
                            // Bytes no worker has read yet (the connection's worker busy with a slow handler,
                            // or the machine loaded) were delivered in time: a complete request waiting its
                            // turn was dropped here, unanswered. Looked at again on the next round.
                            var byte: UInt8 = 0
                            if recv(e.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0 { continue }
                            // Shut down, never close: MHD owns the fd and closes it itself.
                            _ = Foundation.shutdown(e.fd, Int32(SHUT_RDWR))
                            e.waitingSince.store(0, ordering: .relaxed)
                        }
                    }
                }
                dropStalledStreams(now: now, timeout: streamTimeout)
            }
            reaperDone.signal()
        }
        thread.name = "http-header-deadline"
        thread.start()
    }

    /// When data last arrived on a kept-alive connection idle since `idleSince` (odd), as an even time; nil
    /// while nothing has arrived since.
    ///
    /// The kernel counts in milliseconds of jiffies, so data within 20 ms of the previous answer is taken
    /// for that request's (a next request that quick is answered before the reaper looks).
    private func nextRequestArrival(_ fd: Int32, idleSince: UInt64, now: UInt64) -> UInt64? {
        let ago = cm_ms_since_last_receive(fd)
        guard ago >= 0 else { return nil }
        let agoNanos = UInt64(ago) * 1_000_000
        guard now > agoNanos else { return nil }
        let arrived = (now - agoNanos) & ~1
        return arrived > idleSince + 20_000_000 ? arrived : nil
    }

    /// Drops every stream whose client has taken none of the waiting data for `timeout` ns: its producer's
    /// writes throw, and the connection is shut down so that it stops holding whatever the producer held.
    private func dropStalledStreams(now: UInt64, timeout: UInt64) {
        let stalled = streams.withLock { table in
            table.values.filter { $0.isStalled(now: now, timeout: timeout) }
        }
        for w in stalled {
            w.close()
            if let e = w.connectionEntry {
                connections.withLock { table in
                    // Only while the fd is still this connection's: MHD may have closed it meanwhile.
                    if table[e.fd] === e { _ = Foundation.shutdown(e.fd, Int32(SHUT_RDWR)) }
                }
            }
            logger.info(
                "event=stream_stalled addr=\(w.connectionEntry?.address ?? "") sent=\(w.bytesSent) timeout_s=\(timeout / 1_000_000_000)"
            )
        }
    }

    func stopReaper() {
        reaperStop.store(true, ordering: .relaxed)
        reaperWake.signal()
        reaperDone.wait()
    }

    func closeAllStreams() {
        let all = streams.withLock { Array($0.values) }
        for w in all { w.close() }
        pushStreams.finishAll()
    }

    // MARK: Requests

    func access(
        _ connection: OpaquePointer, _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
        _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
        _ uploadDataSize: UnsafeMutablePointer<Int>, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let p = conCls.pointee else {
            // requestLine always comes first; this keeps a request working should it not.
            let st = RequestState(start: monotonicNanos())
            st.targetBytes = strlen(url)
            conCls.pointee = Unmanaged.passRetained(st).toOpaque()
            return firstCall(st, connection, url, method, version)
        }
        let st = Unmanaged<RequestState>.fromOpaque(p).takeUnretainedValue()
        if !st.started { return firstCall(st, connection, url, method, version) }
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if st.queued { return MHD_Result.YES }
            return receive(st, uploadData!, size)
        }
        if st.queued { return MHD_Result.YES }
        return finishBody(st, connection)
    }

    /// MHD has read a request line: starts the request's state (MHD hands it to every later callback) and
    /// takes the query string away from MHD.
    ///
    /// libmicrohttpd 0.9.75 keeps each query parameter as a 64-byte record in the connection's memory pool
    /// (`memory_limit`), and when the pool runs out while it parses the query, it drops the failure
    /// (`parse_initial_message_line` ignores what `MHD_parse_arguments_` returns): the 431 it had queued is
    /// overwritten by the next state, and the connection waits for nothing until the header deadline. Here,
    /// where MHD calls before it parses the query (its "URI log" callback), the query is copied and cut off
    /// at its first byte, so MHD stores no parameter and `dispatch` parses the copy. (A raw NUL before the
    /// "?" hides the query from this scan; such a request is refused in `firstCall`, if MHD gets that far.)
    func requestLine(_ uri: UnsafePointer<CChar>) -> UnsafeMutableRawPointer {
        let st = RequestState(start: monotonicNanos())
        let length = strlen(uri)
        st.targetBytes = length
        if let mark = memchr(uri, 0x3F, length) {
            let offset = UnsafeRawPointer(uri).distance(to: UnsafeRawPointer(mark)) + 1
            let query = UnsafeMutableRawPointer(mutating: uri) + offset
            let bytes = UnsafeRawBufferPointer(start: query, count: length - offset)
            let count = countQueryParameters(bytes)
            if length > config.maxHeaderBytes {
                st.targetError = addressTooLong()
            } else if count > config.maxQueryParameters {
                let most = config.maxQueryParameters
                st.targetError = HTTPError(
                    status: 414,
                    message: "The address has \(count) query parameters; at most \(most) are allowed.")
                // Kept for the refusal's renderer only (an answer's format may be asked in the query).
                st.query = String(decoding: bytes, as: UTF8.self)
            } else {
                st.query = String(decoding: bytes, as: UTF8.self)
            }
            query.storeBytes(of: 0, as: UInt8.self)
        } else if length > config.maxHeaderBytes {
            st.targetError = addressTooLong()
        }
        return Unmanaged.passRetained(st).toOpaque()
    }

    private func addressTooLong() -> HTTPError {
        let limit = formatBytes(config.maxHeaderBytes)
        return HTTPError(status: 414, message: "The address is longer than the \(limit) allowed.")
    }

    private func firstCall(
        _ st: RequestState, _ connection: OpaquePointer, _ url: UnsafePointer<CChar>,
        _ method: UnsafePointer<CChar>, _ version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        st.started = true
        st.http10 = version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false
        inFlight.add(1, ordering: .relaxed)
        if let e = entry(connection) {
            e.waitingSince.store(0, ordering: .relaxed)
            st.address = e.address
        }
        st.rawPath = String(cString: url)
        guard let m = HTTPMethod(cString: method) else {
            st.unknownMethod = String(cString: method)
            return queue(st, connection, unknownMethodResponse(st))
        }
        st.method = m
        if let e = st.targetError { return refuse(st, connection, e) }

        // libmicrohttpd's own limit is its memory pool, which is larger than maxHeaderBytes; measure exactly.
        var scan = HeaderScan()
        withUnsafeMutablePointer(to: &scan) { p in
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, headerScanIterator, p)
            _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, headerScanIterator, p)
        }
        if scan.mhdParsedQuery {
            let error = HTTPError.badRequest("The address contains a NUL byte; send it as %00.")
            return refuse(st, connection, error)
        }
        let headerBytes = strlen(method) + st.targetBytes + 12 + scan.bytes + 2
        if headerBytes > config.maxHeaderBytes {
            return refuse(
                st, connection,
                HTTPError(
                    status: 431,
                    message:
                        "The request's headers are larger than the \(formatBytes(config.maxHeaderBytes)) allowed."
                ))
        }
        if scan.badName {
            return refuse(st, connection, HTTPError.badRequest("The request has a malformed header name."))
        }

        let cl = lookup(connection, "Content-Length")
        let te = lookup(connection, "Transfer-Encoding")
        var length: Int?
        if let cl {
            guard let n = Int(cl), n >= 0 else {
                return refuse(
                    st, connection, HTTPError.badRequest("The Content-Length header is not a number."))
            }
            length = n
        }
        if te == nil && (length ?? 0) == 0 {
            // Answer on the next call: libmicrohttpd closes the connection after a response queued
            // on the first call, which would end every keep-alive connection after one request.
            st.kind = .none
            return MHD_Result.YES
        }

        let ct = lookup(connection, "Content-Type")
        st.contentType = ct
        let base = ct.map { mediaType($0) } ?? ""
        if base == "multipart/form-data" {
            st.kind = .multipart
            st.limit = config.maxUploadBytes
        } else if base == "application/x-www-form-urlencoded" {
            st.kind = .urlencoded
            st.limit = config.maxBodyBytes
        } else {
            st.kind = .buffered
            st.limit = config.maxBodyBytes
        }
        if let n = length, n > st.limit {
            return refuse(st, connection, tooLargeError(st))
        }
        if st.kind == .multipart {
            let mp = MultipartState(limit: st.limit)
            st.multipart = mp
            guard
                let pp = MHD_create_post_processor(
                    connection, 64 << 10, postIterator, Unmanaged.passUnretained(st).toOpaque())
            else {
                return refuse(
                    st, connection,
                    HTTPError.badRequest("The multipart body has no boundary in its Content-Type."))
            }
            mp.processor = pp
        } else if let n = length {
            st.buffer.reserveCapacity(n)
        }
        return MHD_Result.YES
    }

    private func tooLargeError(_ st: RequestState) -> HTTPError {
        st.kind == .multipart
            ? HTTPError.tooLarge("The upload is larger than the \(formatBytes(st.limit)) allowed.")
            : HTTPError.tooLarge("The request body is larger than the \(formatBytes(st.limit)) allowed.")
    }

    private func receive(_ st: RequestState, _ data: UnsafePointer<CChar>, _ size: Int) -> MHD_Result {
        if st.rejected != nil {
            // MHD can only answer once the whole body is in, so the rest of an over-long body (a chunked one,
            // whose length was not known up front) is read and dropped, and the 413 follows. Past a point the
            // connection is dropped instead.
            st.received += size
            return st.received > st.limit + bodyDiscardAllowance ? MHD_Result.NO : MHD_Result.YES
        }
        st.received += size
        if st.received > st.limit {
            st.rejected = tooLargeError(st)
            st.buffer = Data()
            return MHD_Result.YES
        }
        if st.kind == .multipart {
            guard let mp = st.multipart, let pp = mp.processor else { return MHD_Result.NO }
            if MHD_post_process(pp, data, size) == MHD_Result.NO {
                st.rejected = mp.failure ?? HTTPError.badRequest("The multipart body could not be read.")
            }
        } else {
            data.withMemoryRebound(to: UInt8.self, capacity: size) { st.buffer.append($0, count: size) }
        }
        return MHD_Result.YES
    }

    private func finishBody(_ st: RequestState, _ connection: OpaquePointer) -> MHD_Result {
        if let e = st.rejected { return refuse(st, connection, e) }
        switch st.kind {
        case .none:
            return dispatch(st, connection, .empty)
        case .buffered:
            if st.buffer.isEmpty { return dispatch(st, connection, .empty) }
            return dispatch(st, connection, .data(st.buffer, contentType: st.contentType))
        case .urlencoded:
            let s = String(decoding: st.buffer, as: UTF8.self)
            guard let items = parseURLEncoded(s[...]) else {
                return refuse(st, connection, HTTPError.badRequest("The form has a malformed %-escape."))
            }
            return dispatch(st, connection, .form(FormFields(items)))
        case .multipart:
            guard let mp = st.multipart else { return dispatch(st, connection, .empty) }
            if let pp = mp.processor {
                mp.processor = nil
                let complete = MHD_destroy_post_processor(pp)
                if complete == MHD_Result.NO && mp.failure == nil {
                    mp.cleanup()
                    return refuse(
                        st, connection,
                        HTTPError.badRequest("The multipart body ended before its closing boundary."))
                }
            }
            if let f = mp.failure { return refuse(st, connection, f) }
            return dispatch(st, connection, .multipart(mp.form()))
        }
    }

    /// The decoded segments of a request path, routed on so that an escaped "/" stays inside its segment.
    private func segments(of raw: String) -> Result<(segments: [String], hasEscape: Bool), HTTPError> {
        var segments: [String] = []
        var hasEscape = false
        for seg in raw.utf8.split(separator: 0x2F, omittingEmptySubsequences: true) {
            let s = Substring(seg)
            if s.utf8.contains(0x25) {
                hasEscape = true
                guard let d = percentDecode(s) else {
                    return .failure(HTTPError.badRequest("The address has a malformed %-escape."))
                }
                segments.append(d)
            } else {
                segments.append(String(s))
            }
            // "." and ".." (also escaped, or inside a segment with an escaped "/") would let a handler that
            // joins a parameter onto a folder read outside it.
            if isDotSegment(segments[segments.count - 1]) {
                return .failure(HTTPError.badRequest("The address may not contain \".\" or \"..\" segments."))
            }
        }
        return .success((segments, hasEscape))
    }

    /// A method the server has no name for (TRACE, CONNECT, BREW): 405 with `Allow` on a path it serves.
    private func unknownMethodResponse(_ st: RequestState) -> Response {
        st.route = "unmatched"
        let method = st.unknownMethod ?? ""
        guard case .success(let parsed) = segments(of: st.rawPath),
            case .methodNotAllowed(let allowed, let pattern) = table.match(.OPTIONS, parsed.segments)
        else {
            return HTTPError.notFound("There is nothing at this address.").response
        }
        st.route = pattern
        return HTTPError(
            status: 405, message: "This address does not accept \(logSafe(method)) requests.",
            headers: [("Allow", allowed.map(\.rawValue).joined(separator: ", "))]
        ).response
    }

    private func dispatch(_ st: RequestState, _ connection: OpaquePointer, _ body: RequestBody) -> MHD_Result
    {
        let raw = st.rawPath
        let segments: [String]
        let hasEscape: Bool
        switch self.segments(of: raw) {
        case .failure(let error):
            st.route = "unmatched"
            return refuse(st, connection, error)
        case .success(let parsed):
            (segments, hasEscape) = parsed
        }
        let path = hasEscape ? (percentDecode(raw) ?? raw) : raw

        let headers = collect(connection, MHD_ValueKind.HEADER_KIND)
        var response: Response
        let match = table.match(st.method, segments)
        switch match {
        case .notFound:
            st.route = "unmatched"
            response = HTTPError.notFound("There is nothing at this address.").response
        case .methodNotAllowed(let allowed, let pattern):
            st.route = pattern
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if st.method == .OPTIONS {
                var h = HTTPHeaders()
                h.add("Allow", allow)
                if let origin = headers["Origin"], originAllowed(origin),
                    headers["Access-Control-Request-Method"] != nil
                {
                    h.add("Access-Control-Allow-Methods", allow)
                    h.add("Access-Control-Allow-Headers", "Authorization, Content-Type, Range")
                    h.add("Access-Control-Max-Age", "600")
                }
                response = Response(status: 204, headers: h, body: .empty)
            } else {
                response =
                    HTTPError(
                        status: 405, message: "This address does not accept \(st.method.rawValue) requests.",
                        headers: [("Allow", allow)]
                    ).response
            }
        case .found(let handler, let pattern, let parameters):
            st.route = pattern
            var queryItems: [(name: String, value: String)] = []
            if let query = st.query, !query.isEmpty {
                guard let items = parseURLEncoded(query[...]) else {
                    return refuse(
                        st, connection, HTTPError.badRequest("The query string has a malformed %-escape."))
                }
                queryItems = items
            }
            let request = Request(
                method: st.method, path: path, route: pattern, pathParameters: parameters,
                queryItems: queryItems, headers: headers, remoteAddress: st.address, body: body)
            do {
                response = try handler(request)
            } catch let e as any HTTPResponseError {
                response = e.response
            } catch let e as DecodingError {
                response = HTTPError.badRequest(describe(e)).response
            } catch {
                let id = String(UInt32.random(in: .min ... .max), radix: 16)
                let errorID = String(repeating: "0", count: 8 - id.count) + id
                logger.error(
                    "event=handler_error error_id=\(errorID) method=\(st.method.rawValue) route=\(pattern) error=\(logQuoted(String(describing: error)))"
                )
                response =
                    HTTPError(
                        status: 500,
                        message:
                            "Something went wrong on the server. Please try again; if it keeps happening, tell the administrator (error id \(errorID))."
                    ).response
            }
        }
        if !corsOrigins.isEmpty {
            // The answer depends on Origin whether or not this one is allowed: say so to caches every time,
            // or a cached answer for one origin is served to another.
            response.headers.add("Vary", "Origin")
            if let origin = headers["Origin"], originAllowed(origin) {
                response.headers.replace("Access-Control-Allow-Origin", origin)
                response.headers.add(
                    "Access-Control-Expose-Headers",
                    "Content-Length, Content-Range, Accept-Ranges, ETag, Last-Modified, Retry-After")
            }
        }
        return queue(st, connection, response)
    }

    @inline(__always) func originAllowed(_ origin: String) -> Bool {
        corsAny || corsOrigins.contains(origin)
    }

    /// The response's headers as sent, with the server's defaults where the handler set none; the framing
    /// headers (length, transfer coding) are the server's alone.
    func outgoingHeaders(_ response: Response) -> [(String, String)] {
        var out: [(String, String)] = []
        out.reserveCapacity(response.headers.count + 3)
        var own = SecurityHeaders()
        for (name, value) in response.headers {
            if asciiCaseInsensitiveEqual(name, "Content-Length")
                || asciiCaseInsensitiveEqual(name, "Transfer-Encoding")
            {
                continue
            }
            own.note(name, value)
            out.append((name, value))
        }
        // A handler's own header wins over these defaults.
        if !own.contentTypeOptions { out.append(("X-Content-Type-Options", "nosniff")) }
        if !own.referrerPolicy, let policy = config.referrerPolicy { out.append(("Referrer-Policy", policy)) }
        if own.isJSON && !own.contentSecurityPolicy, let policy = config.apiContentSecurityPolicy {
            out.append(("Content-Security-Policy", policy))
        }
        return out
    }

    /// Sends the head of a push response itself and hands the connection's socket to `pushStreams`; MHD
    /// then drops its side of the connection (`MHD_NO`) without shutting the socket down.
    private func queuePush(
        _ st: RequestState, _ connection: OpaquePointer, _ response: Response,
        _ open: @Sendable (PushStream) -> Void
    ) -> MHD_Result {
        let stream: PushStream
        switch pushStreams.open(fd: cm_connection_fd(connection), address: st.address, chunked: !st.http10) {
        case .failure(let error): return refuse(st, connection, error)
        case .success(let s): stream = s
        }
        let reason = MHD_get_reason_phrase_for(UInt32(response.status)).map { String(cString: $0) } ?? ""
        var head = "\(st.http10 ? "HTTP/1.0" : "HTTP/1.1") \(response.status) \(reason)\r\n"
        // MHD refuses a header with a line break in it; so does this.
        for (name, value) in outgoingHeaders(response)
        where !name.utf8.contains(where: { $0 == 13 || $0 == 10 })
            && !value.utf8.contains(where: { $0 == 13 || $0 == 10 })
        {
            head += "\(name): \(value)\r\n"
        }
        head += "Date: \(httpDate(Int(time(nil))))\r\n"
        if !st.http10 { head += "Transfer-Encoding: chunked\r\n" }
        head += "Connection: close\r\n\r\n"
        st.queued = true
        st.status = response.status
        st.pushed = stream
        if stream.sendHead(Array(head.utf8)) { open(stream) }
        return MHD_Result.NO
    }

    /// Answers with one of the HTTP layer's own refusals, in the envelope the application renders for that
    /// address (`ServerConfiguration.refusal`), else in the default one.
    func refuse(_ st: RequestState, _ connection: OpaquePointer, _ error: HTTPError) -> MHD_Result {
        queue(st, connection, config.refusal?(error, st.rawPath, st.query) ?? error.response)
    }

    func queue(_ st: RequestState, _ connection: OpaquePointer, _ response: Response) -> MHD_Result {
        var response = response
        if case .push(let open) = response.body, st.method != .HEAD {
            return queuePush(st, connection, response, open)
        }
        var mhd: OpaquePointer?
        var length = 0
        var writer: StreamWriter?
        var producer: (@Sendable (StreamWriter) async throws -> Void)?
        var headOfStream = false
        switch response.body {
        case .empty:
            mhd = MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
        case .data(let d):
            length = d.count
            mhd = d.withUnsafeBytes { p in
                MHD_create_response_from_buffer(
                    p.count, UnsafeMutableRawPointer(mutating: p.baseAddress),
                    MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let file, let offset, let len):
            let fd = file.take()
            if fd < 0 {
                response = HTTPError.notFound("That file does not exist.").response
                if case .data(let d) = response.body {
                    length = d.count
                    mhd = d.withUnsafeBytes { p in
                        MHD_create_response_from_buffer(
                            p.count, UnsafeMutableRawPointer(mutating: p.baseAddress),
                            MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
                    }
                }
            } else {
                length = len
                mhd = MHD_create_response_from_fd_at_offset64(UInt64(len), fd, UInt64(offset))
                if mhd == nil { Foundation.close(fd) }
            }
        case .stream where st.method == .HEAD && response.streamLength != nil:
            // The length a GET would send, and no body: libmicrohttpd never reads a HEAD's content.
            mhd = MHD_create_response_from_callback(
                UInt64(response.streamLength!), 1, headReaderCallback, nil, nil)
        case .stream where st.method == .HEAD, .push:
            // No producer for HEAD. libmicrohttpd 0.9.75 sends the final "0\r\n\r\n" even for HEAD, which the
            // client would take for the start of its next response, so such a HEAD closes the connection.
            mhd = MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
            headOfStream = true
        case .stream(let p):
            let w = StreamWriter(connectionEntry: entry(connection))
            w.attach(connection)
            writer = w
            producer = p
            mhd = MHD_create_response_from_callback(
                response.streamLength.map { UInt64($0) } ?? UInt64.max, response.streamBlockSize,
                streamReaderCallback,
                Unmanaged.passRetained(w).toOpaque(),
                streamFreeCallback)
        }
        guard let mhd else {
            logger.error("event=response_error note=\"libmicrohttpd could not create a response\"")
            return MHD_Result.NO
        }
        for (name, value) in outgoingHeaders(response) { MHD_add_response_header(mhd, name, value) }
        if headOfStream {
            MHD_add_response_header(mhd, "Transfer-Encoding", "chunked")
        }
        if shuttingDown.load(ordering: .relaxed) || headOfStream {
            MHD_add_response_header(mhd, "Connection", "close")
        }
        let rc = MHD_queue_response(connection, UInt32(response.status), mhd)
        MHD_destroy_response(mhd)
        st.queued = true
        st.status = response.status
        st.bytes = st.method == .HEAD ? 0 : length
        if let w = writer, let producer {
            if rc == MHD_Result.NO {
                w.detach()
            } else {
                st.writer = w
                let id = ObjectIdentifier(w)
                streams.withLock { $0[id] = w }
                let logger = self.logger
                Task(executorPreference: streamExecutor) { [self] in
                    var failed = false
                    do {
                        try await producer(w)
                    } catch is StreamClosedError {
                        failed = true
                    } catch {
                        failed = true
                        logger.error("event=stream_error error=\(logQuoted(String(describing: error)))")
                    }
                    w.finish(failed: failed)
                    _ = streams.withLock { $0.removeValue(forKey: id) }
                }
            }
        }
        if rc == MHD_Result.NO {
            logger.warning("event=queue_failed status=\(response.status) path=\(logSafe(st.rawPath))")
        }
        return rc
    }

    func completed(
        _ connection: OpaquePointer?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        _ toe: MHD_RequestTerminationCode
    ) {
        if let connection, let e = entry(connection) {
            e.waitingSince.store(monotonicNanos() | 1, ordering: .relaxed)
        }
        guard let conCls, let p = conCls.pointee else { return }
        conCls.pointee = nil
        let st = Unmanaged<RequestState>.fromOpaque(p).takeRetainedValue()
        st.multipart?.cleanup()
        var bytes = st.bytes
        if let w = st.writer {
            bytes = w.bytesSent
            w.close()
        }
        // MHD let go of a push stream's connection on purpose: not an aborted request.
        let pushed = st.pushed != nil
        if let stream = st.pushed { bytes = stream.bytesSent }
        if st.started { inFlight.subtract(1, ordering: .relaxed) }
        guard st.status != 0 else { return }
        let seconds = Double(monotonicNanos() - st.start) / 1e9
        let route = st.route.isEmpty ? "unmatched" : st.route
        metrics.record(
            method: st.unknownMethod == nil ? st.method.rawValue : "OTHER", route: route, status: st.status,
            seconds: seconds, bytes: bytes)
        if logAccess {
            let ok = pushed || toe == MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK
            logger.info(
                "method=\(st.unknownMethod.map(logSafe) ?? st.method.rawValue) route=\(route) path=\(logSafe(st.rawPath)) status=\(st.status) bytes=\(bytes) us=\(Int(seconds * 1e6)) addr=\(st.address)\(ok ? "" : " aborted=1")"
            )
        }
    }

    // MARK: Helpers

    @inline(__always) func lookup(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> HTTPHeaders {
        var pairs: [(name: String, value: String)] = []
        pairs.reserveCapacity(8)
        withUnsafeMutablePointer(to: &pairs) { p in
            _ = MHD_get_connection_values(connection, kind, headerIterator, p)
        }
        return HTTPHeaders(labelled: pairs)
    }
}

/// `s` with spaces, quotes, backslashes, control and non-ASCII bytes %-escaped, so that a client can't add
/// fields to a `key=value` log line.
func logSafe(_ s: String) -> String {
    @inline(__always) func unsafe(_ b: UInt8) -> Bool { b <= 0x20 || b == 0x22 || b == 0x5C || b >= 0x7F }
    guard s.utf8.contains(where: unsafe) else { return s }
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count + 16)
    for b in s.utf8 {
        if unsafe(b) {
            out.append(contentsOf: [0x25, hex[Int(b >> 4)], hex[Int(b & 15)]])
        } else {
            out.append(b)
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// `s` in double quotes, with quotes, backslashes and line breaks escaped so it stays one log field on one line.
func logQuoted(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out.unicodeScalars.append(c)
        }
    }
    return out + "\""
}

/// True when `segment`, or a part of it between "/"s, is "." or "..".
func isDotSegment(_ segment: String) -> Bool {
    guard segment.utf8.contains(0x2E) else { return false }
    for part in segment.utf8.split(separator: 0x2F, omittingEmptySubsequences: false) {
        if part.count == 1 && part.first == 0x2E { return true }
        if part.count == 2 && part.first == 0x2E && part.last == 0x2E { return true }
    }
    return false
}

/// Which of the headers `ServerCore.queue` adds by default a response already has, and whether it is JSON.
struct SecurityHeaders {
    var contentTypeOptions = false
    var referrerPolicy = false
    var contentSecurityPolicy = false
    var isJSON = false

    mutating func note(_ name: String, _ value: String) {
        // Compared only when the length matches: most responses carry just Content-Type.
        switch name.utf8.count {
        case 12:
            if asciiCaseInsensitiveEqual(name, "Content-Type") { isJSON = isJSONMediaType(value) }
        case 15:
            if asciiCaseInsensitiveEqual(name, "Referrer-Policy") { referrerPolicy = true }
        case 22:
            if asciiCaseInsensitiveEqual(name, "X-Content-Type-Options") { contentTypeOptions = true }
        case 23:
            if asciiCaseInsensitiveEqual(name, "Content-Security-Policy") { contentSecurityPolicy = true }
        default:
            break
        }
    }
}

/// True for `application/json` and `application/<something>+json`, with or without parameters.
func isJSONMediaType(_ contentType: String) -> Bool {
    var contentType = contentType
    return contentType.withUTF8 { bytes in
        var end = bytes.firstIndex(of: 0x3B) ?? bytes.count  // ";"
        while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        let prefix = applicationPrefix
        let json = jsonSuffix
        guard end >= prefix.count + json.count else { return false }
        // ASCII letters compare without case; "/" and "+" are not changed by the OR.
        for i in 0..<prefix.count where bytes[i] | 0x20 != prefix[i] { return false }
        for i in 0..<json.count where bytes[end - json.count + i] | 0x20 != json[i] { return false }
        // Either exactly "application/json" or a "+json" suffix.
        return end == prefix.count + json.count || bytes[end - json.count - 1] == 0x2B
    }
}

private let applicationPrefix = Array("application/".utf8)
private let jsonSuffix = Array("json".utf8)

/// The size of a request's header block and whether every header name is a valid token.
struct HeaderScan {
    var bytes = 0
    var badName = false
    /// MHD found query parameters that `ServerCore.requestLine` could not take (a NUL before the "?").
    var mhdParsedQuery = false
}

let headerScanIterator: MHD_KeyValueIterator = { cls, kind, key, value in
    let scan = cls!.assumingMemoryBound(to: HeaderScan.self)
    guard let key else { return MHD_Result.YES }
    let n = strlen(key)
    let v = value.map { strlen($0) } ?? 0
    if kind == MHD_ValueKind.HEADER_KIND {
        scan.pointee.bytes += n + v + 4  // "name: value\r\n"
        if n == 0 { scan.pointee.badName = true }
        for i in 0..<n where !isTokenByte(UInt8(bitPattern: key[i])) {
            scan.pointee.badName = true
            break
        }
    } else {
        scan.pointee.mhdParsedQuery = true
    }
    return MHD_Result.YES
}

/// RFC 9110 tchar.
@inline(__always) func isTokenByte(_ c: UInt8) -> Bool {
    switch c {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
    default: return false
    }
}

func mediaType(_ ct: String) -> String {
    let base = ct.split(separator: ";", maxSplits: 1).first ?? ""
    return base.trimmingCharacters(in: .whitespaces).lowercased()
}

func clientAddress(_ connection: OpaquePointer) -> String {
    guard let sa = cm_connection_client_address(connection) else { return "" }
    var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch Int32(sa.pointee.sa_family) {
    case AF_INET:
        sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
            var a = p.pointee.sin_addr
            _ = inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count))
        }
    case AF_INET6:
        sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
            var a = p.pointee.sin6_addr
            _ = inet_ntop(AF_INET6, &a, &buf, socklen_t(buf.count))
        }
    default:
        return ""
    }
    return String(cString: buf)
}
