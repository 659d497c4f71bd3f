import Foundation
import Synchronization

/// A test's client of `GET /v1/events`: a plain socket read on a thread of its own (never the cooperative
/// pool, which a loaded suite keeps busy), parsing Server-Sent Events into a list the test waits on.
final class EventStreamReader: Sendable {
    struct Event: Sendable, Equatable {
        var id: String?
        var kind: String
        var data: String

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
        }
    }

    private struct State: ~Copyable {
        var events: [Event] = []
        var status: Int?
        var ended = false
    }

    private let state = Mutex(State())
    private let changed = DispatchSemaphore(value: 0)
    private let fd: Int32

    /// Opens a stream on `port` with `headers` (the chat token, `Last-Event-ID`) and `query`.
    init(port: Int, query: String = "", headers: [String: String] = [:]) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw EventStreamError(message: "could not connect to port \(port)")
        }
        var request = "GET /v1/events\(query.isEmpty ? "" : "?" + query) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "Accept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        let thread = Thread { [self] in read() }
        thread.name = "test-event-stream"
        thread.start()
    }

    deinit { close(fd) }

    /// Drops the connection, as a phone losing its network would.
    func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    var events: [Event] { state.withLock { $0.events } }
    var status: Int? { state.withLock { $0.status } }
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Waits until `condition` holds for the events so far (or the stream ended), up to `seconds`.
    @discardableResult
    func wait(seconds: Double = 60, until condition: ([Event]) -> Bool) -> [Event] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let (events, ended) = state.withLock { ($0.events, $0.ended) }
            if condition(events) || ended || Date() >= deadline { return events }
            _ = changed.wait(timeout: .now() + .milliseconds(200))
        }
    }

    /// Waits for the stream's `ready`.
    @discardableResult
    func waitUntilReady() -> Event? {
        wait { $0.contains { $0.kind == "ready" } }.first { $0.kind == "ready" }
    }

    private func read() {
        var buffer: [UInt8] = []
        var headerDone = false
        var chunked = Data()
        var text = ""
        var pending = Event(id: nil, kind: "message", data: "")
        var hasData = false
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        var sawLastChunk = false
        while !sawLastChunk {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            buffer += chunk[0..<n]
            if !headerDone {
                guard let end = find(buffer, [13, 10, 13, 10]) else { continue }
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                state.withLock { $0.status = status }
                changed.signal()
                buffer.removeFirst(end + 4)
                headerDone = true
            }
            // Chunked transfer: take whole chunks out of the buffer.
            while let lineEnd = find(buffer, [13, 10]) {
                let size = Int(String(decoding: buffer[0..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                guard buffer.count >= lineEnd + 2 + size + 2 else { break }
                chunked.append(contentsOf: buffer[(lineEnd + 2)..<(lineEnd + 2 + size)])
                buffer.removeFirst(lineEnd + 2 + size + 2)
                if size == 0 {
                    // The last chunk: the server ended the stream (the connection may stay open).
                    sawLastChunk = true
                    break
                }
            }
            text += String(decoding: chunked, as: UTF8.self)
            chunked.removeAll()
            while let newline = text.firstIndex(of: "\n") {
                let line = String(text[..<newline])
                text = String(text[text.index(after: newline)...])
                if line.isEmpty {
                    if hasData {
                        let event = pending
                        state.withLock { $0.events.append(event) }
                        changed.signal()
                    }
                    pending = Event(id: nil, kind: "message", data: "")
                    hasData = false
                } else if line.hasPrefix("id: ") {
                    pending.id = String(line.dropFirst(4))
                } else if line.hasPrefix("event: ") {
                    pending.kind = String(line.dropFirst(7))
                } else if line.hasPrefix("data: ") {
                    pending.data += (hasData ? "\n" : "") + line.dropFirst(6)
                    hasData = true
                }
            }
        }
        state.withLock { $0.ended = true }
        changed.signal()
    }

    private func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count)
        where haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }
}

struct EventStreamError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
