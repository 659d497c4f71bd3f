import Foundation
import MusicCore
import Storage

/// The SQL of moments (feeds), their likes, the timeline and "nearby".
///
/// Counts (a person's and a topic's moments, a moment's likes and comments, all moments) are kept by the
/// schema's triggers. SQLite-only: the R*Tree `feed_places` (filled by a trigger) and `json_each`.
struct FeedStore: Sendable {
    struct Place: Sendable, Equatable {
        var province: String?
        var city: String?
        var name: String?
        var point: GeoPoint?
    }

    /// Moment columns; `?` is the viewer's id (0 when nobody is signed in) for `like_id`. A shared episode is
    /// read by its key into one column (a subquery, so the lists' plans stay theirs); NULL when it is gone.
    private static let select = """
        SELECT f.id, f.content, f.images, f.province, f.city, f.place, f.latitude, f.longitude,
            f.likes_count, f.comments_count, f.mentions, f.topics, f.created_at, f.updated_at, f.episode_id,
            (SELECT l.id FROM feed_likes l WHERE l.feed_id = f.id AND l.user_id = ?) AS like_id,
            \(EpisodeLinks.sharedEpisode(id: "f.episode_id")) AS shared_episode,
            \(UserColumns.select("u", as: "user"))
        FROM feeds f JOIN users u ON u.id = f.user_id
        """

    private static func decode(_ row: Row) throws -> Feed {
        Feed(
            id: String(try row.int64("id")), content: try row.string("content"),
            images: try JSONColumn.decode([FeedImage].self, row.string("images")),
            province: try row.optionalString("province"), city: try row.optionalString("city"),
            place: try row.optionalString("place"), latitude: try row.optionalDouble("latitude"),
            longitude: try row.optionalDouble("longitude"), likesCount: try row.int("likes_count"),
            commentsCount: try row.int("comments_count"),
            likeId: try row.optionalInt64("like_id").map(String.init),
            user: try UserColumns.person(row, "user"),
            mentions: try JSONColumn.decode([Mention].self, row.string("mentions")),
            topics: try JSONColumn.decode([TopicMention].self, row.string("topics")),
            episodeId: try row.optionalInt64("episode_id").map(String.init),
            episode: try row.optionalString("shared_episode").map(EpisodeLinks.decodeSharedEpisode),
            createdAt: APIDate.string(try row.int64("created_at")),
            updatedAt: APIDate.string(try row.int64("updated_at")))
    }

    /// Leaves out the moments of people the viewer blocked and of people who blocked the viewer (bind the
    /// viewer's id twice).
    private static let notBlocked = FollowStore.noBlockBetween("?", "f.user_id")

    /// A new moment on its topics; the mentions and topics are resolved already, the shared episode checked.
    func insert(
        _ db: Connection, userID: Int64, content: String, images: [FeedImage], place: Place,
        mentions: [Mention],
        topics: [TopicMention], episodeID: Int64? = nil, now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO feeds(user_id, content, images, province, city, place, latitude, longitude, mentions,
                topics, episode_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, userID, content, JSONColumn.text(images), place.province, place.city, place.name,
            place.point?.latitude, place.point?.longitude, JSONColumn.text(mentions), JSONColumn.text(topics),
            episodeID, now, now)
        let id = db.lastInsertRowID
        for topicID in Set(topics.map(\.id)) {
            try db.execute("INSERT INTO feed_topics(feed_id, topic_id) VALUES (?, ?)", id, topicID)
        }
        return id
    }

    /// How many moments `userID` published since `time`.
    func publishedSince(_ db: Connection, userID: Int64, since time: Int64) throws -> Int {
        try db.queryOne(
            "SELECT count(*) AS n FROM feeds WHERE user_id = ? AND created_at >= ?", userID, time
        ) { try $0.int("n") } ?? 0
    }

    func feed(_ db: Connection, id: Int64, viewerID: Int64?) throws -> Feed? {
        try db.queryOne("\(Self.select) WHERE f.id = ?", viewerID ?? 0, id, decode: Self.decode)
    }

