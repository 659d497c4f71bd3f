import Foundation
import HTTPServer
import MusicCore

/// The comments API: comments on songs and sheets with replies, likes (`v1/likes`), reports and moderation.
struct CommentRoutes {
    let comments: CommentService
    let accounts: AccountService

    /// A like names a comment or a moment.
    struct LikeBody: Decodable {
        var commentId: String?
        var feedId: String?
    }

    struct ReportBody: Decodable {
        var reason: String?
    }

    struct HideBody: Decodable {
        var hidden: Bool
    }

    func register(on router: Router) {
        router.get("/v1/comments") { request in
            let (page, size) = try request.paging()
            let query = CommentService.ListQuery(
                songID: request.query["songId"], sheetID: request.query["sheetId"],
                feedID: request.query["feedId"], parentID: request.query["parentId"],
                order: try request.enumQuery("order", default: CommentStore.Order.new),
                cursor: request.query["cursor"].flatMap { $0.isEmpty ? nil : $0 }, page: page, size: size)
            return .json(try comments.list(query, viewer: try accounts.viewer(request)))
        }
        router.post("/v1/comments") { request in
            let viewer = try accounts.requireViewer(request)
            return .json(
                try comments.write(try request.decode(CommentService.CommentInput.self), viewer: viewer),
                status: 201)
        }
        router.get("/v1/comments/:id") { request in
            let id = try request.id(thing: "comment")
            let viewer = try accounts.viewer(request)
            _ = try comments.visibleRecord(id: id, viewer: viewer)
            guard let comment = try comments.store.comment(id: id, viewerID: viewer?.userID) else {
                throw CommentService.noComment
            }
            return .json(comment)
        }
        router.delete("/v1/comments/:id") { request in
            let viewer = try accounts.requireViewer(request)
            try comments.delete(id: try request.id(thing: "comment"), viewer: viewer)
            return .ok()
        }
        router.post("/v1/comments/:id/reports") { request in
            let viewer = try accounts.requireViewer(request)
            let body = try? request.decode(ReportBody.self)
            try comments.report(
                commentID: try request.id(thing: "comment"), reason: body?.reason, viewer: viewer)
            return .ok()
        }
        router.post("/v1/likes") { request in
            let viewer = try accounts.requireViewer(request)
            let body = try request.decode(LikeBody.self)
            switch (body.commentId, body.feedId) {
            case (let comment?, nil):
                guard let id = Int64(comment), id > 0 else { throw CommentService.noComment }
                return .json(try comments.like(commentID: id, viewer: viewer), status: 201)
            case (nil, let feed?):
                guard let id = Int64(feed), id > 0 else { throw FeedService.noFeed }
                return .json(try comments.feeds.like(feedID: id, viewer: viewer), status: 201)
            default:
                throw HTTPError.badRequest("Name what you like: either 'commentId' or 'feedId'.")
            }
        }
        router.delete("/v1/likes/:id") { request in
            let viewer = try accounts.requireViewer(request)
            let id = try request.id(thing: "like")
            if id >= FeedStore.firstLikeID {
                try comments.feeds.unlike(likeID: id, viewer: viewer)
            } else {
                try comments.unlike(likeID: id, viewer: viewer)
            }
            return .ok()
        }
        router.get("/v1/topics") { request in
            let (page, size) = try request.paging()
            return .json(try comments.store.topics(page: page, size: size))
        }
        router.get("/v1/topics/:id") { request in
            let (_, size) = try request.paging()
            return .json(
                try comments.topic(
                    id: try request.id(thing: "topic"),
                    cursor: request.query["cursor"].flatMap { $0.isEmpty ? nil : $0 },
                    size: size, viewer: try accounts.viewer(request)))
        }
        router.get("/v1/admin/reports") { request in
            try accounts.requireAdmin(request, action: "read reports")
            let (page, size) = try request.paging()
            return .json(try comments.store.reports(page: page, size: size))
        }
        router.patch("/v1/admin/comments/:id") { request in
            try accounts.requireAdmin(request, action: "hide comments")
            let body = try request.decode(HideBody.self)
            try comments.setHidden(commentID: try request.id(thing: "comment"), hidden: body.hidden)
            return .ok()
        }
    }
}
