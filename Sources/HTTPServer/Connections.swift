import CMicroHTTPD
import Foundation
import Synchronization

/// One open connection, for the header deadline and the client address.
final class ConnectionEntry: Sendable {
    let fd: Int32
    let address: String
    /// What the connection waits for, since when (monotonic ns): 0 while a request runs; an even time while
    /// a request's headers are due (since the connection opened, or since the next request's first bytes
    /// arrived); an odd time while a kept-alive connection waits, idle, for its next request.
    let waitingSince: Atomic<UInt64>

    init(fd: Int32, address: String, since: UInt64) {
        self.fd = fd
        self.address = address
        self.waitingSince = Atomic(since & ~1)
    }
}

// MARK: libmicrohttpd's connection callback: connections opening and closing

extension ServerCore {
    func connectionNotify(
        _ connection: OpaquePointer, _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        _ toe: MHD_ConnectionNotificationCode
    ) {
        if toe == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
            let fd = cm_connection_fd(connection)
            let entry = ConnectionEntry(fd: fd, address: clientAddress(connection), since: monotonicNanos())
            socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
            connections.withLock { $0[fd] = entry }
            metrics.openConnections.add(1, ordering: .relaxed)
        } else {
            guard let p = socketContext.pointee else { return }
            socketContext.pointee = nil
            let entry = Unmanaged<ConnectionEntry>.fromOpaque(p).takeRetainedValue()
            connections.withLock { table in
                if table[entry.fd] === entry { table[entry.fd] = nil }
            }
            metrics.openConnections.subtract(1, ordering: .relaxed)
        }
    }

    /// The entry `connectionNotify` made for `connection`.
    @inline(__always) func entry(_ connection: OpaquePointer) -> ConnectionEntry? {
        guard let p = cm_connection_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionEntry>.fromOpaque(p).takeUnretainedValue()
    }
}

let connectionNotifyCallback: MHD_NotifyConnectionCallback = { cls, connection, socketContext, toe in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    core.connectionNotify(connection!, socketContext!, toe)
}

func clientAddress(_ connection: OpaquePointer) -> String {
    guard let sa = cm_connection_client_address(connection) else { return "" }
    var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch Int32(sa.pointee.sa_family) {
    case AF_INET:
        sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
            var a = p.pointee.sin_addr
            _ = inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count))
        }
    case AF_INET6:
        sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
            var a = p.pointee.sin6_addr
            _ = inet_ntop(AF_INET6, &a, &buf, socklen_t(buf.count))
        }
    default:
        return ""
    }
    return String(cString: buf)
}
