import Foundation
import HTTPServer
import MusicCore

/// The handlers of `MessagesAPI`.
struct MessageRoutes {
    let messages: MessageService

    func register(on api: EndpointRouter) {
        api.on(MessagesAPI.send) { call in try messages.send(call.body, viewer: call.caller) }
        api.on(MessagesAPI.delete) { call in
            try messages.delete(messageID: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(MessagesAPI.unread) { call in try messages.unread(viewer: call.caller) }
        api.on(MessagesAPI.conversations) { call in
            try messages.conversations(call.query, viewer: call.caller)
        }
        api.on(MessagesAPI.conversation) { call in
            try messages.conversation(id: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(MessagesAPI.messages) { call in
            try messages.messages(conversationID: call.path.id.rawValue, call.query, viewer: call.caller)
        }
        api.on(MessagesAPI.markRead) { call in
            try messages.markRead(conversationID: call.path.id.rawValue, call.body, viewer: call.caller)
        }
        api.on(MessagesAPI.deleteConversation) { call in
            try messages.deleteConversation(id: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(MessagesAPI.settings) { call in try messages.settings(viewer: call.caller) }
        api.on(MessagesAPI.saveSettings) { call in try messages.saveSettings(call.body, viewer: call.caller) }
    }
}
