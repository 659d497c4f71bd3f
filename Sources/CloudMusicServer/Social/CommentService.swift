import Foundation
import MusicCore

/// The rules of comments: what may be commented and read by whom, limits, likes, reports and moderation.
struct CommentService: Sendable {
    typealias Viewer = AccountService.Viewer

    let store: CommentStore
    let sheets: SheetService
    let catalog: CatalogStore
    let feeds: FeedService
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    static let maxLength = 1_000
    static let maxPerMinute = 5
    static let maxPerDay = 200
    static let noComment = ServiceError.notFound("That comment does not exist.")

    /// The thing a request names: exactly one of a song, a sheet or a moment, which the viewer may see.
    func target(songID: String?, sheetID: String?, feedID: String?, viewer: Viewer?) throws
        -> CommentStore.Target
    {
        switch (songID, sheetID, feedID) {
        case (let song?, nil, nil):
            guard let id = Int64(song), id > 0, try store.database.read({ try catalog.songExists($0, id: id) }) else {
                throw ServiceError.notFound("That song does not exist.")
            }
            return .song(id)
        case (nil, let sheet?, nil):
            guard let id = Int64(sheet), id > 0 else { throw SheetService.noSheet }
            _ = try sheets.visibleSheet(id: id, viewer: viewer)
            return .sheet(id)
        case (nil, nil, let feed?):
            guard let id = Int64(feed), id > 0 else { throw FeedService.noFeed }
            _ = try feeds.visibleFeed(id: id, viewer: viewer)
            return .feed(id)
        default:
            throw ServiceError.invalid(
                "Name what the comments are on: one of 'songId', 'sheetId' or 'feedId'.")
        }
    }

    /// Throws unless the comment exists, is not hidden and its thing is visible to `viewer`.
    func visibleRecord(id: Int64, viewer: Viewer?) throws -> CommentStore.CommentRecord {
        guard let record = try store.record(id: id), !record.hidden || viewer?.isAdmin == true else {
            throw Self.noComment
        }
        do {
            switch record.target {
            case .sheet(let sheetID): _ = try sheets.visibleSheet(id: sheetID, viewer: viewer)
            case .feed(let feedID): _ = try feeds.visibleFeed(id: feedID, viewer: viewer)
            case .song: break
            }
        } catch { throw Self.noComment }
        return record
    }

    func write(_ input: CommentDraft, viewer: Viewer) throws -> Comment {
        guard
            let content = try AccountRules.text(
                input.content, field: "A comment", limit: Self.maxLength, allowNewlines: true)
        else { throw ServiceError.invalid("Write something first: the comment is empty.") }
        var target: CommentStore.Target
        var parentID: Int64?
        if let parent = input.parentId {
            guard let id = Int64(parent), id > 0 else { throw Self.noComment }
            let record = try visibleRecord(id: id, viewer: viewer)
            target = record.target
            parentID = id
            if input.songId != nil || input.sheetId != nil || input.feedId != nil,
                try self.target(
                    songID: input.songId, sheetID: input.sheetId, feedID: input.feedId, viewer: viewer) != target
            {
                throw ServiceError.invalid(
                    "A reply goes on the same song, sheet or moment as the comment it answers.")
            }
        } else {
            target = try self.target(
                songID: input.songId, sheetID: input.sheetId, feedID: input.feedId, viewer: viewer)
        }
        let now = clock()
        // Checked inside the insert's transaction: a burst of requests at once gets no more than the limit.
        let id = try store.insert(
            userID: viewer.userID, target: target, parentID: parentID, content: content,
            rich: RichTextParser.parse(content), now: now
        ) { writtenSince in
            if try writtenSince(now - 60) >= Self.maxPerMinute {
                throw ServiceError.rateLimited(
                    "You are commenting very fast. Wait a minute.", retryAfter: 60)
            }
            if try writtenSince(now - 86_400) >= Self.maxPerDay {
                throw ServiceError.rateLimited(
                    "That is the most comments for one day (\(Self.maxPerDay)).", retryAfter: 3_600)
            }
        }
        guard let comment = try store.comment(id: id, viewerID: viewer.userID) else { throw Self.noComment }
        return comment
    }

