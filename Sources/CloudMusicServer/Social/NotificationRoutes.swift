import Foundation
import HTTPServer
import MusicCore

/// The handlers of `NotificationsAPI`: the signed-in person's inbox, only ever their own (anyone else's
/// notification is a 404).
struct NotificationRoutes {
    let store: NotificationStore
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    static let noNotification = ServiceError.notFound("That notification does not exist.")

    func register(on api: EndpointRouter) {
        api.on(NotificationsAPI.list) { call in
            let query = call.query
            let cursor = try PageCursor.id(query.cursor)
            let result = try store.page(
                userID: call.caller.userID, unreadOnly: query.unread, before: cursor,
                offset: cursor == nil ? query.paging.offset : 0, limit: query.paging.size)
            return NotificationPage(
                data: result.items, total: result.total, page: cursor == nil ? query.paging.page : 0,
                size: query.paging.size, nextCursor: result.hasMore ? result.lastID.map(String.init) : nil)
        }
        api.on(NotificationsAPI.unread) { call in try store.unread(userID: call.caller.userID) }
        api.on(NotificationsAPI.update) { call in
            let userID = call.caller.userID
            guard try store.setRead(id: call.path.id, userID: userID, read: call.body.read, now: clock()),
                let item = try store.item(id: call.path.id, userID: userID)
            else { throw Self.noNotification }
            return item
        }
        api.on(NotificationsAPI.markRead) { call in
            var through: Int64?
            if let before = call.body?.before {
                guard let id = Int64(before), id > 0 else {
                    throw ServiceError.invalid("'before' must be the id of a notification.")
                }
                through = id
            }
            _ = try store.markAllRead(userID: call.caller.userID, through: through, now: clock())
            return try store.unread(userID: call.caller.userID)
        }
    }
}
