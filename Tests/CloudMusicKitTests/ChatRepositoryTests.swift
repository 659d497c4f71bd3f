import CloudMusicKit
import Foundation
import MusicCore
import ServerTestSupport
import Synchronization
import Testing

/// Conversations and messages kept up to date by the event stream, against the real server; and a queue
/// saved on another device taken up from its event.
@Suite struct ChatRepositoryTests {
    /// A person's chat, fed by their own event stream.
    static func liveChat(_ repository: MusicRepository, _ login: LoginResult) -> (
        ChatRepository, EventCollector
    ) {
        let chat = ChatRepository(repository: repository)
        let collector = EventCollector(
            EventStream(
                client: repository.client, chatToken: login.chatToken,
                configuration: EventFixture.configuration)
        ) { event in await chat.apply(event) }
        return (chat, collector)
    }

    @Test func messagesComeInLiveAndReadMarksGoBothWays() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        let (bob, bobLogin) = try await EventFixture.person(server, "bob")
        let (annChat, annEvents) = Self.liveChat(ann, annLogin)
        let (bobChat, bobEvents) = Self.liveChat(bob, bobLogin)
        defer {
            annEvents.stop()
            bobEvents.stop()
        }
        try await bobChat.loadConversations()
        #expect(await bobChat.conversations.isEmpty)
        try await bobEvents.waitFor("Bob's ready") { _ in bobEvents.readyCount == 1 }
        try await annEvents.waitFor("Ann's ready") { _ in annEvents.readyCount == 1 }

        // Ann writes and shares a song; Bob's list has the conversation, unread, without asking.
        let song = try #require(try await ann.songs(size: 1).value.data.first)
        let hello = try await annChat.sendText("Hello Bob 👋", to: bobLogin.userId)
        let shared = try await annChat.shareSong(song.id, with: bobLogin.userId)
        #expect(shared.kind == .song && shared.song?.id == song.id)
        try await eventually("Bob's unread conversation") {
            let snapshot = await bobChat.snapshot()
            return snapshot.conversations.first?.unreadCount == 2
                && snapshot.unread == UnreadMessages(count: 2, conversations: 1)
                && snapshot.conversations.first?.lastMessage?.id == shared.id
        }
        let conversationID = hello.conversationId
        #expect(await bobChat.conversations.first?.user.id == annLogin.userId)
        // Ann's own list has it too (her send put it there), with nothing unread for her.
        #expect(await annChat.conversation(conversationID)?.unreadCount == 0)

        // Bob opens it; a third message comes straight into the open thread.
        let thread = try await bobChat.loadMessages(conversationID)
        #expect(thread.messages.map(\.id) == [hello.id, shared.id])
        let third = try await annChat.sendText("Are you there?", to: bobLogin.userId)
        try await eventually("the third message in Bob's thread") {
            await bobChat.thread(conversationID)?.messages.last?.id == third.id
        }
        #expect(await bobChat.conversation(conversationID)?.unreadCount == 3)

        // Bob reads it: his count goes to 0, and Ann's open thread learns how far he read.
        _ = try await annChat.loadMessages(conversationID)
        try await bobChat.markRead(conversationID, upTo: third.id)
        #expect(await bobChat.unread.count == 0)
        try await eventually("Ann sees Bob read the third message") {
            await annChat.thread(conversationID)?.peerReadThrough == third.id
        }
        let fromServer = try await bob.client.send(MessagesAPI.unread)
        #expect(fromServer.count == 0)

