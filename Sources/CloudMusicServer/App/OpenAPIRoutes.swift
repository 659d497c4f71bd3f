import Foundation
import HTTPServer

/// Serves the OpenAPI 3 description of the API; a test keeps it in step with the router.
enum OpenAPIRoutes {
    static func register(on router: Router) {
        let body = Data(OpenAPIDocument.json.utf8)
        router.get("/v1/openapi.json") { _ in .raw(body, contentType: "application/json; charset=utf-8") }
    }
}
