import Foundation
import HTTPServer
import MusicCore

/// The handlers of `NotificationsAPI`: the signed-in person's inbox.
struct NotificationRoutes {
    let notifications: NotificationService

    func register(on api: EndpointRouter) {
        api.on(NotificationsAPI.list) { call in try notifications.list(call.query, viewer: call.caller) }
        api.on(NotificationsAPI.unread) { call in try notifications.unread(viewer: call.caller) }
        api.on(NotificationsAPI.update) { call in
            try notifications.setRead(id: call.path.id.rawValue, read: call.body.read, viewer: call.caller)
        }
        api.on(NotificationsAPI.markRead) { call in
            try notifications.markRead(before: call.body?.before, viewer: call.caller)
        }
    }
}
