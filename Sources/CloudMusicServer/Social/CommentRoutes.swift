import Foundation
import HTTPServer
import MusicCore

/// The handlers of `CommentsAPI`: comments, likes (of comments and moments), topics, reports, moderation.
struct CommentRoutes {
    let comments: CommentService

    func register(on api: EndpointRouter) {
        api.on(CommentsAPI.list) { call in try comments.list(call.query, viewer: call.caller) }
        api.on(CommentsAPI.create) { call in try comments.write(call.body, viewer: call.caller) }
        api.on(CommentsAPI.detail) { call in
            try comments.detail(id: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(CommentsAPI.delete) { call in
            try comments.delete(id: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(CommentsAPI.report) { call in
            try comments.report(
                commentID: call.path.id.rawValue, reason: call.body?.reason, viewer: call.caller)
            return Done()
        }
        api.on(CommentsAPI.like) { call in try comments.like(call.body, viewer: call.caller) }
        api.on(CommentsAPI.unlike) { call in
            try comments.unlike(likeID: call.path.id.rawValue, viewer: call.caller)
            return Done()
        }
        api.on(CommentsAPI.topics) { call in
            try comments.topics(title: call.query.title, paging: call.query.paging)
        }
        api.on(CommentsAPI.topic) { call in
            try comments.topic(id: call.path.id.rawValue, query: call.query, viewer: call.caller)
        }
        api.on(CommentsAPI.reports) { call in try comments.reports(paging: call.query.paging) }
        api.on(CommentsAPI.moderate) { call in
            try comments.setHidden(commentID: call.path.id.rawValue, hidden: call.body.hidden)
            return Done()
        }
    }
}
