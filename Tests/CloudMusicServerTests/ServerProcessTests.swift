import CloudMusicServer
import Foundation
import ServerTestSupport
import Storage
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `cloudmusic-server` binary, beside the test bundle.
func serverBinary() -> URL {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4
    where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("cloudmusic-server").path) {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("cloudmusic-server")
}

func temporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("cm-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs blocking reads on a thread of their own. The test runner's cooperative pool has one thread
/// per core, two here: a test blocked on it stalls every other test, long enough to break the ones
/// that measure time (a 30-second back-off, say). Children are still spawned from the calling
/// thread, where Foundation's Process is known to see them exit.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Runs the server binary to completion, with `input` on standard input, and returns its exit
/// code, stdout and stderr.
func runServerCommand(_ arguments: [String], input: String = "") async throws -> (Int32, String, String) {
    let child = try ChildProcess(serverBinary().path, arguments, input: .pipe, output: .pipe, error: .pipe)
    let stdin = child.standardInput!
    // Written from a thread of its own while both outputs are read, so that no pipe can fill up and stall. A
    // command that ends without reading it all is no error of ours (the write then fails with EPIPE).
    async let written: Void = offPool {
        try? stdin.write(contentsOf: Data(input.utf8))
        try stdin.close()
    }
    async let output = offPool { child.standardOutput!.readDataToEndOfFile() }
    async let errors = offPool { child.standardError!.readDataToEndOfFile() }
    try await written
    let (out, err) = await (output, errors)
    let termination = await child.exit()
    return (termination.status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// A `cloudmusic-server serve` child process on a free loopback port.
final class RunningServer: Sendable {
    let child: ChildProcess
    let dataFolder: String
    let port: Int

    /// Starts a server and waits, off the cooperative pool, for it to print its address (making the
    /// demo library takes seconds). It serves an empty music folder unless the arguments name one, or `demo`
    /// asks for the demo library; `environment` is added to the test's own.
    static func start(
        extraArguments: [String] = [], demo: Bool = false, environment: [String: String] = [:]
    ) async throws -> RunningServer {
        let dataFolder = temporaryFolder()
        var music: [String] = []
        if !demo && !extraArguments.contains("--music") { music = ["--music", temporaryFolder()] }
        // Most tests sign people up directly; the sign-up code flow has its own tests.
        if !extraArguments.contains("--signup-codes") { music += ["--signup-codes", "off"] }
        let child = try ChildProcess(
            serverBinary().path,
            ["serve", "--port", "0", "--data", dataFolder, "--log-level", "warning"] + music + extraArguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, output: .pipe)
        let seen = await offPool { firstLine(of: child.standardOutput!) }
        guard let range = seen.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else {
            child.signal(SIGKILL)
            throw UsageError(message: "server did not print its address: \(seen)")
        }
        return RunningServer(
            child: child, dataFolder: dataFolder,
            port: Int(seen[range].dropFirst("127.0.0.1:".count).dropLast())!)
    }

    private init(child: ChildProcess, dataFolder: String, port: Int) {
        self.child = child
        self.dataFolder = dataFolder
        self.port = port
    }

    func get(_ path: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        let http = response as! HTTPURLResponse
        ContractCheck.check(
            method: "GET", path: path, status: http.statusCode, body: data,
            contentType: http.value(forHTTPHeaderField: "Content-Type"))
        return (http.statusCode, data)
    }

    /// Sends `signal` and waits for the server to end: its exit status, or the signal that ended it.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        child.signal(signal)
        switch child.waitForExit() {
        case .exited(let status): return status
        case .signalled(let signal): return signal
        }
    }

    deinit { child.signal(SIGTERM) }
}

@Suite struct ServerProcessTests {
    @Test func servesItsInfoAndStopsCleanlyOnSIGTERM() async throws {
        let server = try await RunningServer.start()
        let (status, body) = try await server.get("/v1/server")
        #expect(status == 200)
        let json = try JSONSerialization.jsonObject(with: body) as! [String: Any]
        #expect(json["status"] as? Int == 0)
        let data = json["data"] as! [String: Any]
        #expect(data["name"] as? String == "CloudMusic")
        #expect(data["version"] as? String == CloudMusicVersion.current)
        let (healthStatus, _) = try await server.get("/health")
        #expect(healthStatus == 200)
        #expect(server.stop() == 0)
        #expect(FileManager.default.fileExists(atPath: server.dataFolder + "/cloudmusic.sqlite"))
    }

    /// The refusals the HTTP layer makes itself are worded in the v1 envelope, byte for byte as a handler's are.
    @Test func theHTTPLayersOwnRefusalsAreInTheEnvelope() async throws {
        let server = try await RunningServer.start(extraArguments: ["--max-body", "1K"])
        defer { _ = server.stop() }
        for (method, path, body, status, text) in [
            (
                "POST", "/v1/sessions", Data(repeating: 0x20, count: 2_000), 413,
                #"{"status":413,"message":"The request body is larger than the 1 KB allowed."}"#
            ),
            (
                "DELETE", "/v1/server", Data(), 405,
                #"{"status":405,"message":"This address does not accept DELETE requests."}"#
            ),
            (
                "GET", "/v1/nothing-here", Data(), 404,
                #"{"status":404,"message":"There is nothing at this address."}"#
            ),
        ] {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
            request.httpMethod = method
            if !body.isEmpty { request.httpBody = body }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == status, "\(method) \(path)")
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
            #expect(String(decoding: data, as: UTF8.self) == text, "\(method) \(path)")
        }
    }

    @Test func backupWhileServingIsARestorableDatabase() async throws {
        let server = try await RunningServer.start()
        let destination = server.dataFolder + "/backup.sqlite"
        let (code, output, errors) = try await runServerCommand([
            "backup", destination, "--data", server.dataFolder,
        ])
        #expect(code == 0, "\(errors)")
        #expect(output.contains("Backed up"))
        #expect(server.stop() == 0)
        let restored = try Database(path: destination)
        let check = try restored.read { try $0.queryOne("PRAGMA integrity_check") { try $0.string(0) } }
        #expect(check == "ok")
        let versions = try restored.read {
            try $0.query("SELECT version FROM schema_migrations") { try $0.int(0) }
        }
        #expect(!versions.isEmpty)
    }

    @Test func migrateReportsTheSchemaVersion() async throws {
        let folder = temporaryFolder()
        let (code, output, _) = try await runServerCommand(["migrate", "--data", folder])
        #expect(code == 0)
        #expect(output.contains("schema version"))
    }

    @Test func generateWritesTheDocumentAndTheClientIntoTheFolderGiven() async throws {
        let folder = temporaryFolder()
        let (code, output, errors) = try await runServerCommand(["generate", folder])
        #expect(code == 0, "\(errors)")
        for (name, text) in try GeneratedFiles.all() {
            #expect(output.contains("Wrote \(folder)/\(name)."))
            #expect(try String(contentsOfFile: folder + "/" + name, encoding: .utf8) == text)
        }
    }

    @Test func mistakesExitWithUsageAndAMessage() async throws {
        let (code, _, errors) = try await runServerCommand(["serve", "--prot", "80"])
        #expect(code == 64)
        #expect(errors.contains("Unknown option '--prot'"))
        let (helpCode, help, _) = try await runServerCommand(["help"])
        #expect(helpCode == 0)
        #expect(help.contains("--music"))
    }

    @Test func aTakenPortIsAClearError() async throws {
        let server = try await RunningServer.start()
        let (code, _, errors) = try await runServerCommand(
            [
                "serve", "--port", String(server.port), "--data", temporaryFolder(), "--music",
                temporaryFolder(),
            ])
        #expect(code != 0)
        #expect(errors.contains(String(server.port)))
        _ = server.stop()
    }
}
