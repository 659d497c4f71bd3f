/// The server's own endpoints: what it is, whether it is up, its metrics and this API's description.
public enum ServerAPI {
    public static let info = Endpoint<NoPath, NoQuery, NoBody, ServerInfo, Anyone>(
        "info", .GET, "/v1/server", "What this server is: name and versions")
    public static let health = Endpoint<NoPath, NoQuery, NoBody, HealthStatus, Anyone>(
        "health", .GET, "/health", "Whether the server is up")
    public static let metrics = Endpoint<NoPath, NoQuery, NoBody, PlainText, Anyone>(
        "metrics", .GET, "/metrics",
        "Requests by route and status, latency histograms, open connections and bytes sent (Prometheus text)")
    public static let openAPI = Endpoint<NoPath, NoQuery, NoBody, JSONDocument, Anyone>(
        "openAPI", .GET, "/v1/openapi.json", "This API's OpenAPI 3.1 description")

    public static let group = APIGroup(
        "server", "What the server is, whether it is up, its metrics and this API's description",
        [info, health, metrics, openAPI])
}

/// What `GET /health` answers while the server is up.
public struct HealthStatus: Codable, Sendable, Equatable {
    /// `ok`.
    public var status: String
    public init(status: String = "ok") { self.status = status }
}
