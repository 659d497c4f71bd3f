import Foundation
import HTTPServer
import Testing

private struct ProducerFailure: Error {}

@Suite struct StreamingTests {
    @Test func chunkedStreamDoesNotHoldTheOnlyWorker() async throws {
        let otherServed = Box(false)
        let log = Box<[String]>([])
        try await withServer(
            config: { $0.threads = 1 },
            routes: { r in
                r.get("/stream") { _ in
                    .stream(contentType: "text/plain; charset=utf-8") { w in
                        try await w.write(Data("one\n".utf8))
                        // Wait (without a worker) until another request has been answered.
                        let deadline = now() + 3
                        while !otherServed.value && now() < deadline {
                            try await Task.sleep(for: .milliseconds(10))
                        }
                        log.update { $0.append(otherServed.value ? "other served" : "other starved") }
                        try await w.write(Data("two\n".utf8))
                        try await Task.sleep(for: .milliseconds(100))
                        try await w.write(Data("three\n".utf8))
                        try await Task.sleep(for: .milliseconds(50))
                        try await w.write(Data())  // an empty write changes nothing
                        try await w.write(Data("four\n".utf8))
                    }
                }
                r.get("/quick") { _ in .json("quick") }
            }
        ) { s in
            let result = try await onThread { () -> ([String], [Double], ResponseHead, String, Double) in
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/stream"))
                let head = try c.readHead()
                let start = now()
                var chunks: [String] = []
                var times: [Double] = []
                let first = try c.readChunk()
                chunks.append(String(decoding: first ?? Data(), as: UTF8.self))
                times.append(now() - start)
                // The stream is open and waiting; the one worker must still answer others.
                let t0 = now()
                let other = try RawClient(port: s.port)
                try other.send(requestBytes("GET", "/quick"))
                let quick = try other.readResponse()
                let quickTime = now() - t0
                otherServed.value = true
                while let chunk = try c.readChunk() {
                    chunks.append(String(decoding: chunk, as: UTF8.self))
                    times.append(now() - start)
                }
                return (chunks, times, head, quick.text, quickTime)
            }
            let (chunks, times, head, quick, quickTime) = result
            #expect(head.status == 200)
            #expect(head.isChunked)
            #expect(head.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(head.header("Content-Length") == nil)
            #expect(quick == #""quick""#)
            #expect(quickTime < 1)
            #expect(log.value == ["other served"])
            #expect(chunks.joined() == "one\ntwo\nthree\nfour\n")
            #expect(chunks.first == "one\n")
            // The producer slept 150 ms between its later writes, after the first chunk had been read:
            // the body really was streamed, not buffered.
            #expect(chunks.count >= 2)
            #expect((times.last ?? 0) - (times.first ?? 0) >= 0.14)
        }
    }

    @Test func largeStreamWithBackpressure() async throws {
        let total = 3 << 20
        try await withServer(
            config: { $0.threads = 1 },
            routes: { r in
                r.get("/big") { _ in
                    .stream(contentType: "application/octet-stream") { w in
                        var sent = 0
                        var n: UInt8 = 0
                        while sent < total {
                            var piece = Data(count: 100_000)
                            piece.withUnsafeMutableBytes { p in
                                for i in 0..<p.count {
                                    p[i] = n
                                    n &+= 1
                                }
                            }
                            let k = min(piece.count, total - sent)
                            try await w.write(piece.prefix(k))
                            sent += k
                        }
                    }
                }
            }
        ) { s in
            let body = try await onThread { () -> Data in
                let c = try RawClient(port: s.port, timeout: 10)
                try c.send(requestBytes("GET", "/big"))
                // Read slowly at first so the producer has to wait for the client.
                usleep(200_000)
                return try c.readResponse().body
            }
            #expect(body.count == total)
            var ok = true
            body.withUnsafeBytes { p in
                for i in 0..<p.count where p[i] != UInt8(truncatingIfNeeded: i) {
                    ok = false
                    break
                }
            }
            #expect(ok)
        }
    }

