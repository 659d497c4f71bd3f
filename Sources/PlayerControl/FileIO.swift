import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call: its errno and the system's words for it.
struct SystemError: Error {
    var code: Int32
    var text: String { String(cString: strerror(code)) }

    init(_ code: Int32 = errno) { self.code = code }
}

/// Why reading a whole file stopped.
enum ReadProblem: Error {
    case system(SystemError)
    case tooLarge
}

/// Reads `fd` to its end; over `limit` bytes is `.tooLarge` (a config or session file that big is a mistake).
func readAll(fd: Int32, limit: Int) throws(ReadProblem) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw .system(SystemError())
        }
        if count == 0 { return bytes }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > limit { throw .tooLarge }
    }
}

/// Writes all of `bytes` to `fd`, retrying short writes and interrupted calls.
func writeAll(fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count < 0 {
            if errno == EINTR { continue }
            throw SystemError()
        }
        offset += count
    }
}

/// Creates `path` and any missing parents with mode 0700; directories that exist are left as they are.
func makePrivateDirectory(_ path: String) throws(SystemError) {
    if mkdir(path, 0o700) == 0 { return }
    switch errno {
    case EEXIST:
        return
    case ENOENT:
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty, parent != path else { throw SystemError(ENOENT) }
        try makePrivateDirectory(parent)
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw SystemError() }
    default:
        throw SystemError()
    }
}
