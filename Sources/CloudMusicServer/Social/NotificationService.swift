import Foundation
import MusicCore
import Storage

/// The signed-in person's inbox: pages of it, the unread counts, and marking read. Only ever one's own:
/// anyone else's notification is a 404. (Notifications are recorded by the services of what causes them,
/// through `NotificationStore`, inside their own transactions.)
struct NotificationService: Sendable {
    let database: Database
    let store: NotificationStore
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    init(database: Database, events: EventLog) {
        self.database = database
        store = NotificationStore(events: events)
    }

    static let noNotification = ServiceError.notFound("That notification does not exist.")

    /// A page of the inbox, newest first: by `cursor` (an id) when there is one, else by page number.
    func list(_ query: NotificationListQuery, viewer: Viewer) throws -> NotificationPage {
        let cursor = try PageCursor.id(query.cursor)
        let result = try database.read { db in
            try store.page(
                db, userID: viewer.userID, unreadOnly: query.unread, before: cursor,
                offset: cursor == nil ? query.paging.offset : 0, limit: query.paging.size)
        }
        return NotificationPage(
            data: result.items, total: result.total, page: cursor == nil ? query.paging.page : 0,
            size: query.paging.size, nextCursor: result.hasMore ? result.lastID.map(String.init) : nil)
    }

    func unread(viewer: Viewer) throws -> UnreadNotifications {
        try database.read { db in try store.unread(db, userID: viewer.userID) }
    }

    /// Marks one notification read or unread and returns it.
    func setRead(id: Int64, read: Bool, viewer: Viewer) throws -> NotificationItem {
        try database.write { db in
            guard try store.setRead(db, id: id, userID: viewer.userID, read: read, now: clock()),
                let item = try store.item(db, id: id, userID: viewer.userID)
            else { throw Self.noNotification }
            return item
        }
    }

    /// Marks every notification read, or (`before`) that one and all older; the unread counts come back.
    func markRead(before: ID<NotificationItem>?, viewer: Viewer) throws -> UnreadNotifications {
        let through = before?.rawValue
        return try database.write { db in
            try store.markAllRead(db, userID: viewer.userID, through: through, now: clock())
            return try store.unread(db, userID: viewer.userID)
        }
    }
}
