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
            let viewer = call.caller
            _ = try comments.visibleRecord(id: call.path.id, viewer: viewer)
            guard let comment = try comments.store.comment(id: call.path.id, viewerID: viewer?.userID) else {
                throw CommentService.noComment
            }
            return comment
        }
        api.on(CommentsAPI.delete) { call in
            try comments.delete(id: call.path.id, viewer: call.caller)
            return Done()
        }
        api.on(CommentsAPI.report) { call in
            try comments.report(commentID: call.path.id, reason: call.body?.reason, viewer: call.caller)
            return Done()
        }
        api.on(CommentsAPI.like) { call in
            switch (call.body.commentId, call.body.feedId) {
            case (let comment?, nil):
                guard let id = Int64(comment), id > 0 else { throw CommentService.noComment }
                return .comment(try comments.like(commentID: id, viewer: call.caller))
            case (nil, let feed?):
                guard let id = Int64(feed), id > 0 else { throw FeedService.noFeed }
                return .feed(try comments.feeds.like(feedID: id, viewer: call.caller))
            default:
                throw ServiceError.invalid("Name what you like: either 'commentId' or 'feedId'.")
            }
        }
        api.on(CommentsAPI.unlike) { call in
            if call.path.id >= FeedStore.firstLikeID {
                try comments.feeds.unlike(likeID: call.path.id, viewer: call.caller)
            } else {
                try comments.unlike(likeID: call.path.id, viewer: call.caller)
            }
            return Done()
        }
        api.on(CommentsAPI.topics) { call in
            try comments.store.topics(page: call.query.paging.page, size: call.query.paging.size)
        }
        api.on(CommentsAPI.topic) { call in
            try comments.topic(id: call.path.id, cursor: call.query.cursor, size: call.query.size, viewer: call.caller)
        }
        api.on(CommentsAPI.reports) { call in
            try comments.store.reports(page: call.query.paging.page, size: call.query.paging.size)
        }
        api.on(CommentsAPI.moderate) { call in
            try comments.setHidden(commentID: call.path.id, hidden: call.body.hidden)
            return Done()
        }
    }
}
