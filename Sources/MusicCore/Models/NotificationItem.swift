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

    public init(
        id: String, content: String, parentId: String?, songId: String?, sheetId: String?, feedId: String? = nil
    ) {
        self.feedId = feedId
        self.id = id
        self.content = content
        self.parentId = parentId
        self.songId = songId
        self.sheetId = sheetId
    }
}

/// A page of notifications, newest first: the usual list fields and `nextCursor`, which reaches the next
/// page by key, as comment pages do.
public struct NotificationPage: Codable, Sendable, Equatable {
    public var total: Int
    public var pages: Int
    public var size: Int
    /// This page's number, from 1; 0 when it was reached by cursor.
    public var page: Int
    public var next: Int?
    /// Pass as `cursor` for the next page; nil on the last one.
    public var nextCursor: String?
    public var data: [NotificationItem]

    public init(data: [NotificationItem], total: Int, page: Int, size: Int, nextCursor: String?) {
        let pages = (total <= 0 || size <= 0) ? 0 : (total - 1) / size + 1
        self.total = total
        self.pages = pages
        self.size = size
        self.page = page
        self.next = page > 0 && page < pages ? page + 1 : nil
        self.nextCursor = nextCursor
        self.data = data
    }

    /// Encodes `next` and `nextCursor` as `null` on the last page instead of leaving them out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(total, forKey: .total)
        try container.encode(pages, forKey: .pages)
        try container.encode(size, forKey: .size)
        try container.encode(page, forKey: .page)
        try container.encode(next, forKey: .next)
        try container.encode(nextCursor, forKey: .nextCursor)
        try container.encode(data, forKey: .data)
    }
}

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
