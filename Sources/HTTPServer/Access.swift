import CMicroHTTPD
import Foundation

// MARK: libmicrohttpd's access handler: every call of a request, sent on to its phase

extension ServerCore {
    /// MHD calls this first with the request's head (`firstCall`), then with each piece of the body
    /// (`receive`), then once more with none (`finishBody`), which answers.
    func access(
        _ connection: OpaquePointer, _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
        _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
        _ uploadDataSize: UnsafeMutablePointer<Int>, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let p = conCls.pointee else {
            // requestLine always comes first; this keeps a request working should it not.
            let st = RequestState(start: monotonicNanos())
            st.targetBytes = strlen(url)
            conCls.pointee = Unmanaged.passRetained(st).toOpaque()
            return firstCall(st, connection, url, method, version)
        }
        let st = Unmanaged<RequestState>.fromOpaque(p).takeUnretainedValue()
        if !st.started { return firstCall(st, connection, url, method, version) }
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if st.queued { return MHD_Result.YES }
            return receive(st, uploadData!, size)
        }
        if st.queued { return MHD_Result.YES }
        return finishBody(st, connection)
    }

}

let accessHandlerCallback: MHD_AccessHandlerCallback = {
    cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
    let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    return core.access(connection!, url!, method!, version, uploadData, uploadDataSize!, conCls!)
}
