import Foundation
import Synchronization

/// Polls `condition` until it holds, for up to `seconds`: a bound for a hung test only, since between two looks
/// the test may wait seconds for a turn on the cooperative pool that every other test shares.
public func eventually(within seconds: Double = 60, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}

/// A child process started with posix_spawn, for the tests: it inherits none of the test runner's descriptors
/// and blocked signals, and its end is seen by waitpid on a thread of its own.
///
/// Not Foundation's Process, which makes a process hang on a loaded machine: Process learns of an exit when a
/// socket it gives the child reaches end-of-file, and on Linux it closes the runner's other descriptors in the
/// child only as they were a moment before the spawn. A test starting a server while another starts ffmpeg
/// could hand ffmpeg's socket to the server; ffmpeg's end then went unseen until that server stopped, and a
/// test waiting for ffmpeg (or for a pipe's end-of-file) waited that long, or forever when the server's own
/// test was stuck behind it (seen: three waitUntilExit calls spinning for twenty minutes). Process's
/// waitUntilExit also spins a core when called on another thread than the one that started the child.
public final class ChildProcess: Sendable {
    /// Where a standard stream of the child goes.
    public enum Stream: Sendable {
        /// /dev/null.
        case null
        /// A pipe whose other end this process reads (or, for standard input, writes).
        case pipe
        /// A file, created or truncated.
        case file(String)
    }

    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, or -1 when a signal ended it.
        public var status: Int32 {
            if case .exited(let status) = self { status } else { -1 }
        }

        public var description: String {
            switch self {
            case .exited(let status): "exited with \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    public let pid: pid_t
    /// Our ends of the `.pipe` streams (closed on exec, so no other child inherits them).
    public let standardInput: FileHandle?
    public let standardOutput: FileHandle?
    public let standardError: FileHandle?
    private let ended = DispatchGroup()
    /// Set once, by the thread that reaps the child.
    private let termination = Locked<Termination?>(nil)

    /// A child killed by a test (ShopCrashTests' kill -9) leaves pipes and sockets that a write raises SIGPIPE on,
    /// which would end the whole test process: ignored, once, before the first child starts (writes then fail
    /// with EPIPE, which the tests see as errors).
    private static let brokenPipesIgnored: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    /// Starts `executable` with `arguments`, in `environment` (ours when nil).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: Stream = .null, output: Stream = .null, error: Stream = .null
    ) throws {
        _ = Self.brokenPipesIgnored
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends of our pipes, closed here once it has them.
        var childEnds: [Int32] = []
        var ourEnds: [Int32: Int32] = [:]
        defer { for fd in childEnds { close(fd) } }
        for (target, stream) in [(Int32(0), input), (1, output), (2, error)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(
                    &actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(
                    &actions, target, path, target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard Self.pipe2(&ends, O_CLOEXEC) == 0 else {
                    for fd in ourEnds.values { close(fd) }
                    throw FixtureError(message: "pipe2 failed: \(String(cString: strerror(errno)))")
                }
                let (child, ours) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(child)
                ourEnds[target] = ours
                // dup2 clears close-on-exec on the copy the child keeps.
                posix_spawn_file_actions_adddup2(&actions, child, target)
            }
        }
        // Last: everything else the runner has open stays out of the child, whatever other threads opened.
        _ = Self.addCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The runner's threads block signals such as SIGTERM; the child starts with none blocked, as from a
        // shell, in a process group of its own (as Foundation's Process does).
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map {
            strdup("\($0.key)=\($0.value)")
        }
        let envp = variables + [nil]
        defer { for variable in variables { free(variable) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            for fd in ourEnds.values { close(fd) }
            throw FixtureError(
                message: "could not start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        standardInput = ourEnds[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardOutput = ourEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardError = ourEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        ended.enter()
        let thread = Thread { [ended, termination, pid] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // As the W* macros read it: the low 7 bits are the signal, 0 for a normal exit.
            let signal = status & 0x7f
            termination.withLock { $0 = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal) }
            ended.leave()
        }
        thread.name = "child \(pid) reaper"
        thread.start()
    }

    deinit {
        // A child nobody stopped (a test that threw) is not left running.
        signal(SIGKILL)
    }

    public var isRunning: Bool { termination.withLock { $0 == nil } }

    /// Sends `signal` unless the child has ended (its pid may then belong to another process).
    public func signal(_ signal: Int32) {
        termination.withLock { if $0 == nil { _ = kill(pid, signal) } }
    }

    /// How the child ended, once it has; blocks, so call it off the cooperative pool.
    public func waitForExit() -> Termination {
        ended.wait()
        return termination.withLock { $0! }
    }

    /// How the child ended, once it has; suspends without holding a thread.
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            ended.notify(queue: .global()) {
                continuation.resume(returning: self.termination.withLock { $0! })
            }
        }
    }

    /// glibc has these (2.34 and later) but its headers show them to Swift only with _GNU_SOURCE.
    private typealias AddCloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    private static let addCloseFrom = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")!,
        to: AddCloseFrom.self)
    private static let pipe2 = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2")!, to: Pipe2.self)
}

/// A value shared between threads, behind a lock (a class, so closures can capture it).
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    public func withLock<Result: Sendable>(_ body: (inout sending Value) throws -> sending Result) rethrows
        -> Result
    {
        try mutex.withLock(body)
    }
}

