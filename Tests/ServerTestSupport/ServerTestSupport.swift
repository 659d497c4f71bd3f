import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Servers not yet stopped. A server kept for a whole suite (in a static) is never released, so it is told to
/// stop when the test process exits, rather than left running after every test run.
private let serversRunning = Mutex<Set<pid_t>>([])
private let stopServersAtExit: Void = {
    atexit {
        for pid in serversRunning.withLock({ $0 }) { kill(pid, SIGTERM) }
    }
}()

/// A `cloudmusic-server serve` child process on a free loopback port, with a data folder of its own, for every
/// test target that needs the real server.
///
/// Every server started is stopped when the test process exits, if nothing stopped it before.
public final class TestServer: Sendable {
    /// The music a server serves.
    public enum Library: Sendable {
        /// The demo library, generated once per machine (about 20 s) into a shared temporary folder and reused,
        /// with any `--music` folders the arguments name beside it; `start` returns once the first scan is done.
        case demo
        /// An empty folder of its own unless the arguments name one with `--music`; `start` returns as soon as
        /// the server listens.
        case empty
        /// No `--music` at all: the server makes the demo library in its own data folder, with the demo's videos
        /// and discovery, as `cloudmusic-server serve` does on a first start; `start` returns as soon as it
        /// listens.
        case builtInDemo
    }

