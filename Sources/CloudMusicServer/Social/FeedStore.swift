import Foundation
import MusicCore
import Storage

/// The SQL of moments (feeds), their likes, the timeline and "nearby". Counts are kept by triggers.
struct FeedStore: Sendable {
    let database: Database

    struct Place: Sendable, Equatable {
        var province: String?
        var city: String?
        var name: String?
        var point: GeoPoint?
    }

    /// Moment columns; `?` is the viewer's id (0 when nobody is signed in) for `likeId`.
    static let select = """
        SELECT f.id, f.content, f.images, f.province, f.city, f.place, f.latitude, f.longitude,
            f.likes_count, f.comments_count,
            (SELECT l.id FROM feed_likes l WHERE l.feed_id = f.id AND l.user_id = ?),
            u.id, u.nickname, u.avatar_version, f.mentions, f.topics, f.created_at, f.updated_at
        FROM feeds f JOIN users u ON u.id = f.user_id
        """

    static func decode(_ row: Row) throws -> Feed {
        Feed(
            id: String(try row.int64(0)), content: try row.string(1),
            images: try JSONColumn.decode([FeedImage].self, row.string(2)),
            province: try row.optionalString(3), city: try row.optionalString(4), place: try row.optionalString(5),
            latitude: try row.optionalDouble(6), longitude: try row.optionalDouble(7),
            likesCount: try row.int(8), commentsCount: try row.int(9),
            likeId: try row.optionalInt64(10).map(String.init), user: try CommentStore.user(row, 11),
            mentions: try JSONColumn.decode([Mention].self, row.string(14)),
            topics: try JSONColumn.decode([TopicMention].self, row.string(15)),
            createdAt: APIDate.string(try row.int64(16)), updatedAt: APIDate.string(try row.int64(17)))
    }

    /// Leaves out the moments of people the viewer blocked and of people who blocked the viewer.
    static let notBlocked = """
        NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ? AND b.blocked_id = f.user_id)
        AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = f.user_id AND b.blocked_id = ?)
        """

