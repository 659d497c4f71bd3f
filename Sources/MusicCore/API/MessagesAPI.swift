/// One-to-one messages: conversations, sending, reading, deleting for oneself, and who may write to one.
public enum MessagesAPI {
    public static let send = Endpoint<NoPath, NoQuery, MessageDraft, Message, SignedIn>(
        "send", .POST, "/v1/messages",
        "Send someone a message: text, a picture (an uploaded file) or a song, sheet or video",
        status: 201, refusals: [.notFound, .forbidden, .rateLimited])
    public static let delete = Endpoint<IDPath<Message>, NoQuery, NoBody, Done, SignedIn>(
        "delete", .DELETE, "/v1/messages/{id}", "Delete a message for oneself (the other person keeps it)",
        resource: "message", idempotent: true)
    public static let unread = Endpoint<NoPath, NoQuery, NoBody, UnreadMessages, SignedIn>(
        "unread", .GET, "/v1/messages/unread", "How many messages are unread, and in how many conversations")
    public static let conversations = Endpoint<
        NoPath, ConversationListQuery, NoBody, CursorPage<Conversation>, SignedIn
    >(
        "conversations", .GET, "/v1/conversations",
        "One's conversations, the one with the newest message first; deep pages by cursor")
    public static let conversation = Endpoint<IDPath<Conversation>, NoQuery, NoBody, Conversation, SignedIn>(
        "conversation", .GET, "/v1/conversations/{id}", "One conversation", resource: "conversation")
    public static let messages = Endpoint<
        IDPath<Conversation>, MessageListQuery, NoBody, MessagePage, SignedIn
    >(
        "messages", .GET, "/v1/conversations/{id}/messages",
        "A conversation's messages, oldest first: the newest ones, or those `before` or `after` a message",
        resource: "conversation")
    public static let markRead = Endpoint<IDPath<Conversation>, NoQuery, ReadMark?, Conversation, SignedIn>(
        "markRead", .POST, "/v1/conversations/{id}/read",
        "Mark a conversation read up to a message (all of it without one)", resource: "conversation",
        idempotent: true)
    public static let deleteConversation = Endpoint<IDPath<Conversation>, NoQuery, NoBody, Done, SignedIn>(
        "deleteConversation", .DELETE, "/v1/conversations/{id}",
        "Delete a conversation for oneself: its messages so far are gone for one; a new message opens it again",
        resource: "conversation", idempotent: true)
    public static let settings = Endpoint<NoPath, NoQuery, NoBody, MessageSettings, SignedIn>(
        "settings", .GET, "/v1/message_settings", "Who may send one messages")
    public static let saveSettings = Endpoint<NoPath, NoQuery, MessageSettings, MessageSettings, SignedIn>(
        "saveSettings", .PUT, "/v1/message_settings",
        "Allow messages from everyone (who is not blocked) or only from people one follows")

    public static let group = APIGroup(
        "messages", "One-to-one messages and conversations",
        [
            send, delete, unread, conversations, conversation, messages, markRead, deleteConversation,
            settings,
            saveSettings,
        ])
}

/// A message to send. `content` for text, `fileId` (an uploaded picture of one's own) for an image, and
/// `songId`, `sheetId` or `videoId` for what is shared.
public struct MessageDraft: Codable, Sendable, Equatable {
    /// To whom.
    public var userId: ID<User>
    public var kind: MessageKind
    public var content: String?
    public var fileId: String?
    public var songId: ID<Song>?
    public var sheetId: ID<Sheet>?
    public var videoId: ID<Video>?

    public init(
        userId: ID<User>, kind: MessageKind, content: String? = nil, fileId: String? = nil,
        songId: ID<Song>? = nil, sheetId: ID<Sheet>? = nil, videoId: ID<Video>? = nil
    ) {
        self.userId = userId
        self.kind = kind
        self.content = content
        self.fileId = fileId
        self.songId = songId
        self.sheetId = sheetId
        self.videoId = videoId
    }

    /// The longest text message, in characters.
    public static let maxLength = 2_000
}

/// Marks read up to and including `messageId`, or the whole conversation when it is nil.
public struct ReadMark: Codable, Sendable, Equatable {
    public var messageId: ID<Message>?
    public init(messageId: ID<Message>?) { self.messageId = messageId }
}

public struct ConversationListQuery: APIParameters, Equatable {
    /// Only the conversation with this person: a page of at most one (none when they never wrote).
    public var userId: Int64?
    public var cursor: String?
    public var paging = Paging()
    public init() {}
    public init(userId: Int64? = nil, cursor: String? = nil, page: Int = 1, size: Int = 20) {
        self.userId = userId
        self.cursor = cursor
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .id("userId", \.userId, doc: "Only the conversation with this person (a page of at most one)."),
            .cursor(\.cursor),
        ]
        + Paging.fields(\.paging)
}

public struct MessageListQuery: APIParameters, Equatable {
    public var before: Int64?
    public var after: Int64?
    public var size = 30
    public init() {}
    public init(before: Int64? = nil, after: Int64? = nil, size: Int = 30) {
        self.before = before
        self.after = after
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .id("before", \.before, doc: "Older messages than this one (the newest of them)."),
        .id("after", \.after, doc: "Newer messages than this one (the oldest of them), to fill a gap."),
        .integer("size", \.size, in: 1...100, doc: "How many."),
    ]
}

extension MessageDraft: LimitedBody {
    public static let contentText = WrittenText(field: "A message", limit: maxLength, lines: .many)
    public static let limits: [FieldLimit<Self>] = [.text("content", \.content, contentText)]
}