    /// The author of a moment, or nil when there is no such moment.
    func author(_ db: Connection, feedID: Int64) throws -> Int64? {
        try db.queryOne("SELECT user_id FROM feeds WHERE id = ?", feedID) { try $0.int64("user_id") }
    }

    /// Whether `viewerID` and the author of `feedID` have blocked each other, either way.
    func blockedBetween(_ db: Connection, viewerID: Int64, feedID: Int64) throws -> Bool {
        try db.queryOne(
            "SELECT 1 AS found FROM feeds f WHERE f.id = ? AND NOT (\(Self.notBlocked))", feedID, viewerID,
            viewerID
        ) { _ in true } ?? false
    }

    /// Deletes the moment; the schema's triggers and cascades take its place, likes, topics and comments.
    func delete(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM feeds WHERE id = ?", id)
    }

    enum Scope: Sendable {
        case everyone
        case user(Int64)
        case topic(Int64)
    }

    /// Moments newest first: after `before` (the last id of the page before) when given, from `offset`.
    func list(_ db: Connection, _ scope: Scope, before: Int64?, offset: Int, limit: Int, viewerID: Int64?)
        throws -> [Feed]
    {
        var sql = Self.select
        var arguments: [any SQLBindable] = [viewerID ?? 0]
        switch scope {
        case .everyone:
            sql += " WHERE f.id < ?"
            arguments.append(before ?? Int64.max)
        case .user(let userID):
            sql += " WHERE f.user_id = ? AND f.id < ?"
            arguments += [userID, before ?? Int64.max]
        case .topic(let topicID):
            sql += " JOIN feed_topics ft ON ft.feed_id = f.id WHERE ft.topic_id = ? AND ft.feed_id < ?"
            arguments += [topicID, before ?? Int64.max]
        }
        if let viewerID {
            sql += " AND \(Self.notBlocked)"
            arguments += [viewerID, viewerID]
        }
        sql += " ORDER BY f.id DESC LIMIT ? OFFSET ?"
        return try db.query(sql, arguments: arguments + [limit, offset], decode: Self.decode)
    }

    /// How many moments a list holds for the viewer, from the kept counts: those of people the viewer
    /// blocked or who blocked the viewer are taken off.
    func total(_ db: Connection, _ scope: Scope, viewerID: Int64?) throws -> Int {
        let blocked = "SELECT 0 WHERE 0"
        let hidden = viewerID == nil ? blocked : FollowStore.blockedEitherWay
        let viewer: [any SQLBindable] = viewerID.map { [$0, $0] } ?? []
        let (sql, arguments): (String, [any SQLBindable])
        switch scope {
        case .everyone:
            sql = """
                SELECT (SELECT feeds_count FROM feed_totals)
                    - (SELECT coalesce(sum(feeds_count), 0) FROM users WHERE id IN (\(hidden))) AS n
                """
            arguments = viewer
        case .user(let userID):
            sql = "SELECT feeds_count AS n FROM users WHERE id = ? AND id NOT IN (\(hidden))"
            arguments = [userID] + viewer
        case .topic(let topicID):
            // The blocked people's moments on the topic, through their index (few people, not the topic).
            sql = """
                SELECT (SELECT feeds_count FROM topics WHERE id = ?)
                    - (SELECT count(*) FROM feeds f CROSS JOIN feed_topics ft
                       WHERE f.user_id IN (\(hidden)) AND ft.topic_id = ? AND ft.feed_id = f.id) AS n
                """
            arguments = [topicID] + viewer + [topicID]
        }
        return try db.queryOne(sql, arguments: arguments) { try $0.optionalInt("n") ?? 0 } ?? 0
    }

    // MARK: Timeline

    /// Below this many moments by the people followed, the timeline reads them all through their index
    /// and sorts them.
    static let smallTimeline = 2_000

