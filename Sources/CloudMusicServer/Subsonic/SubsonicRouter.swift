import Foundation
import HTTPServer
import MusicCore
import Synchronization

/// Registers `/rest` handlers through the methods' declarations, as `EndpointRouter` does for v1: the
/// declaration says the name, the typed parameters and who may call; the handler gets them checked and returns
/// its answer. `finish` checks that every declared method got a handler, and answers the rest of `/rest`
/// (unknown names, CORS preflights) in the Subsonic envelope too.
final class SubsonicRouter: Sendable {
    let router: Router
    let routes: SubsonicRoutes
    private let registered = Mutex<Set<String>>([])

    init(router: Router, routes: SubsonicRoutes) {
        self.router = router
        self.routes = routes
    }

    /// A method answering a document.
    func on<P: SubsonicParameterSet, C: SubsonicCaller>(
        _ method: SubsonicEndpoint<P, C>,
        _ handler: @escaping @Sendable (SubsonicCall<P, C.Person>) throws -> SubsonicDocument
    ) {
        precondition(method.answer != .media, "\(method.name) answers media")
        let routes = self.routes
        add(method.name) { request in routes.respond(method, request) { .document(try handler($0)) } }
    }

    /// A method answering bytes (audio, an image); its refusals are still documents.
    func on<P: SubsonicParameterSet, C: SubsonicCaller>(
        _ method: SubsonicEndpoint<P, C>,
        media handler: @escaping @Sendable (SubsonicCall<P, C.Person>) throws -> Response
    ) {
        precondition(method.answer == .media, "\(method.name) answers a document")
        let routes = self.routes
        add(method.name) { request in routes.respond(method, request) { .media(try handler($0)) } }
    }

    /// A method clients call that this server does not offer: signed-in callers are told why (error 0).
    func refuse(_ name: String, _ error: SubsonicError) {
        let method = SubsonicEndpoint<NoSubsonicParameters, SignedIn>(name, "", answer: .document(nil))
        let handler: @Sendable (SubsonicCall<NoSubsonicParameters, SubsonicUser>) throws -> SubsonicDocument =
            {
                _ in throw error
            }
        on(method, handler)
    }

    private func add(_ name: String, _ handler: @escaping Handler) {
        let inserted = registered.withLock { $0.insert(name).inserted }
        precondition(inserted, "\(name) is registered twice")
        for path in ["/rest/\(name)", "/rest/\(name).view"] {
            router.add(.GET, path, handler)
            router.add(.POST, path, handler)
            // The most specific route answers every method of its path, so each method has its preflight.
            router.add(.OPTIONS, path, Self.preflight)
        }
    }

    /// Checks that every declared method has a handler, then answers every other `/rest` address.
    func finish() {
        let declared = Set(SubsonicAPI.methods.map(\.name))
        let missing = declared.subtracting(registered.withLock { $0 })
        precondition(missing.isEmpty, "Subsonic methods without a handler: \(missing.sorted())")
        let routes = self.routes
        let unknown: Handler = { request in
            let (format, _) = SubsonicFormat.read(SubsonicParameters(request))
            let name = request.path.split(separator: "/").dropFirst().joined(separator: "/")
            let method = name.hasSuffix(".view") ? String(name.dropLast(5)) : name
            return routes.render(
                .error(
                    SubsonicError(
                        .generic,
                        "Unknown method '\(method.prefix(64))'. This server speaks Subsonic \(SubsonicAPI.version)."
                    )), format)
        }
        router.add(.GET, "/rest/*method", unknown)
        router.add(.POST, "/rest/*method", unknown)
        // Any other HTTP method is the router's 405, which `SubsonicRoutes.refusals` words in the envelope.
        router.add(.OPTIONS, "/rest/*method", Self.preflight)
    }

    /// A browser asks before a cross-origin POST or a Range request: any origin may call (see
    /// `SubsonicRoutes.allowAnyOrigin`).
    private static let preflight: Handler = { _ in
        var headers = HTTPHeaders()
        headers.add("Allow", "GET, HEAD, POST, OPTIONS")
        headers.add("Access-Control-Allow-Origin", "*")
        headers.add("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS")
        headers.add("Access-Control-Allow-Headers", "Content-Type, Range")
        headers.add("Access-Control-Max-Age", "86400")
        return Response(status: 204, headers: headers, body: .empty)
    }
}
