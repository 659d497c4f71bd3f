import Foundation
import MusicCore
import Storage

/// The rules of comments: what may be commented and read by whom, limits, likes (of comments, podcast episodes
/// and, through `FeedService`, moments), topics, reports and moderation. Each use case is one transaction: the
/// checks of the song, sheet or moment it is on, the rate check and the notifications included.
struct CommentService: Sendable {
    let database: Database
    let store = CommentStore()
    let topics = TopicStore()
    let notifications: NotificationStore
    let links = RichTextLinks()
    let catalog = Catalog()
    let podcasts = EpisodeLinks()
    let sheets: SheetService
    let feeds: FeedService
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    init(database: Database, sheets: SheetService, feeds: FeedService, events: EventLog) {
        self.database = database
        notifications = NotificationStore(events: events)
        self.sheets = sheets
        self.feeds = feeds
    }

    static let maxPerMinute = 5
    static let maxPerDay = 200
    static let limit = PostingLimit(
        perMinute: maxPerMinute, perDay: maxPerDay, doing: "commenting", things: "comments")
    static let noComment = ServiceError.notFound("That comment does not exist.")
    static let noSong = ServiceError.notFound("That song does not exist.")

    // MARK: What comments are on

    /// The owner of the thing a comment is on (nil for a song, which is the library's), when the viewer may
    /// see it; else the thing's own 404.
    private func owner(_ db: Connection, of target: CommentStore.Target, viewer: Viewer?) throws -> Int64? {
        switch target {
        case .song(let id):
            guard try catalog.songExists(db, id: id) else { throw Self.noSong }
            return nil
        case .sheet(let id):
            return try sheets.visibleSheet(db, id: id, viewer: viewer).userID
        case .feed(let id):
            return try feeds.visibleAuthor(db, feedID: id, viewer: viewer)
        case .video(let id):
            guard try VideoService.exists(db, id: id) else { throw VideoService.noVideo }
            return nil
        case .episode(let id):
            guard try store.episodeExists(db, id: id) else { throw PodcastService.noEpisode }
            return nil
        }
    }

    /// The thing a request names: exactly one of a song, a sheet, a moment, a video or an episode.
    private static func target(
        songID: Int64?, sheetID: Int64?, feedID: Int64?, videoID: Int64?, episodeID: Int64?
    ) throws -> CommentStore.Target {
        switch (songID, sheetID, feedID, videoID, episodeID) {
        case (let song?, nil, nil, nil, nil): return .song(song)
        case (nil, let sheet?, nil, nil, nil): return .sheet(sheet)
        case (nil, nil, let feed?, nil, nil): return .feed(feed)
        case (nil, nil, nil, let video?, nil): return .video(video)
        case (nil, nil, nil, nil, let episode?): return .episode(episode)
        default:
            throw ServiceError.invalid(
                "Name what the comments are on: one of 'songId', 'sheetId', 'feedId', 'videoId' or 'episodeId'."
            )
        }
    }

    /// The comment when it exists, is not hidden (but to administrators) and its thing is visible to
    /// `viewer`, with the owner of that thing.
    private func visible(_ db: Connection, id: Int64, viewer: Viewer?) throws -> (
        record: CommentStore.CommentRecord, owner: Int64?
    ) {
        guard let record = try store.record(db, id: id), !record.hidden || viewer?.isAdmin == true else {
            throw Self.noComment
        }
        do {
            return (record, try owner(db, of: record.target, viewer: viewer))
        } catch let error as ServiceError where error.kind == .notFound {
            throw Self.noComment
        }
    }

    // MARK: Reading

    func detail(id: Int64, viewer: Viewer?) throws -> Comment {
        try database.read { db in
            _ = try visible(db, id: id, viewer: viewer)
            guard let comment = try store.comment(db, id: id, viewerID: viewer?.userID) else {
                throw Self.noComment
            }
            return comment
        }
    }

    func list(_ query: CommentListQuery, viewer: Viewer?) throws -> CommentPage {
        let cursor = try query.cursor.map { try Self.parseCursor($0, order: query.order) }
        let (rows, total) = try database.read { db in
            let target: CommentStore.Target
            if let parent = query.parentId {
                target = try visible(db, id: parent, viewer: viewer).record.target
            } else {
                target = try Self.target(
                    songID: query.songId, sheetID: query.sheetId, feedID: query.feedId,
                    videoID: query.videoId,
                    episodeID: query.episodeId)
                _ = try owner(db, of: target, viewer: viewer)
            }
            return try store.list(
                db, target: target, parentID: query.parentId, order: query.order, cursor: cursor,
                offset: cursor == nil ? query.paging.offset : 0, limit: query.paging.size,
                viewerID: viewer?.userID)
        }
        let size = query.paging.size
        let next = rows.count == size ? rows.last.map { Self.cursor(for: $0, order: query.order) } : nil
        return CommentPage(
            data: rows.map(\.comment), total: total, page: cursor == nil ? query.paging.page : 0, size: size,
            nextCursor: next)
    }

