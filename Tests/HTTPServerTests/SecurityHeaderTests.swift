import Foundation
import HTTPServer
import Testing

private let defaultCSP = "default-src 'none'; frame-ancestors 'none'"

private func headerRoutes(_ r: Router) {
    r.get("/json") { _ in .json(["a": 1]) }
    r.get("/text") { _ in .raw(Data("hi".utf8), contentType: "text/plain; charset=utf-8") }
    r.get("/page") { _ in
        var h = HTTPHeaders()
        h.add("Content-Type", "text/html; charset=utf-8")
        h.add("Content-Security-Policy", "default-src 'self'")
        return Response(status: 200, headers: h, body: Data("<p>hi</p>".utf8))
    }
    r.get("/own") { _ in
        var h = HTTPHeaders()
        h.add("Content-Type", "application/problem+json")
        h.add("content-security-policy", "sandbox")
        h.add("Referrer-Policy", "strict-origin-when-cross-origin")
        h.add("X-Content-Type-Options", "nosniff")
        return Response(status: 200, headers: h, body: Data("{}".utf8))
    }
    r.get("/stream") { _ in
        .stream(contentType: "application/octet-stream") { w in try await w.write(Data("abc".utf8)) }
    }
    r.get("/fail") { _ in throw HTTPError.forbidden("No.") }
}

@Suite struct SecurityHeaderTests {
    @Test func everyAnswerSaysNosniffAndNoReferrer() async throws {
        try await withServer(routes: headerRoutes) { s in
            for target in ["/json", "/text", "/page", "/stream", "/fail", "/nowhere", "/health"] {
                let r = try await fetch(s.port, target)
                #expect(r.headerValues("X-Content-Type-Options") == ["nosniff"], "\(target)")
                #expect(r.headerValues("Referrer-Policy") == ["no-referrer"], "\(target)")
            }
            let options = try await fetch(s.port, "OPTIONS", "/json")
            #expect(options.status == 204)
            #expect(options.header("X-Content-Type-Options") == "nosniff")
        }
    }

    @Test func jsonAnswersGetTheDefaultContentSecurityPolicyAndOthersDoNot() async throws {
        try await withServer(routes: headerRoutes) { s in
            for target in ["/json", "/fail", "/nowhere", "/health"] {
                let r = try await fetch(s.port, target)
                #expect(r.header("Content-Type")?.hasPrefix("application/json") == true, "\(target)")
                #expect(r.headerValues("Content-Security-Policy") == [defaultCSP], "\(target)")
            }
            #expect(try await fetch(s.port, "/text").header("Content-Security-Policy") == nil)
            #expect(try await fetch(s.port, "/stream").header("Content-Security-Policy") == nil)
            // A page sends its own policy, which is the only one.
            #expect(
                try await fetch(s.port, "/page").headerValues("Content-Security-Policy") == [
                    "default-src 'self'"
                ])
        }
    }

    @Test func aHandlersOwnHeadersWin() async throws {
        try await withServer(routes: headerRoutes) { s in
            let r = try await fetch(s.port, "/own")
            #expect(r.headerValues("Content-Security-Policy") == ["sandbox"])
            #expect(r.headerValues("Referrer-Policy") == ["strict-origin-when-cross-origin"])
            #expect(r.headerValues("X-Content-Type-Options") == ["nosniff"])
        }
    }

    @Test func thePoliciesAreConfigurable() async throws {
        try await withServer(
            config: {
                $0.apiContentSecurityPolicy = "default-src 'none'"
                $0.referrerPolicy = "strict-origin-when-cross-origin"
            }, routes: headerRoutes
        ) { s in
            let r = try await fetch(s.port, "/json")
            #expect(r.header("Content-Security-Policy") == "default-src 'none'")
            #expect(r.header("Referrer-Policy") == "strict-origin-when-cross-origin")
        }
        try await withServer(
            config: {
                $0.apiContentSecurityPolicy = nil
                $0.referrerPolicy = nil
            }, routes: headerRoutes
        ) { s in
            let r = try await fetch(s.port, "/json")
            #expect(r.header("Content-Security-Policy") == nil)
            #expect(r.header("Referrer-Policy") == nil)
            #expect(r.header("X-Content-Type-Options") == "nosniff")
        }
    }
}
