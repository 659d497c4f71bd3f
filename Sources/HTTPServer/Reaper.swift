import CMicroHTTPD
import Foundation
import Synchronization

/// The thread that drops connections past their header deadline and streams whose client stopped reading:
/// libmicrohttpd's own timeout only counts idle time, so a client sending a byte a second would hold a
/// connection forever.
final class Reaper: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the thread; it looks at every connection and stream a few times a second.
    func start(_ core: ServerCore) {
        let config = core.config
        let headerSeconds = max(1, config.headerTimeoutSeconds)
        let streamSeconds = max(1, config.streamWriteTimeoutSeconds)
        let timeout = UInt64(headerSeconds) * 1_000_000_000
        let streamTimeout = UInt64(streamSeconds) * 1_000_000_000
        let interval = min(1_000_000, max(100_000, min(headerSeconds, streamSeconds) * 250_000))
        let thread = Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                // Waits on a semaphore rather than sleeping so that stopping doesn't wait out the interval.
                if wake.wait(timeout: .now() + .microseconds(interval)) == .success { break }
                let now = monotonicNanos()
                core.dropLateHeaders(now: now, timeout: timeout)
                core.dropStalledStreams(now: now, timeout: streamTimeout)
            }
            done.signal()
        }
        thread.name = "http-header-deadline"
        thread.start()
    }

    /// Stops the thread and waits for it.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
        done.wait()
    }
}

/// Whether a connection past its header deadline is the client's fault (a slow sender, or one that never
/// sent) or the server's (its threads starved or busy while the request sat, whole, in a buffer).
struct HeaderDeadline {
    /// When the headers started to be due (monotonic ns).
    let since: UInt64
    let timeout: UInt64

    /// - Parameters:
    ///   - unreadBytesWaiting: the kernel holds bytes no worker has read yet.
    ///   - lastReceivedNanosAgo: how long ago the kernel last received data, nil when it does not say.
    ///   - bytesReceived: all the bytes the connection has received, negative when the kernel does not say.
    func isLate(now: UInt64, unreadBytesWaiting: Bool, lastReceivedNanosAgo: UInt64?, bytesReceived: Int64)
        -> Bool
    {
        guard now > since, now - since > timeout else { return false }
        // Delivered in time and not yet read: a request waiting its turn behind a busy worker.
        if unreadBytesWaiting { return false }
        // libmicrohttpd already read what the client sent, and the client stopped sending before the deadline:
        // the wait was the server's (its threads starved on a loaded machine), so the request is answered, not
        // reset. A client that sent part of a head and went quiet is closed by the idle timeout instead.
        if bytesReceived > 0, let ago = lastReceivedNanosAgo, now >= ago, now - ago <= since + timeout {
            return false
        }
        return true
    }
}

extension ServerCore {
    /// Shuts down every connection whose request headers are due for longer than `timeout` ns.
    func dropLateHeaders(now: UInt64, timeout: UInt64) {
        connections.withLock { table in
            for (_, e) in table {
                var since = e.waitingSince.load(ordering: .relaxed)
                if since & 1 == 1 {
                    // Kept alive and idle: MHD closes it after idleTimeoutSeconds without traffic. Once
                    // the next request's first bytes arrive, its headers are due within the timeout.
                    guard let arrived = nextRequestArrival(e.fd, idleSince: since, now: now),
                        e.waitingSince.compareExchange(
                            expected: since, desired: arrived, ordering: .relaxed
                        ).exchanged
                    else { continue }
                    since = arrived
                }
                guard since != 0 && now > since && now - since > timeout else { continue }
                var byte: UInt8 = 0
                let unread = recv(e.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
                let ago = cm_ms_since_last_receive(e.fd)
                let late = HeaderDeadline(since: since, timeout: timeout)
                    .isLate(
                        now: now, unreadBytesWaiting: unread,
                        lastReceivedNanosAgo: ago >= 0 ? UInt64(ago) * 1_000_000 : nil,
                        bytesReceived: cm_bytes_received(e.fd))
                guard late else { continue }
                // Shut down, never close: MHD owns the fd and closes it itself.
                _ = Foundation.shutdown(e.fd, Int32(SHUT_RDWR))
                e.waitingSince.store(0, ordering: .relaxed)
            }
        }
    }

    /// When data last arrived on a kept-alive connection idle since `idleSince` (odd), as an even time; nil
    /// while nothing has arrived since.
    ///
    /// The kernel counts in milliseconds of jiffies, so data within 20 ms of the previous answer is taken
    /// for that request's (a next request that quick is answered before the reaper looks).
    private func nextRequestArrival(_ fd: Int32, idleSince: UInt64, now: UInt64) -> UInt64? {
        let ago = cm_ms_since_last_receive(fd)
        guard ago >= 0 else { return nil }
        let agoNanos = UInt64(ago) * 1_000_000
        guard now > agoNanos else { return nil }
        let arrived = (now - agoNanos) & ~1
        return arrived > idleSince + 20_000_000 ? arrived : nil
    }

    /// Drops every stream whose client has taken none of the waiting data for `timeout` ns: its producer's
    /// writes throw, and the connection is shut down so that it stops holding whatever the producer held.
    func dropStalledStreams(now: UInt64, timeout: UInt64) {
        let stalled = streams.withLock { table in
            table.values.filter { $0.isStalled(now: now, timeout: timeout) }
        }
        for w in stalled {
            w.close()
            if let e = w.connectionEntry {
                connections.withLock { table in
                    // Only while the fd is still this connection's: MHD may have closed it meanwhile.
                    if table[e.fd] === e { _ = Foundation.shutdown(e.fd, Int32(SHUT_RDWR)) }
                }
            }
            logger.info(
                "event=stream_stalled addr=\(w.connectionEntry?.address ?? "") sent=\(w.bytesSent) timeout_s=\(timeout / 1_000_000_000)"
            )
        }
    }
}
