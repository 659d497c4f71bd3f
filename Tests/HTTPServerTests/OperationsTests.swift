import Foundation
import HTTPServer
import Testing

private func opsRoutes(_ r: Router) {
    r.get("/items/:id") { req in .json(["id": try req.parameter("id")]) }
    r.post("/items") { _ in throw HTTPError.conflict("Exists.") }
    r.get("/stream") { _ in
        .stream(contentType: "text/plain") { w in
            try await w.write(Data("01234".utf8))
            try await w.write(Data("56789".utf8))
        }
    }
}

/// The value of a Prometheus sample line `name{labels} value`, if present.
private func sample(_ text: String, _ series: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1))
    }
    return nil
}

/// Runs `body` on a thread started at once, not when the cooperative pool has a turn for an async let's child
/// task (on a loaded machine, a minute later); `result()` waits for what it returned.
private final class ThreadJob<T: Sendable>: Sendable {
    private let outcome = Box<Result<T, any Error>?>(nil)

    init(_ body: @escaping @Sendable () throws -> T) {
        let outcome = self.outcome
        Thread { outcome.value = Result { try body() } }.start()
    }

    func result() async throws -> T {
        while true {
            if let outcome = outcome.value { return try outcome.get() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

@Suite struct OperationsTests {
    @Test func health() async throws {
        try await withServer { s in
            let r = try await fetch(s.port, "/health")
            #expect(r.status == 200)
            #expect(r.text == #"{"status":"ok"}"#)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            let head = try await fetch(s.port, "HEAD", "/health")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }

    @Test func healthAndMetricsCanBeOverridden() async throws {
        try await withServer(routes: { r in r.get("/health") { _ in .json("custom") } }) { s in
            let r = try await fetch(s.port, "/health")
            #expect(r.text == #""custom""#)
        }
    }

    @Test func metrics() async throws {
        try await withServer(routes: opsRoutes) { s in
            _ = try await fetch(s.port, "/items/1")
            _ = try await fetch(s.port, "/items/2")
            _ = try await fetch(s.port, "POST", "/items", body: Data("{}".utf8))
            _ = try await fetch(s.port, "/nowhere")
            _ = try await fetch(s.port, "/stream")
            _ = try await fetch(s.port, "BREW", "/x")
            _ = try await fetch(s.port, "MKCOL", "/y")
            // Counting happens once the response is sent: wait for it.
            #expect(await eventually { s.metrics.requestCount(route: "/items/:id") == 2 })
            #expect(await eventually { s.metrics.requestCount(route: "unmatched") == 3 })
            #expect(await eventually { s.metrics.requestCount(route: "/stream") == 1 })
            #expect(s.metrics.requestCount(route: "/items") == 1)

            // Two idle keep-alive connections, plus the one asking.
            let (text, contentType) = try await onThread { () -> (String, String?) in
                let a = try RawClient(port: s.port)
                let b = try RawClient(port: s.port)
                for c in [a, b] {
                    try c.send(requestBytes("GET", "/health", keepAlive: true))
                    _ = try c.readResponse()
                }
                var last: RawResponse?
                let deadline = now() + 2
                while now() < deadline {
                    let m = try RawClient(port: s.port)
                    try m.send(requestBytes("GET", "/metrics"))
                    last = try m.readResponse()
                    if sample(last!.text, "http_open_connections") == 3 { break }
                    usleep(20_000)
                }
                withExtendedLifetime((a, b)) {}
                return (last?.text ?? "", last?.header("Content-Type"))
            }
            #expect(contentType == "text/plain; version=0.0.4; charset=utf-8")
            #expect(text.contains("# TYPE http_requests_total counter"))
            #expect(sample(text, #"http_requests_total{method="GET",route="/items/:id",status="200"}"#) == 2)
            #expect(sample(text, #"http_requests_total{method="POST",route="/items",status="409"}"#) == 1)
            #expect(sample(text, #"http_requests_total{method="GET",route="unmatched",status="404"}"#) == 1)
            // Methods the server doesn't know share one label, so clients can't grow the series without end.
            #expect(sample(text, #"http_requests_total{method="OTHER",route="unmatched",status="404"}"#) == 2)
            #expect(!text.contains("BREW"))
            #expect(sample(text, #"http_requests_total{method="GET",route="unmatched",status="405"}"#) == nil)
            #expect(sample(text, #"http_requests_total{method="GET",route="/stream",status="200"}"#) == 1)
            #expect(text.contains("# TYPE http_request_duration_seconds histogram"))
            #expect(sample(text, #"http_request_duration_seconds_count{route="/items/:id"}"#) == 2)
            #expect(sample(text, #"http_request_duration_seconds_bucket{route="/items/:id",le="+Inf"}"#) == 2)
            #expect(sample(text, #"http_request_duration_seconds_bucket{route="/items/:id",le="10.0"}"#) == 2)
            let sum = sample(text, #"http_request_duration_seconds_sum{route="/items/:id"}"#)
            #expect(sum != nil && sum! > 0 && sum! < 5)
            // Buckets are cumulative.
            var previous = -1.0
            for line in text.split(separator: "\n")
            where line.hasPrefix(#"http_request_duration_seconds_bucket{route="/items/:id""#) {
                let v = Double(line.split(separator: " ").last ?? "") ?? -2
                #expect(v >= previous, "\(line)")
                previous = v
            }
            #expect(text.contains("# TYPE http_open_connections gauge"))
            #expect(sample(text, "http_open_connections") == 3)
            // Two 43-byte bodies, the 409 envelope, the 404 envelope, 10 streamed bytes, 2 health bodies...
            let sent = sample(text, "http_bytes_sent_total") ?? 0
            #expect(sent >= 43 * 2 + 10)

            // Once those connections are closed, the gauge goes back down.
            #expect(
                await eventually {
                    s.metrics.render().contains("http_open_connections 0\n")
                })
        }
    }

    @Test func accessLog() async throws {
        let log = LogCapture()
        try await withServer(config: { $0.logger = log.logger }, routes: opsRoutes) { s in
            let r = try await fetch(s.port, "/items/%E6%AD%8C")
            #expect(r.status == 200)
            let line = await log.waitFor(["method=GET", "route=/items/:id"])
            #expect(line != nil)
            if let line {
                let m = line.firstMatch(
                    of:
                        /^level=info method=GET route=\/items\/:id path=(\S+) status=200 bytes=(\d+) us=(\d+) addr=127\.0\.0\.1$/
                )
                #expect(m != nil, "\(line)")
                #expect(m.map { String($0.1) } == "/items/%E6%AD%8C")
                #expect(m.map { Int($0.2) } == r.body.count)
                #expect((m.flatMap { Int($0.3) } ?? 0) > 0)
            }

            _ = try await fetch(s.port, "POST", "/items", body: Data("{}".utf8))
            #expect(await log.waitFor(["method=POST", "route=/items ", "status=409"]) != nil)

            _ = try await fetch(s.port, "/stream")
            #expect(await log.waitFor(["route=/stream", "status=200", "bytes=10 "]) != nil)

            _ = try await fetch(s.port, "/zzz")
            #expect(await log.waitFor(["route=unmatched", "path=/zzz", "status=404"]) != nil)

            // An unknown method is logged as sent, not as GET.
            _ = try await fetch(s.port, "BREW", "/coffee")
            #expect(await log.waitFor(["method=BREW route=unmatched path=/coffee status=404"]) != nil)

            // A path with spaces can't forge fields in the line.
            let forged = try await onThread { () -> Int in
                let c = try RawClient(port: s.port)
                try c.send("GET /a status=999 \"x\" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return (try? c.readResponse().status) ?? 0
            }
            if forged != 0 {
                let line = await log.waitFor(["route=unmatched", "path=/a%20"])
                #expect(
                    line?.contains("path=/a%20status=999%20%22x%22 status=\(forged) ") == true,
                    "\(line ?? "-")")
                #expect(line?.components(separatedBy: "status=").count == 3)
            }

            #expect(log.all.contains { $0.contains("event=listening") && $0.contains("port=\(s.port)") })
        }
        #expect(log.all.contains { $0.contains("event=shutdown phase=done") })
    }

    @Test func gracefulShutdownFinishesInFlightRequests() async throws {
        let started = Box(false)
        let release = Box(false)
        let log = LogCapture()
        // Far longer than shutdown takes to refuse new connections and the slow request to end, so that the
        // request ends by itself, not when the grace period runs out.
        let grace = 120
        let server = try makeServer(
            {
                $0.shutdownGraceSeconds = grace
                $0.logger = log.logger
            },
            routes: { r in
                r.get("/slow") { _ in
                    started.value = true
                    // Held until new connections are refused (the bound only ends a hung test), then 0.7 s
                    // more that shutdown must wait for.
                    let deadline = now() + 600
                    while !release.value && now() < deadline { usleep(5_000) }
                    usleep(700_000)
                    return .json("finished")
                }
            })
        let port = server.port
        let inFlight = ThreadJob { () -> RawResponse in
            let c = try RawClient(port: port, timeout: 600)
            try c.send(requestBytes("GET", "/slow", keepAlive: true))
            return try c.readResponse()
        }
        #expect(await eventually { started.value })
        // Timed from inside the thread: on a loaded machine the thread itself may start late.
        let stopped = ThreadJob { () -> Double in
            let shutdownStart = now()
            server.shutdown()
            return now() - shutdownStart
        }
        // While shutdown waits for the slow request, new connections are refused: asked until they are, and then
        // the slow request may finish. Connections before shutdown began are answered; one made as it began may
        // wait in the listen queue, never answered, so it is asked again (the bound only ends a hung test).
        let during = ThreadJob { () -> String in
            defer { release.value = true }
            let deadline = now() + 600
            var last = "not asked"
            while now() < deadline {
                do {
                    let c = try RawClient(port: port, timeout: 2)
                    try c.send(requestBytes("GET", "/health"))
                    last = "answered \(try c.readResponse().status)"
                } catch ClientError.connect(let e) {
                    return e == ECONNREFUSED ? "refused" : "connect error \(e)"
                } catch ClientError.timeout(let what) {
                    last = "no answer: \(what)"
                } catch {
                    return "closed"
                }
                usleep(10_000)
            }
            return last
        }
        let seen = try await during.result()
        #expect(seen == "refused" || seen == "closed", "\(seen)")

        let r = try await inFlight.result()
        #expect(r.status == 200)
        #expect(r.text == #""finished""#)
        #expect(r.header("Connection")?.lowercased() == "close")
        let elapsed = try await stopped.result()
        // Shutdown ended with the request, not with the grace period...
        #expect(elapsed < Double(grace))
        #expect(!log.all.contains { $0.contains("grace_expired") })
        // ...and waited for the handler's last 0.7 s.
        #expect(elapsed >= 0.6)

        let after = try await onThread { () -> Int32 in
            do {
                _ = try RawClient(port: port, timeout: 1)
                return 0
            } catch ClientError.connect(let e) {
                return e
            }
        }
        #expect(after == ECONNREFUSED)
        // A second shutdown is harmless, and a stopped server can't be restarted.
        server.shutdown()
        #expect(throws: ServerStartError.self) { try server.start() }
    }

    @Test func shutdownEndsEndlessStreamsWithinTheGracePeriod() async throws {
        let outcome = Box("running")
        let server = try makeServer(
            { $0.shutdownGraceSeconds = 1 },
            routes: { r in
                r.get("/endless") { _ in
                    .stream(contentType: "text/plain") { w in
                        do {
                            while true {
                                try await w.write(Data("tick\n".utf8))
                                try await Task.sleep(for: .milliseconds(20))
                            }
                        } catch {
                            outcome.value = error is StreamClosedError ? "closed" : "\(error)"
                            throw error
                        }
                    }
                }
            })
        let port = server.port
        let client = try await onThread { () -> RawClient in
            let c = try RawClient(port: port, timeout: 5)
            try c.send(requestBytes("GET", "/endless"))
            _ = try c.readHead()
            _ = try c.readChunk()
            return c
        }
        let elapsed = try await onThread { () -> Double in
            let t = now()
            server.shutdown()
            return now() - t
        }
        #expect(elapsed >= 0.9)
        #expect(elapsed < 2)
        #expect(await eventually { outcome.value != "running" })
        #expect(outcome.value == "closed")
        let rest = try await onThread { client.readUntilClosed(timeout: 2) }
        #expect(rest != nil)
    }

    @Test func startErrors() async throws {
        try await withServer { s in
            var c = ServerConfiguration()
            c.port = s.port
            c.logger = quietLogger
            let second = HTTPServer(configuration: c, router: Router())
            do {
                try second.start()
                Issue.record("a second server started on a used port")
                second.shutdown()
            } catch let e as ServerStartError {
                #expect(e.message.contains("already in use"))
            }
            #expect(throws: ServerStartError.self) { try s.start() }

            var bad = ServerConfiguration()
            bad.host = "not-an-address"
            bad.port = 0
            #expect(throws: ServerStartError.self) {
                try HTTPServer(configuration: bad, router: Router()).start()
            }
        }
    }
}
