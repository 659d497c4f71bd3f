import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two terminal players, signed in as two people, each in its own tmux: what one writes shows on the other's
/// screen by itself, through the server's event stream.
@Suite(.serialized) struct TerminalPlayerMessagesTests {
    /// Signs in over HTTP (a session of its own) and answers the session token and the user id.
    static func session(_ server: TestServer, email: String, password: String) async throws -> (
        String, String
    ) {
        let answer = try await server.sendSignIn(["email": email], password: password).data
        return (try #require(answer["session"] as? String), try #require(answer["userId"] as? String))
    }

    static func follow(_ server: TestServer, token: String, userID: String) async throws {
        var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/friends"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["userId": userID])
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((200..<300).contains((response as? HTTPURLResponse)?.statusCode ?? 0))
    }

    @Test func aMessageSentInOnePlayerAppearsInTheOthersWithoutAKeyPress() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        try await signUp(
            server, email: "quilla@example.com", password: "quilla passphrase", nickname: "Quilla")
        try await signUp(
            server, email: "zephyrus@example.com", password: "zephyrus passphrase", nickname: "Zephyrus")
        let quilla = try TerminalPlayer(server: server)
        let zephyrus = try TerminalPlayer(server: server)
        try await quilla.signIn(
            email: "quilla@example.com", password: "quilla passphrase", nickname: "Quilla")
        try await zephyrus.signIn(
            email: "zephyrus@example.com", password: "zephyrus passphrase", nickname: "Zephyrus")

        // Zephyrus opens Messages: nothing yet, and the stream is live.
        try await zephyrus.session.press("8")
        try await zephyrus.session.waitFor("Zephyrus's empty, live Messages screen", seconds: 90) { rows in
            rows.contains { $0.contains("No conversations yet") } && rows.contains { $0.hasSuffix("● live") }
        }

        // Quilla finds Zephyrus among people and writes to him.
        try await quilla.session.press("/")
        try await quilla.session.type("Zephyrus")
        try await quilla.session.waitFor("Zephyrus found", seconds: 90) { rows in
            rows.contains { $0.contains("People (1)") } && rows.contains { $0.hasPrefix("  Zephyrus") }
        }
        try await quilla.session.press("Enter")
        try await quilla.session.press("Enter")
        try await quilla.session.waitFor("Quilla's chat, live", seconds: 90) { rows in
            rows.contains { $0.hasPrefix("Chat with Zephyrus") && $0.hasSuffix("● live") }
        }
        try await quilla.session.type("Hello from Quilla 你好")
        try await quilla.session.press("Enter")

        // On Zephyrus's screen, with no key pressed there: the conversation, its last message, unread.
        let list = try await zephyrus.session.waitFor("Quilla's message in Zephyrus's list", seconds: 90) {
            rows in
            rows.contains {
                $0.contains("Quilla") && $0.contains("Hello from Quilla 你好") && $0.hasSuffix("● 1")
            }
        }
        #expect(list.first?.contains("Messages 1") == true)

        // He opens it and it is read; her next message comes into the open chat by itself.
        try await zephyrus.session.press("Enter")
        try await zephyrus.session.waitFor(text: "Chat with Quilla", seconds: 90)
        try await zephyrus.session.waitFor("the badge gone once read", seconds: 90) { rows in
            rows.first.map { !$0.contains("Messages 1") } ?? false
        }
        try await quilla.session.type("Are you there?")
        try await quilla.session.press("Enter")
        try await zephyrus.session.waitFor("the second message in Zephyrus's chat", seconds: 90) { rows in
            rows.contains { $0.contains("Are you there?") }
        }

        // His answer shows in her chat, and she sees he read hers.
        try await zephyrus.session.type("Yes! 在的")
        try await zephyrus.session.press("Enter")
        try await quilla.session.waitFor("the answer and the read mark in Quilla's chat", seconds: 90) {
            rows in
            rows.contains { $0.contains("Yes! 在的") }
                && rows.contains { $0.hasPrefix("You ·") && $0.contains("· seen") }
        }

        // Someone follows her: the inbox's badge, then the notification.
        let (token, _) = try await Self.session(
            server, email: "zephyrus@example.com", password: "zephyrus passphrase")
        let (_, quillaID) = try await Self.session(
            server, email: "quilla@example.com", password: "quilla passphrase")
        try await Self.follow(server, token: token, userID: quillaID)
        try await quilla.session.waitFor("the inbox badge", seconds: 90) { rows in
            rows.first?.contains("Inbox 1") == true
        }
        try await quilla.session.press("Escape")
        try await quilla.session.press("9")
        try await quilla.session.waitFor(text: "● Zephyrus followed you", seconds: 90)

        for player in [quilla, zephyrus] {
            try await player.session.press("Escape")
            try await player.session.press("Escape")
            try await player.session.press("q")
            #expect(try await player.session.waitForExit().status == 0)
        }
    }
}
