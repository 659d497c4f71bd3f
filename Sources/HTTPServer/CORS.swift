// MARK: CORS: which browser origins may call, their preflights, and what their answers may show

extension ServerCore {
    @inline(__always) func originAllowed(_ origin: String) -> Bool {
        corsAny || corsOrigins.contains(origin)
    }

    /// The answer to OPTIONS on an address that has routes: `Allow`, and for an allowed origin's preflight what
    /// it may send.
    func preflight(allow: String, _ headers: HTTPHeaders) -> Response {
        var h = HTTPHeaders()
        h.add("Allow", allow)
        if let origin = headers["Origin"], originAllowed(origin),
            headers["Access-Control-Request-Method"] != nil
        {
            h.add("Access-Control-Allow-Methods", allow)
            h.add("Access-Control-Allow-Headers", "Authorization, Content-Type, Range")
            h.add("Access-Control-Max-Age", "600")
        }
        return Response(status: 204, headers: h, body: .empty)
    }

    /// Lets an allowed origin read `response` when CORS is on.
    func allowOrigin(_ response: inout Response, _ headers: HTTPHeaders) {
        guard !corsOrigins.isEmpty else { return }
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
}
