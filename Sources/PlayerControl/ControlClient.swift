import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The command-line end of the control socket: `cloudmusic pause` sends one command and prints the answer.
public enum ControlClient {
    /// The largest answer accepted from a player.
    static let responseLimit = 1 << 20

    /// Sends `command` to the player listening at `path` and returns its answer.
    ///
    /// Blocks for up to `timeout` seconds, so call it from a plain thread, not from a task. Throws
    /// `ControlError`: `.notRunning` when no socket is there or nobody listens on it, `.timedOut`,
    /// `.badResponse`, `.unsafePath` for a socket another user owns, `.io` for the rest.
    public static func send(_ command: ControlCommand, path: String, timeout: Double = 5) throws
        -> ControlResponse
    {
        let request: Data
        do {
            request = try JSONEncoder().encode(command)
        } catch {
            throw ControlError(
                code: .badRequest, message: "Cannot encode the command \(command.name): \(error).")
        }
        let reply = try exchange([UInt8](request) + [UInt8(ascii: "\n")], path: path, timeout: timeout)
        do {
            return try JSONDecoder().decode(ControlResponse.self, from: Data(reply))
        } catch {
            throw ControlError(
                code: .badResponse,
                message:
                    "Whatever listens on \(path) answered with something that is not a cloudmusic response.")
        }
    }

    /// Sends `request` as is and returns the first line of the answer (without its newline).
    static func exchange(_ request: [UInt8], path: String, timeout: Double) throws(ControlError) -> [UInt8] {
        let deadline = ContinuousClock.now + .milliseconds(Int(max(0, timeout) * 1000))
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .notRunning(path) }
            throw UnixSocket.ioError("Cannot check the control socket \(path)")
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlError(
                code: .notASocket,
                message: "\(path) is not a socket, so no cloudmusic player can be reached there.")
        }
        // Someone else's socket at our path could feed us made-up answers.
        guard info.st_uid == getuid() else {
            throw ControlError(
                code: .unsafePath,
                message:
                    "The control socket \(path) belongs to another user (uid \(info.st_uid)); not talking to it."
            )
        }

        let fd = try UnixSocket.make()
        defer { close(fd) }
        UnixSocket.setNonBlocking(fd)
        while true {
            let connected = try UnixSocket.withAddress(path) { connect(fd, $0, $1) }
            if connected == 0 { break }
            switch errno {
            case EINTR:
                continue
            case EAGAIN:
                // The player's backlog is full: it is alive but busy; retry until the deadline.
                guard UnixSocket.pollTimeout(until: deadline) != nil else {
                    throw ControlError(
                        code: .timedOut, message: "The player at \(path) is too busy to take the command.")
                }
                usleep(10_000)
            case ECONNREFUSED, ENOENT:
                throw .notRunning(path)
            default:
                throw UnixSocket.ioError("Cannot connect to the control socket \(path)")
            }
        }
        let sendError = UnixSocket.sendAll(fd, request, until: deadline)
        if let sendError {
            if sendError.code == ETIMEDOUT { throw timedOut(path, timeout) }
            // A busy player, or one refusing an oversized request, answers and closes without
            // reading everything: its answer is still waiting to be read.
            guard sendError.code == EPIPE || sendError.code == ECONNRESET else {
                throw UnixSocket.ioError("Cannot send the command to the player at \(path)", sendError)
            }
        }
        switch UnixSocket.readLine(fd, limit: responseLimit, until: deadline) {
        case .line(let bytes):
            return bytes
        case .endOfFile(let bytes):
            guard !bytes.isEmpty else {
                if let sendError {
                    throw UnixSocket.ioError("Cannot send the command to the player at \(path)", sendError)
                }
                throw ControlError(
                    code: .badResponse,
                    message: "The player at \(path) closed the connection without answering.")
            }
            return bytes
        case .tooLarge:
            throw ControlError(
                code: .badResponse, message: "The player at \(path) sent an answer over 1 MiB.")
        case .timedOut:
            throw timedOut(path, timeout)
        case .failed(let error):
            throw UnixSocket.ioError("Cannot read the player's answer from \(path)", error)
        }
    }

    private static func timedOut(_ path: String, _ timeout: Double) -> ControlError {
        ControlError(
            code: .timedOut,
            message:
                "The player at \(path) did not answer within \(timeout.formatted()) seconds; it may be stuck."
        )
    }
}
