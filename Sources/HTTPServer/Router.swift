import Synchronization

/// A request handler; runs synchronously on a server worker thread.
public typealias Handler = @Sendable (Request) throws -> Response

/// Maps methods and path patterns to handlers. Build it before the server starts.
///
/// Patterns are made of `/`-separated segments: literals, `:name` parameters, and a final `*name` that takes
/// the rest of the path. Literal segments beat parameters; a trailing slash is ignored.
public final class Router: Sendable {
    struct Entry: Sendable {
        let method: HTTPMethod
        let pattern: String
        let handler: Handler
    }

    private let entries = Mutex<[Entry]>([])

    public init() {}

    public func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let entry = Entry(method: method, pattern: normalizePattern(pattern), handler: handler)
        entries.withLock { list in
            list.removeAll { $0.method == method && $0.pattern == entry.pattern }
            list.append(entry)
        }
    }

    public func get(_ p: String, _ h: @escaping Handler) { add(.GET, p, h) }
    public func post(_ p: String, _ h: @escaping Handler) { add(.POST, p, h) }
    public func put(_ p: String, _ h: @escaping Handler) { add(.PUT, p, h) }
    public func patch(_ p: String, _ h: @escaping Handler) { add(.PATCH, p, h) }
    public func delete(_ p: String, _ h: @escaping Handler) { add(.DELETE, p, h) }

    /// Every registered method and pattern, in registration order.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        entries.withLock { $0.map { (method: $0.method, pattern: $0.pattern) } }
    }

    /// A view of the router that runs `middleware` (outermost first) around each handler added through it.
    public func group(_ middleware: [any Middleware]) -> RouterGroup {
        RouterGroup(router: self, middleware: middleware)
    }

    func has(_ method: HTTPMethod, _ pattern: String) -> Bool {
        let p = normalizePattern(pattern)
        return entries.withLock { $0.contains { $0.method == method && $0.pattern == p } }
    }

    func table() -> RouteTable { RouteTable(entries.withLock { $0 }) }
}

/// Work done around handlers of a group (authentication, for one): it may answer itself, or change the
/// request (attach values) and pass it on with `next`.
public protocol Middleware: Sendable {
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response
}

/// Routes added through a group run its middleware first, in order.
public struct RouterGroup: Sendable {
    public let router: Router
    public let middleware: [any Middleware]

    public func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let chain = middleware.reversed().reduce(handler) { next, layer in
            { request in try layer.handle(request, next: next) }
        }
        router.add(method, pattern, chain)
    }

    /// The same routes with `more` middleware inside this group's.
    public func group(_ more: [any Middleware]) -> RouterGroup {
        RouterGroup(router: router, middleware: middleware + more)
    }
}

func normalizePattern(_ p: String) -> String {
    let segs = p.split(separator: "/", omittingEmptySubsequences: true)
    return "/" + segs.joined(separator: "/")
}

/// The outcome of looking a path up.
enum RouteMatch {
    case found(handler: Handler, pattern: String, parameters: [String: String])
    case methodNotAllowed(allowed: [HTTPMethod], pattern: String)
    case notFound
}

/// An immutable routing tree, built once at start.
///
/// Routes that share a position share a node, whatever they call their parameters there (`/users/:id` and
/// `/users/:userId/sheets`), so each handler keeps its own pattern and parameter names, and values are
/// collected by position and named after the route that matched.
struct RouteTable: Sendable {
    struct Route: Sendable {
        let handler: Handler
        let pattern: String
        /// The names of the pattern's `:name` and `*name` segments, in order.
        let parameterNames: [String]
    }

    struct Node: Sendable {
        var literals: [String: Int] = [:]
        var param: Int?
        var catchAll: Int?
        var routes: [HTTPMethod: Route] = [:]
    }

    private(set) var nodes: [Node] = [Node()]

    init(_ entries: [Router.Entry]) {
        for e in entries {
            var n = 0
            var names: [String] = []
            var segs = e.pattern.split(separator: "/")[...]
            while let s = segs.popFirst() {
                if s.hasPrefix(":") {
                    names.append(String(s.dropFirst()))
                    if let p = nodes[n].param {
                        n = p
                    } else {
                        nodes.append(Node())
                        nodes[n].param = nodes.count - 1
                        n = nodes.count - 1
                    }
                } else if s.hasPrefix("*") {
                    names.append(String(s.dropFirst()))
                    if let c = nodes[n].catchAll {
                        n = c
                    } else {
                        nodes.append(Node())
                        nodes[n].catchAll = nodes.count - 1
                        n = nodes.count - 1
                    }
                    break
                } else {
                    let key = String(s)
                    if let c = nodes[n].literals[key] {
                        n = c
                    } else {
                        nodes.append(Node())
                        nodes[n].literals[key] = nodes.count - 1
                        n = nodes.count - 1
                    }
                }
            }
            nodes[n].routes[e.method] = Route(handler: e.handler, pattern: e.pattern, parameterNames: names)
        }
    }

    /// Looks up decoded path segments. HEAD falls back to GET.
    ///
    /// The path's most specific route wins whatever its methods (literal segments before parameters, parameters
    /// before a catch-all): another method there is a 405 naming the allowed ones, never a less specific
    /// route's answer (`DELETE /v1/feeds/nearby` is not `DELETE /v1/feeds/:id` of a moment called "nearby").
    func match(_ method: HTTPMethod, _ segments: [String]) -> RouteMatch {
        var values: [String] = []
        guard let n = search(0, segments[...], &values, { !$0.routes.isEmpty }) else { return .notFound }
        let routes = nodes[n].routes
        if let route = routes[method] ?? (method == .HEAD ? routes[.GET] : nil) {
            var dict: [String: String] = [:]
            if !values.isEmpty {
                dict.reserveCapacity(values.count)
                for (k, v) in zip(route.parameterNames, values) { dict[k] = v }
            }
            return .found(handler: route.handler, pattern: route.pattern, parameters: dict)
        }
        var allowed = HTTPMethod.allCases.filter { routes[$0] != nil }
        if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.insert(.HEAD, at: 1) }
        if !allowed.contains(.OPTIONS) { allowed.append(.OPTIONS) }
        // Any of the node's patterns names it; prefer the first allowed method's.
        let pattern = allowed.lazy.compactMap { routes[$0]?.pattern }.first ?? ""
        return .methodNotAllowed(allowed: allowed, pattern: pattern)
    }

    private func search(
        _ n: Int, _ segs: ArraySlice<String>, _ values: inout [String], _ accept: (Node) -> Bool
    ) -> Int? {
        let node = nodes[n]
        guard let first = segs.first else {
            return accept(node) ? n : nil
        }
        let rest = segs.dropFirst()
        if let c = node.literals[first], let r = search(c, rest, &values, accept) { return r }
        if let p = node.param {
            values.append(first)
            if let r = search(p, rest, &values, accept) { return r }
            values.removeLast()
        }
        if let c = node.catchAll, accept(nodes[c]) {
            values.append(segs.joined(separator: "/"))
            return c
        }
        return nil
    }
}
