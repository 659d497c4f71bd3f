import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A person signed up and signed in on a test server, through the v1 API as any app does it.
public struct TestPerson: Sendable {
    public let id: String
    public let nickname: String
    public let email: String
    public let password: String
    /// The session token (`Authorization`).
    public let session: String
    /// The token of the event stream (`/v1/events`).
    public let chatToken: String
}

/// One answer of the server to a fixture's request.
public struct TestAnswer: Sendable {
    public let method: String
    public let path: String
    public let status: Int
    public let body: Data
    public let contentType: String?

    /// The envelope, decoded (empty when the body is not a JSON object).
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }
    /// The envelope's `data` object.
    public var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
}

extension TestServer {
    /// The one way fixtures send a request: `method` to `path` (absolute, such as `/v1/users`) with a JSON
    /// body (`json`, an object or an array) or raw bytes (`body`, of `contentType`), as `token` when given, with
    /// more `headers`, to `port` when given (a proxy in front of the server) rather than the server's own.
    public func exchange(
        _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, contentType: String? = nil,
        token: String? = nil, headers: [String: String] = [:], port: Int? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port ?? self.port)\(path)")!)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
            request.setValue(contentType ?? "application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue(token, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, response as! HTTPURLResponse)
    }

    /// Sends `json` (when given) to `path` (absolute, such as `/v1/users`) with `method`, as `token` when given,
    /// to `port` when given (a proxy in front of the server) rather than the server's own.
    public func send(
        _ method: String, _ path: String, json: [String: Any]? = nil, token: String? = nil, port: Int? = nil
    ) async throws -> TestAnswer {
        let (data, http) = try await exchange(method, path, json: json, token: token, port: port)
        return TestAnswer(
            method: method, path: path, status: http.statusCode, body: data,
            contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// The sign-up step: `POST /v1/users` with `account` (`email` or `phone`), a nickname and a password. No
    /// code: test servers run with `--signup-codes off` unless a test asks otherwise (the code flow has tests of
    /// its own). 201 with the user when it worked.
    public func sendSignUp(
        _ account: [String: String], nickname: String, password: String, port: Int? = nil
    ) async throws -> TestAnswer {
        try await send(
            "POST", "/v1/users", json: account.merging(["nickname": nickname, "password": password]) { $1 },
            port: port)
    }

    /// The sign-in step: `POST /v1/sessions` with `account` and a password, naming `device` when given. 201 with
    /// `userId`, `session` and `chatToken` when it worked.
    public func sendSignIn(
        _ account: [String: String], password: String, device: String? = nil, port: Int? = nil
    ) async throws -> TestAnswer {
        var body: [String: Any] = account.merging(["password": password]) { $1 }
        if let device { body["device"] = device }
        return try await send("POST", "/v1/sessions", json: body, port: port)
    }

    /// `nickname` signed up and signed in (with `mayExist`, an account of `email` made before is signed in
    /// again, from `device`). The email is `<nickname>@example.com` and the password
    /// `password-<nickname>` unless given; `port` sends both steps through a proxy in front of the server.
    /// Throws, with the server's answer, when a step fails.
    public func person(
        _ nickname: String, email: String? = nil, password: String? = nil, device: String? = nil,
        port: Int? = nil, mayExist: Bool = false
    ) async throws -> TestPerson {
        let email = email ?? "\(nickname)@example.com"
        let password = password ?? "password-\(nickname)"
        let made = try await sendSignUp(["email": email], nickname: nickname, password: password, port: port)
        // 409: the address has an account already.
        guard made.status == 201 || (mayExist && made.status == 409) else {
            throw FixtureError(message: "sign-up of \(email): HTTP \(made.status) \(made.json)")
        }
        let login = try await sendSignIn(["email": email], password: password, device: device, port: port)
        guard login.status == 201, let id = login.data["userId"] as? String,
            let session = login.data["session"] as? String, let chatToken = login.data["chatToken"] as? String
        else { throw FixtureError(message: "sign-in of \(email): HTTP \(login.status) \(login.json)") }
        if made.status == 201, made.data["id"] as? String != id {
            throw FixtureError(
                message: "\(email) signed up as \(made.data["id"] ?? "?") but signed in as \(id)")
        }
        return TestPerson(
            id: id, nickname: nickname, email: email, password: password, session: session,
            chatToken: chatToken)
    }
}
