import HTTPServer

/// What this server is: name and versions, so clients can check compatibility.
struct ServerInfo: Codable, Sendable {
    var name = "CloudMusic"
    var version = CloudMusicVersion.current
    var apiVersion = CloudMusicVersion.apiVersion
}

enum ServerInfoRoutes {
    static func register(on router: Router) {
        // Never changes while the server runs: encoded once.
        let info = Response.json(ServerInfo())
        router.get("/v1/server") { _ in info }
    }
}
