/// What a message carries: text, a picture, or a song, sheet or video shared from the library.
public enum MessageKind: String, Codable, Sendable, CaseIterable, SchemaEnum {
    case text, image, song, sheet, video
}

/// One message of a one-to-one conversation.
public struct Message: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// The same for both people of the conversation.
    public var conversationId: String
    public var sender: UserSummary
    public var kind: MessageKind
    /// The text of a `text` message (at most 2,000 characters); nil for the other kinds.
    public var content: String?
    /// The picture of an `image` message.
    public var image: StoredFile?
    /// The song of a `song` message; nil when it has left the library.
    public var song: Song?
    /// The sheet of a `sheet` message; nil when it was deleted or made private.
    public var sheet: Sheet?
    /// The video of a `video` message; nil when it has left the library.
    public var video: Video?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, conversationId: String, sender: UserSummary, kind: MessageKind, content: String? = nil,
        image: StoredFile? = nil, song: Song? = nil, sheet: Sheet? = nil, video: Video? = nil,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.conversationId = conversationId
        self.sender = sender
        self.kind = kind
        self.content = content
        self.image = image
        self.song = song
        self.sheet = sheet
        self.video = video
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A conversation as one of its two people sees it.
public struct Conversation: Codable, Sendable, Equatable, Identifiable {
    /// The same for both people.
    public var id: String
    /// The other person.
    public var user: UserSummary
    /// The newest message one has not deleted; nil when there is none.
    public var lastMessage: Message?
    /// Messages from the other person newer than the last one marked read.
    public var unreadCount: Int
    public var createdAt: String
    /// When its last message was sent.
    public var updatedAt: String

    public init(
        id: String, user: UserSummary, lastMessage: Message?, unreadCount: Int, createdAt: String,
        updatedAt: String
    ) {
        self.id = id
        self.user = user
        self.lastMessage = lastMessage
        self.unreadCount = unreadCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Messages of one conversation, oldest first, with whether there are more on either side.
public struct MessagePage: Codable, Sendable, Equatable {
    public var data: [Message]
    /// Whether older messages exist: ask with `before` = the first message's id.
    public var hasOlder: Bool
    /// Whether newer messages exist: ask with `after` = the last message's id.
    public var hasNewer: Bool

    public init(data: [Message], hasOlder: Bool, hasNewer: Bool) {
        self.data = data
        self.hasOlder = hasOlder
        self.hasNewer = hasNewer
    }
}

/// How many messages are unread, in all and in how many conversations.
public struct UnreadMessages: Codable, Sendable, Equatable {
    public var count: Int
    public var conversations: Int

    public init(count: Int, conversations: Int) {
        self.count = count
        self.conversations = conversations
    }
}

/// Who may send one messages.
public enum MessagePermission: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// Anyone who is not blocked.
    case everyone
    /// Only people one follows.
    case following
}

public struct MessageSettings: Codable, Sendable, Equatable {
    public var allowFrom: MessagePermission
    public init(allowFrom: MessagePermission) { self.allowFrom = allowFrom }
}

/// The credential of the event stream: it can open `GET /v1/events` and do nothing else.
public struct ChatToken: Codable, Sendable, Equatable {
    public var chatToken: String
    public init(chatToken: String) { self.chatToken = chatToken }
}

// MARK: - Events

/// The kinds of events `GET /v1/events` sends, as its `event:` field.
public enum ServerEventKind: String, Codable, Sendable, CaseIterable {
    /// The stream is open; its `id` is where a later `Last-Event-ID` resumes from.
    case ready
    /// A message to or from one (`MessageEvent`), so every device of both people sees it.
    case message
    /// Someone read a conversation up to a message (`ReadEvent`).
    case read
    /// A conversation was deleted on another of one's devices (`ConversationEvent`).
    case conversation
    /// A new notification in one's inbox (`NotificationEvent`).
    case notification
    /// One's play queue was saved from a device (`QueueEvent`).
    case queue
    /// A song was added to or taken out of "I like" (`LikesEvent`).
    case likes
    /// The events since `Last-Event-ID` are no longer kept: reload what is shown.
    case reload
    /// Another stream of this device replaced this one; do not reconnect it.
    case replaced
}

public struct ReadyEvent: Codable, Sendable, Equatable {
    /// Where a reconnection resumes from.
    public var lastEventId: String
    public init(lastEventId: String) { self.lastEventId = lastEventId }
}

public struct MessageEvent: Codable, Sendable, Equatable {
    public var message: Message
    /// The receiver's unread count in the conversation after it (0 for the sender's own devices).
    public var unreadCount: Int
    public init(message: Message, unreadCount: Int) {
        self.message = message
        self.unreadCount = unreadCount
    }
}

public struct ReadEvent: Codable, Sendable, Equatable {
    public var conversationId: String
    /// Who read.
    public var userId: String
    /// Read up to and including this message.
    public var messageId: String
    /// The reader's unread count in the conversation now (sent to the reader's own devices; nil for the other person).
    public var unreadCount: Int?
    public init(conversationId: String, userId: String, messageId: String, unreadCount: Int?) {
        self.conversationId = conversationId
        self.userId = userId
        self.messageId = messageId
        self.unreadCount = unreadCount
    }
}

public struct ConversationEvent: Codable, Sendable, Equatable {
    public var conversationId: String
    public var deleted: Bool
    public init(conversationId: String, deleted: Bool) {
        self.conversationId = conversationId
        self.deleted = deleted
    }
}

public struct NotificationEvent: Codable, Sendable, Equatable {
    public var notification: NotificationItem
    public var unread: UnreadNotifications
    public init(notification: NotificationItem, unread: UnreadNotifications) {
        self.notification = notification
        self.unread = unread
    }
}

public struct QueueEvent: Codable, Sendable, Equatable {
    public var queue: PlayQueue
    public init(queue: PlayQueue) { self.queue = queue }
}

public struct LikesEvent: Codable, Sendable, Equatable {
    public var songId: String
    public var liked: Bool
    public init(songId: String, liked: Bool) {
        self.songId = songId
        self.liked = liked
    }
}
