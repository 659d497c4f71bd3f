import AudioMetadata
import Foundation
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads (`POST v1/files/multi`) and stored files (`GET v1/files/{name}`), end to end over the real server
/// binary with pictures made by ffmpeg.
@Suite struct UploadAPITests {
    /// One multipart file part.
    struct Part {
        var data: Data
        var fileName: String
        var contentType = "application/octet-stream"
        var field = "file"
    }

    struct World {
        let server: TestServer
        /// The server's TMPDIR, where the HTTP layer streams file parts.
        let uploadTemp: String
        let tokens: [String]
        let userIDs: [String]

        var ann: String { tokens[0] }
        var bob: String { tokens[1] }
        var filesFolder: String { server.dataFolder + "/files" }

        static func start(people: Int = 2) async throws -> World {
            let temp = temporaryFolder()
            let server = try await TestServer.start(.empty, environment: ["TMPDIR": temp])
            var tokens: [String] = []
            var ids: [String] = []
            for index in 0..<people {
                let account = ["email": "u\(index)@example.com"]
                ids.append(try await server.signUp(account, nickname: "Uploader \(index)"))
                tokens.append(try await server.signIn(account))
            }
            return World(server: server, uploadTemp: temp, tokens: tokens, userIDs: ids)
        }

        func upload(_ parts: [Part], token: String?) async throws -> Reply {
            let boundary = "cm-\(UUID().uuidString)"
            var body = Data()
            for part in parts {
                body.append(
                    Data(
                        ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.field)\"; "
                            + "filename=\"\(part.fileName)\"\r\nContent-Type: \(part.contentType)\r\n\r\n")
                            .utf8))
                body.append(part.data)
                body.append(Data("\r\n".utf8))
            }
            body.append(Data("--\(boundary)--\r\n".utf8))
            return try await server.call(
                "POST", "/v1/files/multi", body: body,
                contentType: "multipart/form-data; boundary=\(boundary)",
                token: token)
        }

        /// Uploads and expects success; the stored files in order.
        func uploadOK(
            _ parts: [Part], token: String, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> [[String: Any]] {
            let reply = try await upload(parts, token: token)
            #expect(reply.status == 200, "\(reply.json)", sourceLocation: sourceLocation)
            #expect(reply.list.count == parts.count, "\(reply.json)", sourceLocation: sourceLocation)
            return reply.list
        }

        /// GET of a path relative to the server root, as the apps join `uri` and `icon`.
        func fetch(_ uri: String, headers: [String: String] = [:]) async throws -> (
            Int, Data, HTTPURLResponse
        ) {
            try await server.request("/" + uri, headers: headers)
        }

        /// Every file under the data folder's `files`, as paths relative to it.
        func storedFiles() -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: filesFolder)
            var found: [String] = []
            while let next = enumerator?.nextObject() as? String {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: filesFolder + "/" + next, isDirectory: &isFolder),
                    !isFolder.boolValue
                {
                    found.append(next)
                }
            }
            return found.sorted()
        }

        /// Multipart temporary files the HTTP layer still holds; it deletes them as the request ends, a
        /// moment after the answer is sent, so this waits up to two seconds for them to go.
        func leftoverUploadTemporaries() async throws -> [String] {
            var left: [String] = []
            for _ in 0..<40 {
                left = try FileManager.default.contentsOfDirectory(atPath: uploadTemp)
                if left.isEmpty { break }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            return left
        }

        func database() throws -> Database { try Database(path: server.dataFolder + "/cloudmusic.sqlite") }
    }

    // MARK: Pictures

    /// A picture made by ffmpeg from a lavfi source (`testsrc=size=WxH` by default), in the format the
    /// file extension names.
    static func picture(
        _ ext: String, size: String = "640x480", source: String? = nil, extra: [String] = []
    ) async throws -> Data {
        try await offPool {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/picture." + ext
            try FFmpeg.installed!.run(
                ["-f", "lavfi", "-i", source ?? "testsrc=size=\(size)", "-frames:v", "1"] + extra + [path])
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }

    static let gpsMarker = "CMGPSMARKER-WGS-84"

    /// A JPEG with an EXIF APP1 segment right after SOI: orientation 6 (turn 90° clockwise to show) and a GPS
    /// IFD with a latitude and a map datum holding `gpsMarker`.
    static func withEXIF(_ jpeg: Data) -> Data {
        var tiff: [UInt8] = []
        func u16(_ v: Int) { tiff += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) {
            u16(v & 0xFFFF)
            u16(v >> 16 & 0xFFFF)
        }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) {
            u16(tag)
            u16(type)
            u32(count)
            u32(value)
        }
        let datum = Array(gpsMarker.utf8) + [0]
        // Header at 0, IFD0 at 8 (2 entries, 30 bytes), GPS IFD at 38 (3 entries, 42 bytes), rationals at 80,
        // text at 104.
        tiff += Array("II".utf8)
        u16(42)
        u32(8)
        u16(2)
        tiff += [0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]  // Orientation SHORT 1 = 6
        entry(0x8825, 4, 1, 38)  // GPS IFD pointer
        u32(0)
        u16(3)
        tiff += [0x01, 0x00, 2, 0, 2, 0, 0, 0, UInt8(ascii: "N"), 0, 0, 0]  // GPSLatitudeRef "N"
        entry(0x0002, 5, 3, 80)  // GPSLatitude, 3 rationals
        entry(0x0012, 2, datum.count, 104)  // GPSMapDatum
        u32(0)
        for (n, d) in [(51, 1), (30, 1), (1234, 100)] {
            u32(n)
            u32(d)
        }
        tiff += datum
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var out = Data(jpeg.prefix(2))
        out.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        out.append(jpeg.dropFirst(2))
        return out
    }

    /// A PNG whose header claims `width`x`height` (the CRC recomputed), followed by the small picture's data.
    static func withClaimedSize(_ png: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](png)
        for (offset, value) in [(16, width), (20, height)] {
            for i in 0..<4 { bytes[offset + i] = UInt8(value >> (24 - 8 * i) & 0xFF) }
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[12..<29] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        for i in 0..<4 { bytes[29 + i] = UInt8(crc >> (24 - 8 * UInt32(i)) & 0xFF) }
        return Data(bytes)
    }

    static func dimensions(_ reply: [String: Any]) -> (Int, Int) {
        (reply["width"] as? Int ?? -1, reply["height"] as? Int ?? -1)
    }

    // MARK: Tests

    @Test func storesSeveralPicturesInTheOrderSent() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        let jpeg = try await Self.picture("jpg")
        let png = try await Self.picture(
            "png", source: "color=c=red@0.5:size=300x200,format=rgba")
        let gif = try await Self.picture("gif", size: "100x80")
        let wide = try await Self.picture("jpg", size: "2400x600")
        let webp = try await Self.picture("webp", size: "320x240", extra: ["-c:v", "libwebp"])

        let files = try await world.uploadOK(
            [
                Part(data: jpeg, fileName: "a.jpg", contentType: "image/jpeg"),
                Part(data: png, fileName: "b.png", contentType: "image/png"),
                Part(data: gif, fileName: "c.gif"),
                Part(data: wide, fileName: "d.jpg", field: "files"),
                Part(data: webp, fileName: "e.webp"),
            ], token: world.ann)
        try #require(files.count == 5)
        #expect(
            files.map { $0["mime"] as? String } == [
                "image/jpeg", "image/png", "image/png", "image/jpeg", "image/jpeg",
            ])
        #expect(Self.dimensions(files[0]) == (640, 480))
        #expect(Self.dimensions(files[1]) == (300, 200))
        #expect(Self.dimensions(files[2]) == (100, 80))
        #expect(Self.dimensions(files[3]) == (2048, 512), "the long side is capped at 2048")
        #expect(Self.dimensions(files[4]) == (320, 240))

        for (file, original) in zip(files, [jpeg, png, gif, wide, webp]) {
            let id = try #require(file["id"] as? String)
            #expect(id.count == 64 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            let ext = file["mime"] as? String == "image/png" ? "png" : "jpg"
            #expect(file["uri"] as? String == "v1/files/\(id).\(ext)")
            #expect(file["icon"] as? String == "v1/files/\(id).thumb.\(ext)")
            #expect(UploadedFiles.sha256(fromURI: file["uri"] as? String ?? "") == id)
            #expect(UploadedFiles.sha256(fromURI: file["icon"] as? String ?? "") == nil)

            let (status, body, response) = try await world.fetch(file["uri"] as! String)
            #expect(status == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == file["mime"] as? String)
            #expect(body.count == file["size"] as? Int)
            if ext == "jpg" { #expect(body != original, "what is stored is the server's own encoding") }
            let magic: [UInt8] = ext == "png" ? [0x89, 0x50, 0x4E, 0x47] : [0xFF, 0xD8, 0xFF]
            #expect(Array(body.prefix(magic.count)) == magic)
            let cache = response.value(forHTTPHeaderField: "Cache-Control") ?? ""
            #expect(cache.contains("immutable") && cache.contains("max-age=31536000"))
            let etag = try #require(response.value(forHTTPHeaderField: "ETag"))
            let (again, _, _) = try await world.fetch(
                file["uri"] as! String, headers: ["If-None-Match": etag])
            #expect(again == 304)

            let (thumbStatus, thumb, _) = try await world.fetch(file["icon"] as! String)
            #expect(thumbStatus == 200)
            #expect(Array(thumb.prefix(magic.count)) == magic)
            #expect(thumb.count <= body.count)
        }
        // The thumbnails are at most 360 pixels on their long side.
        let folder = temporaryFolder()
        let thumbPath = folder + "/wide.thumb.jpg"
        try await world.fetch(files[3]["icon"] as! String).1.write(to: URL(fileURLWithPath: thumbPath))
        let (_, probe, _) = try await runFFmpegProbe(thumbPath)
        #expect(probe.contains("360x90"), "\(probe)")
    }

    /// A moment carries pictures its author uploaded, with their thumbnails and sizes; someone else's
    /// upload, a thumbnail or a made-up name is refused.
    @Test func momentsCarryTheirAuthorsUploads() async throws {
        let world = try await World.start()
        let jpeg = try await Self.picture("jpg")
        let png = try await Self.picture("png", size: "320x200")
        let stored = try await world.uploadOK(
            [Part(data: jpeg, fileName: "a.jpg"), Part(data: png, fileName: "b.png")], token: world.ann)
        let uris = stored.compactMap { $0["uri"] as? String }
        let published = try await world.server.call(
            "POST", "/v1/feeds", json: ["content": "", "images": uris.map { ["uri": $0] }], token: world.ann)
        #expect(published.status == 201, "\(published.json)")
        let images = published.data["images"] as? [[String: Any]] ?? []
        #expect(images.compactMap { $0["uri"] as? String } == uris)
        #expect(images.compactMap { $0["icon"] as? String } == stored.compactMap { $0["icon"] as? String })
        #expect(images.last?["width"] as? Int == 320)
        let thumbnail = try await world.fetch(try #require(images.first?["icon"] as? String))
        #expect(thumbnail.0 == 200)

        for uri in [
            uris[0], stored[0]["icon"] as! String, "v1/files/" + String(repeating: "a", count: 64) + ".jpg",
        ] {
            let refused = try await world.server.call(
                "POST", "/v1/feeds", json: ["content": "x", "images": [["uri": uri]]], token: world.bob)
            #expect(refused.status == 400, "\(uri): \(refused.json)")
        }
    }

    @Test func aPictureThatLiesAboutItsTypeIsRefusedAndNothingIsStored() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        let png = try await Self.picture("png", size: "64x64")
        let script = Data("<?php system($_GET['c']); ?>\n<svg onload=alert(1)>".utf8)
        let lie = try await world.upload(
            [
                Part(data: png, fileName: "fine.png", contentType: "image/png"),
                Part(data: script, fileName: "holiday.jpg", contentType: "image/jpeg"),
            ], token: world.ann)
        #expect(lie.status == 415, "\(lie.json)")
        #expect(lie.json["status"] as? Int == 415)
        #expect(
            lie.message.contains("File 2 (holiday.jpg)") && lie.message.contains("content"), "\(lie.message)")

        // JPEG's magic number, then garbage: it passes the first look but ffmpeg cannot decode it.
        var broken = Data([0xFF, 0xD8, 0xFF, 0xE0])
        broken.append(Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        let damaged = try await world.upload(
            [
                Part(data: png, fileName: "fine.png"),
                Part(data: broken, fileName: "broken.jpg", contentType: "image/jpeg"),
            ], token: world.ann)
        #expect(damaged.status == 400, "\(damaged.json)")
        #expect(damaged.message.contains("could not be read"), "\(damaged.message)")

        // A picture whose header claims 10000x10000 pixels (over the 40 million allowed) is refused before
        // it is decoded.
        let bomb = Self.withClaimedSize(png, width: 10000, height: 10000)
        let refused = try await world.upload([Part(data: bomb, fileName: "bomb.png")], token: world.ann)
        #expect(refused.status == 400, "\(refused.json)")

        #expect(world.storedFiles() == [], "neither the good picture nor a temporary file was kept")
        let rows = try world.database().read {
            try $0.queryOne("SELECT count(*) FROM uploaded_files") { try $0.int(0) }
        }
        #expect(rows == 0)
        #expect(try await world.leftoverUploadTemporaries() == [])
    }

    @Test func aFiftyMegabyteUploadIsRefusedCleanly() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        var huge = Data([0xFF, 0xD8, 0xFF, 0xE0])
        huge.append(Data(count: 50 << 20))
        let reply = try await world.upload(
            [Part(data: huge, fileName: "huge.jpg", contentType: "image/jpeg")], token: world.ann)
        #expect(reply.status == 413, "\(reply.json)")
        #expect(reply.json["status"] as? Int == 413)
        #expect(reply.message.contains("20 MB"), "\(reply.message)")
        #expect(world.storedFiles() == [])
        #expect(try await world.leftoverUploadTemporaries() == [])

        // The server goes on serving, uploads included.
        let small = try await Self.picture("jpg", size: "64x48")
        let files = try await world.uploadOK([Part(data: small, fileName: "small.jpg")], token: world.ann)
        #expect(Self.dimensions(files.first ?? [:]) == (64, 48))
        #expect(try await world.server.call("GET", "/v1/server").status == 200)
    }

    @Test func theSameBytesAreStoredOnce() async throws {
        let world = try await World.start()
        defer { _ = world.server.stop() }
        let jpeg = try await Self.picture("jpg", size: "320x240")
        let first = try await world.uploadOK([Part(data: jpeg, fileName: "one.jpg")], token: world.ann)
        let id = try #require(first.first?["id"] as? String)
        let again = try await world.uploadOK(
            [
                Part(data: jpeg, fileName: "renamed.png", contentType: "image/png"),
                Part(data: jpeg, fileName: "twice.jpeg"),
            ], token: world.bob)
        #expect(again.map { $0["id"] as? String } == [id, id])
        #expect(again.first?["uri"] as? String == first.first?["uri"] as? String)
        #expect(again.first?["size"] as? Int == first.first?["size"] as? Int)
        let prefix = String(id.prefix(2))
        #expect(world.storedFiles() == ["\(prefix)/\(id).jpg", "\(prefix)/\(id).thumb.jpg"])

        let (owner, uploaders) = try world.database().read { db in
            (
                try db.queryOne("SELECT user_id FROM uploaded_files WHERE sha256 = ?", id) {
                    try $0.int64(0)
                },
                try db.queryOne("SELECT count(*) FROM user_files WHERE sha256 = ?", id) { try $0.int(0) }
            )
        }
        #expect(owner.map(String.init) == world.userIDs[0], "the first uploader is kept")
        #expect(uploaders == 2, "every uploader is recorded once")

        // What the moments code asks: is this uri a file this person uploaded?
        let own = try #require(
            try await world.uploadOK(
                [Part(data: await Self.picture("png", size: "20x10"), fileName: "x.png")], token: world.ann
            ).first)
        let files = UploadService(database: try world.database(), folder: world.filesFolder)
        let ann = Int64(world.userIDs[0])!
        let bob = Int64(world.userIDs[1])!
        let uri = try #require(first.first?["uri"] as? String)
        #expect(try files.uploadedFile(uri: uri, by: ann)?.id == id)
        #expect(try files.uploadedFile(uri: uri, by: bob)?.id == id)
        #expect(try files.uploadedFile(uri: own["uri"] as! String, by: ann)?.width == 20)
        #expect(try files.uploadedFile(uri: own["uri"] as! String, by: bob) == nil, "someone else's picture")
        #expect(try files.uploadedFile(uri: first.first?["icon"] as! String, by: ann) == nil)
        #expect(try files.uploadedFile(uri: "v1/files/\(id).png", by: ann) == nil, "stored as JPEG")
    }

    @Test func concurrentIdenticalUploadsLeaveOneIntactCopy() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        let png = try await Self.picture("png", size: "480x360")
        struct Outcome: Sendable {
            var status: Int
            var id: String?
            var uri: String?
            var size: Int?
        }
        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let reply = try await world.upload(
                        [Part(data: png, fileName: "p\(index).png")], token: world.ann)
                    let file = reply.list.first ?? [:]
                    return Outcome(
                        status: reply.status, id: file["id"] as? String, uri: file["uri"] as? String,
                        size: file["size"] as? Int)
                }
            }
            return try await group.reduce(into: [Outcome]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0.status == 200 }, "\(outcomes)")
        #expect(Set(outcomes.compactMap(\.id)).count == 1)
        let stored = world.storedFiles()
        #expect(stored.count == 2, "\(stored)")
        let uri = try #require(outcomes.first?.uri)
        let (status, body, _) = try await world.fetch(uri)
        #expect(status == 200)
        #expect(outcomes.allSatisfy { $0.size == body.count })
    }

    @Test func locationAndOtherMetadataAreStrippedAndOrientationApplied() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        let plain = try await Self.picture("jpg", size: "640x480")
        let tagged = Self.withEXIF(plain)
        #expect(tagged.range(of: Data("Exif\0\0".utf8)) != nil)
        #expect(tagged.range(of: Data(Self.gpsMarker.utf8)) != nil)

        let files = try await world.uploadOK([Part(data: tagged, fileName: "IMG_0001.JPG")], token: world.ann)
        let file = try #require(files.first)
        #expect(Self.dimensions(file) == (480, 640), "EXIF orientation 6 is applied before it is dropped")
        for uri in [file["uri"] as! String, file["icon"] as! String] {
            let (status, body, _) = try await world.fetch(uri)
            #expect(status == 200)
            #expect(body.range(of: Data("Exif".utf8)) == nil, "\(uri) still has EXIF")
            #expect(body.range(of: Data(Self.gpsMarker.utf8)) == nil, "\(uri) still has the GPS data")
            #expect(body.range(of: Data("Lavc".utf8)) == nil, "\(uri) names the encoder")
        }
        // The file on disk is the one served.
        let id = file["id"] as! String
        let onDisk = try Data(
            contentsOf: URL(fileURLWithPath: "\(world.filesFolder)/\(id.prefix(2))/\(id).jpg"))
        #expect(onDisk.range(of: Data("Exif".utf8)) == nil)
    }

    @Test func onlySignedInPeopleUpload() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        let png = try await Self.picture("png", size: "32x32")
        for token in [nil, "not-a-session", "Bearer 0123"] as [String?] {
            let reply = try await world.upload([Part(data: png, fileName: "a.png")], token: token)
            #expect(reply.status == 401, "\(reply.json)")
            #expect(reply.json["status"] as? Int == 401)
            #expect(!reply.message.isEmpty)
        }
        #expect(world.storedFiles() == [])
        let bearer = try await world.upload(
            [Part(data: png, fileName: "a.png")], token: "Bearer \(world.ann)")
        #expect(bearer.status == 200, "\(bearer.json)")
    }

    @Test func badNamesAreNotFound() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        let png = try await Self.picture("png", size: "32x32")
        let file = try #require(
            try await world.uploadOK([Part(data: png, fileName: "a.png")], token: world.ann).first)
        let id = try #require(file["id"] as? String)
        #expect(try await world.fetch("v1/files/\(id).png").0 == 200)

        let unknown = String(repeating: "ab", count: 32)
        for name in [
            "\(id).jpg",  // stored as PNG
            "\(id).thumb.jpg", "\(id.uppercased()).png", "\(id).PNG", "\(id).jpeg", "\(id)", "\(id).png.png",
            "\(id).thumb.thumb.png", "\(id.prefix(63)).png", "\(unknown).jpg", "\(unknown).thumb.jpg",
            "cloudmusic.sqlite", ".\(id).png", "\(id).png%00", "\(id).png%20",
        ] {
            let reply = try await world.server.call("GET", "/v1/files/\(name)")
            #expect(reply.status == 404, "\(name): \(reply.status) \(reply.json)")
            #expect(reply.json["status"] as? Int == 404, "\(name): \(reply.json)")
            #expect(!reply.message.isEmpty)
        }
        // `multi` is the upload's own address: it takes POST only.
        #expect(try await world.server.call("GET", "/v1/files/multi").status == 405)
        // Escaped slashes and dot segments are stopped by the HTTP layer before routing (400), never served.
        for path in [
            "/v1/files/..%2f..%2fcloudmusic.sqlite", "/v1/files/%2e%2e%2fcloudmusic.sqlite",
            "/v1/files/%2e%2e/%2e%2e/cloudmusic.sqlite",
            "/v1/files/\(id.prefix(2))%2f\(id).png",
        ] {
            let reply = try await world.server.call("GET", path)
            #expect([400, 404].contains(reply.status), "\(path): \(reply.status)")
            #expect((reply.json["status"] as? Int ?? 0) != 0, "\(path): \(reply.json)")
        }
    }

    @Test func tooManyOrEmptyPartsAreClearErrors() async throws {
        let world = try await World.start(people: 1)
        defer { _ = world.server.stop() }
        let png = try await Self.picture("png", size: "16x16")
        let ten = try await world.upload(
            (0..<10).map { Part(data: png, fileName: "\($0).png") }, token: world.ann)
        #expect(ten.status == 400, "\(ten.json)")
        #expect(ten.message.contains("at most 9") && ten.message.contains("10"), "\(ten.message)")

        let empty = try await world.upload(
            [Part(data: png, fileName: "ok.png"), Part(data: Data(), fileName: "nothing.jpg")],
            token: world.ann)
        #expect(empty.status == 400, "\(empty.json)")
        #expect(empty.message.contains("File 2 (nothing.jpg) is empty"), "\(empty.message)")

        let none = try await world.upload([], token: world.ann)
        #expect(none.status == 400, "\(none.json)")
        #expect(none.message.contains("at least one picture"), "\(none.message)")

        let json = try await world.server.call(
            "POST", "/v1/files/multi", json: ["file": "x"], token: world.ann)
        #expect(json.status == 400, "\(json.json)")
        #expect(json.message.contains("multipart/form-data"), "\(json.message)")
        #expect(world.storedFiles() == [])
    }

    @Test func uploadsPerMinuteAreLimited() async throws {
        let world = try await World.start()
        defer { _ = world.server.stop() }
        let png = try await Self.picture("png", size: "16x16")
        let nine = (0..<9).map { Part(data: png, fileName: "\($0).png") }
        for _ in 0..<3 { _ = try await world.uploadOK(nine, token: world.ann) }
        let limited = try await world.upload(nine, token: world.ann)
        #expect(limited.status == 429, "\(limited.json)")
        #expect(limited.message.contains("30 files a minute"), "\(limited.message)")
        #expect((limited.retryAfter ?? 0) > 0)
        let three = Array(nine.prefix(3))
        #expect(try await world.upload(three, token: world.ann).status == 200, "27 + 3 is still allowed")
        #expect(try await world.upload(three, token: world.bob).status == 200, "the limit is per person")
    }

    @Test func uriHelperAcceptsOnlyStoredFileURIs() {
        let id = String(repeating: "0f", count: 32)
        #expect(UploadedFiles.sha256(fromURI: "v1/files/\(id).jpg") == id)
        #expect(UploadedFiles.sha256(fromURI: "v1/files/\(id).png") == id)
        for bad in [
            "/v1/files/\(id).jpg", "v1/files/\(id.uppercased()).jpg", "v1/files/\(id).thumb.jpg",
            "v1/files/\(id).gif", "v1/files/\(id)", "v1/files/\(id.dropLast()).jpg", "v1/files/../\(id).jpg",
            "https://example.com/v1/files/\(id).jpg", "v1/files/\(id).jpg?x=1", "v1/users/1/avatar", "",
        ] {
            #expect(UploadedFiles.sha256(fromURI: bad) == nil, "\(bad)")
        }
    }
}

/// ffmpeg's description of a picture's video stream (its first line mentioning "Video:").
private func runFFmpegProbe(_ path: String) async throws -> (Int32, String, String) {
    let result = await run(FFmpeg.installed!.executable, ["-nostdin", "-hide_banner", "-i", path])
    let output = result.errorOutput
    let line = output.split(separator: "\n").first { $0.contains("Video:") }.map(String.init) ?? output
    return (result.status, line, output)
}
