import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The running player's end of the control socket: answers `cloudmusic pause|next|status|play …`.
///
/// Listens on a Unix stream socket (mode 0600, in a folder only its owner can write) on its own
/// thread. Each connection carries one JSON `ControlCommand` line and gets one `ControlResponse`
/// line back. A request may be at most 4 KiB and must arrive within 2 seconds; malformed ones are
/// answered with `ok: false` and a message. Up to 4 clients are served at once, each on its own
/// thread, while later ones wait in the listen queue; `handler` runs as a task and has
/// `handlerTimeout` (10 seconds unless told) to answer.
public final class ControlServer: Sendable {
    /// The largest request, in bytes, not counting the newline.
    public static let requestLimit = 4096
    /// How long a client has to send its whole request.
    public static let requestTimeout: Duration = .seconds(2)
    /// How long the handler has to answer before the client is told the player is stuck.
    public static let handlerTimeout: Duration = .seconds(10)
    /// Clients served at the same time; more wait to be accepted (slow clients cannot pile up threads).
    public static let concurrentClients = 4

    /// The socket's path.
    public let path: String
    private let core: ServerCore

    /// Starts listening at `path`, creating its folder with mode 0700 if missing.
    ///
    /// A socket file left by a player that died is removed; if a player answers on it, this throws
    /// `ControlError` with code `.alreadyRunning`. Also throws when the folder belongs to another
    /// user or others can write to it, or when something other than a socket is at `path`.
    public init(
        path: String, handlerTimeout: Duration = ControlServer.handlerTimeout,
        handler: @escaping @Sendable (ControlCommand) async -> ControlResponse
    ) throws {
        self.path = path
        core = try ServerCore(path: path, handlerTimeout: handlerTimeout, handler: handler)
        let core = core
        let thread = Thread { core.acceptLoop() }
        thread.name = "cloudmusic-control"
        thread.start()
    }

    /// Stops accepting, removes the socket file and returns once the accept loop has ended.
    ///
    /// Requests already being answered still get their answer. Calling it again does nothing.
    public func stop() {
        core.stop()
    }

    deinit {
        core.stop()
    }
}

/// The listening socket and everything its threads share; separate from `ControlServer` so the
/// accept thread does not keep the server object alive (its deinit stops the loop).
private final class ServerCore: Sendable {
    let path: String
    let handler: @Sendable (ControlCommand) async -> ControlResponse
    let handlerTimeout: Duration
    let listenFD: Int32
    // A byte written here wakes the accept loop's poll at once when stop() is called.
    let wakeRead: Int32
    let wakeWrite: Int32
    // The socket file we bound, so stop() never unlinks a socket another player put there since.
    let socketDevice: UInt64
    let socketInode: UInt64
    let stopping = Atomic<Bool>(false)
    let activeClients = Atomic<Int>(0)
    let handlerExecutor = HandlerExecutor()
    let loopEnded = DispatchSemaphore(value: 0)

    init(
        path: String, handlerTimeout: Duration,
        handler: @escaping @Sendable (ControlCommand) async -> ControlResponse
    ) throws {
        self.path = path
        self.handler = handler
        self.handlerTimeout = handlerTimeout
        try Self.checkFolder(of: path)
        try Self.removeStaleSocket(at: path)

        let fd = try UnixSocket.make()
        var ready = false
        defer { if !ready { close(fd) } }
        let bound = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
        guard bound == 0 else {
            // Another player bound it between our check and now.
            if errno == EADDRINUSE { throw Self.alreadyRunning(path) }
            throw UnixSocket.ioError("Cannot create the control socket \(path)")
        }
        // Before listen() nobody can connect, so there is no window with a looser mode.
        var info = stat()
        guard chmod(path, 0o600) == 0, lstat(path, &info) == 0, listen(fd, 16) == 0 else {
            let error = SystemError()
            unlink(path)
            throw UnixSocket.ioError("Cannot set up the control socket \(path)", error)
        }
        UnixSocket.setNonBlocking(fd)

        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let error = SystemError()
            unlink(path)
            throw UnixSocket.ioError("Cannot create the control socket's wake-up pipe", error)
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        listenFD = fd
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        socketDevice = UInt64(info.st_dev)
        socketInode = UInt64(info.st_ino)
        ready = true
    }

