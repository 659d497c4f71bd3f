import Foundation
import ServerTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tests' web server (`origin.py`): the files of a folder at `/docs/<name>` with ETags and 304s, and
/// redirects, loops, huge, lying, compressed, slow and stalled bodies, and byte ranges.
///
/// It listens on 127.0.0.2, the one address the tests' fetchers allow (loopback is refused without the
/// allow-list), and on 127.0.0.1, an address they must never reach: its request counts prove it was not.
/// One per test process; it exits when the process does (its standard input closes).
public final class FeedOrigin: Sendable {
    public static let host = "127.0.0.2"
    public let port: Int
    /// The port on 127.0.0.1.
    public let forbiddenPort: Int
    /// The folder served at `/docs/`.
    public let folder: String
    private let child: ChildProcess

    private static let shared = Locked<Task<FeedOrigin, any Error>?>(nil)

    /// The process's origin, started on first use.
    public static func start() async throws -> FeedOrigin {
        let task = shared.withLock { task in
            if let task { return task }
            let started = Task { try await offThread { try FeedOrigin() } }
            task = started
            return started
        }
        return try await task.value
    }

    private init() throws {
        folder = temporaryFolder()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "origin.py")
        child = try ChildProcess(
            "/usr/bin/python3", [script.path, folder, Self.host, "127.0.0.1"], input: .pipe, output: .pipe,
            error: .null)
        let line = firstLine(of: child.standardOutput!)
        let words = line.split(whereSeparator: \.isWhitespace)
        guard words.count == 3, words[0] == "PORTS", let port = Int(words[1]), let forbidden = Int(words[2])
        else {
            child.signal(SIGKILL)
            throw FixtureError(message: "origin.py did not print its ports: \(line)")
        }
        self.port = port
        forbiddenPort = forbidden
    }

    /// An address on the allowed listener.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://\(Self.host):\(port)\(pathAndQuery)")!
    }

    /// An address on the forbidden listener (127.0.0.1).
    public func forbiddenURL(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(forbiddenPort)\(pathAndQuery)")!
    }

    /// Puts a document at `/docs/<name>` (written whole, then renamed in, so no request sees half of it).
    @discardableResult
    public func put(_ name: String, _ body: String) throws -> URL {
        try put(name, Data(body.utf8))
    }

    @discardableResult
    public func put(_ name: String, _ body: Data) throws -> URL {
        let path = folder + "/" + name
        let staging = folder + "/.staging-\(UUID().uuidString)"
        try body.write(to: URL(fileURLWithPath: staging))
        guard rename(staging, path) == 0 else { throw FixtureError(message: "could not put \(name)") }
        return url("/docs/\(name)")
    }

    public struct Stats: Decodable, Sendable {
        /// "allowed /docs/a.xml" or "forbidden /path": requests seen.
        public var requests: [String: Int]
        /// "allowed" or "forbidden": connections accepted.
        public var connections: [String: Int]
        /// "allowed /docs/a.xml": how many different connections asked for it.
        public var connectionsPerPath: [String: Int]

        /// Requests for `path` on the allowed listener.
        public func requests(_ path: String) -> Int { requests["allowed \(path)"] ?? 0 }
        /// Connections that asked for `path` on the allowed listener.
        public func connections(_ path: String) -> Int { connectionsPerPath["allowed \(path)"] ?? 0 }
        /// Requests of any path on the forbidden listener.
        public var forbiddenRequests: Int {
            requests.filter { $0.key.hasPrefix("forbidden ") }.values.reduce(0, +)
        }
    }

    /// The origin's counts so far (read with URLSession, not with the fetcher under test).
    public func stats() async throws -> Stats {
        let (data, _) = try await URLSession.shared.data(from: url("/_stats"))
        return try JSONDecoder().decode(Stats.self, from: data)
    }
}
