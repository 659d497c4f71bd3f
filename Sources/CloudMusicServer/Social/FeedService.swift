import Foundation
import MusicCore

/// The rules of moments: what may be published, who sees what, likes, the timeline and "nearby".
struct FeedService: Sendable {
    typealias Viewer = AccountService.Viewer

    let store: FeedStore
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    static let maxLength = 2_000
    static let maxImages = 9
    static let maxPerMinute = 5
    static let maxPerDay = 100
    static let maxRadius = 100_000.0
    static let defaultRadius = 5_000.0
    static let noFeed = ServiceError.notFound("That moment does not exist.")

    /// Turns an image's `uri` into the picture to store with the moment (its thumbnail and size), or nil
    /// when it names no picture that user uploaded to this server.
    var picture: @Sendable (_ uri: String, _ userID: Int64) throws -> FeedImage? = { _, _ in nil }

    func publish(_ input: MomentDraft, viewer: Viewer) throws -> Feed {
        let content =
            try AccountRules.text(input.content, field: "A moment", limit: Self.maxLength, allowNewlines: true)
            ?? ""
        let inputs = input.images ?? []
        guard inputs.count <= Self.maxImages else {
            throw ServiceError.invalid("A moment can have at most \(Self.maxImages) pictures.")
        }
        var images: [FeedImage] = []
        for (index, image) in inputs.enumerated() {
            guard let stored = try picture(image.uri, viewer.userID) else {
                throw ServiceError.invalid(
                    "Picture \(index + 1) is not one uploaded to this server. Upload it with POST v1/files/multi and send the 'uri' it returns."
                )
            }
            images.append(stored)
        }
        guard !content.isEmpty || !images.isEmpty else {
            throw ServiceError.invalid("Write something or add a picture first: the moment is empty.")
        }
        let place = try Self.place(input)
        let now = clock()
        let id = try store.insert(
            userID: viewer.userID, content: content, images: images, place: place,
            rich: RichTextParser.parse(content), now: now
        ) { publishedSince in
            if try publishedSince(now - 60) >= Self.maxPerMinute {
                throw ServiceError.rateLimited("You are posting very fast. Wait a minute.", retryAfter: 60)
            }
            if try publishedSince(now - 86_400) >= Self.maxPerDay {
                throw ServiceError.rateLimited(
                    "That is the most moments for one day (\(Self.maxPerDay)).", retryAfter: 3_600)
            }
        }
        guard let feed = try store.feed(id: id, viewerID: viewer.userID) else { throw Self.noFeed }
        return feed
    }

    static func place(_ input: MomentDraft) throws -> FeedStore.Place {
        var place = FeedStore.Place(
            province: try AccountRules.text(input.province, field: "The province", limit: 50),
            city: try AccountRules.text(input.city, field: "The city", limit: 50),
            name: try AccountRules.text(input.place, field: "The place", limit: 100))
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

    /// The moment, unless it does not exist or its author and the viewer have blocked each other.
    func visibleFeed(id: Int64, viewer: Viewer?) throws -> Feed {
        guard let feed = try store.feed(id: id, viewerID: viewer?.userID) else { throw Self.noFeed }
        if let viewer, try store.blockedBetween(viewerID: viewer.userID, feedID: id) { throw Self.noFeed }
        return feed
    }

    func delete(id: Int64, viewer: Viewer) throws {
        guard let author = try store.author(feedID: id) else { throw Self.noFeed }
        guard author == viewer.userID || viewer.isAdmin else {
            throw ServiceError.forbidden("You can only delete your own moments.")
        }
        try store.delete(id: id)
    }

    static func page(_ feeds: [Feed], size: Int, cursor: (Feed) -> String) -> FeedPage {
        FeedPage(data: feeds, size: size, nextCursor: feeds.count == size ? feeds.last.map(cursor) : nil)
    }

    func list(_ scope: FeedStore.Scope, cursor: String?, size: Int, viewer: Viewer?) throws -> FeedPage {
        let feeds = try store.list(
            scope, before: try PageCursor.id(cursor), limit: size, viewerID: viewer?.userID)
        return Self.page(feeds, size: size, cursor: \.id)
    }

    func timeline(cursor: String?, size: Int, viewer: Viewer) throws -> FeedPage {
        let feeds = try store.timeline(userID: viewer.userID, before: try PageCursor.id(cursor), limit: size)
        return Self.page(feeds, size: size, cursor: \.id)
    }

    /// The nearby cursor is the last moment's distance (as its bit pattern, exact) and id.
    func nearby(
        latitude: Double?, longitude: Double?, radius: Double?, cursor: String?, size: Int, viewer: Viewer?
    ) throws -> FeedPage {
        guard let latitude, let longitude, let point = GeoPoint(latitude: latitude, longitude: longitude) else {
            throw ServiceError.invalid(
                "Say where: 'latitude' (-90 to 90) and 'longitude' (-180 to 180), in degrees.")
        }
        let radius = radius ?? Self.defaultRadius
        guard radius.isFinite, radius > 0, radius <= Self.maxRadius else {
            throw ServiceError.invalid("'radius' must be more than 0 and at most \(Int(Self.maxRadius)) metres.")
        }
        let after = try PageCursor.scored(cursor).map { (distance: $0.score, id: $0.id) }
        let feeds = try store.nearby(
            point: point, radius: radius, after: after, limit: size, viewerID: viewer?.userID)
        return Self.page(feeds, size: size) { PageCursor.scored($0.distance ?? 0, id: $0.id) }
    }

    // MARK: Likes

    func like(feedID: Int64, viewer: Viewer) throws -> Feed {
        _ = try visibleFeed(id: feedID, viewer: viewer)
        _ = try store.like(userID: viewer.userID, feedID: feedID, now: clock())
        guard let feed = try store.feed(id: feedID, viewerID: viewer.userID) else { throw Self.noFeed }
        return feed
    }

    func unlike(likeID: Int64, viewer: Viewer) throws {
        try CommentService.requireOwnLike(by: try store.likeOwner(likeID: likeID)?.userID, viewer: viewer)
        try store.unlike(likeID: likeID)
    }
}
