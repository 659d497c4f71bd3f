import Foundation
import HTTPServer
import Testing

private struct UploadInfo: Codable, Sendable {
    var fields: [String: String]
    var files: [FileInfo]
}

private struct FileInfo: Codable, Sendable {
    var field: String
    var name: String?
    var type: String?
    var path: String
    var size: Int
    var sha: String
}

private func digest(_ d: Data) -> String {
    // FNV-1a, enough to compare bytes.
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in d {
        h ^= UInt64(b)
        h = h &* 0x100_0000_01b3
    }
    return String(h, radix: 16) + "-\(d.count)"
}

private func bodyRoutes(_ r: Router) {
    r.post("/echo") { req in .json(try req.decode(Echo.self)) }
    r.post("/nested") { req in
        struct List: Codable { var items: [Echo] }
        return .json(try req.decode(List.self).items.count)
    }
    r.post("/form") { req in
        guard case .form(let f) = req.body else { throw HTTPError.badRequest("not a form") }
        return .json(f)
    }
    r.post("/raw") { req in
        guard case .data(let d, let ct) = req.body else { return .json(["kind": "empty"]) }
        return .json(["kind": "data", "type": ct ?? "-", "digest": digest(d)])
    }
    r.post("/upload") { req in
        guard case .multipart(let form) = req.body else { throw HTTPError.badRequest("not multipart") }
        var files: [FileInfo] = []
        for f in form.files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: f.path))
            files.append(
                FileInfo(
                    field: f.fieldName, name: f.fileName, type: f.contentType, path: f.path, size: f.size,
                    sha: digest(bytes)))
        }
        return .json(UploadInfo(fields: form.fields, files: files))
    }
}

private func multipartBody(
    boundary: String, fields: [(String, String)],
    files: [(field: String, name: String, type: String, data: Data)]
) -> Data {
    var d = Data()
    for (k, v) in fields {
        d.append(
            contentsOf: "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(k)\"\r\n\r\n\(v)\r\n".utf8)
    }
    for f in files {
        d.append(
            contentsOf:
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(f.field)\"; filename=\"\(f.name)\"\r\nContent-Type: \(f.type)\r\n\r\n"
                .utf8)
        d.append(f.data)
        d.append(contentsOf: "\r\n".utf8)
    }
    d.append(contentsOf: "--\(boundary)--\r\n".utf8)
    return d
}

/// Bytes that look like multipart syntax in places, to catch boundary handling mistakes.
private func trickyBytes(_ n: Int) -> Data {
    var g = SystemRandomNumberGenerator()
    var d = Data((0..<n).map { _ in UInt8.random(in: 0...255, using: &g) })
    let fake = Array("\r\n--not-the-boundary\r\n".utf8)
    for i in stride(from: 100, to: n - fake.count, by: 9000) {
        d.replaceSubrange(i..<(i + fake.count), with: fake)
    }
    return d
}

