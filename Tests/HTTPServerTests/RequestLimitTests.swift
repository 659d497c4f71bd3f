import Foundation
import HTTPServer
import Testing

private func countingRoutes(_ r: Router) {
    r.get("/count") { req in .json(req.queryItems.count) }
    r.get("/length") { req in .json(req.query["q"]?.count ?? -1) }
    r.post("/echo") { req in
        if case .data(let d, _) = req.body { return .json(d.count) }
        return .json(0)
    }
}

/// Sends `target` on a fresh connection and waits (long enough to see a hold of libmicrohttpd's 10 s) for
/// the answer; returns it, or nil when the connection closed without one, and the seconds it took.
private func timedGet(_ port: Int, _ target: String) async throws -> (response: RawResponse?, seconds: Double)
{
    try await onThread {
        let c = try RawClient(port: port, timeout: 15)
        let start = now()
        try c.send(requestBytes("GET", target))
        let response = try? c.readResponse()
        return (response, now() - start)
    }
}

/// `count` query parameters, 4 bytes each, so that 3,000 of them still fit in 16 KiB of request head.
private func manyParameters(_ count: Int) -> String {
    "/count?" + Array(repeating: "p=1", count: count).joined(separator: "&")
}

@Suite struct RequestLimitTests {
    /// libmicrohttpd 0.9.75 stored each query parameter in the connection's 20 KiB pool and, when it ran out,
    /// left the connection waiting: 297 or more parameters got no answer, or one after 10 s.
    @Test(arguments: [296, 297, 320, 1000, 1001, 3000])
    func manyQueryParametersAreAnsweredAtOnce(_ count: Int) async throws {
        try await withServer(routes: countingRoutes) { s in
            let (response, seconds) = try await timedGet(s.port, manyParameters(count))
            let r = try #require(response, "\(count) parameters: closed without an answer after \(seconds) s")
            // Loose: the failure this guards against is a hold of 10 s or more.
            #expect(seconds < 2, "\(count) parameters answered after \(seconds) s")
            if count <= 1000 {
                #expect(r.status == 200)
                #expect(r.value as? Int == count)
            } else {
                #expect(r.status == 414)
                #expect(r.header("Content-Type") == "application/json; charset=utf-8")
                #expect(r.json["status"] as? Int == 414)
                let message = r.json["message"] as? String ?? ""
                #expect(message.contains("at most 1000"), "\(message)")
            }
        }
    }

