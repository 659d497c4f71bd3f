import Foundation
import Testing

/// One text policy over every field people write: the same tricks get the same refusal in a message, a
/// comment, a moment, a nickname, a sheet's title, description and tags, a profile field and a device name.
@Suite struct TextPolicyAPITests {
    typealias World = CommentAPITests.World

    @Test func everyWrittenFieldRefusesTheSameTricks() async throws {
        let world = try await World.start(people: 2)
        let server = world.server
        let ann = world.ann
        let bob = world.bob
        // Each field: where it is sent, and the body with the text put in.
        let fields: [(name: String, method: String, path: String, body: (String) -> [String: Any])] = [
            ("A message", "POST", "/v1/messages", { ["userId": bob.id, "kind": "text", "content": $0] }),
            ("A comment", "POST", "/v1/comments", { ["songId": world.songs[0], "content": $0] }),
            ("A moment", "POST", "/v1/feeds", { ["content": $0] }),
            ("A nickname", "PATCH", "/v1/users/\(ann.id)", { ["nickname": $0] }),
            ("The description", "PATCH", "/v1/users/\(ann.id)", { ["description": $0] }),
            ("The title", "POST", "/v1/sheets", { ["title": $0] }),
            ("The description", "POST", "/v1/sheets", { ["title": "ok", "detail": $0] }),
            ("A tag", "POST", "/v1/sheets", { ["title": "ok", "tags": [$0]] }),
        ]
        let tricks = [
            ("invoice_\u{202E}gpj.exe", "cannot contain text-direction control characters."),
            ("zero\u{200B}width", "cannot contain invisible characters"),
            ("e" + String(repeating: "\u{0301}", count: 150_000), "is too long"),
            ("a\u{7}b", "control characters"),
        ]
        for field in fields {
            for (text, refusal) in tricks {
                let reply = try await server.call(
                    field.method, field.path, json: field.body(text), token: ann.token)
                #expect(reply.status == 400, "\(field.name) \(field.path): \(reply.json)")
                #expect(
                    reply.message.hasPrefix(field.name) && reply.message.contains(refusal),
                    "\(field.name) \(field.path): \(reply.message)")
            }
        }
        // What people really write goes through, as written.
        let written = try await server.call(
            "POST", "/v1/comments", json: ["songId": world.songs[0], "content": "好听 👨‍👩‍👧‍👦 cafe\u{301}"],
            token: ann.token)
        #expect(written.status == 201, "\(written.json)")
        #expect(
            Array((written.data["content"] as? String ?? "").unicodeScalars)
                == Array("好听 👨‍👩‍👧‍👦 cafe\u{301}".unicodeScalars))
    }
}
