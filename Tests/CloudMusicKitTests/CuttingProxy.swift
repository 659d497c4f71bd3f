import Foundation
import ServerTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP proxy to the test server that cuts its first connection after some bytes of answer: a
/// real dropped connection, without a test double of our own server.
final class CuttingProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let targetPort: Int
    private let cutFirstAfter: Int
    private let lock = NSLock()
    private var connectionCount = 0
    private var rangeCount = 0

    var connections: Int { lock.withLock { connectionCount } }
    var rangeRequests: Int { lock.withLock { rangeCount } }

    init(targetPort: Int, cutFirstAfter: Int) throws {
        self.targetPort = targetPort
        self.cutFirstAfter = cutFirstAfter
        (listener, port) = try LoopbackSocket.listen(backlog: 16)
        Thread { [self] in acceptLoop() }.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let index = lock.withLock {
                connectionCount += 1
                return connectionCount
            }
            Thread { [self] in relay(client, cutAfter: index == 1 ? cutFirstAfter : nil) }.start()
        }
    }

    private func relay(_ client: Int32, cutAfter: Int?) {
        guard let upstream = LoopbackSocket.connect(port: targetPort) else {
            close(client)
            return
        }
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let n = read(client, &buffer, buffer.count)
                if n <= 0 { break }
                let text = String(decoding: buffer[0..<n], as: UTF8.self).lowercased()
                if text.contains("\r\nrange: bytes=") { lock.withLock { rangeCount += 1 } }
                if !Self.writeAll(upstream, buffer, n) { break }
            }
            shutdown(upstream, Int32(SHUT_WR))
        }.start()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var forwarded = 0
        while true {
            var n = read(upstream, &buffer, buffer.count)
            if n <= 0 { break }
            if let cutAfter { n = min(n, cutAfter - forwarded) }
            if n > 0 && !Self.writeAll(client, buffer, n) { break }
            forwarded += max(n, 0)
            if let cutAfter, forwarded >= cutAfter { break }
        }
        shutdown(client, Int32(SHUT_RDWR))
        close(client)
        shutdown(upstream, Int32(SHUT_RDWR))
        close(upstream)
    }

    private static func writeAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var sent = 0
        while sent < count {
            let n = buffer.withUnsafeBytes {
                send(fd, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}

/// A loopback port that accepts connections into its backlog and never answers: requests to it hang.
final class SilentListener: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw FixtureError(message: "could not listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(listener) }
}
