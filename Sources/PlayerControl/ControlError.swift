/// Why the control socket could not be served, reached or understood, with what to do about it.
public struct ControlError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of problem it is.
    public enum Code: String, Sendable {
        /// No player listens on the socket (the client's "start one with `cloudmusic`").
        case notRunning
        /// Another player already answers on the socket (thrown by `ControlServer.init`).
        case alreadyRunning
        /// The socket's folder or file belongs to another user or others can write to the folder.
        case unsafePath
        /// Something that is not a socket sits at the socket's path.
        case notASocket
        /// The path is longer than a Unix socket address can hold (107 bytes).
        case pathTooLong
        /// A request that is not one JSON command line (the server answers these with ok:false).
        case badRequest
        /// The player's answer was not a control response.
        case badResponse
        /// The player did not answer in time.
        case timedOut
        /// A system call failed; the message says which and why.
        case io
    }

    public var code: Code
    /// A sentence a person can act on.
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func notRunning(_ path: String) -> ControlError {
        ControlError(
            code: .notRunning,
            message:
                "No cloudmusic player is running (no control socket at \(path)). Start one with `cloudmusic`."
        )
    }
}
