/// One entry of a person's notifications inbox: someone mentioned, replied to, liked or followed them, or
/// commented on something of theirs.
public struct NotificationItem: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// `mention`, `reply`, `like`, `follow` or `comment`; clients should show kinds they do not know as
    /// plain text, since more may come.
    public var kind: String
    public var read: Bool
    /// Who did it.
    public var actor: UserSummary
    /// The comment it is about (the mention, the reply, the liked comment), when there is one.
    public var comment: NotificationComment?
    /// The moment it is about, when there is one.
    public var feedId: String?
    public var createdAt: String
    /// When it was last marked read or unread; `createdAt` until then.
    public var updatedAt: String

    public init(
        id: String, kind: String, read: Bool, actor: UserSummary, comment: NotificationComment?,
        feedId: String?,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.kind = kind
        self.read = read
        self.actor = actor
        self.comment = comment
        self.feedId = feedId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A short quote of a comment, and what it is on, as a notification shows it.
public struct NotificationComment: Codable, Sendable, Equatable {
    public var id: String
    /// The start of the comment (at most 100 characters, then "…"); empty when moderators hid it.
    public var content: String
    public var parentId: String?
    public var songId: String?
    public var sheetId: String?
    /// The moment the comment is on, when it is on one.
    public var feedId: String?
    /// The video the comment is on, when it is on one.
    public var videoId: String?
    /// The podcast episode the comment is on, when it is on one.
    public var episodeId: String?

    public init(
        id: String, content: String, parentId: String?, songId: String?, sheetId: String?,
        feedId: String? = nil,
        videoId: String? = nil, episodeId: String? = nil
    ) {
        self.feedId = feedId
        self.videoId = videoId
        self.episodeId = episodeId
        self.id = id
        self.content = content
        self.parentId = parentId
        self.songId = songId
        self.sheetId = sheetId
    }
}

/// A page of notifications, newest first, reached by page or by cursor as comment pages are.
public typealias NotificationPage = CursorPage<NotificationItem>

/// How many notifications are unread, in all and by kind.
public struct UnreadNotifications: Codable, Sendable, Equatable {
    public var count: Int
    /// Every kind the server knows, with 0 for none.
    public var kinds: [String: Int]

    public init(count: Int, kinds: [String: Int]) {
        self.count = count
        self.kinds = kinds
    }
}
