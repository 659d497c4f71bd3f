import Foundation
import HTTPServer
import Testing

private func routes(_ r: Router) {
    r.get("/v1/songs") { _ in .json(["kind": "list"]) }
    r.get("/v1/songs/latest") { _ in .json(["kind": "latest"]) }
    r.get("/v1/songs/:id") { req in .json(["kind": "one", "id": try req.parameter("id")]) }
    r.delete("/v1/songs/:id") { req in .json(["kind": "deleted", "id": try req.parameter("id")]) }
    r.get("/v1/users/:user/sheets/:sheet") { req in
        .json(["user": try req.parameter("user"), "sheet": try req.parameter("sheet"), "path": req.path])
    }
    r.get("/files/*rest") { req in .json(["rest": try req.parameter("rest"), "route": req.route]) }
    r.post("/v1/sessions") { _ in .json("signed in") }
    r.get("/query") { req in
        struct Out: Encodable {
            var items: [[String]]
            var last: [String]
        }
        return .json(Out(items: req.queryItems.map { [$0.name, $0.value] }, last: [req.query["a"] ?? "-"]))
    }
}

@Suite struct RoutingTests {
    @Test func staticRoutesAndLiteralsBeatParameters() async throws {
        try await withServer(routes: routes) { s in
            let list = try await fetch(s.port, "/v1/songs")
            #expect(list.status == 200)
            #expect(list.header("Content-Type") == "application/json; charset=utf-8")
            #expect(list.text == #"{"kind":"list"}"#)
            #expect(list.header("Content-Length") == String(list.body.count))

            let latest = try await fetch(s.port, "/v1/songs/latest")
            #expect(latest.text == #"{"kind":"latest"}"#)

            let trailing = try await fetch(s.port, "/v1/songs/")
            #expect(trailing.status == 200)
            #expect(trailing.text == #"{"kind":"list"}"#)
        }
    }

