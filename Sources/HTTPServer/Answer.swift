import CMicroHTTPD
import Foundation

// MARK: Answers: a response handed to libmicrohttpd (or, for a push stream, written by hand), with the server's
// default headers and errors rendered in the application's words

extension ServerCore {
    /// Answers with `error`, rendered as the application words it for this request.
    func refuse(
        _ st: RequestState, _ connection: OpaquePointer, _ error: any HTTPResponseError,
        request: Request? = nil
    ) -> MHD_Result {
        queue(st, connection, .error(error), request: request)
    }

    /// `error` as the configured renderer writes it for this request (plain text should it give another error).
    private func render(
        _ error: any HTTPResponseError, _ st: RequestState, _ connection: OpaquePointer, _ request: Request?
    ) -> Response {
        let context = ErrorContext(
            method: st.methodName, path: request?.path ?? percentDecode(st.rawPath) ?? st.rawPath,
            query: st.query,
            headers: request?.headers ?? collect(connection, MHD_ValueKind.HEADER_KIND), request: request)
        let response = errorRenderer.response(to: error, context)
        if case .error = response.body { return ErrorRenderer.plainText(error, context) }
        return response
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

    /// Sends `response`; an error in it is rendered first (`request` is the handler's, when one ran).
    func queue(
        _ st: RequestState, _ connection: OpaquePointer, _ response: Response, request: Request? = nil
    ) -> MHD_Result {
        var response = response
        if case .error(let error) = response.body {
            let extra = response.headers
            response = render(error, st, connection, request)
            for (name, value) in extra { response.headers.add(name, value) }
        }
        if case .push(let open) = response.body, st.method != .HEAD {
            return queuePush(st, connection, response, open)
        }
        var mhd: OpaquePointer?
        var length = 0
        var writer: StreamWriter?
        var producer: (@Sendable (StreamWriter) async throws -> Void)?
        var headOfStream = false
        switch response.body {
        case .empty, .error:  // an error was rendered above
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
            // A file response sent before (a handler that kept one) has given its descriptor away.
            guard fd >= 0 else {
                return refuse(
                    st, connection, HTTPError.notFound("That file does not exist."), request: request)
            }
            length = len
            mhd = MHD_create_response_from_fd_at_offset64(UInt64(len), fd, UInt64(offset))
            if mhd == nil { Foundation.close(fd) }
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
