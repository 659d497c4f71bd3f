import Foundation
import HTTPServer
import Testing

private struct SecretFailure: Error, CustomStringConvertible {
    var description: String { "database password hunter2 at /srv/secret.db\nlevel=info forged=\"1\"" }
}

private func errorRoutes(_ r: Router) {
    r.get("/conflict") { _ in
        throw HTTPError(
            status: 409, code: 40901, message: "That name is \"taken\".\nPick another.",
            headers: [("X-Why", "dup")])
    }
    r.get("/slow-down") { _ in
        throw HTTPError.tooManyRequests("Too many tries; wait a minute.", retryAfter: 60)
    }
    r.get("/forbidden") { _ in throw HTTPError.forbidden("Only the owner may do that.") }
    r.get("/boom") { _ in throw SecretFailure() }
    r.get("/decoding") { _ in
        throw DecodingError.keyNotFound(
            AnyKey("page"), DecodingError.Context(codingPath: [], debugDescription: "internal detail"))
    }
    r.get("/missing-param") { req in .json(try req.parameter("id")) }
    r.get("/raw") { _ in .raw(Data("plain".utf8), contentType: "text/plain", status: 202) }
    r.get("/ok") { _ in .ok() }
    r.get("/null") { _ in .json(String?.none) }
    r.get("/created") { _ in .json(["id": "1"], status: 201) }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

@Suite struct ErrorTests {
    @Test func httpErrorRendersStatusCodeMessageAndHeaders() async throws {
        try await withServer(routes: errorRoutes) { s in
            let r = try await fetch(s.port, "/conflict")
            #expect(r.status == 409)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect(r.header("X-Why") == "dup")
            #expect(r.text == #"{"status":40901,"message":"That name is \"taken\".\nPick another."}"#)
            #expect(r.json["message"] as? String == "That name is \"taken\".\nPick another.")

            let slow = try await fetch(s.port, "/slow-down")
            #expect(slow.status == 429)
            #expect(slow.header("Retry-After") == "60")
            #expect(slow.text == #"{"status":429,"message":"Too many tries; wait a minute."}"#)

            let forbidden = try await fetch(s.port, "/forbidden")
            #expect(forbidden.status == 403)
            #expect(forbidden.text == #"{"status":403,"message":"Only the owner may do that."}"#)
        }
    }

    @Test func otherErrorsAre500WithAnErrorIDAndNoInternals() async throws {
        let log = LogCapture()
        try await withServer(config: { $0.logger = log.logger }, routes: errorRoutes) { s in
            let r = try await fetch(s.port, "/boom")
            #expect(r.status == 500)
            #expect(r.json["status"] as? Int == 500)
            let message = r.json["message"] as? String ?? ""
            #expect(!message.contains("hunter2"))
            #expect(!message.contains("secret"))
            #expect(!message.contains("SecretFailure"))
            let id = message.firstMatch(of: /error id ([0-9a-f]{8})/)?.1
            #expect(id != nil)
            // The log has the details under the same id.
            if let id {
                let line = await log.waitFor(["error_id=\(id)", "hunter2", "route=/boom"])
                #expect(line != nil)
                // The error text stays one quoted field on one line.
                #expect(line?.contains("\n") == false)
                #expect(
                    line?.hasSuffix(
                        #"error="database password hunter2 at /srv/secret.db\nlevel=info forged=\"1\"""#)
                        == true, "\(line ?? "-")")
            }
            let again = try await fetch(s.port, "/boom")
            let id2 = (again.json["message"] as? String)?.firstMatch(of: /error id ([0-9a-f]{8})/)?.1
            #expect(id2 != nil && id2 != id)
        }
    }

    @Test func decodingErrorsThrownByHandlersAre400() async throws {
        try await withServer(routes: errorRoutes) { s in
            let r = try await fetch(s.port, "/decoding")
            #expect(r.status == 400)
            #expect(r.text == #"{"status":400,"message":"The field 'page' is missing."}"#)

            let p = try await fetch(s.port, "/missing-param")
            #expect(p.status == 400)
            #expect(p.text == #"{"status":400,"message":"The address is missing its id."}"#)
        }
    }

    @Test func responseHelpers() async throws {
        try await withServer(routes: errorRoutes) { s in
            let raw = try await fetch(s.port, "/raw")
            #expect(raw.status == 202)
            #expect(raw.header("Content-Type") == "text/plain")
            #expect(raw.text == "plain")

            let ok = try await fetch(s.port, "/ok")
            #expect(ok.status == 200)
            #expect(ok.text == #"{"status":0}"#)

            let null = try await fetch(s.port, "/null")
            #expect(null.text == #"{"status":0,"data":null}"#)

            let created = try await fetch(s.port, "/created")
            #expect(created.status == 201)
            #expect(created.text == #"{"status":0,"data":{"id":"1"}}"#)
        }
    }
}