        // Bob answers; on Ann's side the conversation is unread again, and both threads have it once.
        let answer = try await bobChat.sendText("Yes! 在的", to: annLogin.userId)
        try await eventually("the answer on both sides") {
            let annLast = await annChat.thread(conversationID)?.messages.last?.id
            let bobLast = await bobChat.thread(conversationID)?.messages.last?.id
            return annLast == answer.id && bobLast == answer.id
        }
        #expect(
            await annChat.thread(conversationID)?.messages.map(\.id) == [
                hello.id, shared.id, third.id, answer.id,
            ])
        #expect(
            await bobChat.thread(conversationID)?.messages.map(\.id) == [
                hello.id, shared.id, third.id, answer.id,
            ])
        #expect(await annChat.unread == UnreadMessages(count: 1, conversations: 1))
    }

    @Test func pagesBothWaysAGapAfterAReconnectAndDeleting() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, annLogin) = try await EventFixture.person(server, "ann")
        let (bob, bobLogin) = try await EventFixture.person(server, "bob")
        let annChat = ChatRepository(repository: ann)
        var sent: [Message] = []
        for index in 1...10 { sent.append(try await annChat.sendText("m\(index)", to: bobLogin.userId)) }
        let conversationID = sent[0].conversationId

        // Older pages before the newest.
        let bobChat = ChatRepository(repository: bob)
        try await bobChat.loadConversations()
        var thread = try await bobChat.loadMessages(conversationID, size: 4)
        #expect(thread.messages.map(\.content) == ["m7", "m8", "m9", "m10"])
        #expect(thread.hasOlder && !thread.hasNewer)
        thread = try await bobChat.loadOlder(conversationID, size: 4)
        #expect(thread.messages.map(\.content) == (3...10).map { "m\($0)" })
        thread = try await bobChat.loadOlder(conversationID, size: 4)
        #expect(thread.messages.map(\.id) == sent.map(\.id))
        #expect(!thread.hasOlder)

        // Bob's device was away (no stream) while five more came: the gap is filled, page by page.
        for index in 11...15 { sent.append(try await annChat.sendText("m\(index)", to: bobLogin.userId)) }
        #expect(await bobChat.thread(conversationID)?.messages.count == 10)
        thread = try await bobChat.fillGap(conversationID, size: 2)
        #expect(thread.messages.map(\.id) == sent.map(\.id))
        #expect(!thread.hasNewer)

        // A stream's first ready loads again what is shown (events before it were not replayed).
        sent.append(try await annChat.sendText("m16", to: bobLogin.userId))
        let bobEvents = EventCollector(
            EventStream(
                client: bob.client, chatToken: bobLogin.chatToken, configuration: EventFixture.configuration)
        ) { event in await bobChat.apply(event) }
        defer { bobEvents.stop() }
        let sixteenth = sent.last?.id
        try await eventually("m16 after the first ready") {
            await bobChat.thread(conversationID)?.messages.last?.id == sixteenth
        }
        #expect(await bobChat.unread == UnreadMessages(count: 16, conversations: 1))

        // Deleting a message is for Bob only.
        let last = try #require(sent.last)
        try await bobChat.deleteMessage(last.id, in: conversationID)
        #expect(await bobChat.thread(conversationID)?.messages.contains { $0.id == last.id } == false)
        #expect(await bobChat.conversation(conversationID)?.lastMessage?.id == sent[14].id)
        let annPage = try await ann.client.send(
            MessagesAPI.messages, path: IDPath(conversationID), query: MessageListQuery(size: 1))
        #expect(annPage.data.map(\.id) == [last.id])

        // Deleting the conversation empties Bob's list; a new message brings it back, live.
        try await bobChat.deleteConversation(conversationID)
        #expect(await bobChat.conversations.isEmpty)
        #expect(await bobChat.thread(conversationID) == nil)
        try await bobEvents.waitFor("ready") { _ in bobEvents.readyCount >= 1 }
        _ = try await annChat.sendText("still there?", to: bobLogin.userId)
        try await eventually("the conversation back in Bob's list") {
            let conversation = await bobChat.conversations.first
            return conversation?.id == conversationID && conversation?.lastMessage?.content == "still there?"
        }
        let page = try await bobChat.loadMessages(conversationID)
        #expect(page.messages.map(\.content) == ["still there?"])
    }

    @Test func theTotalsAgreeWithTheRowsWhateverTheOrderCountsArrive() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (ann, _) = try await EventFixture.person(server, "ann")
        let (bob, bobLogin) = try await EventFixture.person(server, "bob")
        let bobChat = ChatRepository(repository: bob)
        try await bobChat.loadConversations()
        let annChat = ChatRepository(repository: ann)
        // The first message's event comes in while only it is on the server.
        let first = try await annChat.sendText("one", to: bobLogin.userId)
        await bobChat.apply(.message(MessageEvent(message: first, unreadCount: 1)))
        #expect(await bobChat.unread == UnreadMessages(count: 1, conversations: 1))
        // The server's totals are asked for after the second is sent but before its event is applied.
        let second = try await annChat.sendText("two", to: bobLogin.userId)
        try await bobChat.refreshUnread()
        await bobChat.apply(.message(MessageEvent(message: second, unreadCount: 2)))
        await bobChat.apply(.message(MessageEvent(message: second, unreadCount: 2)))
        #expect(await bobChat.conversation(first.conversationId)?.unreadCount == 2)
        #expect(await bobChat.unread == UnreadMessages(count: 2, conversations: 1))
        #expect(await bobChat.unread == (try await bob.client.send(MessagesAPI.unread)))
    }

    @Test func aQueueSavedOnAnotherDeviceIsTakenUpAndOnesOwnSaveIsNot() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (phone, phoneLogin) = try await EventFixture.person(server, "queuer", device: "phone")
        let (laptop, _) = try await EventFixture.person(server, "queuer", device: "laptop")
        let songs = try await phone.songs(size: 6).value.data
        try #require(songs.count == 6)
        func device(_ repository: MusicRepository) async throws -> MusicListManager {
            try await MusicListManager(
                store: try LocalStore(path: temporaryFolder() + "/local.sqlite"), player: nil,
                sync: repository
            ) { _ in nil }
        }
        let phoneList = try await device(phone)
        let laptopList = try await device(laptop)
        let versionsSeen = Tally()
        let phoneEvents = EventCollector(
            EventStream(
                client: phone.client, chatToken: phoneLogin.chatToken,
                configuration: EventFixture.configuration)
        ) { event in
            guard case .queue(let queue) = event else { return }
            versionsSeen.append(queue.queue.version)
            try? await phoneList.applyRemoteQueue(queue.queue)
        }
        defer { phoneEvents.stop() }
        try await phoneEvents.waitFor("ready") { _ in phoneEvents.readyCount == 1 }

        // The laptop saves a queue; the phone takes it from the event, with no sync of its own.
        try await laptopList.setList(Array(songs[0..<3]), startAt: 1, autoplay: false)
        await laptopList.seek(to: 42)
        await laptopList.pause()
        try await laptopList.syncWithServer()
        try await eventually("the laptop's queue on the phone") {
            let snapshot = await phoneList.snapshot()
            return snapshot.songs.map(\.id) == songs[0..<3].map(\.id) && snapshot.currentIndex == 1
        }
        #expect(await phoneList.snapshot().position == 42)

        // The phone's own save comes back as an event too, and changes nothing.
        let changes = await phoneList.events()
        let counter = Tally()
        let counting = Task { for await change in changes where change == .listChanged { counter.append(1) } }
        defer { counting.cancel() }
        try await phoneList.append([songs[3]])
        try await eventually("the append counted") { counter.values.count >= 1 }
        try await phoneList.syncWithServer()
        let saved = try await phone.queue().version
        try await eventually("the phone's own queue event") { versionsSeen.values.contains(saved) }
        // Give the event time to have been applied (it is awaited in the collector before it is counted).
        try await phoneEvents.waitFor("the event kept") { events in
            events.contains { if case .queue(let q) = $0 { q.queue.version == saved } else { false } }
        }
        #expect(counter.values.count == 1, "only the append changed the list")
        #expect(await phoneList.snapshot().songs.map(\.id) == songs[0..<4].map(\.id))

        // An older queue (an event that was overtaken) is ignored too.
        let old = PlayQueue(
            songIds: [songs[5].id], currentIndex: 0, position: 0, loopMode: .list, version: saved - 1,
            updatedAt: nil)
        try await phoneList.applyRemoteQueue(old)
        #expect(await phoneList.snapshot().songs.map(\.id) == songs[0..<4].map(\.id))
    }

    @Test func aSongPlayingHerePlaysOnWhenAnotherDeviceOnlyChangesTheRest() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (phone, _) = try await EventFixture.person(server, "player", device: "phone")
        let (laptop, _) = try await EventFixture.person(server, "player", device: "laptop")
        let songs = try await phone.songs(size: 4).value.data
        try #require(songs.count == 4)
        let player = RecordingPlayer()
        let phoneList = try await MusicListManager(
            store: try LocalStore(path: temporaryFolder() + "/local.sqlite"), player: player, sync: phone
        ) { _ in URL(string: "http://127.0.0.1:9/x.mp3") }
        let laptopList = try await MusicListManager(
            store: try LocalStore(path: temporaryFolder() + "/local.sqlite"), player: nil, sync: laptop
        ) { _ in nil }
        try await phoneList.setList(Array(songs[0..<3]), startAt: 0)
        try await eventually("playing") { await phoneList.snapshot().state == .playing }
        await phoneList.seek(to: 9)
        try await phoneList.syncWithServer()
        try await laptopList.syncWithServer()

        // The laptop adds a song: the phone takes the list and goes on playing the same song from 9 s.
        try await laptopList.append([songs[3]])
        try await laptopList.syncWithServer()
        try await phoneList.applyRemoteQueue(try await phone.queue())
        #expect(await phoneList.snapshot().songs.map(\.id) == songs.map(\.id))
        let kept = try #require(player.loads.last)
        #expect(kept.title == songs[0].title && kept.autoplay && kept.startAt == 9)

        // The laptop moves on to another song: the phone follows, paused, where the laptop is.
        try await laptopList.next()
        try await laptopList.syncWithServer()
        try await phoneList.applyRemoteQueue(try await phone.queue())
        let followed = try #require(player.loads.last)
        #expect(followed.title == songs[1].title && !followed.autoplay)
    }
}