    static func cursor(for row: CommentStore.Listed, order: CommentOrder) -> String {
        order == .new ? row.comment.id : PageCursor.scored(row.hot, id: row.comment.id)
    }

    /// New pages travel by id, hot ones by hot score and id.
    static func parseCursor(_ text: String, order: CommentOrder) throws -> (hot: Double?, id: Int64) {
        switch order {
        case .new:
            guard let id = try PageCursor.id(text) else { throw PageCursor.notOurs }
            return (nil, id)
        case .hot:
            guard let (hot, id) = try PageCursor.scored(text, first: .infinity) else {
                throw PageCursor.notOurs
            }
            return (hot, id)
        }
    }

    // MARK: Writing and deleting

    /// Writes a comment or a reply; the rate check, the comment, its topics and the notifications it
    /// causes are one transaction, so a comment over the limit leaves nothing behind.
    func write(_ input: CommentDraft, viewer: Viewer) throws -> Comment {
        guard
            let content = try CommentDraft.contentText.check(input.content)
        else { throw ServiceError.invalid("Write something first: the comment is empty.") }
        let rich = RichTextParser.parse(content)
        return try database.write { db in
            let target: CommentStore.Target
            var parent: CommentStore.CommentRecord?
            let owner: Int64?
            if let id = input.parentId?.rawValue {
                let visible = try visible(db, id: id, viewer: viewer)
                (target, parent, owner) = (visible.record.target, visible.record, visible.owner)
                if input.songId != nil || input.sheetId != nil || input.feedId != nil || input.videoId != nil
                    || input.episodeId != nil
                {
                    let named = try Self.target(
                        songID: input.songId?.rawValue, sheetID: input.sheetId?.rawValue,
                        feedID: input.feedId?.rawValue, videoID: input.videoId?.rawValue,
                        episodeID: input.episodeId?.rawValue)
                    _ = try self.owner(db, of: named, viewer: viewer)
                    guard named == target else {
                        throw ServiceError.invalid(
                            "A reply goes on the same song, sheet, moment, video or episode as the comment it answers."
                        )
                    }
                }
            } else {
                target = try Self.target(
                    songID: input.songId?.rawValue, sheetID: input.sheetId?.rawValue,
                    feedID: input.feedId?.rawValue, videoID: input.videoId?.rawValue,
                    episodeID: input.episodeId?.rawValue)
                owner = try self.owner(db, of: target, viewer: viewer)
            }
            let now = clock()
            try Self.limit.check(now: now) { try store.writtenSince(db, userID: viewer.userID, since: $0) }
            let (mentions, topics) = try links.resolve(db, rich, authorID: viewer.userID, now: now)
            let id = try store.insert(
                db, userID: viewer.userID, target: target, parentID: parent?.id, content: content,
                mentions: mentions, topics: topics, now: now)
            try notify(
                db, commentID: id, author: viewer.userID, parentAuthor: parent?.userID, owner: owner,
                target: target,
                mentioned: mentions.compactMap { Int64($0.userId) }, now: now)
            guard let comment = try store.comment(db, id: id, viewerID: viewer.userID) else {
                throw Self.noComment
            }
            return comment
        }
    }

    /// Who hears of a new comment, each person once: a reply tells the parent's author, a mention each
    /// person mentioned, and a comment on a sheet or moment its owner (unless told already).
    private func notify(
        _ db: Connection, commentID: Int64, author: Int64, parentAuthor: Int64?, owner: Int64?,
        target: CommentStore.Target, mentioned: [Int64], now: Int64
    ) throws {
        var told: Set<Int64> = [author]
        if let parentAuthor {
            try notifications.record(
                db, kind: .reply, to: parentAuthor, from: author, commentID: commentID, at: now)
            told.insert(parentAuthor)
        }
        for person in mentioned where told.insert(person).inserted {
            try notifications.record(
                db, kind: .mention, to: person, from: author, commentID: commentID, at: now)
        }
        if let owner, !told.contains(owner) {
            try notifications.record(
                db, kind: .comment, to: owner, from: author, commentID: commentID, at: now)
        }
    }

    func delete(id: Int64, viewer: Viewer) throws {
        try database.write { db in
            let record = try visible(db, id: id, viewer: viewer).record
            guard record.userID == viewer.userID || viewer.isAdmin else {
                throw ServiceError.forbidden("You can only delete your own comments.")
            }
            try store.delete(db, id: id)
        }
    }

    // MARK: Topics

