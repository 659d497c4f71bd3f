import Foundation
import MusicCore
import Storage

/// The rules of moments: what may be published, who sees what, likes, the timeline and "nearby". Each use
/// case is one transaction, with its rate check, topics and notifications.
struct FeedService: Sendable {
    let database: Database
    let store = FeedStore()
    let podcasts = EpisodeLinks()
    let notifications: NotificationStore
    let links = RichTextLinks()
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    init(database: Database, events: EventLog) {
        self.database = database
        notifications = NotificationStore(events: events)
    }

    static let maxPerMinute = 5
    static let maxPerDay = 100
    static let limit = PostingLimit(
        perMinute: maxPerMinute, perDay: maxPerDay, doing: "posting", things: "moments")
    static let maxRadius = 100_000.0
    static let defaultRadius = 5_000.0
    static let noFeed = ServiceError.notFound("That moment does not exist.")
    static let noEpisode = ServiceError.notFound(
        "The episode to share does not exist: it may have been removed with its podcast.")

    /// Turns an image's `uri` into the picture to store with the moment (its thumbnail and size), or nil
    /// when it names no picture that user uploaded to this server. (Files' own read, before the write.)
    var picture: @Sendable (_ uri: String, _ userID: Int64) throws -> FeedImage? = { _, _ in nil }

    func publish(_ input: MomentDraft, viewer: Viewer) throws -> Feed {
        let content =
            try MomentDraft.contentText.check(input.content) ?? ""
        let inputs = input.images ?? []
        var images: [FeedImage] = []
        for (index, image) in inputs.enumerated() {
            guard let stored = try picture(image.uri, viewer.userID) else {
                throw ServiceError.invalid(
                    "Picture \(index + 1) is not one uploaded to this server. Upload it with POST v1/files/multi and send the 'uri' it returns."
                )
            }
            images.append(stored)
        }
        let episodeID = input.episodeId?.rawValue
        guard !content.isEmpty || !images.isEmpty || episodeID != nil else {
            throw ServiceError.invalid("Write something or add a picture first: the moment is empty.")
        }
        let place = try Self.place(input)
        let rich = RichTextParser.parse(content)
        return try database.write { db in
            if let episodeID, try !podcasts.episodeExists(db, id: episodeID) {
                throw Self.noEpisode
            }
            let now = clock()
            try Self.limit.check(now: now) { try store.publishedSince(db, userID: viewer.userID, since: $0) }
            let (mentions, topics) = try links.resolve(db, rich, authorID: viewer.userID, now: now)
            let id = try store.insert(
                db, userID: viewer.userID, content: content, images: images, place: place, mentions: mentions,
                topics: topics, episodeID: episodeID, now: now)
            for person in Set(mentions.compactMap { Int64($0.userId) }) {
                try notifications.record(
                    db, kind: .mention, to: person, from: viewer.userID, feedID: id, at: now)
            }
            guard let feed = try store.feed(db, id: id, viewerID: viewer.userID) else { throw Self.noFeed }
            return feed
        }
    }

    static func place(_ input: MomentDraft) throws -> FeedStore.Place {
        var place = FeedStore.Place(
            province: try MomentDraft.provinceText.check(input.province),
            city: try MomentDraft.cityText.check(input.city),
            name: try MomentDraft.placeText.check(input.place))
        switch (input.latitude, input.longitude) {
        case (nil, nil):
            break
        case (let latitude?, let longitude?):
            guard let point = GeoPoint(latitude: latitude, longitude: longitude) else {
                throw ServiceError.invalid(
                    "'latitude' must be from -90 to 90 and 'longitude' from -180 to 180 (degrees).")
            }
            place.point = point
        default:
            throw ServiceError.invalid("Send both 'latitude' and 'longitude', or neither.")
        }
        return place
    }

    // MARK: Seeing and deleting

    /// The author of a moment `viewer` may see: one that exists, whose author and the viewer have not
    /// blocked each other.
    func visibleAuthor(_ db: Connection, feedID: Int64, viewer: Viewer?) throws -> Int64 {
        guard let author = try store.author(db, feedID: feedID) else { throw Self.noFeed }
        if let viewer, try store.blockedBetween(db, viewerID: viewer.userID, feedID: feedID) {
            throw Self.noFeed
        }
        return author
    }

    /// The moment, unless it does not exist or its author and the viewer have blocked each other.
    func visibleFeed(_ db: Connection, id: Int64, viewer: Viewer?) throws -> Feed {
        _ = try visibleAuthor(db, feedID: id, viewer: viewer)
        guard let feed = try store.feed(db, id: id, viewerID: viewer?.userID) else { throw Self.noFeed }
        return feed
    }

    func visibleFeed(id: Int64, viewer: Viewer?) throws -> Feed {
        try database.read { db in try visibleFeed(db, id: id, viewer: viewer) }
    }

    func delete(id: Int64, viewer: Viewer) throws {
        try database.write { db in
            guard let author = try store.author(db, feedID: id) else { throw Self.noFeed }
            guard author == viewer.userID || viewer.isAdmin else {
                throw ServiceError.forbidden("You can only delete your own moments.")
            }
            try store.delete(db, id: id)
        }
    }

    // MARK: Lists

    /// Where a list starts: 0 after a cursor, else the numbered page's offset, which may reach only
    /// `FeedsAPI.maxNumberedDepth` deep (an offset costs what it skips; a cursor does not).
    static func offset(of paging: Paging, byCursor: Bool) throws -> Int {
        guard !byCursor else { return 0 }
        guard paging.page * paging.size <= FeedsAPI.maxNumberedDepth else {
            throw ServiceError.invalid(
                "Numbered pages of moments reach the first \(FeedsAPI.maxNumberedDepth); to go further, pass "
                    + "a page's 'nextCursor' as 'cursor'.")
        }
        return paging.offset
    }

