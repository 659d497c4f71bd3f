import Foundation
import HTTPServer
import Synchronization

/// The web player at `/`: its files from memory with ETag, gzip and long cache lifetimes on hashed
/// addresses, and index.html for every other page address, so the app's own router takes over.
///
/// Addresses under the API's prefixes never fall back to the app: they answer as the API always did
/// (404, or 405 with `Allow` where another method is served).
struct WebRoutes {
    let assets: WebAssets

    /// First path segments that belong to the API, not to the app.
    static let apiPrefixes: Set<String> = ["v1", "rest", "health", "metrics"]

    /// Sent with documents (and the service worker, whose own response sets its policy); other files get
    /// only `nosniff`, so a page's first render does not carry the policy twenty times.
    static let documentHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                + "media-src 'self' blob: https:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
                + "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]

    init(assets: WebAssets) { self.assets = assets }

    /// The web player from the folder `--web` names, or the one found beside the executable.
    init(folder: String?, logger: Logger) {
        self.init(assets: WebAssets(folder: WebAssets.locate(folder), logger: logger))
    }

    func register(on router: Router) {
        let assets = self.assets
        let api = APIRouteIndex(router: router)
        router.get("/") { request in Self.send(assets.index, cache: .revalidate, request: request) }
        router.get("/*path") { request in
            let path = try request.parameter("path")
            let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard let first = segments.first else {
                return Self.send(assets.index, cache: .revalidate, request: request)
            }
            if Self.apiPrefixes.contains(first) { throw api.miss(segments) }
            if first == "assets", segments.count >= 3 {
                let file = segments.dropFirst(2).joined(separator: "/")
                guard file != "index.html", let asset = assets.files[file] else { throw Self.noFile }
                // An old build's address (a page loaded before a restart) still gets today's file, uncached.
                return Self.send(
                    asset, cache: segments[1] == assets.build ? .immutable : .revalidate, request: request)
            }
            let file = segments.joined(separator: "/")
            if let asset = assets.files[file] {
                return Self.send(asset, cache: .revalidate, request: request)
            }
            // A missing file is a 404; any other address is a page of the app.
            if segments.last!.contains(".") { throw Self.noFile }
            return Self.send(assets.index, cache: .revalidate, request: request)
        }
    }

    static let noFile = HTTPError.notFound("There is nothing at this address.")

    enum CachePolicy {
        /// A hashed address: its bytes never change.
        case immutable
        /// Ask the server each time (answered with 304 while unchanged).
        case revalidate
    }

    static func send(_ asset: WebAssets.Asset, cache: CachePolicy, request: Request) -> Response {
        let gzip = asset.gzipped != nil && acceptsGzip(request.headers["Accept-Encoding"])
        let etag = gzip ? String(asset.etag.dropLast()) + "-gz\"" : asset.etag
        var headers = HTTPHeaders()
        headers.add("Content-Type", asset.contentType)
        headers.add("ETag", etag)
        headers.add(
            "Cache-Control", cache == .immutable ? "public, max-age=31536000, immutable" : "no-cache")
        headers.add("Vary", "Accept-Encoding")
        headers.add("X-Content-Type-Options", "nosniff")
        if asset.contentType.hasPrefix("text/html") || asset.isWorker {
            for (name, value) in documentHeaders { headers.add(name, value) }
        }
        if let tags = request.headers["If-None-Match"], matches(tags, asset.etag) {
            return Response(status: 304, headers: headers, body: .empty)
        }
        if gzip { headers.add("Content-Encoding", "gzip") }
        return Response(status: 200, headers: headers, body: .data(gzip ? asset.gzipped! : asset.body))
    }

    /// Whether an `If-None-Match` list names this content, in either encoding (weak comparison).
    static func matches(_ list: String, _ etag: String) -> Bool {
        let bare = etag.dropFirst().dropLast()
        for item in list.split(separator: ",") {
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag || tag == "\"\(bare)-gz\"" { return true }
        }
        return false
    }

    /// Whether `Accept-Encoding` allows gzip (named, or `*`, without `q=0`).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard let coding = parts.first, coding == "gzip" || coding == "*" else { continue }
            let refused = parts.dropFirst().contains { $0.hasPrefix("q=") && Double($0.dropFirst(2)) == 0 }
            if !refused { return true }
        }
        return false
    }
}

/// The API's routes, read from the router on the first miss (after the server added its own), to answer a
/// miss under an API prefix exactly as the router would without the app's catch-all.
final class APIRouteIndex: Sendable {
    private let router: Router
    private let patterns = Mutex<[(method: HTTPMethod, segments: [Substring])]?>(nil)

    init(router: Router) { self.router = router }

    func miss(_ segments: [String]) -> HTTPError {
        let routes = patterns.withLock { cached in
            if let cached { return cached }
            let built = router.routes.filter { $0.pattern != "/" && !$0.pattern.hasPrefix("/*") }
                .map { (method: $0.method, segments: $0.pattern.split(separator: "/")) }
            cached = built
            return built
        }
        var allowed = Set<HTTPMethod>()
        for route in routes where Self.matches(route.segments, segments) { allowed.insert(route.method) }
        guard !allowed.isEmpty else { return HTTPError.notFound("There is nothing at this address.") }
        if allowed.contains(.GET) { allowed.insert(.HEAD) }
        allowed.insert(.OPTIONS)
        let allow = HTTPMethod.allCases.filter { allowed.contains($0) }.map(\.rawValue).joined(
            separator: ", ")
        return HTTPError(
            status: 405, message: "This address does not accept GET requests.", headers: [("Allow", allow)])
    }

    private static func matches(_ pattern: [Substring], _ path: [String]) -> Bool {
        for (index, segment) in pattern.enumerated() {
            if segment.hasPrefix("*") { return index < path.count }
            guard index < path.count else { return false }
            if !segment.hasPrefix(":") && segment != path[index] { return false }
        }
        return pattern.count == path.count
    }
}