    public let child: ChildProcess
    /// The `--data` folder: the one the arguments name, else a new temporary folder.
    public let dataFolder: String
    public let port: Int
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Starts a server and waits, off the cooperative pool, for it to print its address (for `.demo`, also for
    /// its first scan). `environment` is added to the test's own. Most tests sign people up directly, so sign-up
    /// codes are off unless the arguments say `--signup-codes`.
    public static func start(
        _ library: Library = .demo, extraArguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> TestServer {
        var arguments = ["serve", "--port", "0", "--log-level", "warning"]
        let dataFolder: String
        if let index = extraArguments.firstIndex(of: "--data"), index + 1 < extraArguments.count {
            dataFolder = extraArguments[index + 1]
        } else {
            dataFolder = temporaryFolder()
            arguments += ["--data", dataFolder]
        }
        switch library {
        case .demo: arguments += ["--music", try await DemoLibrary.shared.folder()]
        case .empty where !extraArguments.contains("--music"): arguments += ["--music", temporaryFolder()]
        case .empty, .builtInDemo: break
        }
        if !extraArguments.contains("--signup-codes") { arguments += ["--signup-codes", "off"] }
        let child = try ChildProcess(
            serverBinary().path, arguments + extraArguments,
            environment: environment.isEmpty
                ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: .pipe)
        let seen = await offPool { firstLine(of: child.standardOutput!) }
        guard let range = seen.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else {
            child.signal(SIGKILL)
            throw FixtureError(message: "server did not print its address: \(seen)")
        }
        let server = TestServer(
            child: child, dataFolder: dataFolder,
            port: Int(seen[range].dropFirst("127.0.0.1:".count).dropLast())!)
        if case .demo = library { try await server.waitForFirstScan() }
        return server
    }

    private init(child: ChildProcess, dataFolder: String, port: Int) {
        self.child = child
        self.dataFolder = dataFolder
        self.port = port
        _ = stopServersAtExit
        serversRunning.withLock { _ = $0.insert(child.pid) }
    }

    /// Told to stop (SIGTERM), and forgotten once it has; not waited for here, since the last reference may go
    /// on a thread of the cooperative pool.
    deinit {
        let child = child
        child.signal(SIGTERM)
        Task.detached {
            _ = await child.exit()
            serversRunning.withLock { _ = $0.remove(child.pid) }
        }
    }

    /// Sends `signal` (SIGTERM: a clean stop) and waits for the server to end; blocks, so call it where a
    /// blocked thread does no harm. Answers its exit status, or the signal that ended it.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) -> Int32 {
        child.signal(signal)
        let termination = child.waitForExit()
        serversRunning.withLock { _ = $0.remove(child.pid) }
        switch termination {
        case .exited(let status): return status
        case .signalled(let signal): return signal
        }
    }

    private func waitForFirstScan() async throws {
        // Up to three minutes: the first scan competes with every other test on two loaded cores.
        for _ in 0..<1800 {
            let (data, _) = try await URLSession.shared.data(
                from: baseURL.appendingPathComponent("v1/library/scan"))
            if let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let status = json["data"] as? [String: Any], status["running"] as? Bool == false,
                status["lastReport"] != nil
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw FixtureError(message: "the demo library's scan did not finish")
    }
}

/// The demo library, generated by `cloudmusic-server demo` once per machine.
public actor DemoLibrary {
    public static let shared = DemoLibrary()
    private var ready: Task<String, any Error>?

    /// The library's folder, generated first if no complete one is there.
    ///
    /// One generation for all callers: an actor lets a second caller in while the first awaits, and two
    /// generators writing the same files at once left a library whose songs a server read half-written.
    public func folder() async throws -> String {
        let task = ready ?? Task { try await Self.prepare() }
        ready = task
        do {
            return try await task.value
        } catch {
            // The next caller tries again.
            if ready == task { ready = nil }
            throw error
        }
    }

    /// Generates into a folder of its own and renames it into place, so that no process (another test run,
    /// another worktree's) ever sees a library that is still being written.
    private static func prepare() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cloudmusic-kit-demo").path
        if FileManager.default.fileExists(atPath: path + "/.complete") { return path }
        let staging = path + "-\(UUID().uuidString)"
        let generated = await run(serverBinary().path, ["demo", staging])
        guard generated.termination == .exited(0) else {
            try? FileManager.default.removeItem(atPath: staging)
            throw FixtureError(
                message: "cloudmusic-server demo failed (\(generated.termination)): \(generated.errorOutput)")
        }
        if rename(staging, path) == 0 { return path }
        // Another run got there first (its library is complete, or is being written in place by an older
        // copy of this code): ours is complete, so use it.
        if FileManager.default.fileExists(atPath: path + "/.complete") {
            try? FileManager.default.removeItem(atPath: staging)
            return path
        }
        return staging
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

public func serverBinary() -> URL { productBinary("cloudmusic-server") }

/// An executable of this package, built next to the test bundle.
public func productBinary(_ name: String) -> URL {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent(name)
}

public func temporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("cmkit-\(UUID().uuidString)")
        .path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs blocking work (process waits, pipes) on its own thread, never on the cooperative pool.
public func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await offPool { Result { try work() } }.get()
}

/// `offThread` for work that cannot fail.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// What a child process printed up to its first line break (or until it closed its output).
public func firstLine(of output: FileHandle) -> String {
    var seen = ""
    while !seen.contains("\n") {
        let chunk = output.availableData
        if chunk.isEmpty { break }
        seen += String(decoding: chunk, as: UTF8.self)
    }
    return seen
}

/// Runs a task's jobs on a Dispatch queue of its own, not on the cooperative pool: for a test's listener that
/// must keep up with what it listens to however long other tests hold the pool's two threads.
///
/// Use it as `Task(executorPreference: OwnQueueExecutor()) { ... }`; actors without an executor of their own
/// that the task calls run there too. Dispatch adds a thread when its others are blocked.
public final class OwnQueueExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is the only state, and Dispatch queues are thread-safe.
    private let queue = DispatchQueue(label: "ServerTestSupport.OwnQueueExecutor")

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// The Python of the test tools' virtual environment (scripts/install-deps makes it), where
/// `scripts/test-venv` says it is: the one place that rule is written, for the scripts and the tests alike.
public let testVenvPython: String = {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/test-venv").standardizedFileURL.path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [script]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return "(\(script) did not run)/bin/python" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let folder = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return folder + "/bin/python"
}()
