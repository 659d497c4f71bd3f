import CMicroHTTPD
import Foundation

// MARK: Dispatch: the path routed, the handler run, what it throws turned into an answer

extension ServerCore {
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
    func unknownMethodError(_ st: RequestState) -> HTTPError {
        st.route = "unmatched"
        let method = st.unknownMethod ?? ""
        guard case .success(let parsed) = segments(of: st.rawPath),
            case .methodNotAllowed(let allowed, let pattern) = table.match(.OPTIONS, parsed.segments)
        else {
            return HTTPError.notFound("There is nothing at this address.")
        }
        st.route = pattern
        return HTTPError(
            status: 405, message: "This address does not accept \(logSafe(method)) requests.",
            headers: [("Allow", allowed.map(\.rawValue).joined(separator: ", "))])
    }

    func dispatch(_ st: RequestState, _ connection: OpaquePointer, _ body: RequestBody) -> MHD_Result {
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
        var request: Request?
        switch table.match(st.method, segments) {
        case .notFound:
            st.route = "unmatched"
            response = .error(HTTPError.notFound("There is nothing at this address."))
        case .methodNotAllowed(let allowed, let pattern):
            st.route = pattern
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if st.method == .OPTIONS {
                response = preflight(allow: allow, headers)
            } else {
                response = .error(
                    HTTPError(
                        status: 405, message: "This address does not accept \(st.method.rawValue) requests.",
                        headers: [("Allow", allow)]))
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
            let call = Request(
                method: st.method, path: path, route: pattern, pathParameters: parameters,
                queryItems: queryItems, headers: headers, remoteAddress: st.address, body: body)
            request = call
            response = run(handler, call, st)
        }
        allowOrigin(&response, headers)
        return queue(st, connection, response, request: request)
    }

    /// What `handler` answers; what it throws as a response error, a 400 for a body that does not decode, a 500
    /// with an id (and the details in the log under it) for anything else.
    private func run(_ handler: Handler, _ request: Request, _ st: RequestState) -> Response {
        do {
            return try handler(request)
        } catch let e as any HTTPResponseError {
            return .error(e)
        } catch let e as DecodingError {
            return .error(HTTPError.badRequest(describe(e)))
        } catch {
            let id = String(UInt32.random(in: .min ... .max), radix: 16)
            let errorID = String(repeating: "0", count: 8 - id.count) + id
            logger.error(
                "event=handler_error error_id=\(errorID) method=\(st.method.rawValue) route=\(request.route) error=\(logQuoted(String(describing: error)))"
            )
            return .error(
                HTTPError(
                    status: 500,
                    message:
                        "Something went wrong on the server. Please try again; if it keeps happening, tell the administrator (error id \(errorID))."
                ))
        }
    }
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

extension ServerCore {
    /// Every value of `kind` (headers) MHD parsed, in order.
    func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> HTTPHeaders {
        var pairs: [(name: String, value: String)] = []
        pairs.reserveCapacity(8)
        withUnsafeMutablePointer(to: &pairs) { p in
            _ = MHD_get_connection_values(connection, kind, headerIterator, p)
        }
        return HTTPHeaders(labelled: pairs)
    }
}

let headerIterator: MHD_KeyValueIterator = { cls, _, key, value in
    let box = cls!.assumingMemoryBound(to: [(name: String, value: String)].self)
    if let key {
        box.pointee.append((name: String(cString: key), value: value.map { String(cString: $0) } ?? ""))
    }
    return MHD_Result.YES
}
