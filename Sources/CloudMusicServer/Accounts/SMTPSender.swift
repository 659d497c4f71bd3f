import Foundation
import MusicCore
import Storage

/// Sends email codes through an SMTP relay; SMS codes still go to `fallback` (the outbox), since no SMS
/// gateway is wired in.
///
/// Plain SMTP without TLS or login: it is meant for a relay on this machine or its private network
/// (Postfix, a mail container) that forwards the mail onwards with its own credentials.
struct SMTPSender: CodeSender {
    let host: String
    let port: Int
    let from: String
    let fallback: any CodeSender
    var timeoutSeconds = 10

    static let unavailable = ServiceError.unavailable(
        "The server could not send the email now. Try again in a few minutes.")

    func send(channel: String, target: String, purpose: String, text: String) throws {
        guard channel == "email" else {
            return try fallback.send(channel: channel, target: target, purpose: purpose, text: text)
        }
        let subject =
            purpose == "reset" ? "Your CloudMusic password reset code" : "Your CloudMusic sign-in code"
        try deliver(to: target, message: Self.message(from: from, to: target, subject: subject, text: text))
    }

    /// SMS codes go to the fallback in the caller's transaction; an email is delivered after it committed,
    /// so no transaction waits on the relay.
    func send(_ db: Connection, channel: String, target: String, purpose: String, text: String) throws
        -> CodeDelivery?
    {
        guard channel == "email" else {
            return try fallback.send(db, channel: channel, target: target, purpose: purpose, text: text)
        }
        return { try send(channel: channel, target: target, purpose: purpose, text: text) }
    }

    /// An RFC 5322 message: UTF-8 text in base64, so no line of it can end the DATA early.
    static func message(from: String, to: String, subject: String, text: String, date: Date = Date())
        -> String
    {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let body = Data(text.utf8).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
        return [
            "From: \(from)",
            "To: \(to)",
            "Subject: =?UTF-8?B?\(Data(subject.utf8).base64EncodedString())?=",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(UUID().uuidString)@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
            body,
        ].joined(separator: "\r\n")
    }

    private func deliver(to target: String, message: String) throws {
        // Addresses were checked by AccountRules; refuse anything that could add a command anyway.
        guard !(target + from).contains(where: { $0 == "\r" || $0 == "\n" || $0 == "<" || $0 == ">" }) else {
            throw ServiceError.invalid("That email address cannot be used.")
        }
        let connection = try SMTPConnection(host: host, port: port, timeoutSeconds: timeoutSeconds)
        defer { connection.close() }
        try connection.expect(220)
        try connection.command("EHLO cloudmusic", expect: 250)
        try connection.command("MAIL FROM:<\(from)>", expect: 250)
        try connection.command("RCPT TO:<\(target)>", expect: 250, 251)
        try connection.command("DATA", expect: 354)
        try connection.command(message + "\r\n.", expect: 250)
        try? connection.command("QUIT", expect: 221)
    }
}

/// One SMTP session over a blocking socket with timeouts.
private final class SMTPConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(host: String, port: Int, timeoutSeconds: Int) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw SMTPSender.unavailable
        }
        defer { freeaddrinfo(list) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        var connected: Int32 = -1
        while let info = candidate, connected < 0 {
            let socketFD = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if socketFD >= 0 {
                var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
                setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                if connect(socketFD, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    connected = socketFD
                } else {
                    Foundation.close(socketFD)
                }
            }
            candidate = info.pointee.ai_next
        }
        guard connected >= 0 else { throw SMTPSender.unavailable }
        fd = connected
    }

    func close() { Foundation.close(fd) }

    func command(_ line: String, expect codes: Int...) throws {
        let bytes = Array((line + "\r\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes {
                Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw SMTPSender.unavailable }
            sent += n
        }
        try expect(codes)
    }

    func expect(_ codes: Int...) throws { try expect(codes) }

    /// Reads one reply (all its "NNN-" lines and the final "NNN ") and checks its code.
    private func expect(_ codes: [Int]) throws {
        while true {
            let line = try readLine()
            guard line.count >= 3, let code = Int(line.prefix(3)) else { throw SMTPSender.unavailable }
            if line.count > 3 && line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
            guard codes.contains(code) else { throw SMTPSender.unavailable }
            return
        }
    }

    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<end].filter { $0 != 0x0D }
                buffer.removeSubrange(...end)
                return String(decoding: line, as: UTF8.self)
            }
            guard buffer.count < 64 << 10 else { throw SMTPSender.unavailable }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw SMTPSender.unavailable }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}
