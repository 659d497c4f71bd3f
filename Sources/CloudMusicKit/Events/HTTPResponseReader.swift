/// An HTTP/1.1 response read as its bytes arrive: the head, then the body, de-chunked when it is sent with
/// `Transfer-Encoding: chunked`, else up to `Content-Length`, else up to the end of the connection.
///
/// Pure: the socket reader feeds it what it reads; tests feed it bytes cut anywhere.
struct HTTPResponseReader: Sendable {
    struct Head: Sendable, Equatable {
        var status: Int
        /// Names in lower case; a repeated header keeps its last value.
        var headers: [String: String]
    }

    enum Failure: Error, Sendable, Equatable {
        case malformed(String)
    }

    /// What reading some bytes gave.
    enum Output: Sendable, Equatable {
        case head(Head)
        case body([UInt8])
        /// The body is complete (the last chunk, or `Content-Length` bytes).
        case end
    }

    private enum State: Sendable {
        case head
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case fixed(remaining: Int)
        case untilClose
        case done
    }

    private var state = State.head
    private var pending: [UInt8] = []
    static let maximumHeadSize = 64 << 10

    /// Whether the body must run to the end of the connection (no length, not chunked).
    var readsUntilClose: Bool {
        if case .untilClose = state { return true }
        return false
    }

    var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    mutating func feed(_ bytes: some Collection<UInt8>) throws(Failure) -> [Output] {
        var output: [Output] = []
        pending.append(contentsOf: bytes)
        var index = 0
        defer { pending.removeFirst(index) }
        loop: while index < pending.count {
            switch state {
            case .head:
                guard let end = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: pending, from: index) else {
                    guard pending.count - index <= Self.maximumHeadSize else {
                        throw .malformed("The server's answer had a head too large to read.")
                    }
                    break loop
                }
                let head = try Self.parseHead(pending[index..<end])
                index = end + 4
                // 1xx answers (but a switch of protocol) come before the real one.
                if (100..<200).contains(head.status) { continue }
                output.append(.head(head))
                if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                    state = .chunkSize
                } else if let length = head.headers["content-length"].flatMap({
                    Int($0.trimmingCharacters(in: .whitespaces))
                }), length >= 0 {
                    state = length == 0 ? .done : .fixed(remaining: length)
                    if length == 0 { output.append(.end) }
                } else if head.status == 204 || head.status == 304 {
                    state = .done
                    output.append(.end)
                } else {
                    state = .untilClose
                }
            case .chunkSize:
                guard let end = Self.find([0x0D, 0x0A], in: pending, from: index) else {
                    guard pending.count - index <= 1024 else {
                        throw .malformed("A chunk size line was too long.")
                    }
                    break loop
                }
                let line = String(decoding: pending[index..<end], as: UTF8.self)
                let hex = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                guard let size = Int(hex.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw .malformed("A chunk size was not a number: \(line.prefix(20))")
                }
                index = end + 2
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(remaining, pending.count - index)
                output.append(.body(Array(pending[index..<(index + take)])))
                index += take
                state = remaining - take == 0 ? .chunkDataEnd : .chunkData(remaining: remaining - take)
            case .chunkDataEnd:
                guard pending.count - index >= 2 else { break loop }
                guard pending[index] == 0x0D, pending[index + 1] == 0x0A else {
                    throw .malformed("A chunk did not end where its size said.")
                }
                index += 2
                state = .chunkSize
            case .trailers:
                guard let end = Self.find([0x0D, 0x0A], in: pending, from: index) else { break loop }
                let empty = end == index
                index = end + 2
                if empty {
                    state = .done
                    output.append(.end)
                }
            case .fixed(let remaining):
                let take = min(remaining, pending.count - index)
                output.append(.body(Array(pending[index..<(index + take)])))
                index += take
                state = remaining - take == 0 ? .done : .fixed(remaining: remaining - take)
                if remaining - take == 0 { output.append(.end) }
            case .untilClose:
                output.append(.body(Array(pending[index...])))
                index = pending.count
            case .done:
                index = pending.count
            }
        }
        return output
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count - start >= needle.count else { return nil }
        var position = start
        while position <= bytes.count - needle.count {
            if bytes[position] == needle[0] {
                var match = true
                for offset in 1..<needle.count where bytes[position + offset] != needle[offset] {
                    match = false
                    break
                }
                if match { return position }
            }
            position += 1
        }
        return nil
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Head {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let statusLine = lines.popFirst() else { throw .malformed("The server's answer was empty.") }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .malformed("The server did not answer in HTTP/1.1: \(statusLine.prefix(40))")
        }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Head(status: status, headers: headers)
    }
}