    /// The ids of the moments of the people `userID` follows, and their own, newest first, keyed by id;
    /// `total` is how many there are in all (from the kept counts).
    ///
    /// Two plans, chosen by how dense those moments are among all ids: few of them are read through
    /// `feeds_by_user` and sorted; many are found by walking ids downwards from `before`, which stops
    /// after about `limit / density` rows. The walk is bounded to a window four times that; if the window
    /// holds too few (the people followed went quiet lately), the rest come from the index.
    func timeline(_ db: Connection, userID: Int64, before: Int64?, limit: Int) throws -> (
        ids: [Int64], total: Int
    ) {
        let followed =
            try db.queryOne(
                """
                SELECT (SELECT coalesce(sum(u.feeds_count), 0) FROM follows fw JOIN users u ON u.id = fw.followee_id
                        WHERE fw.follower_id = ?1)
                     + (SELECT feeds_count FROM users WHERE id = ?1) AS n
                """, userID
            ) { try $0.optionalInt64("n") ?? 0 } ?? 0
        guard followed > 0,
            let (lowest, highest) = try db.queryOne(
                // Two subqueries: min and max in one SELECT would scan the table instead of reading each end.
                "SELECT (SELECT min(id) FROM feeds) AS lowest, (SELECT max(id) FROM feeds) AS highest",
                decode: { row -> (Int64, Int64)? in
                    guard let low = try row.optionalInt64("lowest"),
                        let high = try row.optionalInt64("highest")
                    else { return nil }
                    return (low, high)
                }) ?? nil
        else { return ([], Int(followed)) }
        let top = min(before ?? Int64.max, highest + 1)
        let span = Double(max(1, top - lowest))
        let expectedWalk = Double(limit) * span / Double(followed)
        var ids: [Int64] = []
        var indexBefore = top
        if followed > Self.smallTimeline && expectedWalk < 50_000 {
            let low = top - Int64(expectedWalk * 4) - Int64(limit)
            ids = try db.query(
                """
                SELECT f.id FROM feeds f NOT INDEXED WHERE f.id < ? AND f.id >= ?
                  AND (f.user_id = ? OR EXISTS (SELECT 1 FROM follows fw WHERE fw.follower_id = ? AND fw.followee_id = f.user_id))
                ORDER BY f.id DESC LIMIT ?
                """, top, low, userID, userID, limit
            ) { try $0.int64("id") }
            indexBefore = low
        }
        if ids.count < limit {
            ids += try db.query(
                """
                SELECT f.id FROM feeds f INDEXED BY feeds_by_user
                WHERE f.user_id IN (SELECT followee_id FROM follows WHERE follower_id = ? UNION ALL SELECT ?)
                  AND f.id < ?
                ORDER BY f.id DESC LIMIT ?
                """, userID, userID, indexBefore, limit - ids.count
            ) { try $0.int64("id") }
        }
        return (ids, Int(followed))
    }

