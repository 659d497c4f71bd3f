import HTTPServer

/// What this server is: name and versions, so clients can check compatibility.
struct ServerInfo: Codable, Sendable {
    var name = "CloudMusic"
    var version = CloudMusicVersion.current
    var apiVersion = CloudMusicVersion.apiVersion
}

enum ServerInfoRoutes {
    static func register(on router: Router) {
        router.get("/v1/server") { _ in .json(ServerInfo()) }
    }
}
