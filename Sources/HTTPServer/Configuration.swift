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
    /// The largest request line plus headers.
    public var maxHeaderBytes: Int = 16 << 10
    public var connectionLimit: Int = 16_384
    public var perAddressConnectionLimit: Int = 256
    /// A connection with no traffic for this long is closed.
    public var idleTimeoutSeconds: Int = 30
    /// An idle connection must deliver a request's complete headers within this time, or be dropped.
    public var headerTimeoutSeconds: Int = 10
    /// Origins allowed by CORS, exactly, or `"*"` for any.
    public var corsOrigins: [String] = []
    public var shutdownGraceSeconds: Int = 10
    public var logger: Logger = Logger()

    public init() {}
}
