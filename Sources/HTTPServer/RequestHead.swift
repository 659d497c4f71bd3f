import CMicroHTTPD
import Foundation

// MARK: The request's head: its limits, its framing, and how its body will be read

extension ServerCore {
    func firstCall(
        _ st: RequestState, _ connection: OpaquePointer, _ url: UnsafePointer<CChar>,
        _ method: UnsafePointer<CChar>, _ version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        st.started = true
        st.http10 = version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false
        inFlight.add(1, ordering: .relaxed)
        if let e = entry(connection) {
            e.waitingSince.store(0, ordering: .relaxed)
            st.address = e.address
        }
        st.rawPath = String(cString: url)
        guard let m = HTTPMethod(cString: method) else {
            st.unknownMethod = String(cString: method)
            return refuse(st, connection, unknownMethodError(st))
        }
        st.method = m
        if let e = st.targetError { return refuse(st, connection, e) }

        // libmicrohttpd's own limit is its memory pool, which is larger than maxHeaderBytes; measure exactly.
        var scan = HeaderScan()
        withUnsafeMutablePointer(to: &scan) { p in
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, headerScanIterator, p)
            _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, headerScanIterator, p)
        }
        if scan.mhdParsedQuery {
            let error = HTTPError.badRequest("The address contains a NUL byte; send it as %00.")
            return refuse(st, connection, error)
        }
        let headerBytes = strlen(method) + st.targetBytes + 12 + scan.bytes + 2
        if headerBytes > config.maxHeaderBytes {
            return refuse(
                st, connection,
                HTTPError(
                    status: 431,
                    message:
                        "The request's headers are larger than the \(formatBytes(config.maxHeaderBytes)) allowed."
                ))
        }
        if scan.badName {
            return refuse(
                st, connection, HTTPError.badRequest("The request has a malformed header name."))
        }

        let cl = lookup(connection, "Content-Length")
        let te = lookup(connection, "Transfer-Encoding")
        var length: Int?
        if let cl {
            guard let n = Int(cl), n >= 0 else {
                return refuse(
                    st, connection,
                    HTTPError.badRequest("The Content-Length header is not a number."))
            }
            length = n
        }
        if te == nil && (length ?? 0) == 0 {
            // Answer on the next call: libmicrohttpd closes the connection after a response queued
            // on the first call, which would end every keep-alive connection after one request.
            st.kind = .none
            return MHD_Result.YES
        }

        let ct = lookup(connection, "Content-Type")
        st.contentType = ct
        let base = ct.map { mediaType($0) } ?? ""
        if base == "multipart/form-data" {
            st.kind = .multipart
            st.limit = config.maxUploadBytes
        } else if base == "application/x-www-form-urlencoded" {
            st.kind = .urlencoded
            st.limit = config.maxBodyBytes
        } else {
            st.kind = .buffered
            st.limit = config.maxBodyBytes
        }
        if let n = length, n > st.limit {
            return refuse(st, connection, tooLargeError(st))
        }
        if st.kind == .multipart {
            let mp = MultipartState(limit: st.limit)
            st.multipart = mp
            guard
                let pp = MHD_create_post_processor(
                    connection, 64 << 10, postIterator, Unmanaged.passUnretained(st).toOpaque())
            else {
                return refuse(
                    st, connection,
                    HTTPError.badRequest("The multipart body has no boundary in its Content-Type."))
            }
            mp.processor = pp
        } else if let n = length {
            st.buffer.reserveCapacity(n)
        }
        return MHD_Result.YES
    }

    func tooLargeError(_ st: RequestState) -> HTTPError {
        st.kind == .multipart
            ? HTTPError.tooLarge("The upload is larger than the \(formatBytes(st.limit)) allowed.")
            : HTTPError.tooLarge("The request body is larger than the \(formatBytes(st.limit)) allowed.")
    }

    @inline(__always) func lookup(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }
}

/// The size of a request's header block and whether every header name is a valid token.
struct HeaderScan {
    var bytes = 0
    var badName = false
    /// MHD found query parameters that `ServerCore.requestLine` could not take (a NUL before the "?").
    var mhdParsedQuery = false
}

let headerScanIterator: MHD_KeyValueIterator = { cls, kind, key, value in
    let scan = cls!.assumingMemoryBound(to: HeaderScan.self)
    guard let key else { return MHD_Result.YES }
    let n = strlen(key)
    let v = value.map { strlen($0) } ?? 0
    if kind == MHD_ValueKind.HEADER_KIND {
        scan.pointee.bytes += n + v + 4  // "name: value\r\n"
        if n == 0 { scan.pointee.badName = true }
        for i in 0..<n where !isTokenByte(UInt8(bitPattern: key[i])) {
            scan.pointee.badName = true
            break
        }
    } else {
        scan.pointee.mhdParsedQuery = true
    }
    return MHD_Result.YES
}

/// RFC 9110 tchar.
@inline(__always) func isTokenByte(_ c: UInt8) -> Bool {
    switch c {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
    default: return false
    }
}

func mediaType(_ ct: String) -> String {
    let base = ct.split(separator: ";", maxSplits: 1).first ?? ""
    return base.trimmingCharacters(in: .whitespaces).lowercased()
}
