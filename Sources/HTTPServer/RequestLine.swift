import CMicroHTTPD
import Foundation

// MARK: libmicrohttpd's URI log callback: the request line, before MHD parses it

extension ServerCore {
    /// MHD has read a request line: starts the request's state (MHD hands it to every later callback) and
    /// takes the query string away from MHD.
    ///
    /// libmicrohttpd 0.9.75 keeps each query parameter as a 64-byte record in the connection's memory pool
    /// (`memory_limit`), and when the pool runs out while it parses the query, it drops the failure
    /// (`parse_initial_message_line` ignores what `MHD_parse_arguments_` returns): the 431 it had queued is
    /// overwritten by the next state, and the connection waits for nothing until the header deadline. Here,
    /// where MHD calls before it parses the query (its "URI log" callback), the query is copied and cut off
    /// at its first byte, so MHD stores no parameter and `dispatch` parses the copy. (A raw NUL before the
    /// "?" hides the query from this scan; such a request is refused in `firstCall`, if MHD gets that far.)
    func requestLine(_ uri: UnsafePointer<CChar>) -> UnsafeMutableRawPointer {
        let st = RequestState(start: monotonicNanos())
        let length = strlen(uri)
        st.targetBytes = length
        if let mark = memchr(uri, 0x3F, length) {
            let offset = UnsafeRawPointer(uri).distance(to: UnsafeRawPointer(mark)) + 1
            let query = UnsafeMutableRawPointer(mutating: uri) + offset
            let bytes = UnsafeRawBufferPointer(start: query, count: length - offset)
            let count = countQueryParameters(bytes)
            if length > config.maxHeaderBytes {
                st.targetError = addressTooLong()
            } else {
                if count > config.maxQueryParameters {
                    let most = config.maxQueryParameters
                    st.targetError = HTTPError(
                        status: 414,
                        message: "The address has \(count) query parameters; at most \(most) are allowed.")
                }
                // A refused query is kept for the error's renderer (an API may read its answer's format there).
                st.query = String(decoding: bytes, as: UTF8.self)
            }
            query.storeBytes(of: 0, as: UInt8.self)
        } else if length > config.maxHeaderBytes {
            st.targetError = addressTooLong()
        }
        return Unmanaged.passRetained(st).toOpaque()
    }

    func addressTooLong() -> HTTPError {
        let limit = formatBytes(config.maxHeaderBytes)
        return HTTPError(status: 414, message: "The address is longer than the \(limit) allowed.")
    }
}

let requestLineCallback: cm_uri_log_callback = { cls, uri, _ in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    return core.requestLine(uri!)
}

/// Leaves the URL alone so the path can be decoded strictly (bad escapes answer 400).
let identityUnescapeCallback: cm_unescape_callback = { _, _, s in
    strlen(s!)
}

/// The parameters in a raw query string: its non-empty pieces between "&"s.
func countQueryParameters(_ query: UnsafeRawBufferPointer) -> Int {
    var count = 0
    var pieceLength = 0
    for b in query {
        if b == 0x26 {
            if pieceLength > 0 { count += 1 }
            pieceLength = 0
        } else {
            pieceLength += 1
        }
    }
    return pieceLength > 0 ? count + 1 : count
}
