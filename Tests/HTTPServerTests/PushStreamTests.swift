import Foundation
import HTTPServer
import Testing

/// The streams a `/push` route opened, in order, and how many of them closed.
private final class Opened: Sendable {
    let streams = Box<[PushStream]>([])
    let closed = Box(0)

    func route(_ r: Router) {
        r.get("/push") { _ in
            .push(contentType: "text/event-stream", headers: HTTPHeaders([("Cache-Control", "no-store")])) {
                [self] stream in
                stream.onClose { self.closed.update { $0 += 1 } }
                streams.update { $0.append(stream) }
            }
        }
        r.get("/quick") { _ in .json("quick") }
    }

    func waitForStream(_ n: Int) async throws -> PushStream {
        #expect(await eventually { streams.value.count >= n })
        return try #require(streams.value.count >= n ? streams.value[n - 1] : nil)
    }
}

private func openCount(_ server: HTTPServer) -> String? {
    server.metrics.render().split(separator: "\n").first { $0.hasPrefix("http_open_push_streams ") }
        .map { String($0.dropFirst("http_open_push_streams ".count)) }
}

@Suite struct PushStreamTests {
    @Test func sendsFromAnyThreadAndLeavesTheWorkersFree() async throws {
        let opened = Opened()
        try await withServer(config: { $0.threads = 1 }, routes: opened.route) { s in
            let client = try RawClient(port: s.port, timeout: 60)
            try client.send(requestBytes("GET", "/push", keepAlive: true))
            let head = try await onThread { try client.readHead() }
            #expect(head.status == 200)
            #expect(head.isChunked)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(head.header("Cache-Control") == "no-store")
            #expect(head.header("X-Content-Type-Options") == "nosniff")
            #expect(head.header("Connection") == "close")
            let stream = try await opened.waitForStream(1)
            #expect(openCount(s) == "1")

            // The one worker is free while the stream is open.
            let quick = try await onThread {
                let other = try RawClient(port: s.port, timeout: 60)
                try other.send(requestBytes("GET", "/quick"))
                return try other.readResponse().text
            }
            #expect(quick == #""quick""#)

            // Sent from this task's thread, straight to the socket, each send one chunk.
            #expect(stream.send(Data("one\n".utf8)))
            #expect(stream.send(Data("two 🎵\n".utf8)))
            let chunks = try await onThread { [try client.readChunk(), try client.readChunk()] }
            #expect(chunks == [Data("one\n".utf8), Data("two 🎵\n".utf8)])

            // The client leaves: the stream closes, its close actions run, sends fail.
            client.reset()
            #expect(await eventually { opened.closed.value == 1 })
            #expect(await eventually { !stream.send(Data("late\n".utf8)) })
            #expect(openCount(s) == "0")
        }
    }

    @Test func finishEndsTheBodyAndAnHTTP10ClientGetsItUnchunked() async throws {
        let opened = Opened()
        try await withServer(routes: opened.route) { s in
            let modern = try RawClient(port: s.port, timeout: 60)
            try modern.send(requestBytes("GET", "/push", keepAlive: true))
            _ = try await onThread { try modern.readHead() }
            let first = try await opened.waitForStream(1)
            first.send(Data("a".utf8))
            first.finish()
            #expect(!first.send(Data("after the end".utf8)))
            let body = try await onThread { () -> [Data?] in [try modern.readChunk(), try modern.readChunk()]
            }
            #expect(body == [Data("a".utf8), nil])
            #expect(try await onThread { modern.readUntilClosed(timeout: 60) } == Data())

            let old = try RawClient(port: s.port, timeout: 60)
            try old.send("GET /push HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try await onThread { try old.readHead() }
            #expect(head.status == 200)
            #expect(head.header("Transfer-Encoding") == nil)
            let second = try await opened.waitForStream(2)
            second.send(Data("plain ".utf8))
            second.send(Data("bytes".utf8))
            second.finish()
            #expect(try await onThread { old.readUntilClosed(timeout: 60) } == Data("plain bytes".utf8))
            #expect(await eventually { opened.closed.value == 2 })
        }
    }

    @Test func headSendsTheHeadOnlyAndOpensNothing() async throws {
        let opened = Opened()
        try await withServer(routes: opened.route) { s in
            let response = try await onThread {
                let c = try RawClient(port: s.port, timeout: 60)
                try c.send(requestBytes("HEAD", "/push"))
                return try c.readResponse(head: true)
            }
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/event-stream")
            #expect(opened.streams.value.isEmpty)
        }
    }

    @Test func aClientThatStopsReadingIsDroppedNotBuffered() async throws {
        let opened = Opened()
        try await withServer(routes: opened.route) { s in
            let client = try RawClient(port: s.port, timeout: 60)
            client.setReceiveBuffer(4096)
            try client.send(requestBytes("GET", "/push", keepAlive: true))
            let stream = try await opened.waitForStream(1)
            // The kernel's buffers take some; past them at most 256 KiB waits, then the stream is dropped.
            let block = Data(repeating: 0x61, count: 64 << 10)
            var sent = 0
            while stream.send(block) && sent < 1 << 30 { sent += block.count }
            #expect(sent < 64 << 20)
            #expect(await eventually { opened.closed.value == 1 })
        }
    }

    @Test func oneAddressMayHoldOnlySoManyStreams() async throws {
        let opened = Opened()
        try await withServer(config: { $0.perAddressConnectionLimit = 2 }, routes: opened.route) { s in
            var clients: [RawClient] = []
            for n in 1...2 {
                let c = try RawClient(port: s.port, timeout: 60)
                try c.send(requestBytes("GET", "/push", keepAlive: true))
                _ = try await opened.waitForStream(n)
                clients.append(c)
            }
            let refused = try await onThread {
                let c = try RawClient(port: s.port, timeout: 60)
                try c.send(requestBytes("GET", "/push"))
                return try c.readResponse()
            }
            #expect(refused.status == 429)
            #expect(refused.text.contains("close one first"))
            #expect(refused.header("Retry-After") != nil)
            #expect(opened.streams.value.count == 2)

            // One leaves; its place is free again.
            clients.removeFirst().reset()
            #expect(await eventually { opened.closed.value == 1 })
            let again = try RawClient(port: s.port, timeout: 60)
            try again.send(requestBytes("GET", "/push", keepAlive: true))
            #expect(try await onThread { try again.readHead() }.status == 200)
            _ = try await opened.waitForStream(3)
        }
    }

    @Test func stoppingTheServerEndsOpenStreams() async throws {
        let opened = Opened()
        let server = try makeServer(routes: opened.route)
        let client = try RawClient(port: server.port, timeout: 60)
        try client.send(requestBytes("GET", "/push", keepAlive: true))
        _ = try await onThread { try client.readHead() }
        let stream = try await opened.waitForStream(1)
        stream.send(Data("x".utf8))
        try await onThread { server.shutdown() }
        let rest = try await onThread { () -> [Data?] in [try client.readChunk(), try client.readChunk()] }
        #expect(rest == [Data("x".utf8), nil])
        #expect(try await onThread { client.readUntilClosed(timeout: 60) } == Data())
        #expect(opened.closed.value == 1)
    }
}
