import CloudMusicKit
import Foundation
import MusicCore
import ServerTestSupport
import Testing

/// The event stream against the real server: live messages, a dropped connection resumed with
/// `Last-Event-ID`, `reload`, `replaced`, a refused chat token, both transports, and stopping.
@Suite struct EventStreamTests {
    static func send(_ text: String, from sender: MusicRepository, to userID: String) async throws -> Message
    {
        try await sender.client.send(
            MessagesAPI.send,
            body: MessageDraft(
                userId: try ID(validating: userID, field: "userId"), kind: .text, content: text))
    }

    @Test func aMessageFromSomeoneElseArrivesLive() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        let (bob, bobLogin) = try await EventFixture.person(server, "bob")
        let stream = EventStream(
            client: ann.client, chatToken: annLogin.chatToken, configuration: EventFixture.configuration)
        let collector = EventCollector(stream)
        defer { collector.stop() }
        try await collector.waitFor("ready") { $0.contains { if case .ready = $0 { true } else { false } } }

        let sent = try await Self.send("你好, Ann 🎵", from: bob, to: annLogin.userId)
        let events = try await collector.waitFor("Bob's message") {
            $0.contains(where: EventFixture.isMessage("你好, Ann 🎵"))
        }
        guard case .message(let event)? = events.first(where: EventFixture.isMessage("你好, Ann 🎵")) else {
            return
        }
        #expect(event.message.id == sent.id)
        #expect(event.message.sender.id == bobLogin.userId)
        #expect(event.unreadCount == 1)
        #expect(stream.lastEventID.flatMap(Int.init) ?? 0 > 0)
    }

    @Test func aDroppedConnectionResumesWithExactlyTheMissedEventsOnce() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let proxy = try DroppingProxy(targetPort: server.port)
        defer { proxy.stop() }
        // Ann listens through the proxy; Bob writes straight to the server.
        let (ann, annLogin) = try await EventFixture.person(server, "ann", port: proxy.port)
        let (bob, _) = try await EventFixture.person(server, "bob")
        let stream = EventStream(
            client: ann.client, chatToken: annLogin.chatToken, configuration: EventFixture.configuration)
        let collector = EventCollector(stream)
        defer { collector.stop() }
        try await collector.waitFor("ready") { _ in collector.readyCount == 1 }
        _ = try await Self.send("one", from: bob, to: annLogin.userId)
        try await collector.waitFor("one") { $0.contains(where: EventFixture.isMessage("one")) }

        proxy.drop()
        try await collector.waitFor("the drop") {
            $0.contains { if case .disconnected = $0 { true } else { false } }
        }
        _ = try await Self.send("two", from: bob, to: annLogin.userId)
        _ = try await Self.send("three", from: bob, to: annLogin.userId)
        // Ann is still cut off: the reconnections are turned away.
        try await eventually("a reconnection turned away") { proxy.connections >= 3 }
        #expect(!collector.texts.contains("two"))
        proxy.release()

        try await collector.waitFor("the missed messages and a second ready") { _ in
            collector.readyCount >= 2 && collector.texts.contains("three")
        }
        _ = try await Self.send("four", from: bob, to: annLogin.userId)
        try await collector.waitFor("four") { $0.contains(where: EventFixture.isMessage("four")) }
        #expect(collector.texts == ["one", "two", "three", "four"])
        // The missed ones came before the second ready (replayed), the live one after it.
        let events = collector.events
        let secondReady = try #require(
            events.indices.filter { if case .ready = events[$0] { true } else { false } }.dropFirst().first)
        let three = try #require(events.firstIndex(where: EventFixture.isMessage("three")))
        let four = try #require(events.firstIndex(where: EventFixture.isMessage("four")))
        #expect(three < secondReady && secondReady < four)
    }

    @Test func aNewStreamResumesFromAnEarlierOnesLastEventID() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        let (bob, _) = try await EventFixture.person(server, "bob")
        let first = EventStream(
            client: ann.client, chatToken: annLogin.chatToken, configuration: EventFixture.configuration)
        let collector = EventCollector(first)
        // A stream opened without Last-Event-ID has what is committed after it opened: wait for that.
        try await collector.waitFor("ready") { _ in collector.readyCount == 1 }
        _ = try await Self.send("before", from: bob, to: annLogin.userId)
        try await collector.waitFor("before") { $0.contains(where: EventFixture.isMessage("before")) }
        collector.stop()
        _ = try await collector.waitForEnd()
        let resumeFrom = try #require(first.lastEventID)

        _ = try await Self.send("missed 1", from: bob, to: annLogin.userId)
        _ = try await Self.send("missed 2", from: bob, to: annLogin.userId)
        let second = EventStream(
            client: ann.client, chatToken: annLogin.chatToken, lastEventID: resumeFrom,
            configuration: EventFixture.configuration)
        let resumed = EventCollector(second)
        defer { resumed.stop() }
        let events = try await resumed.waitFor("ready") { _ in resumed.readyCount == 1 }
        #expect(resumed.texts == ["missed 1", "missed 2"])
        #expect(events.count == 3)
    }

    @Test func eventsTooOldOrUnknownSayReload() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        // An id the server never gave out: it cannot know what was missed.
        for resume in ["999999999", "not-a-number"] {
            let stream = EventStream(
                client: ann.client, chatToken: annLogin.chatToken, lastEventID: resume,
                configuration: EventFixture.configuration)
            let collector = EventCollector(stream)
            let events = try await collector.waitFor("ready after \(resume)") { _ in collector.readyCount == 1
            }
            #expect(events.first == .reload, "\(resume): \(events)")
            #expect(events.last.map { if case .ready = $0 { true } else { false } } == true)
            #expect(stream.lastEventID != resume)
            collector.stop()
            _ = try await collector.waitForEnd()
        }
    }

    @Test func aSecondStreamOfTheSameDeviceReplacesTheFirst() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        let (bob, _) = try await EventFixture.person(server, "bob")
        let first = EventCollector(
            EventStream(
                client: ann.client, chatToken: annLogin.chatToken, configuration: EventFixture.configuration))
        defer { first.stop() }
        try await first.waitFor("the first ready") { _ in first.readyCount == 1 }
        let second = EventCollector(
            EventStream(
                client: ann.client, chatToken: annLogin.chatToken, configuration: EventFixture.configuration))
        defer { second.stop() }
        try await second.waitFor("the second ready") { _ in second.readyCount == 1 }

        let ending = try await first.waitForEnd()
        guard case .finished = ending else {
            Issue.record("the replaced stream failed: \(ending)")
            return
        }
        #expect(first.events.last == .replaced)
        // The first does not come back to take over again; the second goes on.
        _ = try await Self.send("after", from: bob, to: annLogin.userId)
        try await second.waitFor("after") { $0.contains(where: EventFixture.isMessage("after")) }
        #expect(!first.texts.contains("after"))
        #expect(!second.events.contains(.replaced))
    }

    @Test func aRefusedChatTokenIsRenewedWithTheSessionAndWithoutOneTheStreamEnds() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        let stale = String(repeating: "ab", count: 32)
        let stream = EventStream(
            client: ann.client, chatToken: stale, configuration: EventFixture.configuration)
        let collector = EventCollector(stream)
        defer { collector.stop() }
        try await collector.waitFor("ready with a new token") { _ in collector.readyCount == 1 }
        #expect(stream.chatToken != stale && stream.chatToken != nil)
        // The sign-in's chat token was replaced by the new one.
        #expect(stream.chatToken != annLogin.chatToken)

        // No chat token at all: one is asked for.
        let fresh = EventCollector(EventStream(client: ann.client, configuration: EventFixture.configuration))
        defer { fresh.stop() }
        try await fresh.waitFor("ready with a token asked for") { _ in fresh.readyCount == 1 }

        // Signed out: the stream ends with the 401.
        let signedOut = APIClient(baseURL: server.baseURL)
        let refused = EventCollector(
            EventStream(client: signedOut, chatToken: stale, configuration: EventFixture.configuration))
        guard case .failed(let error) = try await refused.waitForEnd() else {
            Issue.record("a refused stream without a session did not fail")
            return
        }
        #expect((error as? APIError)?.kind == .unauthorized)
        #expect((error as? APIError)?.message.contains("chat token") == true)
    }

    @Test func theURLSessionTransportReadsTheSameStream() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        let (bob, _) = try await EventFixture.person(server, "bob")
        var configuration = EventFixture.configuration
        configuration.transport = .urlSession
        let collector = EventCollector(
            EventStream(client: ann.client, chatToken: annLogin.chatToken, configuration: configuration))
        defer { collector.stop() }
        try await collector.waitFor("ready") { _ in collector.readyCount == 1 }
        _ = try await Self.send("over URLSession", from: bob, to: annLogin.userId)
        try await collector.waitFor("the message") {
            $0.contains(where: EventFixture.isMessage("over URLSession"))
        }
    }

    @Test func cancellingStopsTheStreamAtOnce() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        for transport in [EventStream.Transport.socket, .urlSession] {
            var configuration = EventFixture.configuration
            configuration.transport = transport
            let collector = EventCollector(
                EventStream(client: ann.client, chatToken: annLogin.chatToken, configuration: configuration))
            try await collector.waitFor("ready") { _ in collector.readyCount == 1 }
            let start = Date()
            collector.stop()
            guard case .finished = try await collector.waitForEnd(seconds: 30) else {
                Issue.record("\(transport): a cancelled stream should end quietly")
                continue
            }
            // Not the idle timeout (65 s): the connection is closed when the task is cancelled.
            #expect(Date().timeIntervalSince(start) < 30, "\(transport)")
        }
        // A server that is not there: the stream keeps trying, with waits that grow, until cancelled.
        let nowhere = APIClient(baseURL: URL(string: "http://127.0.0.1:9/")!, token: "x")
        let trying = EventCollector(
            EventStream(
                client: nowhere, chatToken: annLogin.chatToken, configuration: EventFixture.configuration))
        try await trying.waitFor("three failed tries") { events in
            events.filter { if case .disconnected = $0 { true } else { false } }.count >= 3
        }
        trying.stop()
        _ = try await trying.waitForEnd()
        // Without a chat token, asking for one fails the same way, and is tried again the same way.
        let asking = EventCollector(EventStream(client: nowhere, configuration: EventFixture.configuration))
        try await asking.waitFor("two failed tries to get a token") { events in
            events.filter { if case .disconnected = $0 { true } else { false } }.count >= 2
        }
        #expect(asking.ended == nil)
        asking.stop()
        _ = try await asking.waitForEnd()
    }
}
