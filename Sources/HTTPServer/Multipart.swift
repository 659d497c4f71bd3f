import CMicroHTTPD
import Foundation

/// Streams multipart parts: fields into memory, files into temporary files (libmicrohttpd's post processor
/// parses the parts; this keeps them). Like `RequestState`, used by one connection's thread at a time.
final class MultipartState {
    var processor: OpaquePointer?
    var fields: [String: [UInt8]] = [:]
    var fieldOrder: [String] = []
    var files: [UploadedFile] = []
    var tempPaths: [String] = []
    var total = 0
    let limit: Int
    var failure: HTTPError?

    // The part being written.
    var currentKey: String?
    var currentFileName: String?
    var currentContentType: String?
    var currentFD: Int32 = -1
    var currentPath = ""
    var currentSize = 0

    init(limit: Int) { self.limit = limit }

    func part(
        key: UnsafePointer<CChar>?, filename: UnsafePointer<CChar>?, contentType: UnsafePointer<CChar>?,
        data: UnsafePointer<CChar>?, offset: UInt64, size: Int
    ) -> Bool {
        total += size
        if total > limit {
            failure = HTTPError.tooLarge("The upload is larger than the \(formatBytes(limit)) allowed.")
            return false
        }
        let k = key.map { String(cString: $0) } ?? ""
        if let filename {
            let name = String(cString: filename)
            if offset == 0 || currentFD < 0 || currentKey != k || currentFileName != name {
                finishFile()
                let dir =
                    ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
                var template = Array("\(dir)/cloudmusic-upload-XXXXXX".utf8CString)
                let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard fd >= 0 else {
                    failure = HTTPError(
                        status: 500,
                        message: "The server could not store the upload. Please tell the administrator.")
                    return false
                }
                currentFD = fd
                currentPath = String(cString: template)
                tempPaths.append(currentPath)
                currentKey = k
                currentFileName = name
                currentContentType = contentType.map { String(cString: $0) }
                currentSize = 0
            }
            if size > 0, let data {
                var off = 0
                while off < size {
                    let n = Foundation.write(currentFD, data + off, size - off)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = HTTPError(
                            status: 500,
                            message: "The server could not store the upload. Please tell the administrator.")
                        return false
                    }
                    off += n
                }
                currentSize += size
            }
        } else {
            finishFile()
            if fields[k] == nil { fieldOrder.append(k) }
            if offset == 0 { fields[k] = [] }
            if size > 0, let data {
                data.withMemoryRebound(to: UInt8.self, capacity: size) {
                    fields[k, default: []].append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                }
            }
        }
        return true
    }

    func finishFile() {
        guard currentFD >= 0 else { return }
        Foundation.close(currentFD)
        currentFD = -1
        files.append(
            UploadedFile(
                fieldName: currentKey ?? "", fileName: currentFileName, contentType: currentContentType,
                path: currentPath, size: currentSize))
    }

    func form() -> MultipartForm {
        finishFile()
        var f: [String: String] = [:]
        for (k, v) in fields { f[k] = String(decoding: v, as: UTF8.self) }
        return MultipartForm(fields: f, files: files)
    }

    /// Closes and deletes everything; safe to call twice.
    func cleanup() {
        if let p = processor {
            MHD_destroy_post_processor(p)
            processor = nil
        }
        if currentFD >= 0 {
            Foundation.close(currentFD)
            currentFD = -1
        }
        for p in tempPaths { unlink(p) }
        tempPaths.removeAll()
    }
}

/// libmicrohttpd's post processor hands each piece of a part here; `cls` is the request's `RequestState`.
let postIterator: MHD_PostDataIterator = { cls, _, key, filename, contentType, _, data, off, size in
    let st = Unmanaged<RequestState>.fromOpaque(cls!).takeUnretainedValue()
    return st.multipart!.part(
        key: key, filename: filename, contentType: contentType, data: data, offset: off, size: size)
        ? MHD_Result.YES : MHD_Result.NO
}
