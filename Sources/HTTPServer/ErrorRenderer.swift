import Foundation

/// What is known of a request answered with an error, for choosing how to word it.
public struct ErrorContext: Sendable {
    /// The method as sent (`BREW` too).
    public let method: String
    /// The path without the query, percent-decoded when it decodes.
    public let path: String
    /// The raw query string (after "?"); nil when there is none, and when the address was refused for its length
    /// (one refused for its number of parameters keeps it, so `f` can still say the answer's format).
    public let query: String?
    /// The request's headers (the language it asks for, say).
    public let headers: HTTPHeaders
    /// The request as its handler saw it, when a handler or middleware threw; nil for the refusals the server makes
    /// before a handler runs (a bad request line, no route, a body too large).
    public let request: Request?

    public init(
        method: String, path: String, query: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
        request: Request? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.request = request
    }

    /// The last value of the query parameter `name` (the request's own when there is one).
    public func queryValue(_ name: String) -> String? {
        if let request { return request.query[name] }
        guard let query, let items = parseURLEncoded(query[...]) else { return nil }
        return items.last { $0.name == name }?.value
    }
}

/// How the server words the errors it answers: the refusals it makes itself (400, 404, 405, 413, 414, 431, 429,
/// 503), the `HTTPResponseError`s handlers throw or return (`Response.error`), and the 500 for any other error.
///
/// The body is the application's business (an API's envelope, a protocol's own error document), so the
/// application gives the renderer; the default is plain text. Parts of the address space may word errors their
/// own way (`render(under:with:)`): a refusal of `/rest/ping` is then in the words of the API at `/rest`.
public struct ErrorRenderer: Sendable {
    public typealias Render = @Sendable (_ error: any HTTPResponseError, _ context: ErrorContext) -> Response

    private var fallback: Render
    /// Longest prefix first, each as its path segments.
    private var prefixes: [(segments: [Substring], render: Render)] = []

    /// Renders every error with `render`, except under the prefixes given later.
    public init(_ render: @escaping Render = ErrorRenderer.plainText) {
        fallback = render
    }

    /// Renders the errors of every address under `prefix` with `render`. Prefixes are whole segments: `/rest`
    /// covers `/rest` and `/rest/ping`, not `/restore`; the longest prefix that covers an address wins.
    public mutating func render(under prefix: String, with render: @escaping Render) {
        let segments = prefix.split(separator: "/")
        prefixes.removeAll { $0.segments == segments }
        prefixes.append((segments, render))
        prefixes.sort { $0.segments.count > $1.segments.count }
    }

    /// The answer to `error` for the request described by `context`.
    public func response(to error: any HTTPResponseError, _ context: ErrorContext) -> Response {
        guard !prefixes.isEmpty else { return fallback(error, context) }
        // Segments as the router sees them, so "//rest//ping" is under "/rest" as it is routed there.
        let path = context.path.split(separator: "/")
        for (segments, render) in prefixes where path.starts(with: segments) {
            return render(error, context)
        }
        return fallback(error, context)
    }

    /// The message as `text/plain`, with the error's headers.
    public static let plainText: Render = { error, _ in
        var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")])
        for (name, value) in error.headers { headers.add(name, value) }
        return Response(status: error.status, headers: headers, body: Data((error.message + "\n").utf8))
    }
}
