import Foundation
import HTTPServer
import MusicCore

/// The signed-in person's notifications inbox (`v1/notifications`): a page newest first, the unread
/// counts, and marking read. Only ever the caller's own: anyone else's notification is a 404.
struct NotificationRoutes {
    let store: NotificationStore
    let accounts: AccountService
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    static let noNotification = HTTPError.notFound("That notification does not exist.")

    struct ReadBody: Decodable {
        var read: Bool
    }

    struct ReadAllBody: Decodable {
        /// The newest id the person saw: it and everything older are marked read.
        var before: String?
    }

    func register(on router: Router) {
        router.get("/v1/notifications") { request in
            let viewer = try accounts.requireViewer(request)
            let (page, size) = try request.paging()
            let unreadOnly: Bool
            switch request.query["unread"] ?? "" {
            case "", "false", "0": unreadOnly = false
            case "true", "1": unreadOnly = true
            default: throw HTTPError.badRequest("'unread' must be true or false.")
            }
            let cursor = try PageCursor.id(request.query["cursor"])
            let result = try store.page(
                userID: viewer.userID, unreadOnly: unreadOnly, before: cursor,
                offset: cursor == nil ? (page - 1) * size : 0, limit: size)
            return .json(
                NotificationPage(
                    data: result.items, total: result.total, page: cursor == nil ? page : 0, size: size,
                    nextCursor: result.hasMore ? result.lastID.map(String.init) : nil))
        }
        router.get("/v1/notifications/unread") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(try store.unread(userID: viewer.userID))
        }
        router.patch("/v1/notifications/:id") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "notification")
            let body = try request.decode(ReadBody.self)
            guard try store.setRead(id: id, userID: viewer.userID, read: body.read, now: clock()),
                let item = try store.item(id: id, userID: viewer.userID)
            else { throw Self.noNotification }
            return .json(item)
        }
        router.post("/v1/notifications/read") { request in
            let viewer = try accounts.requireViewer(request)
            var through: Int64?
            // No body (or an empty one) marks everything.
            if case .data(let data, _) = request.body, !data.isEmpty {
                if let before = try request.decode(ReadAllBody.self).before {
                    guard let id = Int64(before), id > 0 else {
                        throw HTTPError.badRequest("'before' must be the id of a notification.")
                    }
                    through = id
                }
            }
            _ = try store.markAllRead(userID: viewer.userID, through: through, now: clock())
            return .json(try store.unread(userID: viewer.userID))
        }
    }
}