    @Test func pathParameters() async throws {
        try await withServer(routes: routes) { s in
            let one = try await fetch(s.port, "/v1/songs/42")
            #expect(one.status == 200)
            #expect(one.value as? [String: String] == ["kind": "one", "id": "42"])

            let del = try await fetch(s.port, "DELETE", "/v1/songs/7")
            #expect(del.value as? [String: String] == ["kind": "deleted", "id": "7"])

            let two = try await fetch(s.port, "/v1/users/u1/sheets/s2")
            #expect(
                two.value as? [String: String] == [
                    "user": "u1", "sheet": "s2", "path": "/v1/users/u1/sheets/s2",
                ]
            )

            let rest = try await fetch(s.port, "/files/a/b/c.mp3")
            #expect(rest.value as? [String: String] == ["rest": "a/b/c.mp3", "route": "/files/*rest"])
        }
    }

    @Test func routesSharingAPositionKeepTheirOwnParameterNames() async throws {
        try await withServer(
            routes: { r in
                r.get("/users/:id") { req in .json(["id": try req.parameter("id"), "route": req.route]) }
                r.get("/users/:userId/sheets") { req in
                    .json(["userId": try req.parameter("userId"), "route": req.route])
                }
                r.delete("/users/:uid") { req in .json(["uid": try req.parameter("uid"), "route": req.route])
                }
                r.get("/files/*path") { req in .json(["path": try req.parameter("path"), "route": req.route])
                }
                r.post("/files/*target") { req in
                    .json(["target": try req.parameter("target"), "route": req.route])
                }
            }
        ) { s in
            let a = try await fetch(s.port, "/users/7")
            #expect(a.value as? [String: String] == ["id": "7", "route": "/users/:id"])
            let b = try await fetch(s.port, "/users/8/sheets")
            #expect(b.value as? [String: String] == ["userId": "8", "route": "/users/:userId/sheets"])
            let c = try await fetch(s.port, "DELETE", "/users/9")
            #expect(c.value as? [String: String] == ["uid": "9", "route": "/users/:uid"])
            let d = try await fetch(s.port, "/files/a/b")
            #expect(d.value as? [String: String] == ["path": "a/b", "route": "/files/*path"])
            let e = try await fetch(s.port, "POST", "/files/c/d", body: Data())
            #expect(e.value as? [String: String] == ["target": "c/d", "route": "/files/*target"])
            #expect(await eventually { s.metrics.requestCount(route: "/users/:uid") == 1 })
            #expect(s.metrics.requestCount(route: "/users/:id") == 1)
        }
    }

    @Test func percentDecodedParameters() async throws {
        try await withServer(routes: routes) { s in
            // "周杰伦" in UTF-8, escaped.
            let chinese = try await fetch(s.port, "/v1/songs/%E5%91%A8%E6%9D%B0%E4%BC%A6")
            #expect(chinese.status == 200)
            #expect(chinese.value as? [String: String] == ["kind": "one", "id": "周杰伦"])

            // An escaped "/" stays inside its segment.
            let slash = try await fetch(s.port, "/v1/songs/a%2Fb")
            #expect(slash.status == 200)
            #expect(slash.value as? [String: String] == ["kind": "one", "id": "a/b"])

            let space = try await fetch(s.port, "/v1/users/a%20b/sheets/%E6%AD%8C%E5%8D%95")
            #expect(
                space.value as? [String: String] == [
                    "user": "a b", "sheet": "歌单", "path": "/v1/users/a b/sheets/歌单",
                ])

            let bad = try await fetch(s.port, "/v1/songs/%zz")
            #expect(bad.status == 400)
            #expect(bad.json["status"] as? Int == 400)
            #expect((bad.json["message"] as? String)?.isEmpty == false)

            // Escapes that are not UTF-8 are refused too.
            let notUTF8 = try await fetch(s.port, "/v1/songs/%FF%FE")
            #expect(notUTF8.status == 400)
        }
    }

    @Test func notFoundIsRendered() async throws {
        try await withServer(routes: routes) { s in
            let r = try await fetch(s.port, "/nothing/here")
            #expect(r.status == 404)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect(r.json["status"] as? Int == 404)
            #expect(r.json["message"] as? String == "There is nothing at this address.")
            #expect(r.json.count == 2)
        }
    }

    @Test func methodNotAllowedListsAllowedMethods() async throws {
        try await withServer(routes: routes) { s in
            let r = try await fetch(s.port, "PUT", "/v1/songs/1", body: Data("{}".utf8))
            #expect(r.status == 405)
            #expect(r.header("Allow") == "GET, HEAD, DELETE, OPTIONS")
            #expect(r.json["status"] as? Int == 405)

            let post = try await fetch(s.port, "GET", "/v1/sessions")
            #expect(post.status == 405)
            #expect(post.header("Allow") == "POST, OPTIONS")
        }
    }

    @Test func unknownMethodOnAKnownPathGets405WithAllow() async throws {
        try await withServer(routes: routes) { s in
            let r = try await fetch(s.port, "BREW", "/v1/songs")
            #expect(r.status == 405)
            #expect(r.json["status"] as? Int == 405)
            #expect(r.json["message"] as? String == "This address does not accept BREW requests.")
            #expect(r.header("Allow") == "GET, HEAD, OPTIONS")
            // Prefixes and near misses of the fast-path methods, and the methods no route serves.
            for m in ["G", "GE", "GETS", "P", "PO", "POS", "POSTS", "PU", "PUTS", "get", "TRACE", "CONNECT"] {
                let x = try await fetch(s.port, m, "/v1/songs")
                #expect(x.status == 405, "\(m)")
                #expect(x.header("Allow") == "GET, HEAD, OPTIONS", "\(m)")
            }
            #expect(try await fetch(s.port, "PATCH", "/v1/songs").status == 405)
            // A path nobody serves is a 404 whatever the method.
            #expect(try await fetch(s.port, "TRACE", "/nowhere").status == 404)
        }
    }

    @Test func headFallsBackToGetWithoutBody() async throws {
        try await withServer(routes: routes) { s in
            let get = try await fetch(s.port, "/v1/songs/9")
            let head = try await fetch(s.port, "HEAD", "/v1/songs/9")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count))
        }
    }

    @Test func corsPreflightForAnAllowedOrigin() async throws {
        try await withServer(config: { $0.corsOrigins = ["https://app.example"] }, routes: routes) { s in
            let r = try await fetch(
                s.port, "OPTIONS", "/v1/songs/1",
                headers: [
                    ("Origin", "https://app.example"), ("Access-Control-Request-Method", "DELETE"),
                    ("Access-Control-Request-Headers", "authorization"),
                ])
            #expect(r.status == 204)
            #expect(r.header("Allow") == "GET, HEAD, DELETE, OPTIONS")
            #expect(r.header("Access-Control-Allow-Origin") == "https://app.example")
            #expect(r.header("Access-Control-Allow-Methods") == "GET, HEAD, DELETE, OPTIONS")
            #expect(r.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
            #expect(r.header("Access-Control-Max-Age") == "600")
            #expect(r.headerValues("Vary").contains("Origin"))
            #expect(r.body.isEmpty)
        }
    }

    @Test func corsPreflightForAnotherOriginGetsNoGrant() async throws {
        try await withServer(config: { $0.corsOrigins = ["https://app.example"] }, routes: routes) { s in
            let r = try await fetch(
                s.port, "OPTIONS", "/v1/songs/1",
                headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "DELETE")])
            #expect(r.status == 204)
            #expect(r.header("Allow") == "GET, HEAD, DELETE, OPTIONS")
            #expect(r.header("Access-Control-Allow-Origin") == nil)
            #expect(r.header("Access-Control-Allow-Methods") == nil)

            let unknown = try await fetch(
                s.port, "OPTIONS", "/nowhere",
                headers: [("Origin", "https://app.example"), ("Access-Control-Request-Method", "GET")])
            #expect(unknown.status == 404)
        }
    }

    @Test func corsHeadersOnlyForConfiguredOrigins() async throws {
        try await withServer(config: { $0.corsOrigins = ["https://app.example"] }, routes: routes) { s in
            let ok = try await fetch(s.port, "/v1/songs", headers: [("Origin", "https://app.example")])
            #expect(ok.header("Access-Control-Allow-Origin") == "https://app.example")
            #expect(ok.headerValues("Vary").contains("Origin"))
            #expect(ok.header("Access-Control-Expose-Headers")?.contains("Content-Range") == true)

            // Errors carry CORS headers too, so browsers can read the message.
            let missing = try await fetch(s.port, "/missing", headers: [("Origin", "https://app.example")])
            #expect(missing.status == 404)
            #expect(missing.header("Access-Control-Allow-Origin") == "https://app.example")

            let other = try await fetch(s.port, "/v1/songs", headers: [("Origin", "https://evil.example")])
            #expect(other.status == 200)
            #expect(other.header("Access-Control-Allow-Origin") == nil)
            #expect(other.header("Access-Control-Expose-Headers") == nil)
            // Caches must know the answer depends on Origin even when this origin got no grant.
            #expect(other.headerValues("Vary").contains("Origin"))

            let none = try await fetch(s.port, "/v1/songs")
            #expect(none.header("Access-Control-Allow-Origin") == nil)
        }
        // No origins configured: never any CORS header.
        try await withServer(routes: routes) { s in
            let r = try await fetch(s.port, "/v1/songs", headers: [("Origin", "https://app.example")])
            #expect(r.header("Access-Control-Allow-Origin") == nil)
            #expect(r.header("Vary") == nil)
        }
        // "*" allows any origin.
        try await withServer(config: { $0.corsOrigins = ["*"] }, routes: routes) { s in
            let r = try await fetch(s.port, "/v1/songs", headers: [("Origin", "https://x.example")])
            #expect(r.header("Access-Control-Allow-Origin") == "https://x.example")
        }
    }

    @Test func queryParsing() async throws {
        try await withServer(routes: routes) { s in
            let r = try await fetch(s.port, "/query?a=1&b=x%20y&a=2&c=%E4%B8%AD&d=a+b&e=%2B&flag")
            #expect(r.status == 200)
            let data = r.value as? [String: Any]
            let items = data?["items"] as? [[String]]
            #expect(
                items == [
                    ["a", "1"], ["b", "x y"], ["a", "2"], ["c", "中"], ["d", "a b"], ["e", "+"], ["flag", ""],
                ])
            #expect(data?["last"] as? [String] == ["2"])

            let bad = try await fetch(s.port, "/query?a=%G1")
            #expect(bad.status == 400)
            #expect(bad.json["status"] as? Int == 400)
            #expect((bad.json["message"] as? String)?.contains("query") == true)

            let truncated = try await fetch(s.port, "/query?a=%4")
            #expect(truncated.status == 400)
        }
    }

    @Test func keepAlivePipeline() async throws {
        try await withServer(routes: routes) { s in
            let bodies = try await onThread {
                let c = try RawClient(port: s.port)
                var bytes = requestBytes("GET", "/v1/songs/1", keepAlive: true)
                bytes += requestBytes("GET", "/v1/songs/2", keepAlive: true)
                bytes += requestBytes("HEAD", "/v1/songs/3", keepAlive: true)
                bytes += requestBytes("GET", "/missing", keepAlive: false)
                try c.send(bytes)
                var out: [String] = []
                for i in 0..<4 {
                    let r = try c.readResponse(head: i == 2)
                    let id = (r.value as? [String: String])?["id"] ?? "-"
                    out.append("\(r.status) \(id) \(r.body.count)")
                }
                return out
            }
            #expect(bodies == ["200 1 23", "200 2 23", "200 - 0", "404 - 60"])
        }
    }
}
