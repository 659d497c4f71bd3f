import Foundation
import MusicCore
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One person of the test server: their v1 session and an app password for Subsonic apps.
struct Person: Sendable {
    var id: String
    var nickname: String
    var email: String
    /// The account's own password (which Subsonic apps cannot use).
    var accountPassword: String
    var session: String
    var appPassword: String
    var appPasswordID: String
}

/// How a request says who it is.
enum Auth: Sendable {
    /// `u` + `p` in clear.
    case password
    /// `u` + `p=enc:<hex>` (upper-case hex, as py-opensonic sends it).
    case encoded
    /// `u` + `t` + `s`.
    case token(salt: String)
    /// `apiKey` alone.
    case apiKey
    /// Exactly these parameters.
    case parameters([(String, String)])
}

/// A `/rest` answer.
struct SubsonicReply: Sendable {
    let status: Int
    let contentType: String
    let body: Data
    let headers: [String: String]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// `subsonic-response` of a JSON answer.
    var response: [String: Any] {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return object?["subsonic-response"] as? [String: Any] ?? [:]
    }

    var isOK: Bool { response["status"] as? String == "ok" }
    var errorCode: Int? { (response["error"] as? [String: Any])?["code"] as? Int }
    var errorMessage: String { (response["error"] as? [String: Any])?["message"] as? String ?? "" }