    func stop() {
        let first = !stopping.exchange(true, ordering: .acquiringAndReleasing)
        if first {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        // Every caller waits for the loop's end; the semaphore is passed on to the next one.
        loopEnded.wait()
        loopEnded.signal()
        if first {
            close(wakeRead)
            close(wakeWrite)
        }
    }

    func acceptLoop() {
        defer {
            close(listenFD)
            var info = stat()
            if lstat(path, &info) == 0, UInt64(info.st_dev) == socketDevice,
                UInt64(info.st_ino) == socketInode
            {
                unlink(path)
            }
            loopEnded.signal()
        }
        var entries = [
            pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        // The timeout is a backstop; stop() normally wakes the poll through the pipe.
        while !stopping.load(ordering: .acquiring) {
            // At the limit, leave new clients in the listen queue and look again shortly.
            let full = activeClients.load(ordering: .acquiring) >= ControlServer.concurrentClients
            entries[0].events = full ? 0 : Int16(POLLIN)
            let ready = poll(&entries, 2, full ? 20 : 500)
            if ready < 0 {
                if errno != EINTR { usleep(50_000) }
                continue
            }
            if entries[1].revents != 0 { break }
            guard !full, entries[0].revents != 0 else { continue }
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else {
                // EMFILE and the like: back off instead of spinning on a socket that stays readable.
                if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { usleep(50_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            UnixSocket.setNonBlocking(client)
            guard Self.peerIsUs(client) else {
                close(client)
                continue
            }
            // Only this thread adds, so the count never passes the limit.
            activeClients.add(1, ordering: .acquiringAndReleasing)
            let thread = Thread { [self] in
                serve(client)
                close(client)
                activeClients.subtract(1, ordering: .acquiringAndReleasing)
            }
            thread.name = "cloudmusic-control-client"
            thread.start()
        }
    }

    /// Reads one request from `client` and writes one response (or nothing if it sent nothing).
    private func serve(_ client: Int32) {
        let deadline = ContinuousClock.now + ControlServer.requestTimeout
        let response: ControlResponse
        var tooLarge = false
        switch UnixSocket.readLine(client, limit: ControlServer.requestLimit, until: deadline) {
        case .line(let bytes):
            response = answer(bytes)
        case .endOfFile(let bytes):
            // A connection that sends nothing is a probe (another player checking we are alive).
            guard !bytes.isEmpty else { return }
            response = answer(bytes)
        case .tooLarge:
            tooLarge = true
            response = ControlResponse(
                ok: false,
                message:
                    "The request is larger than 4 KiB; send one JSON line such as {\"command\":\"play\",\"query\":\"晴天\"}."
            )
        case .timedOut:
            response = ControlResponse(
                ok: false,
                message:
                    "No complete request arrived within 2 seconds; send one JSON line ending in a newline.")
        case .failed:
            return
        }
        _ = UnixSocket.sendAll(client, Self.line(response), until: .now + .seconds(2))
        if tooLarge {
            // Read what is left (bounded) before closing: closing with unread data resets the
            // connection, and the client could lose our answer.
            shutdown(client, Int32(SHUT_WR))
            var drained = 0
            while drained < 1 << 20,
                case .tooLarge = UnixSocket.readLine(client, limit: 65_536, until: deadline + .seconds(1))
            {
                drained += 65_536
            }
        }
    }

    /// The handler's response to the request in `bytes`, or why the request is not one.
    private func answer(_ bytes: [UInt8]) -> ControlResponse {
        let command: ControlCommand
        do {
            command = try ControlCommand.decode(line: bytes)
        } catch {
            return ControlResponse(ok: false, message: error.message)
        }
        // The handler is async and this is a plain thread: run it as a task and wait, bounded. The task runs on
        // the socket's own queue, not the cooperative pool: a process whose pool is busy (a player decoding, a test
        // run sharing two threads with hundreds of tests) must not leave the client waiting for a turn there.
        let result = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        let handler = handler
        Task(executorPreference: handlerExecutor) {
            let response = await handler(command)
            result.value.withLock { $0 = response }
            done.signal()
        }
        let seconds = handlerTimeout.components.seconds
        guard done.wait(timeout: .now() + .seconds(Int(seconds))) == .success,
            let response = result.value.withLock({ $0 })
        else {
            return ControlResponse(ok: false, message: "The player did not answer within \(seconds) seconds.")
        }
        return response
    }

    private static func line(_ response: ControlResponse) -> [UInt8] {
        // Encoding these plain values cannot fail; the fallback keeps the client from hanging anyway.
        let json =
            (try? JSONEncoder().encode(response))
            ?? Data(#"{"ok":false,"message":"The player could not encode its answer."}"#.utf8)
        return [UInt8](json) + [UInt8(ascii: "\n")]
    }

    /// Whether the connecting process runs as our user (the 0600 mode already says so; root aside).
    private static func peerIsUs(_ fd: Int32) -> Bool {
        // struct ucred is pid, uid, gid; Glibc's Swift module does not export the struct.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return false }
        return credentials.1 == getuid()
    }

    /// Creates the socket's folder (0700) if missing; refuses one another user owns or can write.
    private static func checkFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try makePrivateDirectory(folder.isEmpty ? "." : folder)
        } catch {
            throw UnixSocket.ioError("Cannot create the folder \(folder) for the control socket", error)
        }
        var info = stat()
        guard stat(folder.isEmpty ? "." : folder, &info) == 0 else {
            throw UnixSocket.ioError("Cannot check the folder \(folder) for the control socket")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ControlError(
                code: .unsafePath,
                message: "\(folder) is not a folder, so the control socket cannot go in it.")
        }
        guard info.st_uid == getuid() else {
            throw ControlError(
                code: .unsafePath,
                message:
                    "The folder \(folder) for the control socket belongs to another user (uid \(info.st_uid)); remove it or set XDG_RUNTIME_DIR."
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            throw ControlError(
                code: .unsafePath,
                message:
                    "Other users can write to the folder \(folder), so they could replace the control socket; run `chmod 700 \(folder)`."
            )
        }
    }

    /// Removes a socket file nobody answers on; throws when a player answers or it is no socket.
    private static func removeStaleSocket(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlError(
                code: .notASocket,
                message:
                    "\(path) exists and is not a socket; move it away so the control socket can be created there."
            )
        }
        let fd = try UnixSocket.make()
        defer { close(fd) }
        // Non-blocking: a live player with a full backlog answers EAGAIN instead of making us wait.
        UnixSocket.setNonBlocking(fd)
        let connected = try UnixSocket.withAddress(path) { connect(fd, $0, $1) }
        if connected == 0 || errno == EAGAIN || errno == EINPROGRESS { throw alreadyRunning(path) }
        switch errno {
        case ECONNREFUSED:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw UnixSocket.ioError("Cannot remove the old control socket \(path)")
            }
        case ENOENT:
            return
        default:
            throw UnixSocket.ioError("Cannot check the old control socket \(path)")
        }
    }

    private static func alreadyRunning(_ path: String) -> ControlError {
        ControlError(
            code: .alreadyRunning,
            message:
                "Another cloudmusic player is already running (it answers on \(path)). Control it with `cloudmusic pause`, `cloudmusic status` and the like, or quit it first."
        )
    }
}

/// Runs the handler's tasks on a Dispatch queue of the control socket's own (actors without an executor of their
/// own that a handler calls run there too); Dispatch adds a thread when one handler blocks.
private final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is the only state, and Dispatch queues are thread-safe.
    private let queue = DispatchQueue(label: "cloudmusic-control-handler", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// Carries the handler's answer from its task back to the waiting client thread.
private final class ResponseBox: Sendable {
    let value = Mutex<ControlResponse?>(nil)
}