    @Test func theQueryParameterLimitIsConfigurable() async throws {
        try await withServer(config: { $0.maxQueryParameters = 10 }, routes: countingRoutes) { s in
            #expect(try await fetch(s.port, manyParameters(10)).status == 200)
            let over = try await fetch(s.port, manyParameters(11))
            #expect(over.status == 414)
            #expect(
                over.json["message"] as? String
                    == "The address has 11 query parameters; at most 10 are allowed.")
            // Empty pieces are not parameters.
            #expect(try await fetch(s.port, "/count?&&p=1&&").value as? Int == 1)
        }
    }

    @Test func oneLongParameterIsFine() async throws {
        try await withServer(routes: countingRoutes) { s in
            let value = String(repeating: "v", count: 8000)
            let (response, seconds) = try await timedGet(s.port, "/length?q=" + value)
            let r = try #require(response)
            #expect(r.status == 200)
            #expect(r.value as? Int == 8000)
            #expect(seconds < 2)
        }
    }

    @Test func queryValuesAreDecodedAsBefore() async throws {
        try await withServer(
            routes: { r in
                r.get("/q") { req in .json(req.queryItems.map { "\($0.name)=\($0.value)" }) }
            }
        ) { s in
            let r = try await fetch(s.port, "/q?a=1+2&b=%E5%A5%BD&c&d=x%2By&e=")
            #expect(r.value as? [String] == ["a=1 2", "b=好", "c=", "d=x+y", "e="])
            #expect(try await fetch(s.port, "/q?a=%zz").status == 400)
            // A raw NUL before the "?" would hide the query from the server's own parser.
            let nul = try await onThread { () -> Int? in
                let c = try RawClient(port: s.port)
                try c.send("GET /q\u{0}?a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return try? c.readResponse().status
            }
            #expect(nul == nil || nul == 400 || nul == 404, "\(String(describing: nul))")
        }
    }

    @Test func anAddressLongerThanTheHeaderLimitGets414() async throws {
        try await withServer(routes: countingRoutes) { s in
            let (response, seconds) = try await timedGet(
                s.port, "/count?q=" + String(repeating: "a", count: 17_000))
            let r = try #require(response)
            #expect(r.status == 414)
            #expect(r.json["status"] as? Int == 414)
            #expect((r.json["message"] as? String)?.contains("16 KB") == true)
            #expect(seconds < 2)
        }
    }

    /// A chunked body has no length up front: the server reads past the limit and answers 413 at the end,
    /// instead of resetting the connection 2 MB later.
    @Test func aChunkedBodyOverTheLimitGets413AndTheConnectionCarriesOn() async throws {
        try await withServer(routes: countingRoutes) { s in
            let piece = Data(repeating: 0x61, count: 256 << 10)
            let body = chunked(Array(repeating: piece, count: 16))  // 4 MiB
            let r = try await onThread { () -> (RawResponse, RawResponse) in
                let c = try RawClient(port: s.port, timeout: 15)
                try c.send(
                    requestBytes(
                        "POST", "/echo",
                        headers: [("Transfer-Encoding", "chunked"), ("Content-Type", "application/json")],
                        body: body, keepAlive: true))
                let first = try c.readResponse()
                try c.send(requestBytes("GET", "/count?a=1", keepAlive: true))
                return (first, try c.readResponse())
            }
            #expect(r.0.status == 413)
            #expect(r.0.json["status"] as? Int == 413)
            #expect(r.0.json["message"] as? String == "The request body is larger than the 1 MB allowed.")
            #expect(r.1.status == 200)
            #expect(r.1.value as? Int == 1)
            // A chunked body within the limit still arrives whole.
            let small = try await fetch(
                s.port, "POST", "/echo", headers: [("Transfer-Encoding", "chunked")],
                body: chunked([Data(repeating: 0x62, count: 1000), Data(repeating: 0x63, count: 24)]))
            #expect(small.value as? Int == 1024)
        }
    }

    /// README: idle connections close after `idleTimeoutSeconds`; the header deadline is for requests that
    /// have begun. It used to start when the previous answer ended, closing kept-alive connections early.
    @Test func anIdleKeptAliveConnectionLastsTheIdleTimeoutNotTheHeaderTimeout() async throws {
        try await withServer(
            config: {
                $0.headerTimeoutSeconds = 1
                $0.idleTimeoutSeconds = 5
            }, routes: countingRoutes
        ) { s in
            let r = try await onThread { () -> (Int, Double, Bool) in
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/count", keepAlive: true))
                let status = try c.readResponse().status
                let start = now()
                let closed = c.readUntilClosed(timeout: 15) != nil
                return (status, now() - start, closed)
            }
            #expect(r.0 == 200)
            #expect(r.2, "still open after 15 s")
            #expect(r.1 >= 4.5, "closed after \(r.1) s, before the 5 s idle timeout")
            #expect(r.1 < 12, "closed after \(r.1) s")
        }
    }

    @Test func aKeptAliveConnectionTricklingItsNextRequestIsDroppedAtTheHeaderDeadline() async throws {
        try await withServer(
            config: {
                $0.headerTimeoutSeconds = 1
                $0.idleTimeoutSeconds = 30
            }, routes: countingRoutes
        ) { s in
            let r = try await onThread { () -> (Int, Double, Bool) in
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/count", keepAlive: true))
                let status = try c.readResponse().status
                // Idle a little, then send the next request one byte every 200 ms: never idle, never done.
                let idle = now()
                while now() - idle < 0.5 { _ = c.readUntilClosed(timeout: 0.1) }
                let start = now()
                let bytes = Array(
                    "GET /count HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".utf8)
                var dropped = false
                for b in bytes {
                    if (try? c.send([b])) == nil || c.readUntilClosed(timeout: 0.2) != nil {
                        dropped = true
                        break
                    }
                }
                return (status, now() - start, dropped)
            }
            #expect(r.0 == 200)
            #expect(r.2, "still connected after \(r.1) s of trickling")
            #expect(r.1 >= 0.9 && r.1 < 6, "dropped after \(r.1) s")
        }
    }
}