    /// Inserts a moment after `check` (given how many moments `userID` published since a time) passes,
    /// in the same write transaction.
    func insert(
        userID: Int64, content: String, images: [FeedImage], place: Place, rich: ParsedRichText, now: Int64,
        check: (_ publishedSince: (Int64) throws -> Int) throws -> Void = { _ in }
    ) throws -> Int64 {
        try database.write { db in
            try check { time in
                try db.queryOne(
                    "SELECT count(*) FROM feeds WHERE user_id = ? AND created_at >= ?", userID, time
                ) { try $0.int(0) } ?? 0
            }
            let (mentions, topics) = try CommentStore.resolve(rich, authorID: userID, now: now, in: db)
            try db.execute(
                """
                INSERT INTO feeds(user_id, content, images, province, city, place, latitude, longitude, mentions,
                    topics, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, userID, content, JSONColumn.text(images), place.province, place.city, place.name,
                place.point?.latitude, place.point?.longitude, JSONColumn.text(mentions), JSONColumn.text(topics),
                now, now)
            let id = db.lastInsertRowID
            for topicID in Set(topics.map(\.id)) {
                try db.execute("INSERT INTO feed_topics(feed_id, topic_id) VALUES (?, ?)", id, topicID)
            }
            for person in Set(mentions.compactMap { Int64($0.userId) }) {
                try NotificationStore.record(db, kind: .mention, to: person, from: userID, feedID: id, at: now)
            }
            return id
        }
    }

    func feed(id: Int64, viewerID: Int64?) throws -> Feed? {
        try database.read { db in
            try db.queryOne("\(Self.select) WHERE f.id = ?", viewerID ?? 0, id, decode: Self.decode)
        }
    }

    /// The author of a moment, or nil when there is no such moment.
    func author(feedID: Int64) throws -> Int64? {
        try database.read { db in
            try db.queryOne("SELECT user_id FROM feeds WHERE id = ?", feedID) { try $0.int64(0) }
        }
    }

    /// Whether `viewerID` and the author of `feedID` have blocked each other, either way.
    func blockedBetween(viewerID: Int64, feedID: Int64) throws -> Bool {
        try database.read { db in
            try db.queryOne(
                "SELECT 1 FROM feeds f WHERE f.id = ? AND NOT (\(Self.notBlocked))", feedID, viewerID, viewerID
            ) { _ in true } ?? false
        }
    }

    func delete(id: Int64) throws {
        _ = try database.write { db in try db.execute("DELETE FROM feeds WHERE id = ?", id) }
    }

    enum Scope: Sendable {
        case everyone
        case user(Int64)
        case topic(Int64)
    }

    /// Moments newest first, keyed by id: `before` is the last id of the previous page.
    func list(_ scope: Scope, before: Int64?, limit: Int, viewerID: Int64?) throws -> [Feed] {
        try database.read { db in
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
            sql += " ORDER BY f.id DESC LIMIT ?"
            return try db.query(sql, arguments: arguments + [limit], decode: Self.decode)
        }
    }

    // MARK: Timeline

    /// Below this many moments by the people followed, the timeline reads them all through their index
    /// and sorts them.
    static let smallTimeline = 2_000

    /// The moments of the people `userID` follows, and their own, newest first, keyed by id.
    ///
    /// Two plans, chosen by how dense those moments are among all ids: few of them are read through
    /// `feeds_by_user` and sorted; many are found by walking ids downwards from `before`, which stops
    /// after about `limit / density` rows. The walk is bounded to a window four times that; if the window
    /// holds too few (the people followed went quiet lately), the rest come from the index.
    func timeline(userID: Int64, before: Int64?, limit: Int) throws -> [Feed] {
        try database.read { db in
            let followed =
                try db.queryOne(
                    """
                    SELECT (SELECT coalesce(sum(u.feeds_count), 0) FROM follows fw JOIN users u ON u.id = fw.followee_id
                            WHERE fw.follower_id = ?1)
                         + (SELECT feeds_count FROM users WHERE id = ?1)
                    """, userID
                ) { try $0.int64(0) } ?? 0
            guard followed > 0,
                let (lowest, highest) = try db.queryOne(
                    // Two subqueries: min and max in one SELECT would scan the table instead of reading each end.
                    "SELECT (SELECT min(id) FROM feeds), (SELECT max(id) FROM feeds)", decode: { row -> (Int64, Int64)? in
                        guard let low = try row.optionalInt64(0), let high = try row.optionalInt64(1) else {
                            return nil
                        }
                        return (low, high)
                    }) ?? nil
            else { return [] }
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
                ) { try $0.int64(0) }
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
                ) { try $0.int64(0) }
            }
            return try Self.feeds(ids: ids, viewerID: userID, in: db)
        }
    }

    /// Full moments for `ids`, in the order given, in one query.
    static func feeds(ids: [Int64], viewerID: Int64?, in db: Connection) throws -> [Feed] {
        guard !ids.isEmpty else { return [] }
        let rows = try db.query(
            "\(select) WHERE f.id IN (SELECT value FROM json_each(?))", viewerID ?? 0, JSONColumn.text(ids),
            decode: decode)
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[String($0)] }
    }

    // MARK: Nearby

    /// Placed moments within `radius` metres of `point`, nearest first, after `after` (the last distance
    /// and id of the previous page).
    ///
    /// Searches growing circles (the R*Tree gives the points in each circle's box), so a crowded city
    /// reads a small circle and an empty desert reads up to `radius`: the nearest `limit` inside a circle
    /// are the nearest overall once the circle holds `limit` of them.
    func nearby(
        point: GeoPoint, radius: Double, after: (distance: Double, id: Int64)?, limit: Int, viewerID: Int64?
    ) throws -> [Feed] {
        try database.read { db in
            var reach = min(radius, max(500, (after?.distance ?? 0) * 2))
            var found: [(distance: Double, id: Int64)] = []
            while true {
                found = []
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
                    found += try db.query(sql, arguments: arguments) { row -> (distance: Double, id: Int64)? in
                        guard
                            let place = GeoPoint(latitude: try row.double(1), longitude: try row.double(2))
                        else { return nil }
                        let distance = point.distance(to: place)
                        let id = try row.int64(0)
                        guard distance <= reach else { return nil }
                        if let after, (distance, id) <= (after.distance, after.id) { return nil }
                        return (distance, id)
                    }.compactMap { $0 }
                }
                if found.count >= limit || reach >= radius { break }
                reach = min(radius, reach * 4)
            }
            found.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
            let page = found.prefix(limit)
            var feeds = try Self.feeds(ids: page.map(\.id), viewerID: viewerID, in: db)
            for index in feeds.indices {
                feeds[index].distance = page[page.startIndex + index].distance
            }
            return feeds
        }
    }

    // MARK: Likes

    func like(userID: Int64, feedID: Int64, now: Int64) throws -> Int64 {
        try database.write { db in
            if let existing = try db.queryOne(
                "SELECT id FROM feed_likes WHERE user_id = ? AND feed_id = ?", userID, feedID,
                decode: { try $0.int64(0) })
            {
                return existing
            }
            try db.execute(
                "INSERT INTO feed_likes(user_id, feed_id, created_at) VALUES (?, ?, ?)", userID, feedID, now)
            let likeID = db.lastInsertRowID
            if let author = try db.queryOne(
                "SELECT user_id FROM feeds WHERE id = ?", feedID, decode: { try $0.int64(0) })
            {
                try NotificationStore.record(db, kind: .like, to: author, from: userID, feedID: feedID, at: now)
            }
            return likeID
        }
    }

    func likeOwner(likeID: Int64) throws -> (userID: Int64, feedID: Int64)? {
        try database.read { db in
            try db.queryOne("SELECT user_id, feed_id FROM feed_likes WHERE id = ?", likeID) {
                (try $0.int64(0), try $0.int64(1))
            }
        }
    }

    func unlike(likeID: Int64) throws {
        try database.write { db in
            for (userID, feedID) in try db.query(
                "DELETE FROM feed_likes WHERE id = ? RETURNING user_id, feed_id", likeID,
                decode: { (try $0.int64(0), try $0.int64(1)) })
            {
                try NotificationStore.remove(db, kind: .like, from: userID, feedID: feedID)
            }
        }
    }

    /// Like ids from this value up are moments' likes (the schema starts their sequence there).
    static let firstLikeID: Int64 = 1 << 40
}