@Suite struct BodyTests {
    @Test func jsonBodyDecodes() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let r = try await fetch(
                s.port, "POST", "/echo", headers: [("Content-Type", "application/json")],
                body: Data(#"{"name":"周 \"x\"","count":3}"#.utf8))
            #expect(r.status == 200)
            #expect(r.text == #"{"count":3,"name":"周 \"x\""}"#)

            // A chunked JSON body, and a +json media type.
            let chunkedBody = chunked([Data(#"{"name":"a","#.utf8), Data(#""count":-1}"#.utf8)])
            let c = try await fetch(
                s.port, "POST", "/echo",
                headers: [("Content-Type", "application/vnd.api+json"), ("Transfer-Encoding", "chunked")],
                body: chunkedBody)
            #expect(c.status == 200)
            #expect(c.text == #"{"count":-1,"name":"a"}"#)
        }
    }

    @Test func badJSONBodiesGet400Or415() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let json = [("Content-Type", "application/json")]
            let malformed = try await fetch(
                s.port, "POST", "/echo", headers: json, body: Data("{\"name\":".utf8))
            #expect(malformed.status == 400)
            #expect(malformed.text == #"{"status":400,"message":"The request body is not valid JSON."}"#)

            let missing = try await fetch(
                s.port, "POST", "/echo", headers: json, body: Data(#"{"name":"a"}"#.utf8))
            #expect(missing.status == 400)
            #expect(missing.json["message"] as? String == "The field 'count' is missing.")

            let mistyped = try await fetch(
                s.port, "POST", "/echo", headers: json, body: Data(#"{"name":"a","count":"3"}"#.utf8))
            #expect(mistyped.status == 400)
            #expect(mistyped.json["message"] as? String == "The field 'count' should be a whole number.")

            let null = try await fetch(
                s.port, "POST", "/echo", headers: json, body: Data(#"{"name":null,"count":1}"#.utf8))
            #expect(null.status == 400)
            #expect(null.json["message"] as? String == "The field 'name' should be a string, not null.")

            let nested = try await fetch(
                s.port, "POST", "/nested", headers: json,
                body: Data(#"{"items":[{"name":"a","count":1},{"name":"b"}]}"#.utf8))
            #expect(nested.status == 400)
            #expect(nested.json["message"] as? String == "The field 'items[1].count' is missing.")

            let array = try await fetch(s.port, "POST", "/echo", headers: json, body: Data("[1]".utf8))
            #expect(array.status == 400)

            let empty = try await fetch(s.port, "POST", "/echo", headers: json, body: Data())
            #expect(empty.status == 400)
            #expect(empty.json["message"] as? String == "The request needs a JSON body.")

            let text = try await fetch(
                s.port, "POST", "/echo", headers: [("Content-Type", "text/plain")],
                body: Data(#"{"name":"a","count":1}"#.utf8))
            #expect(text.status == 415)
            #expect(text.json["status"] as? Int == 415)

            let form = try await fetch(
                s.port, "POST", "/echo", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("name=a&count=1".utf8))
            #expect(form.status == 415)
        }
    }

    @Test func urlEncodedForm() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let ct = [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")]
            let r = try await fetch(
                s.port, "POST", "/form", headers: ct,
                body: Data("name=a+b&city=%E5%8C%97%E4%BA%AC&empty=&plus=%2B&name2=x%26y".utf8))
            #expect(r.status == 200)
            #expect(
                r.value as? [String: String] == [
                    "name": "a b", "city": "北京", "empty": "", "plus": "+", "name2": "x&y",
                ])

            let bad = try await fetch(s.port, "POST", "/form", headers: ct, body: Data("a=%ZZ".utf8))
            #expect(bad.status == 400)
            #expect(bad.json["status"] as? Int == 400)
        }
    }

    @Test func rawBodyKeepsBytesAndType() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let bytes = trickyBytes(50_000)
            let r = try await fetch(
                s.port, "POST", "/raw", headers: [("Content-Type", "application/octet-stream")], body: bytes)
            #expect(r.status == 200)
            #expect(
                r.value as? [String: String] == [
                    "kind": "data", "type": "application/octet-stream", "digest": digest(bytes),
                ])

            let none = try await fetch(s.port, "POST", "/raw", body: Data())
            #expect(none.value as? [String: String] == ["kind": "empty"])
        }
    }

    @Test func multipartUploadLandsInATemporaryFileThatIsDeletedAfterwards() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let song = trickyBytes(150_000)
            let cover = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let boundary = "----cloudmusic\(UInt32.random(in: 0...UInt32.max))"
            let body = multipartBody(
                boundary: boundary, fields: [("title", "晴天"), ("note", "a\r\nb")],
                files: [
                    (field: "song", name: "晴天.mp3", type: "audio/mpeg", data: song),
                    (field: "cover", name: "c.png", type: "image/png", data: cover),
                ])
            let r = try await fetch(
                s.port, "POST", "/upload",
                headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
            #expect(r.status == 200)
            let info = try JSONDecoder().decode(UploadInfo.self, from: r.body)
            #expect(info.fields == ["title": "晴天", "note": "a\r\nb"])
            #expect(info.files.count == 2)
            guard info.files.count == 2 else { return }
            #expect(info.files[0].field == "song")
            #expect(info.files[0].name == "晴天.mp3")
            #expect(info.files[0].type == "audio/mpeg")
            #expect(info.files[0].size == song.count)
            #expect(info.files[0].sha == digest(song))
            #expect(info.files[1].field == "cover")
            #expect(info.files[1].size == 8)
            #expect(info.files[1].sha == digest(cover))
            #expect(info.files[0].path != info.files[1].path)
            let tmp =
                ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            #expect(
                info.files.allSatisfy { $0.path.hasPrefix(tmp + "/cloudmusic-upload-") },
                "\(info.files.map(\.path))")
            // Gone once the request is over.
            let paths = info.files.map(\.path)
            #expect(await eventually { paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) } })
        }
    }

    @Test func multipartUploadSentChunked() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let song = trickyBytes(70_000)
            let boundary = "b0undary"
            let body = multipartBody(
                boundary: boundary, fields: [],
                files: [(field: "f", name: "x.bin", type: "application/x", data: song)])
            let parts = stride(from: 0, to: body.count, by: 10_000).map {
                body.subdata(in: $0..<min(body.count, $0 + 10_000))
            }
            let r = try await fetch(
                s.port, "POST", "/upload",
                headers: [
                    ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
                    ("Transfer-Encoding", "chunked"),
                ], body: chunked(parts))
            #expect(r.status == 200)
            let info = try JSONDecoder().decode(UploadInfo.self, from: r.body)
            #expect(info.files.map(\.size) == [song.count])
            #expect(info.files.map(\.sha) == [digest(song)])
        }
    }

    @Test func truncatedMultipartIs400() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let boundary = "zzz"
            var body = multipartBody(
                boundary: boundary, fields: [("a", "b")],
                files: [
                    (field: "f", name: "x.bin", type: "application/x", data: Data(repeating: 7, count: 1000))
                ])
            body.removeLast(20)
            let r = try await fetch(
                s.port, "POST", "/upload",
                headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")],
                body: body)
            #expect(r.status == 400)
            #expect(r.json["status"] as? Int == 400)
        }
    }

