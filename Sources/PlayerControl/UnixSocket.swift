import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The socket calls the control server and client share: addresses, deadlines, line reads.
enum UnixSocket {
    /// A new Unix stream socket that is not inherited by child processes (mpv, ffmpeg).
    static func make() throws(ControlError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ioError("Cannot create a Unix socket") }
        return fd
    }

    /// Calls `body` with the address of `path`; paths too long for `sun_path` are an error.
    static func withAddress<T>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    ) throws(ControlError) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw ControlError(
                code: .pathTooLong,
                message:
                    "The control socket path \(path) is longer than the \(capacity - 1) bytes a Unix socket can use; set XDG_RUNTIME_DIR to a shorter folder."
            )
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// Makes `fd` non-blocking so reads and writes can honour a deadline through poll.
    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Milliseconds left until `deadline` for poll (at least 1), or nil once it has passed.
    static func pollTimeout(until deadline: ContinuousClock.Instant) -> Int32? {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return nil }
        let (seconds, attoseconds) = remaining.components
        return Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
    }

    /// Waits until `fd` is ready for `events`; false when the deadline passed first.
    static func wait(_ fd: Int32, for events: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while let timeout = pollTimeout(until: deadline) {
            var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return true }  // let the next read or write report it
        }
        return false
    }

    /// How a line read ended.
    enum LineRead {
        /// The bytes before the first newline.
        case line([UInt8])
        /// The peer closed before a newline; what it sent (maybe nothing).
        case endOfFile([UInt8])
        /// More than the limit arrived without a newline.
        case tooLarge
        case timedOut
        case failed(SystemError)
    }

    /// Reads up to the first newline from non-blocking `fd`, never more than `limit` + 1 bytes.
    static func readLine(_ fd: Int32, limit: Int, until deadline: ContinuousClock.Instant) -> LineRead {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // Never read past limit + 1 so an oversized request cannot grow the buffer.
            let wanted = min(chunk.count, limit + 1 - buffer.count)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, 0) }
            if count > 0 {
                let start = buffer.count
                buffer.append(contentsOf: chunk[0..<count])
                if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    return .line(Array(buffer[..<newline]))
                }
                if buffer.count > limit { return .tooLarge }
            } else if count == 0 {
                return .endOfFile(buffer)
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(fd, for: Int32(POLLIN), until: deadline) else { return .timedOut }
            } else {
                return .failed(SystemError())
            }
        }
    }

    /// Sends all of `bytes` on non-blocking `fd` before `deadline`, without raising SIGPIPE.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8], until deadline: ContinuousClock.Instant)
        -> SystemError?
    {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                offset += count
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard wait(fd, for: Int32(POLLOUT), until: deadline) else { return SystemError(ETIMEDOUT) }
            } else {
                return SystemError()
            }
        }
        return nil
    }

    static func ioError(_ what: String, _ error: SystemError = SystemError()) -> ControlError {
        ControlError(code: .io, message: "\(what): \(error.text).")
    }
}