    /// Full moments for `ids`, in the order given, in one query.
    func feeds(_ db: Connection, ids: [Int64], viewerID: Int64?) throws -> [Feed] {
        guard !ids.isEmpty else { return [] }
        let rows = try db.query(
            "\(Self.select) WHERE f.id IN (SELECT value FROM json_each(?))", viewerID ?? 0,
            JSONColumn.text(ids),
            decode: Self.decode)
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[String($0)] }
    }

    // MARK: Nearby

    /// Placed moments within `radius` metres of `point`, nearest first, after `after` (the last distance
    /// and id of the previous page): their ids and distances.
    ///
    /// Searches growing circles (the R*Tree gives the points in each circle's box), so a crowded city
    /// reads a small circle and an empty desert reads up to `radius`: the nearest `limit` inside a circle
    /// are the nearest overall once the circle holds `limit` of them.
    func nearby(
        _ db: Connection, point: GeoPoint, radius: Double, after: (distance: Double, id: Int64)?, limit: Int,
        viewerID: Int64?
    ) throws -> [(distance: Double, id: Int64)] {
        var reach = min(radius, max(500, (after?.distance ?? 0) * 2))
        var found: [(distance: Double, id: Int64)] = []
        while true {
            found = try placed(db, around: point, within: reach, viewerID: viewerID).filter { place in
                guard let after else { return true }
                return (place.distance, place.id) > (after.distance, after.id)
            }
            if found.count >= limit || reach >= radius { break }
            reach = min(radius, reach * 4)
        }
        found.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
        return Array(found.prefix(limit))
    }

    /// How many placed moments lie within `radius` metres of `point`, counted up to `cap`.
    ///
    /// Each box reads at most twice `cap` points (a circle fills π/4 of its box), so a crowded city costs
    /// a bounded search.
    func nearbyCount(_ db: Connection, point: GeoPoint, radius: Double, cap: Int, viewerID: Int64?) throws
        -> Int
    {
        min(cap, try placed(db, around: point, within: radius, viewerID: viewerID, boxLimit: cap * 2).count)
    }

    /// The placed moments within `reach` metres of `point` (their distance and id), in no order; the
    /// viewer's blocked people left out. `boxLimit` bounds the points read from each box.
    private func placed(
        _ db: Connection, around point: GeoPoint, within reach: Double, viewerID: Int64?, boxLimit: Int = -1
    ) throws -> [(distance: Double, id: Int64)] {
        var found: [(distance: Double, id: Int64)] = []
        for box in point.boxes(within: reach) {
            var sql = """
                SELECT p.id, f.latitude, f.longitude FROM feed_places p JOIN feeds f ON f.id = p.id
                WHERE p.max_lat >= ? AND p.min_lat <= ? AND p.max_lng >= ? AND p.min_lng <= ?
                """
            var arguments: [any SQLBindable] = [
                box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude,
            ]
            if let viewerID {
                sql += " AND \(Self.notBlocked)"
                arguments += [viewerID, viewerID]
            }
            found += try db.query(sql + " LIMIT ?", arguments: arguments + [boxLimit]) {
                row -> (distance: Double, id: Int64)? in
                guard
                    let place = GeoPoint(
                        latitude: try row.double("latitude"), longitude: try row.double("longitude"))
                else { return nil }
                let distance = point.distance(to: place)
                return distance <= reach ? (distance, try row.int64("id")) : nil
            }.compactMap { $0 }
        }
        return found
    }

    // MARK: Likes

    /// The viewer's like of the moment: the existing one, or a new one (`isNew`).
    func like(_ db: Connection, userID: Int64, feedID: Int64, now: Int64) throws -> (
        likeID: Int64, isNew: Bool
    ) {
        if let existing = try db.queryOne(
            "SELECT id FROM feed_likes WHERE user_id = ? AND feed_id = ?", userID, feedID,
            decode: { try $0.int64("id") })
        {
            return (existing, false)
        }
        try db.execute(
            "INSERT INTO feed_likes(user_id, feed_id, created_at) VALUES (?, ?, ?)", userID, feedID, now)
        return (db.lastInsertRowID, true)
    }

    func likeOwner(_ db: Connection, likeID: Int64) throws -> (userID: Int64, feedID: Int64)? {
        try db.queryOne("SELECT user_id, feed_id FROM feed_likes WHERE id = ?", likeID) {
            (try $0.int64("user_id"), try $0.int64("feed_id"))
        }
    }

    /// Deletes the like; returns who made it and of which moment, when there was one.
    func unlike(_ db: Connection, likeID: Int64) throws -> (userID: Int64, feedID: Int64)? {
        try db.query("DELETE FROM feed_likes WHERE id = ? RETURNING user_id, feed_id", likeID) {
            (userID: try $0.int64("user_id"), feedID: try $0.int64("feed_id"))
        }.first
    }

    /// Like ids from this value up are moments' likes (the schema starts their sequence there).
    static let firstLikeID: Int64 = 1 << 40
}
