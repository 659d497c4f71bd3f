import CMicroHTTPD
import Foundation
import Synchronization

/// What a response sends after its headers.
public enum ResponseBody: Sendable {
    case empty
    case data(Data)
    /// `length` bytes of an open file from `offset`, sent with sendfile; the server closes the file.
    case file(OpenFile, offset: Int, length: Int)
    /// A chunked body written by `producer`, which runs as a task; the response ends when it returns.
    case stream(@Sendable (StreamWriter) async throws -> Void)
    /// A body of unknown length pushed to the client by whoever has something to send (see `PushStream`);
    /// `open` gets the stream once the head is on its way, on the request's thread, and should return soon.
    case push(@Sendable (PushStream) -> Void)
}

/// A response a handler returns.
public struct Response: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: ResponseBody
    /// The buffer libmicrohttpd gives a streamed body, allocated for every stream whether or not it is used
    /// (HTTP/1.1 bodies go out chunked from the connection's own buffer): large for media.
    public var streamBlockSize = 32 << 10
    /// The exact length of a streamed body, when it is known before it is written (a transcode sized from
    /// its duration and bit rate): sent as `Content-Length` instead of chunked, HEAD included. The producer
    /// must write exactly this many bytes.
    public var streamLength: Int?

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Data) {
        self.status = status
        self.headers = headers
        self.body = body.isEmpty ? .empty : .data(body)
    }

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `{"status":0,"data":value}` as `application/json; charset=utf-8`; dates as ISO 8601 strings.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) -> Response {
        do {
            // Written by hand so "status" always comes first: JSONEncoder's key order varies from run to run.
            let data = try sharedJSONEncoder.encode(value)
            var payload = Data()
            payload.reserveCapacity(data.count + 20)
            payload.append(contentsOf: #"{"status":0,"data":"#.utf8)
            payload.append(data)
            payload.append(contentsOf: "}".utf8)
            return Response(status: status, headers: jsonHeaders, body: .data(payload))
        } catch {
            return HTTPError(
                status: 500, message: "The server could not write its answer. Please tell the administrator."
            ).response
        }
    }

    /// The same bytes as `json(_:)`, written by the value itself (see `JSONWritable`).
    public static func json<T: JSONWritable>(_ value: T, status: Int = 200) -> Response {
        var writer = JSONWriter(capacity: value.jsonSizeHint + 32)
        writer.object { json in
            json.key("status")
            json.int(0)
            json.key("data")
            value.writeJSON(to: &json)
        }
        return Response(status: status, headers: jsonHeaders, body: .data(Data(writer.bytes)))
    }

    /// `{"status":0}`.
    public static func ok() -> Response {
        Response(status: 200, headers: jsonHeaders, body: .data(okBody))
    }

    public static func raw(_ data: Data, contentType: String, status: Int = 200) -> Response {
        var h = HTTPHeaders()
        h.add("Content-Type", contentType)
        return Response(status: status, headers: h, body: .data(data))
    }

    /// A chunked response of unknown length written by `producer`.
    ///
    /// The connection gives up its worker thread while no data is buffered. When the client goes away the
    /// writer closes and `write` throws.
    public static func stream(
        contentType: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders(),
        blockSize: Int = 32 << 10,
        producer: @escaping @Sendable (StreamWriter) async throws -> Void
    ) -> Response {
        var h = headers
        if !h.contains("Content-Type") { h.add("Content-Type", contentType) }
        var response = Response(status: status, headers: h, body: .stream(producer))
        response.streamBlockSize = max(256, blockSize)
        return response
    }

    /// A long-lived body of unknown length, written with `PushStream.send` from any thread (an event
    /// stream): the connection leaves the HTTP workers once its head is sent, and holds no task or thread.
    public static func push(
        contentType: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders(),
        open: @escaping @Sendable (PushStream) -> Void
    ) -> Response {
        var h = headers
        if !h.contains("Content-Type") { h.add("Content-Type", contentType) }
        return Response(status: status, headers: h, body: .push(open))
    }

    /// The file at `path`, honouring Range, If-Range, If-None-Match and If-Modified-Since.
    ///
    /// Throws 404 when there is no such regular file. A multi-range request gets the whole file. The file is
    /// opened once and sent from that descriptor, so what was checked is what is sent.
    public static func file(at path: String, contentType: String? = nil, request: Request) throws -> Response
    {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HTTPError.notFound("That file does not exist.") }
        return try file(descriptor: fd, contentType: contentType ?? mimeType(forPath: path), request: request)
    }

    /// The open file `descriptor` (taken over: the server closes it), honouring Range, If-Range,
    /// If-None-Match and If-Modified-Since. Throws 404 when it is not a regular file.
    public static func file(descriptor: Int32, contentType: String, request: Request) throws -> Response {
        let file = OpenFile(descriptor)
        var st = stat()
        guard fstat(descriptor, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw HTTPError.notFound("That file does not exist.")
        }
        let size = Int(st.st_size)
        let mtime = Int(st.st_mtim.tv_sec)
        let etag =
            "\"\(String(size, radix: 16))-\(String(mtime, radix: 16))\(String(Int(st.st_mtim.tv_nsec) / 1000, radix: 16))\""
        let lastModified = httpDate(mtime)
        var h = HTTPHeaders()
        h.add("Content-Type", contentType)
        h.add("Accept-Ranges", "bytes")
        h.add("ETag", etag)
        h.add("Last-Modified", lastModified)

        // Conditional GET.
        if let inm = request.headers["If-None-Match"] {
            if etagListMatches(inm, etag) {
                return Response(status: 304, headers: h, body: .empty)
            }
        } else if let ims = request.headers["If-Modified-Since"], let t = parseHTTPDate(ims), mtime <= t {
            return Response(status: 304, headers: h, body: .empty)
        }

        if let range = request.headers["Range"], request.method == .GET || request.method == .HEAD {
            var honour = true
            if let ifRange = request.headers["If-Range"] {
                let v = ifRange.trimmingCharacters(in: .whitespaces)
                if v.hasPrefix("\"") || v.hasPrefix("W/") {
                    honour = v == etag
                } else if let t = parseHTTPDate(v) {
                    honour = t == mtime
                } else {
                    honour = false
                }
            }
            if honour {
                switch parseRange(range, size: size) {
                case .none:
                    break
                case .unsatisfiable:
                    var eh = h
                    eh.replace("Content-Range", "bytes */\(size)")
                    eh.replace("Content-Type", "application/json; charset=utf-8")
                    var r = HTTPError(status: 416, message: "The requested range is outside the file.")
                        .response
                    for (n, v) in eh where !asciiCaseInsensitiveEqual(n, "Content-Type") {
                        r.headers.add(n, v)
                    }
                    return r
                case .range(let start, let end):
                    h.add("Content-Range", "bytes \(start)-\(end)/\(size)")
                    return Response(
                        status: 206, headers: h, body: .file(file, offset: start, length: end - start + 1))
                }
            }
        }
        return Response(status: 200, headers: h, body: .file(file, offset: 0, length: size))
    }
}