/// A player that only remembers what it was asked to load and says it plays what is loaded with autoplay.
final class RecordingPlayer: Player, @unchecked Sendable {
    // @unchecked: every field is behind the lock.
    private let lock = NSLock()
    private var listeners: [AsyncStream<PlayerEvent>.Continuation] = []
    private var loaded: [(title: String, startAt: Double, autoplay: Bool)] = []
    private var current: PlaybackState = .idle

    var loads: [(title: String, startAt: Double, autoplay: Bool)] { lock.withLock { loaded } }

    func events() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream()
        lock.withLock { listeners.append(continuation) }
        return stream
    }

    private func emit(_ state: PlaybackState) {
        let all = lock.withLock {
            current = state
            return listeners
        }
        for listener in all { listener.yield(.state(state)) }
    }

    func load(_ item: PlayableItem, startAt: Double, autoplay: Bool) async {
        lock.withLock { loaded.append((item.title, startAt, autoplay)) }
        emit(autoplay ? .playing : .paused)
    }
    func setNext(_ item: PlayableItem?) async {}
    func play() async { emit(.playing) }
    func pause() async { emit(.paused) }
    func stop() async { emit(.idle) }
    func seek(to seconds: Double) async {}
    func setVolume(_ percent: Double) async {}
    func setMuted(_ muted: Bool) async {}
    var state: PlaybackState { get async { lock.withLock { current } } }
}

/// Values appended from any task.
final class Tally: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}
