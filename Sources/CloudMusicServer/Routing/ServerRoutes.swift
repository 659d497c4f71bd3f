import Foundation
import HTTPServer
import MusicCore

/// The handlers of `ServerAPI`: what the server is, whether it is up, its metrics and the API's description.
struct ServerRoutes {
    let metrics: Metrics

    func register(on api: EndpointRouter) {
        let info = ServerInfo(
            name: "CloudMusic", version: CloudMusicVersion.current, apiVersion: CloudMusicVersion.apiVersion)
        api.on(ServerAPI.info) { _ in info }
        api.on(ServerAPI.health) { _ in HealthStatus() }
        api.on(ServerAPI.metrics) { [metrics] _ in
            .raw(Data(metrics.render().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        // Generated once, from the same declarations the routes are registered with.
        let document = Data(((try? GeneratedFiles.openAPI()) ?? "{}").utf8)
        api.on(ServerAPI.openAPI) { _ in .raw(document, contentType: "application/json; charset=utf-8") }
    }
}

/// The files generated from the endpoint declarations and committed to the repository; a test checks that
/// the committed ones are what these functions write now (`cloudmusic-server generate` updates them).
public enum GeneratedFiles {
    /// Each file's path in the repository and its text.
    public static func all() throws -> [(path: String, text: String)] {
        [("openapi.json", try openAPI()), ("Web/js/api.js", javaScriptClient())]
    }

    /// The web player's API client.
    public static func javaScriptClient() -> String { JavaScriptClient.generate(APIContract.groups) }

    /// The OpenAPI description of every endpoint.
    public static func openAPI() throws -> String {
        try OpenAPIDocument.generate(APIContract.groups, version: CloudMusicVersion.current).formatted()
    }
}
