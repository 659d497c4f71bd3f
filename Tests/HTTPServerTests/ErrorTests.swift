import Foundation
import HTTPServer
import Testing

private struct SecretFailure: Error, CustomStringConvertible {
    var description: String { "database password hunter2 at /srv/secret.db\nlevel=info forged=\"1\"" }
}

/// An application's own error, with a code of its own the application's renderer reads.
private struct NameTaken: HTTPResponseError {
    var status: Int { 409 }
    var code: Int { 40901 }
    var message: String { "That name is \"taken\".\nPick another." }
    var headers: [(String, String)] { [("X-Why", "dup")] }
}

/// `jsonRefusal`, with an application error's own code.
private let codedRefusal: ErrorRenderer.Render = { error, context in
    var response = jsonRefusal(error, context)
    if let taken = error as? NameTaken {
        response.body = .data(Data(#"{"status":\#(taken.code),"message":"taken"}"#.utf8))
    }
    return response
}

private func errorRoutes(_ r: Router) {
    r.get("/conflict") { _ in throw NameTaken() }
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
    r.get("/returned") { _ in .error(HTTPError(status: 418, message: "Returned.", headers: [("X-Own", "1")]))
    }
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
    @Test func thrownErrorsRenderStatusMessageAndHeadersThroughTheRenderer() async throws {
        try await withServer(routes: errorRoutes) { s in
            let slow = try await fetch(s.port, "/slow-down")
            #expect(slow.status == 429)
            #expect(slow.header("Content-Type") == "application/json; charset=utf-8")
            #expect(slow.header("Retry-After") == "60")
            #expect(slow.text == #"{"status":429,"message":"Too many tries; wait a minute."}"#)

            let forbidden = try await fetch(s.port, "/forbidden")
            #expect(forbidden.status == 403)
            #expect(forbidden.text == #"{"status":403,"message":"Only the owner may do that."}"#)

            let taken = try await fetch(s.port, "/conflict")
            #expect(taken.status == 409)
            #expect(taken.header("X-Why") == "dup")
            #expect(taken.text == #"{"status":409,"message":"That name is \"taken\".\nPick another."}"#)

            // An error a handler returns instead of throwing; headers added to the response come after its own.
            let returned = try await fetch(s.port, "/returned")
            #expect(returned.status == 418)
            #expect(returned.text == #"{"status":418,"message":"Returned."}"#)
            #expect(returned.header("X-Own") == "1")
        }
        // The renderer is the application's: it may read its own errors' fields.
        try await withServer(config: { $0.errorRenderer = ErrorRenderer(codedRefusal) }, routes: errorRoutes)
        { s in
            let r = try await fetch(s.port, "/conflict")
            #expect(r.status == 409)
            #expect(r.text == #"{"status":40901,"message":"taken"}"#)
        }
    }

    @Test func withoutARendererErrorsArePlainText() async throws {
        try await withServer(config: { $0.errorRenderer = ErrorRenderer() }, routes: errorRoutes) { s in
            let slow = try await fetch(s.port, "/slow-down")
            #expect(slow.status == 429)
            #expect(slow.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(slow.header("Retry-After") == "60")
            #expect(slow.text == "Too many tries; wait a minute.\n")

            // The server's own refusals too.
            let nowhere = try await fetch(s.port, "/nowhere")
            #expect(nowhere.status == 404)
            #expect(nowhere.text == "There is nothing at this address.\n")
            let wrongMethod = try await fetch(s.port, "DELETE", "/forbidden")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(wrongMethod.text == "This address does not accept DELETE requests.\n")
        }
    }

    @Test func aPrefixWordsTheErrorsUnderItItsOwnWay() async throws {
        let seen = Box<[String]>([])
        let rest: ErrorRenderer.Render = { error, context in
            let record =
                "\(error.status) \(context.method) \(context.path) f=\(context.queryValue("f") ?? "-") "
                + "ua=\(context.headers["User-Agent"] ?? "-") handler=\(context.request != nil)"
            seen.update { $0.append(record) }
            return .raw(Data("rest \(error.status)".utf8), contentType: "text/xml", status: 200)
        }
        var renderer = ErrorRenderer(jsonRefusal)
        renderer.render(under: "/rest", with: rest)
        renderer.render(under: "/rest/open", with: ErrorRenderer.plainText)
        try await withServer(
            config: {
                $0.errorRenderer = renderer
                $0.maxBodyBytes = 10
            },
            routes: { r in
                r.get("/rest/ping") { _ in throw HTTPError.notFound("No such song.") }
                r.post("/rest/save") { _ in .json("saved") }
                r.get("/restore") { _ in throw HTTPError.notFound("Nothing to restore.") }
            }
        ) { s in
            // A handler's error, a route that does not exist, a body too large: all in the prefix's words.
            let ping = try await fetch(s.port, "/rest/ping?f=json", headers: [("User-Agent", "DSub")])
            #expect(ping.status == 200)
            #expect(ping.text == "rest 404")
            let missing = try await fetch(s.port, "//rest//nothing?f=xml")
            #expect(missing.text == "rest 404")
            let large = try await fetch(s.port, "POST", "/rest/save", body: Data(repeating: 0x41, count: 100))
            #expect(large.text == "rest 413")
            #expect(
                seen.value == [
                    "404 GET /rest/ping f=json ua=DSub handler=true",
                    "404 GET //rest//nothing f=xml ua=- handler=false",
                    "413 POST /rest/save f=- ua=- handler=false",
                ])
            // The longest prefix wins; a prefix is whole segments.
            let open = try await fetch(s.port, "/rest/open/x")
            #expect(open.text == "There is nothing at this address.\n")
            let restore = try await fetch(s.port, "/restore")
            #expect(restore.text == #"{"status":404,"message":"Nothing to restore."}"#)
            let elsewhere = try await fetch(s.port, "/v1/nothing")
            #expect(elsewhere.text == #"{"status":404,"message":"There is nothing at this address."}"#)
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

            let null = try await fetch(s.port, "/null")
            #expect(null.text == #"null"#)

            let created = try await fetch(s.port, "/created")
            #expect(created.status == 201)
            #expect(created.text == #"{"id":"1"}"#)
        }
    }
}
