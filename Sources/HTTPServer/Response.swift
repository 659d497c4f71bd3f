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
    /// An error, written by the server's `ErrorRenderer` when the response is sent (see `Response.error`).
    case error(any HTTPResponseError)
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

    /// `value` as `application/json; charset=utf-8`, keys sorted; dates as ISO 8601 strings.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) -> Response {
        do {
            return Response(
                status: status, headers: jsonHeaders, body: .data(try sharedJSONEncoder.encode(value)))
        } catch {
            return .error(
                HTTPError(
                    status: 500,
                    message: "The server could not write its answer. Please tell the administrator."))
        }
    }

    /// The same bytes as `json(_:)`, written by the value itself (see `JSONWritable`).
    public static func json<T: JSONWritable>(_ value: T, status: Int = 200) -> Response {
        var writer = JSONWriter(capacity: value.jsonSizeHint)
        value.writeJSON(to: &writer)
        return Response(status: status, headers: jsonHeaders, body: .data(Data(writer.bytes)))
    }

    /// `error`, answered as the server's `ErrorRenderer` words it for this request; headers added to the response
    /// come after the error's own.
    public static func error(_ error: any HTTPResponseError) -> Response {
        Response(status: error.status, headers: HTTPHeaders(), body: .error(error))
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
                    var headers = h
                    headers.remove("Content-Type")
                    headers.add("Content-Range", "bytes */\(size)")
                    return .error(
                        HTTPError(
                            status: 416, message: "The requested range is outside the file.",
                            headers: headers.map { ($0.name, $0.value) }))
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
