import CMicroHTTPD
import Foundation

// MARK: libmicrohttpd's completion callback: a request's end, its metrics and its access-log line

extension ServerCore {
    func completed(
        _ connection: OpaquePointer?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        _ toe: MHD_RequestTerminationCode
    ) {
        if let connection, let e = entry(connection) {
            e.waitingSince.store(monotonicNanos() | 1, ordering: .relaxed)
        }
        guard let conCls, let p = conCls.pointee else { return }
        conCls.pointee = nil
        let st = Unmanaged<RequestState>.fromOpaque(p).takeRetainedValue()
        st.multipart?.cleanup()
        var bytes = st.bytes
        if let w = st.writer {
            bytes = w.bytesSent
            w.close()
        }
        // MHD let go of a push stream's connection on purpose: not an aborted request.
        let pushed = st.pushed != nil
        if let stream = st.pushed { bytes = stream.bytesSent }
        if st.started { inFlight.subtract(1, ordering: .relaxed) }
        guard st.status != 0 else { return }
        let seconds = Double(monotonicNanos() - st.start) / 1e9
        let route = st.route.isEmpty ? "unmatched" : st.route
        metrics.record(
            method: st.unknownMethod == nil ? st.method.rawValue : "OTHER", route: route, status: st.status,
            seconds: seconds, bytes: bytes)
        if logAccess {
            let ok = pushed || toe == MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK
            logger.info(
                "method=\(st.unknownMethod.map(logSafe) ?? st.method.rawValue) route=\(route) path=\(logSafe(st.rawPath)) status=\(st.status) bytes=\(bytes) us=\(Int(seconds * 1e6)) addr=\(st.address)\(ok ? "" : " aborted=1")"
            )
        }
    }
}

let requestCompletedCallback: MHD_RequestCompletedCallback = { cls, connection, conCls, toe in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    core.completed(connection, conCls, toe)
}
