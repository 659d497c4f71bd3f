import Foundation
import HTTPServer
import Testing

private func robustRoutes(_ r: Router) {
    r.get("/n/:n") { req in .json(["n": try req.parameter("n")]) }
    r.post("/echo") { req in .json(try req.decode(Echo.self)) }
    r.get("/who") { req in
        .json([
            "addr": [req.remoteAddress], "tags": req.headers.values("X-Tag"),
            "host": [req.headers["HOST"] ?? "-"],
        ])
    }
    r.get("/nan") { _ in .json(Double.nan) }
    r.post("/upload") { req in
        guard case .multipart(let f) = req.body else { return .json("not multipart") }
        return .json(f.files.map { "\($0.fieldName):\($0.fileName ?? "-"):\($0.size)" })
    }
    r.get("/empty-stream") { _ in .stream(contentType: "text/plain") { _ in } }
}

@Suite struct RobustnessTests {
    @Test func manyConcurrentClients() async throws {
        try await withServer(config: { $0.threads = 2 }, routes: robustRoutes) { s in
            let results = try await withThrowingTaskGroup(of: [String].self) { group in
                for client in 0..<24 {
                    group.addTask {
                        try await onThread {
                            let c = try RawClient(port: s.port, timeout: 5)
                            var out: [String] = []
                            for i in 0..<8 {
                                try c.send(requestBytes("GET", "/n/\(client)-\(i)", keepAlive: i < 7))
                                let r = try c.readResponse()
                                out.append(
                                    (r.value as? [String: String])?["n"] ?? "status \(r.status)")
                            }
                            return out
                        }
                    }
                }
                var all: [[String]] = []
                for try await r in group { all.append(r) }
                return all
            }
            #expect(results.count == 24)
            let expected = Set((0..<24).flatMap { c in (0..<8).map { "\(c)-\($0)" } })
            #expect(Set(results.flatMap { $0 }) == expected)
            #expect(await eventually { s.metrics.requestCount(route: "/n/:n") == 24 * 8 })
        }
    }

    @Test func requestHeadersAndRemoteAddress() async throws {
        try await withServer(routes: robustRoutes) { s in
            let r = try await fetch(
                s.port, "/who", headers: [("X-Tag", "a"), ("x-tag", "b"), ("X-TAG", "c, d")])
            #expect(
                r.value as? [String: [String]] == [
                    "addr": ["127.0.0.1"], "tags": ["a", "b", "c, d"], "host": ["127.0.0.1"],
                ])
        }
    }

    @Test func unencodableJSONIsAGeneric500() async throws {
        try await withServer(routes: robustRoutes) { s in
            let r = try await fetch(s.port, "/nan")
            #expect(r.status == 500)
            #expect(r.json["status"] as? Int == 500)
        }
    }

    @Test func multipartWithoutBoundaryAndEmptyFiles() async throws {
        try await withServer(routes: robustRoutes) { s in
            let noBoundary = try await fetch(
                s.port, "POST", "/upload", headers: [("Content-Type", "multipart/form-data")],
                body: Data("--x\r\n\r\n--x--\r\n".utf8))
            #expect(noBoundary.status == 400)
            #expect(noBoundary.json["status"] as? Int == 400)

            let b = "BB"
            let body = Data(
                ("--\(b)\r\nContent-Disposition: form-data; name=\"e\"; filename=\"empty.txt\"\r\nContent-Type: text/plain\r\n\r\n\r\n"
                    + "--\(b)\r\nContent-Disposition: form-data; name=\"e\"; filename=\"empty.txt\"\r\n\r\nX\r\n--\(b)--\r\n")
                    .utf8)
            let r = try await fetch(
                s.port, "POST", "/upload", headers: [("Content-Type", "multipart/form-data; boundary=\(b)")],
                body: body)
            #expect(r.status == 200)
            // Two parts with the same field and file name stay two files.
            #expect(r.value as? [String] == ["e:empty.txt:0", "e:empty.txt:1"])
        }
    }

    @Test func expectContinue() async throws {
        try await withServer(config: { $0.maxBodyBytes = 1000 }, routes: robustRoutes) { s in
            let r = try await onThread { () -> (Int, Int) in
                let body = Data(#"{"name":"x","count":2}"#.utf8)
                let c = try RawClient(port: s.port)
                try c.send(
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n"
                )
                let cont = try c.readHead()
                try c.send(body)
                let final = try c.readResponse()
                return (cont.status, final.status)
            }
            #expect(r == (100, 200))

            // Too large: refused at once, without the 100.
            let big = try await onThread { () -> Int in
                let c = try RawClient(port: s.port)
                try c.send(
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n"
                )
                return try c.readResponse().status
            }
            #expect(big == 413)
        }
    }

    @Test func anEmptyStream() async throws {
        try await withServer(routes: robustRoutes) { s in
            let r = try await fetch(s.port, "/empty-stream")
            #expect(r.status == 200)
            #expect(r.wasChunked)
            #expect(r.body.isEmpty)
        }
    }

    @Test func shutdownDoesNotWaitForIdleKeepAliveConnections() async throws {
        // A grace far longer than a loaded machine's slowest shutdown, so waiting it out cannot pass for not.
        let server = try makeServer({ $0.shutdownGraceSeconds = 30 }, routes: robustRoutes)
        let port = server.port
        let idle = try await onThread { () -> RawClient in
            let c = try RawClient(port: port)
            try c.send(requestBytes("GET", "/n/1", keepAlive: true))
            _ = try c.readResponse()
            return c
        }
        let elapsed = try await onThread { () -> Double in
            let t = now()
            server.shutdown()
            return now() - t
        }
        #expect(elapsed < 15)
        #expect(try await onThread { idle.readUntilClosed(timeout: 2) } != nil)
    }
}
