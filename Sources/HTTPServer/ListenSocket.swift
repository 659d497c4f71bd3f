import Foundation

// MARK: The listening socket, made here so that its errors say what to do; libmicrohttpd is given it

func raiseFileLimit(to wanted: Int, logger: Logger) {
    var rl = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &rl) == 0 else { return }
    if rl.rlim_cur < rl.rlim_max {
        rl.rlim_cur = rl.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &rl)
    }
    if Int(rl.rlim_cur) < wanted {
        logger.warning(
            "event=rlimit nofile=\(rl.rlim_cur) wanted=\(wanted) note=\"raise the open-file limit to allow that many connections\""
        )
    }
}

func boundPort(_ fd: Int32) -> Int {
    var ss = sockaddr_storage()
    var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let ok = withUnsafeMutablePointer(to: &ss) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    guard ok == 0 else { return 0 }
    if ss.ss_family == sa_family_t(AF_INET) {
        return withUnsafePointer(to: &ss) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }
    return withUnsafePointer(to: &ss) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
            Int(UInt16(bigEndian: $0.pointee.sin6_port))
        }
    }
}

func makeListenSocket(host: String, port: Int) throws -> Int32 {
    guard (0...65535).contains(port) else {
        throw ServerStartError(message: "The port \(port) is not a valid port number (0-65535).")
    }
    var v4 = sockaddr_in()
    var v6 = sockaddr_in6()
    let family: Int32
    if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
        family = AF_INET
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = UInt16(port).bigEndian
    } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
        family = AF_INET6
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = UInt16(port).bigEndian
    } else if host == "localhost" {
        return try makeListenSocket(host: "127.0.0.1", port: port)
    } else {
        throw ServerStartError(
            message: "The host '\(host)' is not an IP address; use e.g. 127.0.0.1, 0.0.0.0 or ::.")
    }
    let fd = socket(
        family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else {
        throw ServerStartError(message: "Could not create a socket: \(String(cString: strerror(errno))).")
    }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let rc: Int32
    if family == AF_INET {
        rc = withUnsafePointer(to: &v4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    } else {
        rc = withUnsafePointer(to: &v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }
    if rc != 0 {
        let e = errno
        Foundation.close(fd)
        switch e {
        case EADDRINUSE:
            throw ServerStartError(
                message:
                    "Port \(port) on \(host) is already in use. Stop the other program using it or choose another port."
            )
        case EACCES:
            throw ServerStartError(
                message:
                    "Not allowed to listen on port \(port); ports below 1024 need extra privileges. Choose a port above 1024."
            )
        case EADDRNOTAVAIL:
            throw ServerStartError(
                message:
                    "The address \(host) does not belong to this machine; choose one of its addresses, or 0.0.0.0."
            )
        default:
            throw ServerStartError(
                message: "Could not listen on \(host):\(port): \(String(cString: strerror(e))).")
        }
    }
    guard listen(fd, 1024) == 0 else {
        let e = errno
        Foundation.close(fd)
        throw ServerStartError(
            message: "Could not listen on \(host):\(port): \(String(cString: strerror(e))).")
    }
    return fd
}