/// An open file a response sends; closed when the response is done with it, or never sent.
public final class OpenFile: Sendable {
    private let state: Mutex<Int32>

    init(_ descriptor: Int32) { state = Mutex(descriptor) }

    /// The descriptor, handed over to libmicrohttpd (which closes it); -1 once taken.
    func take() -> Int32 {
        state.withLock { fd in
            let taken = fd
            fd = -1
            return taken
        }
    }

    deinit {
        let fd = state.withLock { $0 }
        if fd >= 0 { close(fd) }
    }
}

let jsonHeaders = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
let okBody = Data(#"{"status":0}"#.utf8)

enum ByteRange: Equatable {
    case none  // absent, malformed or multi-range: send everything
    case unsatisfiable
    case range(Int, Int)  // inclusive
}

func parseRange(_ header: String, size: Int) -> ByteRange {
    let h = header.trimmingCharacters(in: .whitespaces)
    guard h.lowercased().hasPrefix("bytes=") else { return .none }
    let spec = h.dropFirst(6).trimmingCharacters(in: .whitespaces)
    if spec.contains(",") { return .none }
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return .none }
    let a = parts[0].trimmingCharacters(in: .whitespaces)
    let b = parts[1].trimmingCharacters(in: .whitespaces)
    if a.isEmpty {
        guard let n = Int(b), n >= 0 else { return .none }
        if n == 0 || size == 0 { return .unsatisfiable }
        return .range(max(0, size - n), size - 1)
    }
    guard let start = Int(a), start >= 0 else { return .none }
    var end = size - 1
    if !b.isEmpty {
        guard let e = Int(b), e >= start else { return .none }
        end = min(e, size - 1)
    }
    if start >= size { return .unsatisfiable }
    return .range(start, end)
}