    /// The `code` of an XML error answer.
    var xmlErrorCode: Int? {
        guard let range = text.range(of: #"<error code="(\d+)""#, options: .regularExpression) else {
            return nil
        }
        return Int(text[range].dropFirst(#"<error code=""#.count).dropLast())
    }

    subscript(_ key: String) -> [String: Any] { response[key] as? [String: Any] ?? [:] }
}

/// The answers a test saw, saved to a folder and checked at the end by `validate_answers.py`: XML against the
/// Subsonic 1.16.1 + OpenSubsonic schema, JSON by the checks the script derives from it.
final class AnswerLog: @unchecked Sendable {
    let folder = temporaryFolder()
    private let lock = NSLock()
    private var count = 0

    func save(_ reply: SubsonicReply, method: String, json: Bool) {
        lock.lock()
        count += 1
        let name = String(format: "%04d-%@.%@", count, method, json ? "json" : "xml")
        lock.unlock()
        try? reply.body.write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    static let supportFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Support"

    /// The Python of the test tools' virtual environment (scripts/test-venv says where).
    static var python: String { testVenvPython }

    /// Runs the validator over every saved answer and records each problem as an issue.
    func validate(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            Issue.record(
                "No Python with xmlschema at \(Self.python): run scripts/install-deps",
                sourceLocation: sourceLocation)
            return
        }
        let folder = self.folder
        let (status, output) = try await offThread { () -> (Int32, String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.python)
            process.arguments = [
                Self.supportFolder + "/validate_answers.py",
                Self.supportFolder + "/subsonic-1.16.1-opensubsonic.xsd",
                folder,
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        for line in output.split(separator: "\n") where line.hasPrefix("FAIL") {
            Issue.record(Comment(rawValue: String(line)), sourceLocation: sourceLocation)
        }
        #expect(status == 0, "\(output.suffix(2_000))", sourceLocation: sourceLocation)
        if status == 0 { try? FileManager.default.removeItem(atPath: folder) }
        #expect(output.contains("checked"), "\(output.suffix(2_000))", sourceLocation: sourceLocation)
    }
}

/// The test server: the demo library, an administrator (the first person) and a way to add people. Shared by
/// the tests (each uses people of its own, so they do not see each other's stars, queues or playlists).
actor SubsonicWorld {
    static let shared = SubsonicWorld()

    private var starting: Task<(server: TestServer, admin: Person), any Error>?
    private var people = 0

    func server() async throws -> (server: TestServer, admin: Person) {
        // One start, however many tests ask at once (an actor's method may be entered again while it awaits).
        if starting == nil {
            starting = Task {
                let server = try await TestServer.start()
                return (server, try await Self.person(on: server, index: 0))
            }
        }
        return try await starting!.value
    }

    private var sharing: Task<Person, any Error>?

    /// One person the tests that change nothing of their own share (the server allows 20 sign-ups per address).
    func sharedPerson() async throws -> Person {
        if sharing == nil { sharing = Task { try await newPerson() } }
        return try await sharing!.value
    }

    /// A new person with an app password (not an administrator).
    func newPerson() async throws -> Person {
        people += 1
        let index = people
        let (server, _) = try await server()
        return try await Self.person(on: server, index: index)
    }

    static func person(on server: TestServer, index: Int) async throws -> Person {
        let person = try await server.person(
            "Listener\(index)", email: "listener\(index)@example.com",
            password: "correct horse battery \(index)")
        let (created, app) = try await v1(
            server, "POST", "/v1/users/\(person.id)/app_passwords", ["name": "Phone of \(person.nickname)"],
            token: person.session)
        try #require(created == 201, "\(app)")
        let data = try #require(app["data"] as? [String: Any])
        return Person(
            id: person.id, nickname: person.nickname, email: person.email, accountPassword: person.password,
            session: person.session, appPassword: try #require(data["password"] as? String),
            appPasswordID: try #require(data["id"] as? String))
    }

    /// A v1 call with a JSON body.
    static func v1(
        _ server: TestServer, _ method: String, _ path: String, _ body: [String: Any]? = nil,
        token: String? = nil
    ) async throws -> (Int, [String: Any]) {
        let (data, response) = try await server.exchange(method, path, json: body, token: token)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (response.statusCode, object)
    }
}

/// Calls `/rest` on a test server as one person.
struct Rest: Sendable {
    let server: TestServer
    let person: Person
    var log: AnswerLog?

    /// One call: GET with the parameters in the address, or (`post`) a form body (formPost); `.view` or not.
    func call(
        _ method: String, _ parameters: [(String, String)] = [], json: Bool = true, auth: Auth = .password,
        post: Bool = false, view: Bool = false, headers: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> SubsonicReply {
        var items: [(String, String)] = []
        switch auth {
        case .password: items += [("u", person.nickname), ("p", person.appPassword)]
        case .encoded:
            items += [
                ("u", person.nickname),
                ("p", "enc:" + person.appPassword.utf8.map { String(format: "%02X", $0) }.joined()),
            ]
        case .token(let salt):
            items += [("u", person.nickname), ("t", md5Hex(person.appPassword + salt)), ("s", salt)]
        case .apiKey: items += [("apiKey", person.appPassword)]
        case .parameters(let given): items += given
        }
        if case .parameters = auth {} else { items += [("v", "1.16.1"), ("c", "swift-tests")] }
        if json { items.append(("f", "json")) }
        items += parameters
        let form = items.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        let path = "rest/\(method)\(view ? ".view" : "")"
        var request: URLRequest
        if post {
            request = URLRequest(url: server.baseURL.appendingPathComponent(path))
            request.httpMethod = "POST"
            request.httpBody = Data(form.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        } else {
            request = URLRequest(url: URL(string: server.baseURL.absoluteString + path + "?" + form)!)
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var allHeaders: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            allHeaders[String(describing: name).lowercased()] = String(describing: value)
        }
        let reply = SubsonicReply(
            status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type") ?? "",
            body: data,
            headers: allHeaders)
        if reply.contentType.hasPrefix("text/xml") || reply.contentType.hasPrefix("application/json") {
            #expect(reply.status == 200, "\(method): HTTP \(reply.status)", sourceLocation: sourceLocation)
            log?.save(reply, method: method, json: reply.contentType.hasPrefix("application/json"))
        }
        return reply
    }

    /// A JSON call that must succeed; its `subsonic-response`.
    @discardableResult
    func ok(
        _ method: String, _ parameters: [(String, String)] = [], post: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws -> SubsonicReply
    {
        let reply = try await call(method, parameters, post: post, sourceLocation: sourceLocation)
        #expect(
            reply.isOK, "\(method) \(parameters): \(reply.text.prefix(500))", sourceLocation: sourceLocation)
        return reply
    }

    /// The ids of a list of the answer (`album.song`...).
    static func ids(_ list: Any?) -> [String] {
        (list as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
}

func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

/// MD5 as hex, for the tests' own tokens (an independent implementation from the server's: Python's hashlib
/// would do too, but this keeps the tests in one language; RFC 1321 vectors check it).
func md5Hex(_ text: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try! process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try! input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(String(decoding: data, as: UTF8.self).prefix(32))
}