    @Test func clientDisconnectFailsTheProducersWrites() async throws {
        let outcome = Box<String>("running")
        let closedSeen = Box(false)
        let writes = Box(0)
        // Both taken off the cooperative pool, where the test itself may wait seconds for a turn.
        let resetAt = Box(0.0)
        let failedAt = Box(0.0)
        try await withServer(
            config: { $0.threads = 1 },
            routes: { r in
                r.get("/forever") { _ in
                    .stream(contentType: "text/plain") { w in
                        do {
                            // Long enough that only the disconnect, never the clock, can end it on a loaded machine.
                            let deadline = now() + 60
                            while now() < deadline {
                                try await w.write(Data(repeating: 0x78, count: 1000))
                                writes.update { $0 += 1 }
                                try await Task.sleep(for: .milliseconds(20))
                            }
                            outcome.value = "never failed"
                        } catch let e as StreamClosedError {
                            failedAt.value = now()
                            closedSeen.value = w.isClosed
                            outcome.value = "closed"
                            throw e
                        } catch {
                            outcome.value = "other error \(error)"
                        }
                    }
                }
                r.get("/quick") { _ in .json("quick") }
            }
        ) { s in
            try await onThread {
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/forever"))
                _ = try c.readHead()
                _ = try c.readChunk()
                _ = try c.readChunk()
                resetAt.value = now()
                c.reset()
            }
            #expect(await eventually { outcome.value != "running" })
            #expect(outcome.value == "closed")
            #expect(closedSeen.value)
            // The producer's write failed after the reset, not before it.
            #expect(failedAt.value >= resetAt.value)
            #expect(writes.value >= 2)
            // The server carries on.
            #expect(try await fetch(s.port, "/quick").status == 200)
        }
    }

    @Test func aProducerErrorCutsTheResponseShort() async throws {
        try await withServer(
            config: { $0.threads = 1 },
            routes: { r in
                r.get("/broken") { _ in
                    .stream(contentType: "text/plain") { w in
                        try await w.write(Data("partial".utf8))
                        try await Task.sleep(for: .milliseconds(50))
                        throw ProducerFailure()
                    }
                }
                r.get("/quick") { _ in .json("quick") }
            }
        ) { s in
            let result = try await onThread { () -> (String, String) in
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/broken"))
                _ = try c.readHead()
                let first = String(decoding: try c.readChunk() ?? Data(), as: UTF8.self)
                do {
                    _ = try c.readChunk()
                    return (first, "ended cleanly")
                } catch ClientError.closed {
                    return (first, "cut")
                }
            }
            // No terminating chunk: the client can tell the body is incomplete.
            #expect(result.0 == "partial")
            #expect(result.1 == "cut")
            #expect(try await fetch(s.port, "/quick").status == 200)
        }
    }

    @Test func keepAliveAfterAStreamAndHeadOfAStream() async throws {
        let producerRuns = Box(0)
        try await withServer(
            routes: { r in
                r.get("/s") { _ in
                    .stream(contentType: "text/plain", headers: HTTPHeaders([("X-Kind", "stream")])) { w in
                        producerRuns.update { $0 += 1 }
                        try await w.write(Data("abc".utf8))
                        try await Task.sleep(for: .milliseconds(20))
                        try await w.write(Data("def".utf8))
                    }
                }
                r.get("/quick") { _ in .json("quick") }
            }
        ) { s in
            let r = try await onThread { () -> [String] in
                var out: [String] = []
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/s", keepAlive: true))
                let a = try c.readResponse()
                out.append("\(a.status) \(a.wasChunked) \(a.header("X-Kind") ?? "-") \(a.text)")
                try c.send(requestBytes("GET", "/quick", keepAlive: true))
                out.append("\(try c.readResponse().text)")

                // HEAD: the headers a GET would get, and no body bytes before the next response.
                let h = try RawClient(port: s.port)
                try h.send(requestBytes("HEAD", "/s", keepAlive: true))
                let head = try h.readResponse(head: true)
                out.append(
                    "\(head.status) \(head.header("Transfer-Encoding") ?? "-") \(head.header("X-Kind") ?? "-")"
                )
                do {
                    try h.send(requestBytes("GET", "/quick", keepAlive: true))
                    let next = try h.readResponse()
                    out.append("next \(next.status) \(next.text)")
                } catch ClientError.closed, ClientError.send {
                    out.append("closed")
                } catch {
                    out.append("\(error)")
                }
                return out
            }
            #expect(r.count == 4)
            #expect(r.first == "200 true stream abcdef")
            #expect(r.dropFirst().first == #""quick""#)
            #expect(r.dropFirst(2).first == "200 chunked stream")
            // Either a clean next response or a closed connection, never leftover body bytes.
            #expect(r.last == "closed" || r.last == #"next 200 "quick""#, "\(r)")
            #expect(producerRuns.value == 1)
        }
    }