    /// A page of moments: `nextCursor` when it is full; `page` 0 when it was reached by cursor.
    static func page(
        _ feeds: [Feed], total: Int, paging: Paging, byCursor: Bool, nextCursor: (Feed) -> String
    ) -> FeedPage {
        FeedPage(
            data: feeds, total: total, page: byCursor ? 0 : paging.page, size: paging.size,
            nextCursor: feeds.count == paging.size ? feeds.last.map(nextCursor) : nil,
            maxPage: FeedsAPI.maxNumberedDepth / paging.size)
    }

    /// Everyone's moments, one person's or one topic's, newest first.
    func list(_ query: FeedListQuery, viewer: Viewer?) throws -> FeedPage {
        let scope: FeedStore.Scope
        switch (query.userId, query.topicId) {
        case (nil, nil): scope = .everyone
        case (let user?, nil): scope = .user(user)
        case (nil, let topic?): scope = .topic(topic)
        default: throw ServiceError.invalid("Ask for one user's moments or one topic's, not both.")
        }
        return try database.read { db in
            try list(db, scope, cursor: query.cursor, paging: query.paging, viewer: viewer)
        }
    }

    /// `list` in the caller's transaction.
    func list(_ db: Connection, _ scope: FeedStore.Scope, cursor: String?, paging: Paging, viewer: Viewer?)
        throws
        -> FeedPage
    {
        let before = try PageCursor.id(cursor)
        let offset = try Self.offset(of: paging, byCursor: before != nil)
        let feeds = try store.list(
            db, scope, before: before, offset: offset, limit: paging.size, viewerID: viewer?.userID)
        let total = try store.total(db, scope, viewerID: viewer?.userID)
        return Self.page(feeds, total: total, paging: paging, byCursor: before != nil, nextCursor: \.id)
    }

    /// The moments of the people the viewer follows, and their own, newest first.
    func timeline(_ query: CursorQuery, viewer: Viewer) throws -> FeedPage {
        let before = try PageCursor.id(query.cursor)
        let offset = try Self.offset(of: query.paging, byCursor: before != nil)
        return try database.read { db in
            let (ids, total) = try store.timeline(
                db, userID: viewer.userID, before: before, limit: offset + query.paging.size)
            let feeds = try store.feeds(db, ids: Array(ids.dropFirst(offset)), viewerID: viewer.userID)
            return Self.page(
                feeds, total: total, paging: query.paging, byCursor: before != nil, nextCursor: \.id)
        }
    }

    /// Placed moments near a point, nearest first. The cursor is the last moment's distance (as its bit
    /// pattern, exact) and id; `total` counts up to `FeedsAPI.maxNumberedDepth`.
    func nearby(_ query: NearbyQuery, viewer: Viewer?) throws -> FeedPage {
        guard let latitude = query.latitude, let longitude = query.longitude,
            let point = GeoPoint(latitude: latitude, longitude: longitude)
        else {
            throw ServiceError.invalid(
                "Say where: 'latitude' (-90 to 90) and 'longitude' (-180 to 180), in degrees.")
        }
        let radius = query.radius ?? Self.defaultRadius
        guard radius.isFinite, radius > 0, radius <= Self.maxRadius else {
            throw ServiceError.invalid(
                "'radius' must be more than 0 and at most \(Int(Self.maxRadius)) metres.")
        }
        let after = try PageCursor.scored(query.cursor, first: -.infinity).map {
            (distance: $0.score, id: $0.id)
        }
        let offset = try Self.offset(of: query.paging, byCursor: after != nil)
        return try database.read { db in
            let found = try store.nearby(
                db, point: point, radius: radius, after: after, limit: offset + query.paging.size,
                viewerID: viewer?.userID
            ).dropFirst(offset)
            var feeds = try store.feeds(db, ids: found.map(\.id), viewerID: viewer?.userID)
            let distances = Dictionary(uniqueKeysWithValues: found.map { (String($0.id), $0.distance) })
            for index in feeds.indices { feeds[index].distance = distances[feeds[index].id] }
            let total = try store.nearbyCount(
                db, point: point, radius: radius, cap: FeedsAPI.maxNumberedDepth, viewerID: viewer?.userID)
            return Self.page(feeds, total: total, paging: query.paging, byCursor: after != nil) {
                PageCursor.scored($0.distance ?? 0, id: $0.id)
            }
        }
    }

    // MARK: Likes

    /// Likes a moment the viewer may see (once: liking again gives the same like) and tells its author.
    func like(feedID: Int64, viewer: Viewer) throws -> Feed {
        try database.write { db in
            let author = try visibleAuthor(db, feedID: feedID, viewer: viewer)
            let now = clock()
            if try store.like(db, userID: viewer.userID, feedID: feedID, now: now).isNew {
                try notifications.record(
                    db, kind: .like, to: author, from: viewer.userID, feedID: feedID, at: now)
            }
            guard let feed = try store.feed(db, id: feedID, viewerID: viewer.userID) else {
                throw Self.noFeed
            }
            return feed
        }
    }

    /// Takes back one's own like of a moment, and the notification it caused.
    func unlike(likeID: Int64, viewer: Viewer) throws {
        try database.write { db in
            try CommentService.requireOwnLike(
                by: try store.likeOwner(db, likeID: likeID)?.userID, viewer: viewer)
            if let like = try store.unlike(db, likeID: likeID) {
                try notifications.remove(db, kind: .like, from: like.userID, feedID: like.feedID)
            }
        }
    }
}
