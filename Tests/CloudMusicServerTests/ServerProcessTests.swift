import CloudMusicServer
import Foundation
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
    let process = Process()
    process.executableURL = serverBinary()
    process.arguments = arguments
    let stdin = Pipe()
    let out = Pipe()
    let err = Pipe()
    process.standardInput = stdin
    process.standardOutput = out
    process.standardError = err
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let (output, errors) = try await offPool {
        (out.fileHandleForReading.readDataToEndOfFile(), err.fileHandleForReading.readDataToEndOfFile())
    }
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)
    )
}

/// A `cloudmusic-server serve` child process on a free loopback port.
final class RunningServer: @unchecked Sendable {
    let process = Process()
    let dataFolder: String
    private(set) var port = 0
    private let stdout = Pipe()

    /// Starts a server and waits, off the cooperative pool, for it to print its address (making the
    /// demo library takes seconds).
    static func start(
        extraArguments: [String] = [], demo: Bool = false, environment: [String: String] = [:]
    ) async throws -> RunningServer {
        let server = try RunningServer(extraArguments: extraArguments, demo: demo, environment: environment)
        let reader = server.stdout.fileHandleForReading
        let seen = try await offPool {
            var seen = ""
            while !seen.contains("\n") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            return seen
        }
        guard let range = seen.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else {
            server.process.terminate()
            throw UsageError(message: "server did not print its address: \(seen)")
        }
        server.port = Int(seen[range].dropFirst("127.0.0.1:".count).dropLast())!
        return server
    }

    /// Serves an empty music folder unless the arguments name one, or `demo` asks for the demo library;
    /// `environment` is added to the test's own.
    private init(extraArguments: [String], demo: Bool, environment: [String: String]) throws {
        dataFolder = temporaryFolder()
        process.executableURL = serverBinary()
        var music: [String] = []
        if !demo && !extraArguments.contains("--music") { music = ["--music", temporaryFolder()] }
        // Most tests sign people up directly; the sign-up code flow has its own tests.
        if !extraArguments.contains("--signup-codes") { music += ["--signup-codes", "off"] }
        process.arguments = ["serve", "--port", "0", "--data", dataFolder, "--log-level", "warning"] + music + extraArguments
        process.standardOutput = stdout
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        try process.run()
    }

    func get(_ path: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        return ((response as! HTTPURLResponse).statusCode, data)
    }

    func stop(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
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

    @Test func backupWhileServingIsARestorableDatabase() async throws {
        let server = try await RunningServer.start()
        let destination = server.dataFolder + "/backup.sqlite"
        let (code, output, errors) = try await runServerCommand(["backup", destination, "--data", server.dataFolder])
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
            ["serve", "--port", String(server.port), "--data", temporaryFolder(), "--music", temporaryFolder()])
        #expect(code != 0)
        #expect(errors.contains(String(server.port)))
        _ = server.stop()
    }
}

@Suite struct OpenAPITests {
    @Test func everyRouteIsDescribed() throws {
        let app = try ServerApp(
            options: ServerOptions(dataFolder: temporaryFolder()), logger: .init(level: .error))
        let document = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as! [String: Any]
        let paths = document["paths"] as! [String: [String: Any]]
        // The web player's pages (`/` and its catch-all) are not part of the API.
        for route in app.makeRouter().routes where route.pattern != "/" && !route.pattern.hasPrefix("/*") {
            let path = route.pattern.split(separator: "/", omittingEmptySubsequences: false).map {
                $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0)
            }.joined(separator: "/")
            #expect(
                paths[path]?[route.method.rawValue.lowercased()] != nil,
                "\(route.method.rawValue) \(route.pattern) is missing from the OpenAPI document")
        }
    }
}