    func delete(id: Int64, viewer: Viewer) throws {
        let record = try visibleRecord(id: id, viewer: viewer)
        guard record.userID == viewer.userID || viewer.isAdmin else {
            throw ServiceError.forbidden("You can only delete your own comments.")
        }
        try store.delete(id: id)
    }

    func list(_ query: CommentListQuery, viewer: Viewer?) throws -> CommentPage {
        let target: CommentStore.Target
        var parentID: Int64?
        if let parent = query.parentId {
            target = try visibleRecord(id: parent, viewer: viewer).target
            parentID = parent
        } else {
            target = try self.target(
                songID: query.songId.map(String.init), sheetID: query.sheetId.map(String.init),
                feedID: query.feedId.map(String.init), viewer: viewer)
        }
        let cursor = try query.cursor.map { try Self.parseCursor($0, order: query.order) }
        let (rows, total) = try store.list(
            target: target, parentID: parentID, order: query.order, cursor: cursor,
            offset: cursor == nil ? query.paging.offset : 0, limit: query.paging.size,
            viewerID: viewer?.userID)
        let size = query.paging.size
        let next = rows.count == size ? rows.last.map { Self.cursor(for: $0, order: query.order) } : nil
        return CommentPage(
            data: rows.map(\.comment), total: total, page: cursor == nil ? query.paging.page : 0, size: size,
            nextCursor: next)
    }

    static func cursor(for row: (comment: Comment, hot: Double), order: CommentOrder) -> String {
        order == .new ? row.comment.id : PageCursor.scored(row.hot, id: row.comment.id)
    }

    /// New pages travel by id, hot ones by hot score and id.
    static func parseCursor(_ text: String, order: CommentOrder) throws -> (hot: Double?, id: Int64) {
        switch order {
        case .new:
            guard let id = try PageCursor.id(text) else { throw PageCursor.notOurs }
            return (nil, id)
        case .hot:
            guard let (hot, id) = try PageCursor.scored(text) else { throw PageCursor.notOurs }
            return (hot, id)
        }
    }

    // MARK: Topics

    func topic(id: Int64, cursor: String?, size: Int, viewer: Viewer?) throws -> TopicDetail {
        guard let topic = try store.topic(id: id) else {
            throw ServiceError.notFound("That topic does not exist.")
        }
        let before = try cursor.map { try Self.parseCursor($0, order: .new).id }
        let comments = try store.topicComments(
            topicID: id, before: before, limit: size, viewerID: viewer?.userID)
        let feeds = try feeds.list(.topic(id), cursor: nil, size: size, viewer: viewer)
        return TopicDetail(
            topic: topic, comments: comments, nextCursor: comments.count == size ? comments.last?.id : nil,
            feeds: feeds.data, nextFeedsCursor: feeds.nextCursor)
    }

    // MARK: Likes

    func like(commentID: Int64, viewer: Viewer) throws -> Comment {
        _ = try visibleRecord(id: commentID, viewer: viewer)
        _ = try store.like(userID: viewer.userID, commentID: commentID, now: clock())
        guard let comment = try store.comment(id: commentID, viewerID: viewer.userID) else {
            throw Self.noComment
        }
        return comment
    }

    func unlike(likeID: Int64, viewer: Viewer) throws {
        try Self.requireOwnLike(by: try store.likeOwner(likeID: likeID)?.userID, viewer: viewer)
        try store.unlike(likeID: likeID)
    }

    /// Only who made a like (of a comment or a moment) takes it back.
    static func requireOwnLike(by likerID: Int64?, viewer: Viewer) throws {
        guard let likerID else { throw ServiceError.notFound("That like does not exist.") }
        guard likerID == viewer.userID else {
            throw ServiceError.forbidden("You can only take back your own likes.")
        }
    }

    // MARK: Reports and moderation

    func report(commentID: Int64, reason: String?, viewer: Viewer) throws {
        _ = try visibleRecord(id: commentID, viewer: viewer)
        let reason =
            try AccountRules.text(reason, field: "The reason", limit: 200, allowNewlines: true)
            ?? "No reason given"
        try store.report(userID: viewer.userID, commentID: commentID, reason: reason, now: clock())
    }

    func setHidden(commentID: Int64, hidden: Bool) throws {
        guard try store.record(id: commentID) != nil else { throw Self.noComment }
        try store.setHidden(id: commentID, hidden: hidden, now: clock())
    }
}
