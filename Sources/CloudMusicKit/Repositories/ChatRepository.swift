import Foundation
import MusicCore

/// One's conversations and their messages as a client shows them, kept up to date by the event stream.
///
/// It holds what was loaded (the conversation list, newest first; the messages of the conversations opened,
/// oldest first, paged both ways), sends and deletes through the API, and applies the stream's `message`,
/// `read` and `conversation` events, so every device shows a message the moment it is sent. After a `reload`,
/// and at the first `ready` of a stream (events before it were not replayed), it loads again what it shows:
/// the first page of conversations, the unread counts, and the messages after the last one of each open
/// conversation (the gap). Listeners learn of each change from `changes()`.
public actor ChatRepository {
    /// The messages of one conversation that are loaded: a run without holes, oldest first.
    public struct Thread: Sendable, Equatable {
        public var conversationID: String
        public var messages: [Message]
        /// Older messages exist: `loadOlder` brings them.
        public var hasOlder: Bool
        /// Newer messages exist than the last one here (a gap not yet filled): `fillGap` brings them.
        public var hasNewer: Bool
        /// The other person has read up to this message (known from their `read` events).
        public var peerReadThrough: String?

        public init(
            conversationID: String, messages: [Message] = [], hasOlder: Bool = false, hasNewer: Bool = false,
            peerReadThrough: String? = nil
        ) {
            self.conversationID = conversationID
            self.messages = messages
            self.hasOlder = hasOlder
            self.hasNewer = hasNewer
            self.peerReadThrough = peerReadThrough
        }
    }

    /// What changed.
    public enum Change: Sendable, Equatable {
        /// The conversation list or the unread counts.
        case conversations
        /// The loaded messages of a conversation.
        case thread(conversationID: String)
        /// A message from someone else arrived (for a sound, a badge or a toast).
        case received(Message)
    }

    public let repository: MusicRepository
    public private(set) var conversations: [Conversation] = []
    /// Where the next page of conversations starts; nil when all are here (or none was loaded yet).
    public private(set) var nextCursor: String?
    public private(set) var hasLoadedConversations = false
    public private(set) var unread = UnreadMessages(count: 0, conversations: 0)
    private var threads: [String: Thread] = [:]
    private var subscribers: [UUID: AsyncStream<Change>.Continuation] = [:]
    /// Whether a `ready` was seen since this repository started (the first one resyncs).
    private var sawReady = false

    /// Messages asked for per page.
    public static let pageSize = 30

    public init(repository: MusicRepository) { self.repository = repository }

    private var client: APIClient { repository.client }
    private var me: String? { repository.userID }

    // MARK: Listening

    /// Every change from now on; each caller gets its own stream.
    public func changes() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .bufferingNewest(512))
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    private func emit(_ change: Change) {
        for continuation in subscribers.values { continuation.yield(change) }
    }

    /// Whether every conversation is in the list (its first page was loaded and there are no more).
    private var listIsComplete: Bool { hasLoadedConversations && nextCursor == nil }

    /// Tells listeners the list or the counts changed. With the whole list here, the totals are its sums, so
    /// they always agree with the rows (counts from the server and from events are of different moments:
    /// one added to the other once counted a message twice).
    private func conversationsChanged() {
        if listIsComplete {
            unread = UnreadMessages(
                count: conversations.reduce(0) { $0 + $1.unreadCount },
                conversations: conversations.filter { $0.unreadCount > 0 }.count)
        }
        emit(.conversations)
    }

    // MARK: Reading what is loaded

    /// The list and the counts at one moment.
    public struct Snapshot: Sendable, Equatable {
        public var conversations: [Conversation]
        /// More conversations wait on the server.
        public var hasMore: Bool
        public var unread: UnreadMessages
    }

    public func snapshot() -> Snapshot {
        Snapshot(conversations: conversations, hasMore: nextCursor != nil, unread: unread)
    }

    public func thread(_ conversationID: String) -> Thread? { threads[conversationID] }

    public func conversation(_ id: String) -> Conversation? { conversations.first { $0.id == id } }

    /// The loaded conversation with a person, if there is one.
    public func conversation(withUser userID: String) -> Conversation? {
        conversations.first { $0.user.id == userID }
    }

    // MARK: Conversations

    /// `GET v1/conversations`: the first page, replacing the list.
    @discardableResult
    public func loadConversations(size: Int = 20) async throws -> [Conversation] {
        let page = try await client.send(
            MessagesAPI.conversations, query: ConversationListQuery(cursor: nil, page: 1, size: size))
        conversations = page.data
        nextCursor = page.nextCursor
        hasLoadedConversations = true
        conversationsChanged()
        return conversations
    }

    /// The next page of conversations, after those loaded; false when there were no more.
    @discardableResult
    public func loadMoreConversations(size: Int = 20) async throws -> Bool {
        guard let cursor = nextCursor else { return false }
        let page = try await client.send(
            MessagesAPI.conversations, query: ConversationListQuery(cursor: cursor, size: size))
        let known = Set(conversations.map(\.id))
        conversations += page.data.filter { !known.contains($0.id) }
        nextCursor = page.nextCursor
        conversationsChanged()
        return true
    }

    /// `GET v1/messages/unread`.
    @discardableResult
    public func refreshUnread() async throws -> UnreadMessages {
        unread = try await client.send(MessagesAPI.unread)
        conversationsChanged()
        return unread
    }

    /// `GET v1/conversations/{id}`: one conversation, put into the list where its time places it.
    @discardableResult
    public func refreshConversation(_ id: String) async throws -> Conversation {
        let conversation = try await client.send(MessagesAPI.conversation, path: IDPath(id))
        setUnread(conversation.unreadCount, in: id)
        place(conversation)
        conversationsChanged()
        return conversation
    }

    /// `DELETE v1/conversations/{id}`: gone for oneself (a new message brings it back).
    public func deleteConversation(_ id: String) async throws {
        _ = try await client.send(MessagesAPI.deleteConversation, path: IDPath(id))
        removeConversation(id)
    }

    /// `POST v1/conversations/{id}/read`: read up to `messageID`, or all of it.
    @discardableResult
    public func markRead(_ conversationID: String, upTo messageID: String? = nil) async throws -> Conversation
    {
        let conversation = try await client.send(
            MessagesAPI.markRead, path: IDPath(conversationID),
            body: ReadMark(messageId: try messageID.map { try ID(validating: $0, field: "messageId") }))
        setUnread(conversation.unreadCount, in: conversationID)
        if let index = conversations.firstIndex(where: { $0.id == conversationID }) {
            conversations[index] = conversation
        }
        conversationsChanged()
        return conversation
    }

    // MARK: Messages

    /// `GET v1/conversations/{id}/messages`: the newest page, replacing what was loaded.
    @discardableResult
    public func loadMessages(_ conversationID: String, size: Int = pageSize) async throws -> Thread {
        let page = try await client.send(
            MessagesAPI.messages, path: IDPath(conversationID), query: MessageListQuery(size: size))
        var thread = Thread(
            conversationID: conversationID, messages: page.data, hasOlder: page.hasOlder,
            hasNewer: page.hasNewer)
        thread.peerReadThrough = threads[conversationID]?.peerReadThrough
        threads[conversationID] = thread
        emit(.thread(conversationID: conversationID))
        return thread
    }

    /// The page before the first message loaded; the thread as it is when there is none.
    @discardableResult
    public func loadOlder(_ conversationID: String, size: Int = pageSize) async throws -> Thread {
        guard var thread = threads[conversationID], let first = thread.messages.first,
            let before = ID<Message>(first.id)?.rawValue
        else { return try await loadMessages(conversationID, size: size) }
        guard thread.hasOlder else { return thread }
        let page = try await client.send(
            MessagesAPI.messages, path: IDPath(conversationID),
            query: MessageListQuery(before: before, size: size))
        thread.messages = Self.merged(page.data, thread.messages)
        thread.hasOlder = page.hasOlder
        threads[conversationID] = thread
        emit(.thread(conversationID: conversationID))
        return thread
    }

    /// The messages after the last one loaded, page after page, until none are missing (after a reconnect).
    /// A gap of more than `maxPages` pages is given up: the newest page is loaded instead.
    @discardableResult
    public func fillGap(_ conversationID: String, size: Int = 100, maxPages: Int = 10) async throws -> Thread
    {
        guard var thread = threads[conversationID], let last = thread.messages.last,
            var after = ID<Message>(last.id)?.rawValue
        else { return try await loadMessages(conversationID) }
        for _ in 0..<maxPages {
            let page = try await client.send(
                MessagesAPI.messages, path: IDPath(conversationID),
                query: MessageListQuery(after: after, size: size))
            thread = threads[conversationID] ?? thread
            thread.messages = Self.merged(thread.messages, page.data)
            thread.hasNewer = page.hasNewer
            threads[conversationID] = thread
            guard page.hasNewer, let newest = page.data.last.flatMap({ ID<Message>($0.id)?.rawValue }) else {
                emit(.thread(conversationID: conversationID))
                return thread
            }
            after = newest
        }
        return try await loadMessages(conversationID)
    }

    /// `POST v1/messages`: a text message.
    @discardableResult
    public func sendText(_ text: String, to userID: String) async throws -> Message {
        try await send(
            MessageDraft(userId: try ID(validating: userID, field: "userId"), kind: .text, content: text))
    }

    /// `POST v1/messages`: a song shared.
    @discardableResult
    public func shareSong(_ songID: String, with userID: String) async throws -> Message {
        try await send(
            MessageDraft(
                userId: try ID(validating: userID, field: "userId"), kind: .song,
                songId: try ID(validating: songID, field: "songId")))
    }

    /// `POST v1/messages`: any kind; the message shows at once (its event, when it comes, changes nothing).
    @discardableResult
    public func send(_ draft: MessageDraft) async throws -> Message {
        let message = try await client.send(MessagesAPI.send, body: draft)
        await receive(message, unreadCount: nil)
        return message
    }

    /// `DELETE v1/messages/{id}`: gone for oneself.
    public func deleteMessage(_ id: String, in conversationID: String) async throws {
        _ = try await client.send(MessagesAPI.delete, path: IDPath(id))
        if var thread = threads[conversationID] {
            thread.messages.removeAll { $0.id == id }
            threads[conversationID] = thread
            emit(.thread(conversationID: conversationID))
        }
        if conversation(conversationID)?.lastMessage?.id == id {
            // The list shows the message before it now.
            _ = try? await refreshConversation(conversationID)
        }
    }

    // MARK: Events

    /// Applies an event of the stream; events that are not about messages are ignored.
    public func apply(_ event: ServerEvent) async {
        switch event {
        case .ready:
            guard !sawReady else { return }
            sawReady = true
            try? await resync()
        case .reload:
            try? await resync()
        case .message(let event):
            await receive(event.message, unreadCount: event.unreadCount)
            if event.message.sender.id != me { emit(.received(event.message)) }
        case .read(let event):
            applyRead(event)
        case .conversation(let event):
            if event.deleted { removeConversation(event.conversationId) }
        case .notification, .queue, .likes, .replaced, .disconnected:
            break
        }
    }

    /// Loads again what is shown: the first page of conversations, the unread counts, and what each open
    /// conversation missed.
    public func resync() async throws {
        async let counts = client.send(MessagesAPI.unread)
        if hasLoadedConversations { try await loadConversations() }
        unread = try await counts
        conversationsChanged()
        for id in threads.keys {
            do {
                if threads[id]?.messages.isEmpty ?? true {
                    try await loadMessages(id)
                } else {
                    try await fillGap(id)
                }
            } catch let error as APIError where error.kind == .notFound {
                threads[id] = nil
                emit(.thread(conversationID: id))
            }
        }
    }

    /// A message sent or received: into its thread (when the thread is loaded up to now) and to the top of
    /// the list.
    private func receive(_ message: Message, unreadCount: Int?) async {
        let id = message.conversationId
        if var thread = threads[id], !thread.hasNewer,
            !thread.messages.contains(where: { $0.id == message.id })
        {
            thread.messages = Self.merged(thread.messages, [message])
            threads[id] = thread
            emit(.thread(conversationID: id))
        }
        guard let index = conversations.firstIndex(where: { $0.id == id }) else {
            // A conversation not in the list (new, or beyond the pages loaded): the server's view of it, and
            // of the totals unless the whole list is here to count them.
            _ = try? await refreshConversation(id)
            if !listIsComplete { _ = try? await refreshUnread() }
            return
        }
        var conversation = conversations[index]
        if Self.number(conversation.lastMessage?.id) <= Self.number(message.id) {
            conversation.lastMessage = message
            conversation.updatedAt = message.createdAt
        }
        conversations[index] = conversation
        if message.sender.id == me {
            // Sending reads the conversation up to one's own message.
            setUnread(0, in: id)
        } else if let unreadCount {
            setUnread(unreadCount, in: id)
        }
        place(conversations[index])
        conversationsChanged()
    }

    private func applyRead(_ event: ReadEvent) {
        if event.userId == me {
            setUnread(event.unreadCount ?? 0, in: event.conversationId)
            conversationsChanged()
        } else if var thread = threads[event.conversationId] {
            if Self.number(thread.peerReadThrough) < Self.number(event.messageId) {
                thread.peerReadThrough = event.messageId
                threads[event.conversationId] = thread
                emit(.thread(conversationID: event.conversationId))
            }
        }
    }

    /// Sets a conversation's unread count, and the totals with it.
    private func setUnread(_ count: Int, in conversationID: String) {
        guard let index = conversations.firstIndex(where: { $0.id == conversationID }) else { return }
        let old = conversations[index].unreadCount
        guard old != count else { return }
        conversations[index].unreadCount = count
        unread.count = max(0, unread.count + count - old)
        unread.conversations = max(0, unread.conversations + (count > 0 ? 1 : 0) - (old > 0 ? 1 : 0))
    }

    /// Puts a conversation into the list by its time, newest first (replacing the one with its id).
    private func place(_ conversation: Conversation) {
        conversations.removeAll { $0.id == conversation.id }
        let key = Self.order(conversation)
        let index = conversations.firstIndex { Self.order($0) < key } ?? conversations.endIndex
        // A conversation older than every one loaded belongs to a page not loaded yet.
        if index == conversations.endIndex, nextCursor != nil { return }
        conversations.insert(conversation, at: index)
    }

    private func removeConversation(_ id: String) {
        if let index = conversations.firstIndex(where: { $0.id == id }) {
            let old = conversations.remove(at: index)
            unread.count = max(0, unread.count - old.unreadCount)
            if old.unreadCount > 0 { unread.conversations = max(0, unread.conversations - 1) }
        }
        threads[id] = nil
        emit(.thread(conversationID: id))
        conversationsChanged()
    }

    // MARK: Ordering

    /// Newest first: the last message's id, which grows with time, then the conversation's.
    private static func order(_ conversation: Conversation) -> (Int64, Int64) {
        (number(conversation.lastMessage?.id), number(conversation.id))
    }

    /// An id's number, for ordering (ids grow with time); 0, first, for text that is no id.
    static func number(_ id: String?) -> Int64 { id.flatMap { ID<Message>($0)?.rawValue } ?? 0 }

    /// Two runs of messages as one, oldest first, each message once.
    static func merged(_ a: [Message], _ b: [Message]) -> [Message] {
        var seen = Set<String>()
        return (a + b).filter { seen.insert($0.id).inserted }.sorted { number($0.id) < number($1.id) }
    }
}
