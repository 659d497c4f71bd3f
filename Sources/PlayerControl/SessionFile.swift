import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A remembered login: enough to call the server again without asking for the password.
///
/// There is deliberately no password field: only the session token is kept, and logging out
/// on the server ends it.
public struct SavedSession: Codable, Sendable, Equatable {
    /// The server URL the token belongs to.
    public var server: String
    public var userId: String
    /// The session token sent in the `Authorization` header.
    public var token: String
    public var nickname: String

    public init(server: String, userId: String, token: String, nickname: String) {
        self.server = server
        self.userId = userId
        self.token = token
        self.nickname = nickname
    }
}

/// Why the session file could not be read, written or removed, with what to do about it.
public struct SessionFileError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of problem it is.
    public enum Code: String, Sendable {
        /// Other users can read or write the file; the message says to `chmod 600` it.
        case unsafePermissions
        /// The file belongs to another user.
        case notOwner
        /// The path is a symbolic link or not a regular file.
        case notAFile
        /// The file is not a session this program wrote.
        case corrupt
        /// A system call failed (the message says which and why).
        case io
    }

    public var code: Code
    public var path: String
    /// A sentence a person can act on.
    public var message: String

    public init(code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { message }
}

/// The remembered login, a JSON file only its owner can read.
///
/// Writes are atomic (a 0600 temporary file in the same folder, fsync, rename), so a crash leaves
/// the old session or the new one, never half of one. Reads refuse a file that other users can
/// read or that belongs to someone else, so a token that may have leaked is not used silently.
public struct SessionFile: Sendable {
    /// The session file's path.
    public let path: String

    /// The file at `url`, or at `PlayerPaths.sessionFile(environment:)` when `url` is nil.
    public init(url: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        path = (url ?? PlayerPaths.sessionFile(environment: environment)).path
    }

    /// The saved session for `server`, or nil when there is none or it belongs to another server.
    ///
    /// Throws `SessionFileError` when the file is unsafe (mode, owner, symlink) or unreadable.
    public func read(server: URL) throws -> SavedSession? {
        // O_NOFOLLOW and fstat on the opened file: the checks apply to what is actually read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 {
            let failure = SystemError()
            switch failure.code {
            case ENOENT: return nil
            case ELOOP:
                throw problem(
                    .notAFile,
                    "\(path) is a symbolic link; the session file must be a plain file. Delete it and log in again."
                )
            default:
                throw problem(.io, "Cannot open the session file \(path): \(failure.text).")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw problem(.io, "Cannot check the session file \(path): \(SystemError().text).")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw problem(.notAFile, "\(path) is not a plain file. Delete it and log in again.")
        }
        guard info.st_uid == getuid() else {
            throw problem(
                .notOwner,
                "The session file \(path) belongs to another user (uid \(info.st_uid)), so its token is not used. Delete it and log in again."
            )
        }
        guard info.st_mode & 0o077 == 0 else {
            throw problem(
                .unsafePermissions,
                "The session file \(path) can be read by other users, so its token is not used. Run `chmod 600 \(path)` and, if others may have read it, log out everywhere and log in again."
            )
        }
        let bytes: [UInt8]
        do {
            bytes = try readAll(fd: fd, limit: 64 * 1024)
        } catch .tooLarge {
            throw problem(
                .corrupt, "The session file \(path) is too large to be a session. Delete it and log in again."
            )
        } catch .system(let error) {
            throw problem(.io, "Cannot read the session file \(path): \(error.text).")
        }
        let session: SavedSession
        do {
            session = try JSONDecoder().decode(SavedSession.self, from: Data(bytes))
        } catch {
            throw problem(.corrupt, "The session file \(path) is damaged. Delete it and log in again.")
        }
        return Self.sameServer(session.server, server.absoluteString) ? session : nil
    }

    /// Saves `session`, replacing any saved one; creates the folder with mode 0700 when missing.
    public func write(_ session: SavedSession) throws {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try makePrivateDirectory(directory)
        } catch {
            throw problem(.io, "Cannot create the folder \(directory) for the session file: \(error.text).")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = [UInt8](try encoder.encode(session)) + [UInt8(ascii: "\n")]

        // O_EXCL: a name that exists (even as a planted symlink) is never written through.
        let temporary = "\(directory)/.session.json.\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw problem(
                .io, "Cannot create a file in \(directory) to save the session: \(SystemError().text).")
        }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            // The umask can only remove bits from 0600, but be exact about what is written.
            guard fchmod(fd, 0o600) == 0 else { throw SystemError() }
            try writeAll(fd: fd, bytes)
            guard fsync(fd) == 0 else { throw SystemError() }
        } catch let error as SystemError {
            throw problem(.io, "Cannot write the session file in \(directory): \(error.text).")
        }
        guard rename(temporary, path) == 0 else {
            throw problem(.io, "Cannot replace the session file \(path): \(SystemError().text).")
        }
        renamed = true
        // The rename is durable only once the folder itself is synced.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Forgets the saved session (log out); no file is fine.
    public func clear() throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw problem(.io, "Cannot remove the session file \(path): \(SystemError().text).")
        }
    }

    private func problem(_ code: SessionFileError.Code, _ message: String) -> SessionFileError {
        SessionFileError(code: code, path: path, message: message)
    }

    /// Whether two server URLs name the same server: scheme and host ignore case, the default
    /// port may be left out, and a trailing slash does not matter.
    static func sameServer(_ first: String, _ second: String) -> Bool {
        guard let a = normalized(first), let b = normalized(second) else { return false }
        return a == b
    }

    private static func normalized(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://\(host):\(port)\(path)"
    }
}