    @Test func bodyOverTheLimitWithContentLengthIs413() async throws {
        try await withServer(config: { $0.maxBodyBytes = 1024 }, routes: bodyRoutes) { s in
            // Answered from the headers alone, before any body byte is sent.
            let r = try await onThread {
                let c = try RawClient(port: s.port)
                try c.send(
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1025\r\n\r\n"
                )
                return try c.readResponse()
            }
            #expect(r.status == 413)
            #expect(r.json["status"] as? Int == 413)
            #expect(r.json["message"] as? String == "The request body is larger than the 1 KB allowed.")

            // Exactly at the limit is fine.
            let atLimit = try await fetch(
                s.port, "POST", "/raw", headers: [("Content-Type", "application/octet-stream")],
                body: Data(repeating: 1, count: 1024))
            #expect(atLimit.status == 200)

            // Forms have the same limit.
            let form = try await onThread {
                let c = try RawClient(port: s.port)
                try c.send(
                    "POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n"
                )
                return try c.readResponse()
            }
            #expect(form.status == 413)
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() async throws {
        try await withServer(config: { $0.maxBodyBytes = 1024 }, routes: bodyRoutes) { s in
            let parts = (0..<6).map { _ in Data(repeating: 0x61, count: 500) }
            let r = try await fetch(
                s.port, "POST", "/raw",
                headers: [("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")],
                body: chunked(parts))
            #expect(r.status == 413)
            #expect(r.json["message"] as? String == "The request body is larger than the 1 KB allowed.")
            // The server still serves.
            let ok = try await fetch(s.port, "/health")
            #expect(ok.status == 200)
        }
    }

    @Test func uploadOverTheLimitIs413() async throws {
        try await withServer(
            config: {
                $0.maxUploadBytes = 4096
                $0.maxBodyBytes = 100
            }, routes: bodyRoutes
        ) { s in
            let boundary = "limit"
            // Multipart bodies are measured against maxUploadBytes, not maxBodyBytes.
            let small = multipartBody(
                boundary: boundary, fields: [],
                files: [(field: "f", name: "a", type: "application/x", data: Data(repeating: 1, count: 3000))]
            )
            let ok = try await fetch(
                s.port, "POST", "/upload",
                headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")],
                body: small)
            #expect(ok.status == 200)

            let r = try await onThread {
                let c = try RawClient(port: s.port)
                try c.send(
                    "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: 5000\r\n\r\n"
                )
                return try c.readResponse()
            }
            #expect(r.status == 413)
            #expect(r.json["message"] as? String == "The upload is larger than the 4 KB allowed.")

            let big = multipartBody(
                boundary: boundary, fields: [],
                files: [(field: "f", name: "a", type: "application/x", data: Data(repeating: 1, count: 6000))]
            )
            let parts = stride(from: 0, to: big.count, by: 1000).map {
                big.subdata(in: $0..<min(big.count, $0 + 1000))
            }
            let chunkedUpload = try await fetch(
                s.port, "POST", "/upload",
                headers: [
                    ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
                    ("Transfer-Encoding", "chunked"),
                ], body: chunked(parts))
            #expect(chunkedUpload.status == 413)
            #expect(chunkedUpload.json["message"] as? String == "The upload is larger than the 4 KB allowed.")
        }
    }

    @Test func badContentLengthIs400() async throws {
        try await withServer(routes: bodyRoutes) { s in
            let r = try await onThread {
                let c = try RawClient(port: s.port)
                try c.send("POST /raw HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
                return c.readUntilClosed(timeout: 2).map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(r?.hasPrefix("HTTP/1.1 400") == true)
        }
    }
}