func etagListMatches(_ header: String, _ etag: String) -> Bool {
    for raw in header.split(separator: ",") {
        var t = raw.trimmingCharacters(in: .whitespaces)
        if t == "*" { return true }
        if t.hasPrefix("W/") { t.removeFirst(2) }
        if t == etag { return true }
    }
    return false
}

private let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
private let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/// IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
func httpDate(_ seconds: Int) -> String {
    var t = time_t(seconds)
    var tmv = tm()
    gmtime_r(&t, &tmv)
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return
        "\(dayNames[Int(tmv.tm_wday)]), \(two(tmv.tm_mday)) \(monthNames[Int(tmv.tm_mon)]) \(tmv.tm_year + 1900) \(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec)) GMT"
}

/// Parses IMF-fixdate into seconds since 1970.
func parseHTTPDate(_ s: String) -> Int? {
    let parts = s.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
        let mon = monthNames.firstIndex(of: String(parts[2])), let year = Int(parts[3])
    else { return nil }
    let hms = parts[4].split(separator: ":")
    guard hms.count == 3, let hh = Int(hms[0]), let mm = Int(hms[1]), let ss = Int(hms[2]) else { return nil }
    var tmv = tm()
    tmv.tm_year = Int32(year - 1900)
    tmv.tm_mon = Int32(mon)
    tmv.tm_mday = Int32(day)
    tmv.tm_hour = Int32(hh)
    tmv.tm_min = Int32(mm)
    tmv.tm_sec = Int32(ss)
    return Int(timegm(&tmv))
}

private let mimeTypes: [String: String] = [
    "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
    "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
    "json": "application/json; charset=utf-8", "txt": "text/plain; charset=utf-8",
    "lrc": "text/plain; charset=utf-8",
    "xml": "application/xml", "yaml": "application/yaml", "yml": "application/yaml",
    "csv": "text/csv; charset=utf-8",
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
    "svg": "image/svg+xml", "ico": "image/x-icon", "avif": "image/avif", "bmp": "image/bmp",
    "mp3": "audio/mpeg", "flac": "audio/flac", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/opus",
    "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "weba": "audio/webm",
    "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "mkv": "video/x-matroska",
    "mov": "video/quicktime",
    "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "wasm": "application/wasm",
    "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
]

