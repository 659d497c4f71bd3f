/// The signed-in person's inbox: replies, mentions, likes and follows, newest first.
public enum NotificationsAPI {
    public static let list = Endpoint<NoPath, NotificationListQuery, NoBody, NotificationPage, SignedIn>(
        "list", .GET, "/v1/notifications", "One's notifications, newest first; deep pages by cursor")
    public static let unread = Endpoint<NoPath, NoQuery, NoBody, UnreadNotifications, SignedIn>(
        "unread", .GET, "/v1/notifications/unread", "How many notifications are unread, in all and by kind")
    public static let update = Endpoint<
        IDPath<NotificationItem>, NoQuery, NotificationChange, NotificationItem, SignedIn
    >(
        "update", .PATCH, "/v1/notifications/{id}", "Mark one notification read or unread",
        resource: "notification")
    public static let markRead = Endpoint<NoPath, NoQuery, MarkRead?, UnreadNotifications, SignedIn>(
        "markRead", .POST, "/v1/notifications/read",
        "Mark every notification read, or those up to `before`; the unread counts come back")

    public static let group = APIGroup(
        "notifications", "One's inbox of replies, mentions, likes and follows",
        [list, unread, update, markRead])
}

public struct NotificationListQuery: APIParameters, Equatable {
    public var unread = false
    public var cursor: String?
    public var paging = Paging()
    public init() {}
    public init(unread: Bool = false, cursor: String? = nil, page: Int = 1, size: Int = 20) {
        self.unread = unread
        self.cursor = cursor
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .flag("unread", \.unread, doc: "Only unread ones."),
            .cursor(\.cursor),
        ] + Paging.fields(\.paging)
}

public struct NotificationChange: Codable, Sendable, Equatable {
    public var read: Bool
    public init(read: Bool) { self.read = read }
}

/// Marks as read: the notification `before` and everything older, or everything when it is nil.
public struct MarkRead: Codable, Sendable, Equatable {
    public var before: ID<NotificationItem>?
    public init(before: ID<NotificationItem>?) { self.before = before }
}