/// What a finished child process said.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var output: String
    public var errorOutput: String
    public var termination: ChildProcess.Termination
}

/// Runs `executable` to its end without holding a thread of the pool; with `environment`, in that environment
/// instead of ours.
public func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async
    -> ProcessResult
{
    let child: ChildProcess
    do {
        child = try ChildProcess(executable, arguments, environment: environment, output: .pipe, error: .pipe)
    } catch {
        return ProcessResult(status: -1, output: "", errorOutput: "\(error)", termination: .exited(-1))
    }
    // Both pipes are read at once, so that neither can fill up and stall the child.
    async let output = offPool { child.standardOutput!.readDataToEndOfFile() }
    async let errors = offPool { child.standardError!.readDataToEndOfFile() }
    let (data, errorData) = await (output, errors)
    let termination = await child.exit()
    return ProcessResult(
        status: termination.status, output: String(decoding: data, as: UTF8.self),
        errorOutput: String(decoding: errorData, as: UTF8.self), termination: termination)
}

/// Runs `executable` to its end and throws, with what it wrote to standard error, unless it exits with 0.
public func runChecked(_ executable: String, _ arguments: [String]) async throws {
    let result = await run(executable, arguments)
    guard result.termination == .exited(0) else {
        throw FixtureError(
            message:
                "\(executable) \(arguments.joined(separator: " ")) \(result.termination): \(result.errorOutput)"
        )
    }
}

/// A child process whose output is collected as it comes, until it is stopped.
public final class RunningProcess: Sendable {
    private let child: ChildProcess
    private let collected = Locked("")
    private let done = DispatchGroup()

    private init(child: ChildProcess) {
        self.child = child
    }

    public static func start(_ executable: String, _ arguments: [String]) throws -> RunningProcess {
        let running = RunningProcess(child: try ChildProcess(executable, arguments, output: .pipe))
        let handle = running.child.standardOutput!
        running.done.enter()
        Thread { [done = running.done, collected = running.collected] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            done.leave()
        }.start()
        return running
    }

    public var output: String { collected.withLock { $0 } }

    /// Kills it and waits for it and its reader, without holding a thread of the pool.
    public func stop() async {
        child.signal(SIGKILL)
        _ = await child.exit()
        await withCheckedContinuation { continuation in
            done.notify(queue: .global()) { continuation.resume() }
        }
    }
}

/// A private session bus: its own dbus-daemon on a socket in /tmp, for one test (MPRIS, and the terminal
/// player's media keys).
public final class PrivateBus: Sendable {
    public let address: String
    private let daemon: RunningProcess

    private init(address: String, daemon: RunningProcess) {
        self.address = address
        self.daemon = daemon
    }

    public static func start() async throws -> PrivateBus {
        let daemon = try RunningProcess.start(
            "/usr/bin/dbus-daemon",
            ["--session", "--nofork", "--print-address", "--address=unix:tmpdir=/tmp"])
        let started = await eventually { daemon.output.contains("\n") }
        let address = daemon.output.split(separator: "\n").first.map(String.init) ?? ""
        guard started, address.hasPrefix("unix:") else {
            await daemon.stop()
            throw FixtureError(message: "dbus-daemon did not print its address")
        }
        return PrivateBus(address: address, daemon: daemon)
    }

    public func stop() async { await daemon.stop() }

    /// `dbus-send --print-reply` to the MPRIS object of `destination`.
    public func send(
        to destination: String, _ method: String, _ arguments: [String] = [],
        path: String = "/org/mpris/MediaPlayer2"
    ) async -> ProcessResult {
        await run(
            "/usr/bin/dbus-send",
            [
                "--bus=\(address)", "--print-reply", "--reply-timeout=10000", "--dest=\(destination)", path,
                method,
            ]
                + arguments)
    }

    /// GetAll of `interface`, read by python3-dbus: one "Name=Type:value" line per property, and one
    /// "Metadata.key=..." line per metadata entry.
    public func properties(of destination: String, interface: String = "org.mpris.MediaPlayer2.Player")
        async throws
        -> [String: String]
    {
        let result = await run(
            "/usr/bin/python3", ["-c", Self.getAllScript, address, destination, interface])
        guard result.status == 0 else { throw FixtureError(message: "GetAll failed: \(result.errorOutput)") }
        var properties: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }

    public func names() async -> [String] {
        let result = await run(
            "/usr/bin/dbus-send",
            [
                "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.ListNames",
            ])
        return result.output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\"")
            return parts.count >= 2 ? String(parts[1]) : nil
        }
    }

    private static let getAllScript = """
        import sys, dbus
        bus = dbus.bus.BusConnection(sys.argv[1])
        obj = bus.get_object(sys.argv[2], '/org/mpris/MediaPlayer2')
        props = obj.GetAll(sys.argv[3], dbus_interface='org.freedesktop.DBus.Properties')
        def show(v):
            if isinstance(v, dbus.Array):
                return 'Array(' + ','.join(show(x) for x in v) + ')'
            if isinstance(v, dbus.Dictionary):
                return 'Dict(' + str(len(v)) + ')'
            return type(v).__name__ + ':' + str(v)
        for k, v in sorted(props.items()):
            print(k + '=' + show(v))
            if isinstance(v, dbus.Dictionary):
                for mk, mv in sorted(v.items()):
                    print(k + '.' + mk + '=' + show(mv))
        """
}
