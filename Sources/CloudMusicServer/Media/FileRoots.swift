import Foundation
import Logging
import MusicCore

/// Opens the files the database names (songs, lyrics, covers, uploads, avatars) only inside the folders
/// they belong to: the music folders and the data folder.
///
/// A path stored at scan time can later be swapped for a symbolic link to anywhere (`/etc/passwd`). So the
/// last component is opened with `O_NOFOLLOW`, and the real path of what was opened (read back from
/// `/proc/self/fd`, which also resolves links in the folders above it) must lie inside a root; anything else
/// is "not found" and a log line says why. What was checked is what is sent: the descriptor itself goes out.
struct FileRoots: Sendable {
    /// Real paths of the roots, each ending in "/".
    let roots: [String]
    let logger: Logger

    init(_ folders: [String], logger: Logger) {
        roots = folders.map { folder in
            let real = Self.realPath(folder) ?? folder
            return real.hasSuffix("/") ? real : real + "/"
        }
        self.logger = logger
    }

    static let missing = ServiceError.notFound("That file does not exist.")

    /// The file at `path`, opened for reading, when it is a regular file inside a root.
    func open(_ path: String) throws -> OpenedFile {
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ELOOP { logger.warning("event=refused_file reason=symlink path=\(quoted(path))") }
            throw Self.missing
        }
        let file = OpenedFile(fd)
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw Self.missing }
        guard let real = Self.path(ofDescriptor: fd), contains(real) else {
            logger.warning("event=refused_file reason=outside_roots path=\(quoted(path))")
            throw Self.missing
        }
        return file
    }

    /// Up to `limit` bytes of the file at `path`, read under the same rules as `open`; nil when refused.
    func read(_ path: String, limit: Int) -> Data? {
        guard let file = try? open(path) else { return nil }
        let handle = FileHandle(fileDescriptor: file.take(), closeOnDealloc: true)
        return try? handle.read(upToCount: limit)
    }

    /// The real path of `path` when it is a regular file inside a root, for a helper program (ffmpeg) that
    /// opens the file itself; nil otherwise.
    func checkedPath(_ path: String) -> String? {
        guard let file = try? open(path) else { return nil }
        return Self.path(ofDescriptor: file.descriptor)
    }

    func contains(_ realPath: String) -> Bool {
        roots.contains { realPath.hasPrefix($0) }
    }

    static func path(ofDescriptor fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\n", with: "%0A")
            + "\""
    }
}

/// An open file; closed when dropped unless its descriptor was taken.
final class OpenedFile: @unchecked Sendable {
    private(set) var descriptor: Int32

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// The descriptor, for whoever closes it from now on.
    func take() -> Int32 {
        let fd = descriptor
        descriptor = -1
        return fd
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}
