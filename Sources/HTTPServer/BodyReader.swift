import CMicroHTTPD
import Foundation

// MARK: The request's body: read within its limit, then parsed by its kind and handed to dispatch

/// How far past its limit a body is read and dropped so that the client can be told 413.
let bodyDiscardAllowance = 64 << 20

extension ServerCore {
    func receive(_ st: RequestState, _ data: UnsafePointer<CChar>, _ size: Int) -> MHD_Result {
        if st.rejected != nil {
            // MHD can only answer once the whole body is in, so the rest of an over-long body (a chunked one,
            // whose length was not known up front) is read and dropped, and the 413 follows. Past a point the
            // connection is dropped instead.
            st.received += size
            return st.received > st.limit + bodyDiscardAllowance ? MHD_Result.NO : MHD_Result.YES
        }
        st.received += size
        if st.received > st.limit {
            st.rejected = tooLargeError(st)
            st.buffer = Data()
            return MHD_Result.YES
        }
        if st.kind == .multipart {
            guard let mp = st.multipart, let pp = mp.processor else { return MHD_Result.NO }
            if MHD_post_process(pp, data, size) == MHD_Result.NO {
                st.rejected = mp.failure ?? HTTPError.badRequest("The multipart body could not be read.")
            }
        } else {
            data.withMemoryRebound(to: UInt8.self, capacity: size) { st.buffer.append($0, count: size) }
        }
        return MHD_Result.YES
    }

    func finishBody(_ st: RequestState, _ connection: OpaquePointer) -> MHD_Result {
        if let e = st.rejected { return refuse(st, connection, e) }
        switch st.kind {
        case .none:
            return dispatch(st, connection, .empty)
        case .buffered:
            if st.buffer.isEmpty { return dispatch(st, connection, .empty) }
            return dispatch(st, connection, .data(st.buffer, contentType: st.contentType))
        case .urlencoded:
            let s = String(decoding: st.buffer, as: UTF8.self)
            guard let items = parseURLEncoded(s[...]) else {
                return refuse(
                    st, connection, HTTPError.badRequest("The form has a malformed %-escape."))
            }
            return dispatch(st, connection, .form(FormFields(items)))
        case .multipart:
            guard let mp = st.multipart else { return dispatch(st, connection, .empty) }
            if let pp = mp.processor {
                mp.processor = nil
                let complete = MHD_destroy_post_processor(pp)
                if complete == MHD_Result.NO && mp.failure == nil {
                    mp.cleanup()
                    return refuse(
                        st, connection,
                        HTTPError.badRequest("The multipart body ended before its closing boundary."))
                }
            }
            if let f = mp.failure { return refuse(st, connection, f) }
            return dispatch(st, connection, .multipart(mp.form()))
        }
    }
}
