/// How an `HTTPServer` listens and what it allows.
public struct ServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; `HTTPServer.port` tells the one bound.
    public var port: Int = 8080
    /// Worker threads; 0 means one per core.
    public var threads: Int = 0
    /// The largest JSON, form or other buffered body; larger ones get 413.
    public var maxBodyBytes: Int = 1 << 20
    /// The largest multipart upload in total; larger ones get 413.
    public var maxUploadBytes: Int = 100 << 20
    /// The largest request line plus headers; larger ones get 431 (414 when the address alone is larger).
    public var maxHeaderBytes: Int = 16 << 10
    /// The most query parameters a request may have; more get 414.
    public var maxQueryParameters: Int = 1000
    public var connectionLimit: Int = 16_384
    public var perAddressConnectionLimit: Int = 256
    /// Push streams (event streams) open at once, and per client address (`perAddressConnectionLimit`):
    /// they leave the connections above once their head is sent, so they are counted apart.
    public var pushStreamLimit: Int = 16_384
    /// A connection with no traffic for this long is closed; a kept-alive connection may wait this long
    /// for its next request.
    public var idleTimeoutSeconds: Int = 30
    /// A new connection must deliver its first request's complete headers within this time, and a later
    /// request's headers must be complete this long after their first bytes, or the connection is dropped.
    public var headerTimeoutSeconds: Int = 10
    /// A streamed response whose client has taken none of the waiting data for this long is dropped, and
    /// its producer's writes throw `StreamClosedError`.
    public var streamWriteTimeoutSeconds: Int = 10
    /// `Content-Security-Policy` of JSON answers that don't send their own; nil sends none.
    ///
    /// Other answers (a web page, an image) get no default: a route that serves a page sends its own policy.
    public var apiContentSecurityPolicy: String? = "default-src 'none'; frame-ancestors 'none'"
    /// `Referrer-Policy` of every answer that doesn't send its own; nil sends none.
    public var referrerPolicy: String? = "no-referrer"
    /// Origins allowed by CORS, exactly, or `"*"` for any.
    public var corsOrigins: [String] = []
    public var shutdownGraceSeconds: Int = 10
    /// Runs when shutting down begins, before the grace period: where long-lived streams (event streams)
    /// are told to end, since they would otherwise hold the whole grace period.
    public var willShutDown: (@Sendable () -> Void)?
    public var logger: Logger = Logger()
    /// Renders the HTTP layer's own refusals (an address, headers or a body too large, a malformed request)
    /// for addresses whose application answers in an envelope of its own: given the refusal, the raw path and
    /// the raw query (nil when there is none); nil keeps the default `{status, message}` JSON.
    public var refusal: (@Sendable (_ error: HTTPError, _ path: String, _ query: String?) -> Response?)?

    public init() {}
}