/// A Content-Type guessed from the file extension; `application/octet-stream` when unknown.
public func mimeType(forPath path: String) -> String {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else {
        return "application/octet-stream"
    }
    return mimeTypes[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
}

// MARK: - Streaming

/// The error `StreamWriter.write` throws once the client has gone.
public struct StreamClosedError: Error, Sendable {}

/// Writes the body of a chunked response; `write` waits while the client is slow.
///
/// A client that takes none of the waiting data for `ServerConfiguration.streamWriteTimeoutSeconds` is
/// dropped, and `write` throws `StreamClosedError`.
public final class StreamWriter: Sendable {
    struct State: ~Copyable {
        var buffer: [UInt8] = []
        var readOffset = 0
        var suspended = false
        var finished = false
        var failed = false
        var closed = false
        var connection: UInt = 0  // MHD_Connection*, as bits so the state stays Sendable
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var closeHandlers: [@Sendable () -> Void] = []
        var bytesSent = 0
        /// Monotonic ns when the client last took data, or when data started waiting for it.
        var lastProgress: UInt64 = 0
    }

    let state = Mutex(State())
    /// The connection, for dropping it when its client stops reading.
    let connectionEntry: ConnectionEntry?
    static let highWater = 256 << 10
    static let lowWater = 64 << 10

    init(connectionEntry: ConnectionEntry?) {
        self.connectionEntry = connectionEntry
    }

    /// True once the client has gone or the response has ended.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Runs `action` once the client has gone or the server is stopping (at once when that already
    /// happened), so a producer waiting for something other than a write can stop waiting.
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if s.closed { return true }
            s.closeHandlers.append(action)
            return false
        }
        if now { action() }
    }

    /// Queues `data` for the client; waits while much is queued; throws `StreamClosedError` when the client has gone.
    public func write(_ data: Data) async throws {
        var resume: UInt = 0
        let mustWait: Bool = try state.withLock { s in
            if s.closed || s.finished { throw StreamClosedError() }
            if s.buffer.count == s.readOffset && !data.isEmpty { s.lastProgress = monotonicNanos() }
            s.buffer.append(contentsOf: data)
            if s.suspended {
                s.suspended = false
                resume = s.connection
            }
            return s.buffer.count - s.readOffset > StreamWriter.highWater
        }
        if let c = OpaquePointer(bitPattern: resume) { MHD_resume_connection(c) }
        if mustWait {
            try await withCheckedThrowingContinuation { (cont: CheckedContinuation<Void, any Error>) in
                state.withLock { s in
                    if s.closed {
                        cont.resume(throwing: StreamClosedError())
                    } else if s.buffer.count - s.readOffset <= StreamWriter.lowWater {
                        cont.resume()
                    } else {
                        s.waiters.append(cont)
                    }
                }
            }
        }
    }

    func attach(_ connection: OpaquePointer) {
        let bits = UInt(bitPattern: connection)
        state.withLock { $0.connection = bits }
    }

    /// The producer returned (or threw, `failed`): end the body once the buffer drains.
    func finish(failed: Bool) {
        var resume: UInt = 0
        state.withLock { s in
            s.finished = true
            s.failed = failed
            if s.suspended {
                s.suspended = false
                resume = s.connection
            }
        }
        if let c = OpaquePointer(bitPattern: resume) { MHD_resume_connection(c) }
    }

    /// The connection ended or the server is stopping: wake the connection and fail every write.
    func close() {
        var resume: UInt = 0
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            guard !s.closed else { return [] }
            s.closed = true
            if s.suspended {
                s.suspended = false
                resume = s.connection
            }
            for w in s.waiters { w.resume(throwing: StreamClosedError()) }
            s.waiters.removeAll()
            defer { s.closeHandlers.removeAll() }
            return s.closeHandlers
        }
        if let c = OpaquePointer(bitPattern: resume) { MHD_resume_connection(c) }
        for handler in handlers { handler() }
    }

    /// Called when MHD has freed the response: the connection may be gone, never touch it again.
    func detach() {
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            s.connection = 0
            s.suspended = false
            s.closed = true
            for w in s.waiters { w.resume(throwing: StreamClosedError()) }
            s.waiters.removeAll()
            defer { s.closeHandlers.removeAll() }
            return s.closeHandlers
        }
        for handler in handlers { handler() }
    }

    var bytesSent: Int { state.withLock { $0.bytesSent } }

    /// True when data has waited more than `timeout` ns and the client has taken none of it meanwhile.
    func isStalled(now: UInt64, timeout: UInt64) -> Bool {
        state.withLock { s in
            let waiting = s.buffer.count > s.readOffset
            return !s.closed && waiting && now > s.lastProgress && now - s.lastProgress > timeout
        }
    }

    /// MHD's content reader: copy what is buffered, or suspend the connection until `write` resumes it.
    func read(into buf: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { s in
            let avail = s.buffer.count - s.readOffset
            if avail > 0 && !s.closed {
                let n = min(avail, max)
                s.buffer.withUnsafeBytes { src in
                    UnsafeMutableRawPointer(buf).copyMemory(
                        from: src.baseAddress! + s.readOffset, byteCount: n)
                }
                s.readOffset += n
                s.bytesSent += n
                s.lastProgress = monotonicNanos()
                if s.readOffset == s.buffer.count {
                    s.buffer.removeAll(keepingCapacity: s.buffer.capacity <= StreamWriter.highWater * 2)
                    s.readOffset = 0
                } else if s.readOffset > StreamWriter.lowWater {
                    s.buffer.removeFirst(s.readOffset)
                    s.readOffset = 0
                }
                if !s.waiters.isEmpty && s.buffer.count - s.readOffset <= StreamWriter.lowWater {
                    for w in s.waiters { w.resume() }
                    s.waiters.removeAll()
                }
                return n
            }
            if s.closed || s.failed { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
            if s.finished { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
            guard let c = OpaquePointer(bitPattern: s.connection) else {
                return Int(MHD_CONTENT_READER_END_WITH_ERROR)
            }
            s.suspended = true
            MHD_suspend_connection(c)
            return 0
        }
    }
}