    @Test func aProducerWaitingOnASlowClientIsReleasedWhenItLeaves() async throws {
        let state = Box("running")
        let written = Box(0)
        try await withServer(
            config: { $0.threads = 1 },
            routes: { r in
                r.get("/flood") { _ in
                    .stream(contentType: "application/octet-stream") { w in
                        let piece = Data(repeating: 0x41, count: 256 << 10)
                        do {
                            while true {
                                try await w.write(piece)
                                written.update { $0 += piece.count }
                            }
                        } catch {
                            state.value = error is StreamClosedError ? "closed" : "\(error)"
                            throw error
                        }
                    }
                }
                r.get("/quick") { _ in .json("quick") }
            }
        ) { s in
            let client = try await onThread { () -> RawClient in
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/flood"))
                _ = try c.readHead()
                return c
            }
            // The client reads nothing: the producer must end up waiting, not buffering without bound.
            var last = -1
            for _ in 0..<50 {
                try await Task.sleep(for: .milliseconds(40))
                let now = written.value
                if now == last { break }
                last = now
            }
            #expect(state.value == "running")
            #expect(
                written.value < 64 << 20, "\(written.value) bytes buffered for a client that reads nothing")
            // Other requests are still answered while it waits.
            #expect(try await fetch(s.port, "/quick").status == 200)
            client.reset()
            #expect(await eventually { state.value != "running" })
            #expect(state.value == "closed")
        }
    }

    /// A client that reads the headers and then nothing more must not hold the producer (and whatever it holds,
    /// such as a transcode slot) past the write timeout.
    @Test func aClientThatStopsReadingIsDroppedAfterTheWriteTimeout() async throws {
        let outcome = Box("running")
        let lastWriteStarted = Box(0.0)
        let threwAt = Box(0.0)
        try await withServer(
            config: { $0.streamWriteTimeoutSeconds = 2 },
            routes: { r in
                r.get("/flood") { _ in
                    .stream(contentType: "application/octet-stream") { w in
                        let piece = Data(repeating: 0x41, count: 64 << 10)
                        do {
                            while true {
                                lastWriteStarted.value = now()
                                try await w.write(piece)
                            }
                        } catch {
                            threwAt.value = now()
                            outcome.value = error is StreamClosedError ? "closed" : "\(error)"
                            throw error
                        }
                    }
                }
            }
        ) { s in
            let client = try await onThread { () -> (RawClient, Double) in
                let c = try RawClient(port: s.port)
                try c.send(requestBytes("GET", "/flood"))
                _ = try c.readHead()
                return (c, now())
            }
            let stoppedReading = client.1
            // Without the timeout the producer would wait for the idle timeout (30 s).
            #expect(await eventually(timeout: 12) { outcome.value != "running" })
            #expect(outcome.value == "closed")
            let stalledFor = threwAt.value - lastWriteStarted.value
            #expect(stalledFor < 2 + 3, "the producer waited \(stalledFor) s")
            let dropped = threwAt.value - stoppedReading
            #expect(dropped >= 1.9, "dropped \(dropped) s after the client stopped reading")
            // The connection is gone too, not just the producer, while the client still holds its end.
            #expect(await eventually(timeout: 5) { s.metrics.render().contains("http_open_connections 0\n") })
            withExtendedLifetime(client.0) {}
        }
    }

    @Test func aSlowClientThatKeepsReadingIsNotCut() async throws {
        let total = 512 << 10
        let outcome = Box("running")
        try await withServer(
            config: { $0.streamWriteTimeoutSeconds = 1 },
            routes: { r in
                r.get("/slow") { _ in
                    .stream(contentType: "application/octet-stream") { w in
                        var sent = 0
                        do {
                            while sent < total {
                                try await w.write(Data(repeating: 0x42, count: 64 << 10))
                                sent += 64 << 10
                            }
                            outcome.value = "done"
                        } catch {
                            outcome.value = "\(error)"
                            throw error
                        }
                    }
                }
            }
        ) { s in
            let received = try await onThread { () -> (Int, Double) in
                let c = try RawClient(port: s.port, timeout: 10)
                c.setReceiveBuffer(16 << 10)
                try c.send(requestBytes("GET", "/slow"))
                _ = try c.readHead()
                // At most 16 KiB every 50 ms, so that it takes several write timeouts in all.
                let start = now()
                while try c.readSome(max: 16 << 10), !c.pendingEnds(with: "\r\n0\r\n\r\n") {
                    usleep(50_000)
                }
                let seconds = now() - start
                var bytes = 0
                while let chunk = try c.readChunk() { bytes += chunk.count }
                return (bytes, seconds)
            }
            #expect(received.0 == total)
            #expect(received.1 > 2, "read in \(received.1) s: not slower than the timeout")
            #expect(outcome.value == "done")
        }
    }
}
