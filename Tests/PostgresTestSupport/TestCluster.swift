import Foundation
import PostgresStorage
import ServerTestSupport
import Storage
import Synchronization

/// The PostgreSQL cluster the tests use, and a fresh database in it per test.
///
/// `scripts/test` starts a throwaway cluster (`scripts/pg-cluster`) and names it in CLOUDMUSIC_TEST_POSTGRES_URL.
/// A developer running `swift test` alone gets one too: when the variable is absent, the first test that needs
/// PostgreSQL starts one with the same script for this test process, which stops it when the process ends.
/// When no cluster can be had, the tests fail with a sentence saying why; they never skip.
public enum TestCluster {
    /// The address of the cluster's `cloudmusic_test` database, as a superuser.
    public static func address() throws -> PostgresAddress { try cluster.get().address }

    /// The cluster's self-signed certificate (for sslmode=verify-full), when the cluster came from pg-cluster.
    public static func rootCertificate() throws -> String {
        guard let path = try cluster.get().rootCertificate else {
            throw FixtureError(
                message:
                    "CLOUDMUSIC_TEST_POSTGRES_URL names a cluster without CLOUDMUSIC_TEST_POSTGRES_ROOT_CERT: "
                    + "the TLS tests need the cluster scripts/pg-cluster starts (with its certificate)")
        }
        return path
    }

    /// A new, empty database in the cluster, for one test (databases are not dropped: the cluster is thrown
    /// away whole).
    public static func freshDatabase() throws -> PostgresAddress {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let cluster = try cluster.get()
        try cluster.admin.withConnection { try $0.executeScript("CREATE DATABASE \(name)") }
        return cluster.address.with("dbname", name)
    }

    /// A pool on a fresh database.
    public static func freshPool(
        _ configure: (inout PostgresDatabase.Configuration) -> Void = { _ in }
    ) throws -> PostgresDatabase {
        var configuration = PostgresDatabase.Configuration()
        configuration.connectionWaitSeconds = 600
        configure(&configuration)
        return try PostgresDatabase(address: try freshDatabase(), configuration: configuration)
    }

    private struct Cluster: Sendable {
        let address: PostgresAddress
        let rootCertificate: String?
        let admin: PostgresDatabase
    }

    private static let cluster: Result<Cluster, Error> = Result {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["CLOUDMUSIC_TEST_POSTGRES_URL"], !url.isEmpty {
            return try connect(url, rootCertificate: environment["CLOUDMUSIC_TEST_POSTGRES_ROOT_CERT"])
        }
        let variables = try startCluster()
        guard let url = variables["CLOUDMUSIC_TEST_POSTGRES_URL"] else {
            throw FixtureError(message: "scripts/pg-cluster printed no URL")
        }
        return try connect(url, rootCertificate: variables["CLOUDMUSIC_TEST_POSTGRES_ROOT_CERT"])
    }

    private static func connect(_ url: String, rootCertificate: String?) throws -> Cluster {
        // Connecting forks a server process, which can take seconds on a loaded machine: a bound for a hung
        // test only, as is the pool's wait below.
        let address = try PostgresAddress(url).with("connect_timeout", "120")
        var configuration = PostgresDatabase.Configuration()
        configuration.maximumConnections = 2
        configuration.applicationName = "cloudmusic tests"
        do {
            let admin = try PostgresDatabase(address: address, configuration: configuration)
            return Cluster(address: address, rootCertificate: rootCertificate, admin: admin)
        } catch {
            throw FixtureError(
                message:
                    "the PostgreSQL tests cannot reach the cluster CLOUDMUSIC_TEST_POSTGRES_URL names (\(error)); "
                    + "run scripts/test, or unset the variable so that the tests start their own")
        }
    }

    /// Starts a cluster owned by this process with scripts/pg-cluster and returns the variables it printed.
    private static func startCluster() throws -> [String: String] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/pg-cluster").path
        let child = try ChildProcess(
            "/bin/bash", [script, "start", "--owner", String(getpid())], output: .pipe, error: .pipe)
        let errors = Locked(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        let readingErrors = Thread { [errors] in
            let data = child.standardError!.readDataToEndOfFile()
            errors.withLock { $0 = data }
            errorsRead.signal()
        }
        readingErrors.start()
        let output = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        let termination = child.waitForExit()
        errorsRead.wait()
        guard termination == .exited(0) else {
            let said = String(decoding: errors.withLock { $0 }, as: UTF8.self)
            throw FixtureError(
                message:
                    "the PostgreSQL tests need a cluster and scripts/pg-cluster could not start one "
                    + "(\(termination): \(said)); install postgresql-15 with scripts/install-deps, or run "
                    + "scripts/test, or set CLOUDMUSIC_TEST_POSTGRES_URL")
        }
        var variables: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
                .trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        }
        return variables
    }
}

/// Runs `body` on `count` threads of their own at once (not the cooperative pool, which has one thread per
/// core and would deadlock bodies that wait for each other) and waits for all of them; rethrows the first
/// error.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let group = DispatchGroup()
    let firstError = Locked<(any Error)?>(nil)
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            do { try body(index) } catch { firstError.withLock { if $0 == nil { $0 = error } } }
        }
        thread.start()
    }
    group.wait()
    if let error = firstError.withLock({ $0 }) { throw error }
}
