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

    func has(_ method: HTTPMethod, _ pattern: String) -> Bool {
        let p = normalizePattern(pattern)
        return entries.withLock { $0.contains { $0.method == method && $0.pattern == p } }
    }

    func table() -> RouteTable { RouteTable(entries.withLock { $0 }) }
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
struct RouteTable: Sendable {
    struct Node: Sendable {
        var literals: [String: Int] = [:]
        var param: Int?
        var paramName = ""
        var catchAll: Int?
        var catchAllName = ""
        var handlers: [HTTPMethod: Handler] = [:]
        var pattern = ""
    }

    private(set) var nodes: [Node] = [Node()]

    init(_ entries: [Router.Entry]) {
        for e in entries {
            var n = 0
            var segs = e.pattern.split(separator: "/")[...]
            while let s = segs.popFirst() {
                if s.hasPrefix(":") {
                    if let p = nodes[n].param { n = p } else {
                        nodes.append(Node())
                        nodes[n].param = nodes.count - 1
                        nodes[n].paramName = String(s.dropFirst())
                        n = nodes.count - 1
                    }
                } else if s.hasPrefix("*") {
                    if let c = nodes[n].catchAll { n = c } else {
                        nodes.append(Node())
                        nodes[n].catchAll = nodes.count - 1
                        nodes[n].catchAllName = String(s.dropFirst())
                        n = nodes.count - 1
                    }
                    break
                } else {
                    let key = String(s)
                    if let c = nodes[n].literals[key] { n = c } else {
                        nodes.append(Node())
                        nodes[n].literals[key] = nodes.count - 1
                        n = nodes.count - 1
                    }
                }
            }
            nodes[n].handlers[e.method] = e.handler
            nodes[n].pattern = e.pattern
        }
    }

    /// Looks up decoded path segments. HEAD falls back to GET.
    func match(_ method: HTTPMethod, _ segments: [String]) -> RouteMatch {
        var params: [(String, String)] = []
        if let n = search(0, segments[...], &params, { $0.handlers[method] != nil || (method == .HEAD && $0.handlers[.GET] != nil) }) {
            let node = nodes[n]
            let handler = node.handlers[method] ?? node.handlers[.GET]!
            var dict: [String: String] = [:]
            if !params.isEmpty {
                dict.reserveCapacity(params.count)
                for (k, v) in params { dict[k] = v }
            }
            return .found(handler: handler, pattern: node.pattern, parameters: dict)
        }
        params.removeAll()
        if let n = search(0, segments[...], &params, { !$0.handlers.isEmpty }) {
            var allowed = HTTPMethod.allCases.filter { nodes[n].handlers[$0] != nil }
            if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.insert(.HEAD, at: 1) }
            if !allowed.contains(.OPTIONS) { allowed.append(.OPTIONS) }
            return .methodNotAllowed(allowed: allowed, pattern: nodes[n].pattern)
        }
        return .notFound
    }

    private func search(
        _ n: Int, _ segs: ArraySlice<String>, _ params: inout [(String, String)], _ accept: (Node) -> Bool
    ) -> Int? {
        let node = nodes[n]
        guard let first = segs.first else {
            return accept(node) ? n : nil
        }
        let rest = segs.dropFirst()
        if let c = node.literals[first], let r = search(c, rest, &params, accept) { return r }
        if let p = node.param {
            params.append((node.paramName, first))
            if let r = search(p, rest, &params, accept) { return r }
            params.removeLast()
        }
        if let c = node.catchAll, accept(nodes[c]) {
            params.append((node.catchAllName, segs.joined(separator: "/")))
            return c
        }
        return nil
    }
}
