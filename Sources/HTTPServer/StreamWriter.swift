import CMicroHTTPD
import Foundation
import Synchronization

/// The error `StreamWriter.write` throws once the client has gone.
public struct StreamClosedError: Error, Sendable {}

/// Writes the body of a chunked response; `write` waits while the client is slow.
///
/// A client that takes none of the waiting data for `ServerConfiguration.streamWriteTimeoutSeconds` is
/// dropped, and `write` throws `StreamClosedError`.
public final class StreamWriter: Sendable {
    struct State: ~Copyable {
        var buffer: [UInt8] = []
        var readOffset = 0
        var suspended = false
        var finished = false
        var failed = false
        var closed = false
        var connection: UInt = 0  // MHD_Connection*, as bits so the state stays Sendable
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var closeHandlers: [@Sendable () -> Void] = []
        var bytesSent = 0
        /// Monotonic ns when the client last took data, or when data started waiting for it.
        var lastProgress: UInt64 = 0
    }

    let state = Mutex(State())
    /// The connection, for dropping it when its client stops reading.
    let connectionEntry: ConnectionEntry?
    static let highWater = 256 << 10
    static let lowWater = 64 << 10

    init(connectionEntry: ConnectionEntry?) {
        self.connectionEntry = connectionEntry
    }

    /// True once the client has gone or the response has ended.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Runs `action` once the client has gone or the server is stopping (at once when that already
    /// happened), so a producer waiting for something other than a write can stop waiting.
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if s.closed { return true }
            s.closeHandlers.append(action)
            return false
        }
        if now { action() }
    }

    /// Queues `data` for the client; waits while much is queued; throws `StreamClosedError` when the client has gone.
    public func write(_ data: Data) async throws {
        var resume: UInt = 0
        let mustWait: Bool = try state.withLock { s in
            if s.closed || s.finished { throw StreamClosedError() }
            if s.buffer.count == s.readOffset && !data.isEmpty { s.lastProgress = monotonicNanos() }
            s.buffer.append(contentsOf: data)
            if s.suspended {
                s.suspended = false
                resume = s.connection
            }
            return s.buffer.count - s.readOffset > StreamWriter.highWater
        }
        if let c = OpaquePointer(bitPattern: resume) { MHD_resume_connection(c) }
        if mustWait {
            try await withCheckedThrowingContinuation { (cont: CheckedContinuation<Void, any Error>) in
                state.withLock { s in
                    if s.closed {
                        cont.resume(throwing: StreamClosedError())
                    } else if s.buffer.count - s.readOffset <= StreamWriter.lowWater {
                        cont.resume()
                    } else {
                        s.waiters.append(cont)
                    }
                }
            }
        }
    }

    func attach(_ connection: OpaquePointer) {
        let bits = UInt(bitPattern: connection)
        state.withLock { $0.connection = bits }
    }

    /// The producer returned (or threw, `failed`): end the body once the buffer drains.
    func finish(failed: Bool) {
        var resume: UInt = 0
        state.withLock { s in
            s.finished = true
            s.failed = failed
            if s.suspended {
                s.suspended = false
                resume = s.connection
            }
        }
        if let c = OpaquePointer(bitPattern: resume) { MHD_resume_connection(c) }
    }

    /// The connection ended or the server is stopping: wake the connection and fail every write.
    func close() {
        var resume: UInt = 0
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            guard !s.closed else { return [] }
            s.closed = true
            if s.suspended {
                s.suspended = false
                resume = s.connection
            }
            for w in s.waiters { w.resume(throwing: StreamClosedError()) }
            s.waiters.removeAll()
            defer { s.closeHandlers.removeAll() }
            return s.closeHandlers
        }
        if let c = OpaquePointer(bitPattern: resume) { MHD_resume_connection(c) }
        for handler in handlers { handler() }
    }

    /// Called when MHD has freed the response: the connection may be gone, never touch it again.
    func detach() {
        let handlers: [@Sendable () -> Void] = state.withLock { s in
            s.connection = 0
            s.suspended = false
            s.closed = true
            for w in s.waiters { w.resume(throwing: StreamClosedError()) }
            s.waiters.removeAll()
            defer { s.closeHandlers.removeAll() }
            return s.closeHandlers
        }
        for handler in handlers { handler() }
    }

    var bytesSent: Int { state.withLock { $0.bytesSent } }

    /// True when data has waited more than `timeout` ns and the client has taken none of it meanwhile.
    func isStalled(now: UInt64, timeout: UInt64) -> Bool {
        state.withLock { s in
            let waiting = s.buffer.count > s.readOffset
            return !s.closed && waiting && now > s.lastProgress && now - s.lastProgress > timeout
        }
    }

    /// MHD's content reader: copy what is buffered, or suspend the connection until `write` resumes it.
    func read(into buf: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { s in
            let avail = s.buffer.count - s.readOffset
            if avail > 0 && !s.closed {
                let n = min(avail, max)
                s.buffer.withUnsafeBytes { src in
                    UnsafeMutableRawPointer(buf).copyMemory(
                        from: src.baseAddress! + s.readOffset, byteCount: n)
                }
                s.readOffset += n
                s.bytesSent += n
                s.lastProgress = monotonicNanos()
                if s.readOffset == s.buffer.count {
                    s.buffer.removeAll(keepingCapacity: s.buffer.capacity <= StreamWriter.highWater * 2)
                    s.readOffset = 0
                } else if s.readOffset > StreamWriter.lowWater {
                    s.buffer.removeFirst(s.readOffset)
                    s.readOffset = 0
                }
                if !s.waiters.isEmpty && s.buffer.count - s.readOffset <= StreamWriter.lowWater {
                    for w in s.waiters { w.resume() }
                    s.waiters.removeAll()
                }
                return n
            }
            if s.closed || s.failed { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
            if s.finished { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
            guard let c = OpaquePointer(bitPattern: s.connection) else {
                return Int(MHD_CONTENT_READER_END_WITH_ERROR)
            }
            s.suspended = true
            MHD_suspend_connection(c)
            return 0
        }
    }
}

// libmicrohttpd's content reader callbacks; `cls` is the retained `StreamWriter`.

let streamReaderCallback: MHD_ContentReaderCallback = { cls, _, buf, max in
    let w = Unmanaged<StreamWriter>.fromOpaque(cls!).takeUnretainedValue()
    return w.read(into: buf!, max: max)
}

/// The content of a HEAD answer of known length: never read, and nothing if it were.
let headReaderCallback: MHD_ContentReaderCallback = { _, _, _, _ in -1 }

let streamFreeCallback: MHD_ContentReaderFreeCallback = { cls in
    let w = Unmanaged<StreamWriter>.fromOpaque(cls!).takeRetainedValue()
    w.detach()
}
