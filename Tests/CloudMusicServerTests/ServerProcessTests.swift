import CloudMusicServer
import Foundation
import ServerTestSupport
import Storage
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

extension TestServer {
    /// GETs `path`, checked against the API contract: the status and the body.
    func get(_ path: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        let http = response as! HTTPURLResponse
        ContractCheck.check(
            method: "GET", path: path, status: http.statusCode, body: data,
            contentType: http.value(forHTTPHeaderField: "Content-Type"))
        return (http.statusCode, data)
    }
}

@Suite struct ServerProcessTests {
    @Test func servesItsInfoAndStopsCleanlyOnSIGTERM() async throws {
        let server = try await TestServer.start(.empty)
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
        let server = try await TestServer.start(.empty, extraArguments: ["--max-body", "1K"])
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
        let server = try await TestServer.start(.empty)
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
        let server = try await TestServer.start(.empty)
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
