import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An API answer: HTTP status, the decoded envelope and the raw response.
struct Reply {
    let status: Int
    let json: [String: Any]
    let response: HTTPURLResponse

    var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
    var list: [[String: Any]] { json["data"] as? [[String: Any]] ?? [] }
    var message: String { json["message"] as? String ?? "" }
    var retryAfter: Int? { response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) } }
    /// When the server says it wrote what this answer holds (`createdAt`), in its own seconds.
    var createdAt: Int64? {
        (data["createdAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }.map {
            Int64($0.timeIntervalSince1970)
        }
    }
}

/// Checks a posting limit of `limit` a minute by the server's own clock: `written` are the times the server
/// recorded for `limit` posts sent one after another, `next` its answer to one more. Refused (429, wait a
/// minute): all of them were within the minute, as the rule says. Accepted: the first had left the window
/// (`created_at >= now - 60`) by the time the next came, which happens when the machine is so loaded that
/// sending them took longer than a minute, and nothing else.
func expectPostingLimit(
    _ limit: Int, written: [Int64], next: Reply, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(written.count == limit, sourceLocation: sourceLocation)
    guard let first = written.first, let last = written.last else { return }
    if next.status == 429 {
        #expect(next.retryAfter == 60, sourceLocation: sourceLocation)
        #expect(next.message.contains("Wait a minute"), "\(next.json)", sourceLocation: sourceLocation)
        #expect(
            last - first <= 60, "refused although the first was over a minute old",
            sourceLocation: sourceLocation)
    } else {
        #expect(next.status == 201, "\(next.json)", sourceLocation: sourceLocation)
        let at = next.createdAt ?? 0
        #expect(first < at - 60, "accepted within the minute of \(written)", sourceLocation: sourceLocation)
    }
}

extension TestServer {
    /// Calls the API with a JSON body (or raw bytes) and an optional session token.
    @discardableResult
    func call(
        _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, contentType: String? = nil,
        token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        let (data, http) = try await exchange(
            method, path, json: json, body: body, contentType: contentType, token: token, headers: headers)
        ContractCheck.check(
            method: method, path: path, status: http.statusCode, body: data,
            contentType: http.value(forHTTPHeaderField: "Content-Type"))
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Reply(status: http.statusCode, json: object, response: http)
    }

    /// Registers a user and returns its id.
    func signUp(_ account: [String: String], nickname: String, password: String = "correct horse")
        async throws -> String
    {
        let reply = checked(try await sendSignUp(account, nickname: nickname, password: password))
        #expect(reply.status == 201, "\(reply.json)")
        return reply.data["id"] as? String ?? ""
    }

    /// Signs in with a password and returns the session token.
    func signIn(_ account: [String: String], password: String = "correct horse", device: String? = nil)
        async throws -> String
    {
        let reply = checked(try await sendSignIn(account, password: password, device: device))
        #expect(reply.status == 201, "\(reply.json)")
        return reply.data["session"] as? String ?? ""
    }

    /// One of ServerTestSupport's answers, checked against the API contract as `call`'s are.
    func checked(_ answer: TestAnswer) -> TestAnswer {
        ContractCheck.check(
            method: answer.method, path: answer.path, status: answer.status, body: answer.body,
            contentType: answer.contentType)
        return answer
    }

    /// The newest code the built-in sender wrote for `target`, read from the outbox as an administrator.
    func latestCode(for target: String, adminToken: String) async throws -> String? {
        let reply = try await call("GET", "/v1/admin/outbox?size=100", token: adminToken)
        let messages = reply.data["data"] as? [[String: Any]] ?? []
        guard let text = messages.first(where: { $0["target"] as? String == target })?["text"] as? String,
            let range = text.range(of: #"\d{6}"#, options: .regularExpression)
        else { return nil }
        return String(text[range])
    }

    /// Uploads a file as multipart/form-data field `file`.
    func upload(_ path: String, file: Data, fileName: String, token: String?) async throws -> Reply {
        let boundary = "cm-\(UUID().uuidString)"
        var body = Data()
        body.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n"
                    .utf8))
        body.append(Data("Content-Type: application/octet-stream\r\n\r\n".utf8))
        body.append(file)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return try await call(
            "POST", path, body: body, contentType: "multipart/form-data; boundary=\(boundary)", token: token)
    }
}

extension Reply {
    /// The items of a page (`data.data`).
    var items: [[String: Any]] { data["data"] as? [[String: Any]] ?? [] }
    var ids: [String] { items.compactMap { $0["id"] as? String } }
}

extension TestServer {
    /// Starts a scan as an administrator and waits until a newer report than the last one is written.
    func rescan(adminToken: String) async throws {
        let before =
            try await call("GET", "/v1/library/scan", token: adminToken).data["lastReport"] as? [String: Any]
        let started = try await call("POST", "/v1/library/scan", token: adminToken)
        #expect(started.status == 202, "\(started.json)")
        for _ in 0..<300 {
            let status = try await call("GET", "/v1/library/scan", token: adminToken).data
            if status["running"] as? Bool == false, let report = status["lastReport"] as? [String: Any],
                report["id"] as? String != before?["id"] as? String
            {
                return
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        Issue.record("the rescan did not finish")
    }
}
