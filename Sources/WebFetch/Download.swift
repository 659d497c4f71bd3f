import Foundation

/// A file being downloaded: written under a temporary name beside its final one, then synced and renamed
/// into place, so that a crash leaves either the whole file or none (and a stray temporary to sweep).
final class Download {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let folder: String
    private let path: String
    private let temporaryPath: String
    private var descriptor: Int32

    /// Temporaries start with this, so a sweep can find what a crash left behind.
    static let temporaryPrefix = ".partial-"

    init(folder: URL, name: String) throws {
        self.folder = folder.path
        path = folder.appendingPathComponent(name).path
        let random = (0..<8).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        temporaryPath = folder.appendingPathComponent("\(Self.temporaryPrefix)\(random)-\(name)").path
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: Self.systemError("create", in: self.folder)) }
    }

    /// A name of one path component, not a way out of the folder.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
            && !name.hasPrefix(temporaryPrefix) && name.utf8.count <= 200
    }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: Self.systemError("write", in: folder))
                }
                offset += written
            }
        }
    }

    func commit() throws {
        guard fsync(descriptor) == 0 else {
            throw Failure(description: Self.systemError("write", in: folder))
        }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else {
            throw Failure(description: Self.systemError("rename", in: folder))
        }
        // The rename itself is durable once the folder is synced.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(temporaryPath)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    private static func systemError(_ action: String, in folder: String) -> String {
        "could not \(action) a file in \(folder) (\(String(cString: strerror(errno))))"
    }
}