    /// The most talked-about topics, or the one whose text is `title` (`#` around it and case ignored).
    func topics(title: String?, paging: Paging) throws -> Page<Topic> {
        try database.read { db in
            guard let title else { return try topics.topics(db, paging: paging) }
            let text = title.trimmingCharacters(in: CharacterSet(charactersIn: "#＃").union(.whitespaces))
            let found = text.isEmpty ? nil : try topics.topic(db, key: AccountRules.nicknameKey(text))
            return Page(
                items: paging.page == 1 ? found.map { [$0] } ?? [] : [], total: found == nil ? 0 : 1,
                page: paging.page, size: paging.size)
        }
    }

    func topic(id: Int64, query: TopicQuery, viewer: Viewer?) throws -> TopicDetail {
        try database.read { db in
            guard let topic = try topics.topic(db, id: id) else {
                throw ServiceError.notFound("That topic does not exist.")
            }
            let before = try query.cursor.map { try Self.parseCursor($0, order: .new).id }
            let comments = try store.topicComments(
                db, topicID: id, before: before, limit: query.size, viewerID: viewer?.userID)
            let feeds = try feeds.list(
                db, .topic(id), cursor: nil, paging: Paging(size: query.size), viewer: viewer)
            return TopicDetail(
                topic: topic, comments: comments,
                nextCursor: comments.count == query.size ? comments.last?.id : nil, feeds: feeds.data,
                nextFeedsCursor: feeds.nextCursor)
        }
    }

    // MARK: Likes

    /// Likes a comment (`commentId`), a moment (`feedId`) or a podcast episode (`episodeId`); it comes back with
    /// the viewer's `likeId`.
    func like(_ draft: LikeDraft, viewer: Viewer) throws -> LikedThing {
        switch (draft.commentId, draft.feedId, draft.episodeId) {
        case (let comment?, nil, nil):
            return .comment(try like(commentID: comment.rawValue, viewer: viewer))
        case (nil, let feed?, nil):
            return .feed(try feeds.like(feedID: feed.rawValue, viewer: viewer))
        case (nil, nil, let episode?):
            return .episode(try like(episodeID: episode.rawValue, viewer: viewer))
        default:
            throw ServiceError.invalid("Name what you like: one of 'commentId', 'feedId' or 'episodeId'.")
        }
    }

    /// Likes a podcast episode (once: liking again gives the same like). Episodes are the library's, so
    /// nobody is told.
    func like(episodeID: Int64, viewer: Viewer) throws -> PodcastEpisode {
        try database.write { db in
            guard try store.episodeExists(db, id: episodeID) else { throw PodcastService.noEpisode }
            _ = try podcasts.like(db, userID: viewer.userID, episodeID: episodeID, now: clock())
            guard let episode = try podcasts.episode(db, id: episodeID, viewerID: viewer.userID) else {
                throw PodcastService.noEpisode
            }
            return episode
        }
    }

    /// Likes a comment the viewer may see (once: liking again gives the same like) and tells its author.
    func like(commentID: Int64, viewer: Viewer) throws -> Comment {
        try database.write { db in
            let author = try visible(db, id: commentID, viewer: viewer).record.userID
            let now = clock()
            if try store.like(db, userID: viewer.userID, commentID: commentID, now: now).isNew {
                try notifications.record(
                    db, kind: .like, to: author, from: viewer.userID, commentID: commentID, at: now)
            }
            guard let comment = try store.comment(db, id: commentID, viewerID: viewer.userID) else {
                throw Self.noComment
            }
            return comment
        }
    }

    /// Takes back one's own like: of an episode or a moment when the id is in their range, else of a comment.
    func unlike(likeID: Int64, viewer: Viewer) throws {
        if likeID >= EpisodeLinks.firstLikeID {
            return try database.write { db in
                try Self.requireOwnLike(by: try podcasts.likeOwner(db, likeID: likeID), viewer: viewer)
                try podcasts.unlike(db, likeID: likeID)
            }
        }
        if likeID >= FeedStore.firstLikeID { return try feeds.unlike(likeID: likeID, viewer: viewer) }
        try database.write { db in
            try Self.requireOwnLike(by: try store.likeOwner(db, likeID: likeID)?.userID, viewer: viewer)
            if let like = try store.unlike(db, likeID: likeID) {
                try notifications.remove(db, kind: .like, from: like.userID, commentID: like.commentID)
            }
        }
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
        try database.write { db in
            _ = try visible(db, id: commentID, viewer: viewer)
            let reason =
                try CommentReportDraft.reasonText.check(reason)
                ?? "No reason given"
            try store.report(db, userID: viewer.userID, commentID: commentID, reason: reason, now: clock())
        }
    }

    func reports(paging: Paging) throws -> Page<CommentReport> {
        try database.read { db in try store.reports(db, paging: paging) }
    }

    func setHidden(commentID: Int64, hidden: Bool) throws {
        try database.write { db in
            guard try store.record(db, id: commentID) != nil else { throw Self.noComment }
            try store.setHidden(db, id: commentID, hidden: hidden, now: clock())
        }
    }
}
