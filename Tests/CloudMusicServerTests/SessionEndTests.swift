import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every way a session or its chat token ends closes the event streams it holds open at once: the stream
/// must not keep delivering private messages after sign-out.
@Suite struct SessionEndTests {
    typealias World = CommentAPITests.World
    typealias Chatter = MessageAPITests.Chatter

    /// A session of `person` (index in the world) signed in on a device of its own, with its stream open.
    static func openStream(_ world: World, _ index: Int, device: String) async throws -> (
        Chatter, EventStreamReader
    ) {
        let reply = world.server.checked(
            try await world.server.sendSignIn(
                ["email": "p\(index)@example.com"], password: "correct horse", device: device))
        try #require(reply.status == 201, "\(reply.json)")
        let chatter = Chatter(
            id: world.people[index].id, token: reply.data["session"] as! String,
            chatToken: reply.data["chatToken"] as! String)
        let stream = try MessageAPITests.stream(world, chatter)
        try #require(stream.waitUntilReady() != nil)
        return (chatter, stream)
    }

    /// Waits at most `seconds` for the stream to end (it ends as soon as it does), and says whether it did.
    static func closes(_ stream: EventStreamReader, within seconds: Double) -> Bool {
        stream.wait(seconds: seconds) { _ in false }
        return stream.hasEnded
    }

    @Test func signingOutAndEveryOtherEndClosesTheStreamWithinASecond() async throws {
        let world = try await World.start(people: 3, songs: false)
        let admin = world.people[0]
        let bob = MessageAPITests.Chatter(id: world.bob.id, token: world.bob.token, chatToken: "")

        // Signing out this device.
        let (ann, annStream) = try await Self.openStream(world, 2, device: "phone")
        #expect(try await world.server.call("DELETE", "/v1/sessions/current", token: ann.token).status == 200)
        #expect(Self.closes(annStream, within: 1), "the stream outlived DELETE /v1/sessions/current")
        // Nothing sent after the end reaches it, and its chat token opens nothing.
        try await MessageAPITests.send(world, "after sign-out", from: bob, to: ann)
        #expect(!annStream.events.contains { $0.kind == "message" })
        let reopened = try MessageAPITests.stream(world, ann)
        reopened.wait { _ in reopened.status != nil }
        #expect(reopened.status == 401)

        // Signing another of one's devices out.
        let (tablet, tabletStream) = try await Self.openStream(world, 2, device: "tablet")
        let (laptop, _) = try await Self.openStream(world, 2, device: "laptop")
        let sessions = try await world.server.call("GET", "/v1/sessions", token: laptop.token)
        let tabletID = try #require(
            sessions.list.first { $0["device"] as? String == "tablet" }?["id"] as? String)
        #expect(
            try await world.server.call("DELETE", "/v1/sessions/\(tabletID)", token: laptop.token).status
                == 200)
        #expect(Self.closes(tabletStream, within: 1), "the stream outlived DELETE /v1/sessions/{id}")
        _ = tablet

        // A password change signs every other device out; the device that changed it keeps its stream.
        let (_, otherStream) = try await Self.openStream(world, 2, device: "other")
        let (changer, changerStream) = try await Self.openStream(world, 2, device: "changer")
        #expect(
            try await world.server.call(
                "PUT", "/v1/users/\(changer.id)/password",
                json: ["password": "correct horse", "newPassword": "a new long passphrase 42"],
                token: changer.token
            ).status == 200)
        #expect(Self.closes(otherStream, within: 1), "the stream outlived a password change")
        #expect(!changerStream.hasEnded)

        // A new chat token is not an end: the stream opened with it replaces the old one.
        #expect(try await world.server.call("POST", "/v1/events/token", token: changer.token).status == 201)
        #expect(!changerStream.hasEnded)

        // An administrator disabling the account, then deleting it.
        let (_, bobStream) = try await Self.openStream(world, 1, device: "phone")
        #expect(
            try await world.server.call(
                "PATCH", "/v1/admin/users/\(world.bob.id)", json: ["disabled": true], token: admin.token
            ).status == 200)
        #expect(Self.closes(bobStream, within: 1), "the stream outlived disabling the account")
        #expect(
            try await world.server.call(
                "PATCH", "/v1/admin/users/\(world.bob.id)", json: ["disabled": false], token: admin.token
            ).status == 200)
        let (_, bobAgain) = try await Self.openStream(world, 1, device: "phone")
        #expect(
            try await world.server.call("DELETE", "/v1/users/\(world.bob.id)", token: admin.token).status
                == 200)
        #expect(Self.closes(bobAgain, within: 1), "the stream outlived deleting the account")
    }

    @Test func aPasswordResetClosesEveryStream() async throws {
        let world = try await World.start(people: 2, songs: false)
        let (_, stream) = try await Self.openStream(world, 1, device: "phone")
        #expect(
            try await world.server.call(
                "POST", "/v1/codes", json: ["email": "p1@example.com", "purpose": "reset"]
            ).status == 200)
        let code = try #require(
            try await world.server.latestCode(for: "p1@example.com", adminToken: world.ann.token))
        #expect(
            try await world.server.call(
                "POST", "/v1/users/reset_password",
                json: ["email": "p1@example.com", "code": code, "password": "a new long passphrase 42"]
            ).status == 200)
        #expect(Self.closes(stream, within: 1), "the stream outlived a password reset")
    }

    /// Another process ending the session (here the shell's `user disable`, writing to the same database):
    /// the server reads the ends the database wrote, as a second server instance would.
    @Test func anEndWrittenByAnotherProcessClosesTheStream() async throws {
        let world = try await World.start(people: 2, songs: false)
        let (_, stream) = try await Self.openStream(world, 1, device: "phone")
        let (code, _, errors) = try await runServerCommand([
            "user", "disable", "p1@example.com", "--data", world.server.dataFolder,
        ])
        #expect(code == 0, "\(errors)")
        // The server looks for ends written elsewhere twice a second.
        #expect(Self.closes(stream, within: 3), "the stream outlived an end written by another process")
    }
}
