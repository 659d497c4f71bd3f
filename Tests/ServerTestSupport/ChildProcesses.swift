import Foundation
import Synchronization

/// Polls `condition` until it holds, for up to `seconds`; the machine is busy, so the wait is long.
public func eventually(within seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}

/// What a finished child process said.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var output: String
    public var errorOutput: String
}

/// Runs `executable` to its end, off the pool; with `environment`, in that environment instead of ours.
public func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async
    -> ProcessResult
{
    await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return ProcessResult(status: -1, output: "", errorOutput: "\(error)")
        }
        // Read stderr on another thread so that neither pipe can fill up and stall the child.
        let errorText = Mutex("")
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
            errorsRead.signal()
        }.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, output: String(decoding: data, as: UTF8.self),
            errorOutput: errorText.withLock { $0 })
    }
}

/// A child process whose output is collected as it comes, until it is stopped.
public final class RunningProcess: Sendable {
    private let process: Process
    private let collected = Mutex("")
    private let done = DispatchSemaphore(value: 0)

    private init(process: Process) {
        self.process = process
    }

    public static func start(_ executable: String, _ arguments: [String]) throws -> RunningProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let running = RunningProcess(process: process)
        let handle = output.fileHandleForReading
        Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                running.collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            running.done.signal()
        }.start()
        return running
    }

    public var output: String { collected.withLock { $0 } }

    /// Kills it and waits for it and its reader, off the pool.
    public func stop() async {
        let process = self.process
        let done = self.done
        await offPool {
            // SIGKILL: children inherit the test threads' blocked signals, SIGTERM among them.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            done.wait()
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
