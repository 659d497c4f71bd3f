import Foundation
import ServerTestSupport
import Testing

/// A stand-in for an SMTP relay on a loopback port: answers one session with the given replies and
/// records what it was sent. A command it does not expect fails the test.
final class FakeSMTPRelay: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var lines: [String] = []
    private let done = DispatchSemaphore(value: 0)

    /// `rcptReply` is what RCPT TO answers (250 accepts the recipient).
    init(rcptReply: String = "250 OK") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        listen(fd, 4)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve(rcptReply: rcptReply) }
        thread.start()
    }

    var received: [String] { lock.withLock { lines } }

    /// Waits until the session ended (QUIT or hang-up).
    func waitForSession(seconds: Double = 20) -> Bool { done.wait(timeout: .now() + seconds) == .success }

    private func serve(rcptReply: String) {
        let client = accept(listener, nil, nil)
        defer {
            close(client)
            close(listener)
            done.signal()
        }
        func reply(_ text: String) {
            _ = Array((text + "\r\n").utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
        }
        reply("220 fake relay ready")
        var buffer: [UInt8] = []
        var inData = false
        while true {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            buffer.append(contentsOf: chunk[..<n])
            while let end = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<end].filter { $0 != 0x0D }, as: UTF8.self)
                buffer.removeSubrange(...end)
                lock.withLock { lines.append(line) }
                if inData {
                    if line == "." {
                        inData = false
                        reply("250 queued")
                    }
                    continue
                }
                switch line.prefix(4).uppercased() {
                case "EHLO": reply("250-fake relay\r\n250 8BITMIME")
                case "MAIL": reply("250 OK")
                case "RCPT": reply(rcptReply)
                case "DATA":
                    inData = true
                    reply("354 go on")
                case "QUIT":
                    reply("221 bye")
                    return
                default:
                    Issue.record("the relay did not expect '\(line)'")
                    reply("500 unexpected")
                    return
                }
            }
        }
    }
}

@Suite struct SMTPSenderTests {
    @Test func emailCodesGoThroughTheRelayAndSignIn() async throws {
        let relay = try FakeSMTPRelay()
        let server = try await TestServer.start(
            .empty,
            extraArguments: [
                "--smtp-host", "127.0.0.1", "--smtp-port", String(relay.port), "--smtp-from",
                "music@example.org",
            ])
        defer { _ = server.stop() }
        _ = try await server.signUp(["email": "ann@example.com"], nickname: "Ann")
        let sent = try await server.call(
            "POST", "/v1/codes", json: ["email": "ann@example.com", "purpose": "login"])
        #expect(sent.status == 200 || sent.status == 201, "\(sent.json)")
        #expect(relay.waitForSession())
        let lines = relay.received
        #expect(lines.contains("MAIL FROM:<music@example.org>"))
        #expect(lines.contains("RCPT TO:<ann@example.com>"))
        #expect(lines.contains("To: ann@example.com"))
        #expect(lines.last == "QUIT")
        // The body is base64 between the blank line after the headers and the final ".".
        let start = try #require(lines.firstIndex(of: "")) + 1
        let end = try #require(lines.lastIndex(of: "."))
        let body = String(decoding: Data(base64Encoded: lines[start..<end].joined()) ?? Data(), as: UTF8.self)
        let range = try #require(body.range(of: #"\d{6}"#, options: .regularExpression))
        let signedIn = try await server.call(
            "POST", "/v1/sessions", json: ["email": "ann@example.com", "code": String(body[range])])
        #expect(signedIn.status == 201, "\(signedIn.json)")
        // Email codes no longer go to the outbox.
        let admin = signedIn.data["session"] as? String
        #expect(try await server.latestCode(for: "ann@example.com", adminToken: admin ?? "") == nil)
    }

    @Test func aRelayThatRefusesIsAClearErrorNotACrash() async throws {
        let relay = try FakeSMTPRelay(rcptReply: "550 no such mailbox")
        let server = try await TestServer.start(
            .empty,
            extraArguments: [
                "--smtp-host", "127.0.0.1", "--smtp-port", String(relay.port),
            ])
        defer { _ = server.stop() }
        let sent = try await server.call(
            "POST", "/v1/codes", json: ["email": "ann@example.com", "purpose": "login"])
        #expect(sent.status == 503)
        #expect(sent.message.contains("could not send the email"))
        #expect(try await server.call("GET", "/health").status == 200)
    }
}
