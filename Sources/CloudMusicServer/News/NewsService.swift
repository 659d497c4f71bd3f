import Foundation
import Logging
import MusicCore
import Storage
import WebFeeds
import WebFetch

/// The rules of news: who keeps which channels and sources, refreshing sources (conditional GET, back-off
/// shared with podcasts), articles merged across sources, each person's marks, lists and search.
///
/// Ownership: a shared channel (and its sources) is kept by administrators; a personal one by its owner alone,
/// and nobody else sees it or what only its sources bring, administrators included.
struct NewsService: Sendable {
    let database: Database
    let fetcher: Fetcher
    let images: NewsImageKey
    /// Seconds between refreshes of a source that works.
    let refreshInterval: Int64
    let logger: Logger?
    let store = NewsStore()
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// Sources fetched at once by the scheduler.
    static let concurrentSources = 8
    /// Numbered pages reach this deep; `cursor` goes on.
    static let maxNumberedDepth = 10_000

    static let noChannel = ServiceError.notFound("That channel does not exist.")
    static let noSource = ServiceError.notFound("That source does not exist.")
    static let noArticle = ServiceError.notFound("That article does not exist.")

    // MARK: Channels

    func channels(viewer: Viewer) throws -> [NewsChannel] {
        try database.read { db in
            try store.channels(db, viewerID: viewer.userID).map { try model(db, $0, viewer: viewer) }
        }
    }

    func createChannel(_ draft: NewsChannelDraft, viewer: Viewer) throws -> NewsChannel {
        let title = try Self.checkedTitle(draft.title)
        return try database.write { db in
            let owner: Int64? = viewer.isAdmin ? nil : viewer.userID
            if let owner, try store.personalChannelCount(db, ownerID: owner) >= NewsAPI.maxPersonalChannels {
                throw ServiceError.conflict(
                    "You have \(NewsAPI.maxPersonalChannels) channels, the most one may have.")
            }
            let position =
                try draft.position.map(Self.checkedPosition) ?? store.nextPosition(db, ownerID: owner)
            let id = try store.insertChannel(
                db, ownerID: owner, title: title, position: position, now: clock())
            return try model(db, try keptChannel(db, id: id, viewer: viewer), viewer: viewer)
        }
    }

    func updateChannel(id: Int64, change: NewsChannelChange, viewer: Viewer) throws -> NewsChannel {
        try database.write { db in
            let channel = try keptChannel(db, id: id, viewer: viewer)
            let title = try change.title.map(Self.checkedTitle) ?? channel.title
            let position = try change.position.map(Self.checkedPosition) ?? channel.position
            try store.updateChannel(db, id: id, title: title, position: position)
            return try model(db, try keptChannel(db, id: id, viewer: viewer), viewer: viewer)
        }
    }

    func deleteChannel(id: Int64, viewer: Viewer) throws {
        try database.write { db in
            _ = try keptChannel(db, id: id, viewer: viewer)
            for source in try store.sourceIDs(db, channelID: id) {
                try store.deleteSource(db, id: source, channelID: id)
            }
            try db.execute("DELETE FROM news_channels WHERE id = ?", id)
        }
    }

    /// A channel the viewer sees, else not found.
    private func visibleChannel(_ db: Connection, id: Int64, viewer: Viewer) throws -> NewsStore.Channel {
        guard let channel = try store.channel(db, id: id, viewerID: viewer.userID) else {
            throw Self.noChannel
        }
        return channel
    }

    /// A channel the viewer may change: shared ones by administrators, personal ones by their owner.
    private func keptChannel(_ db: Connection, id: Int64, viewer: Viewer) throws -> NewsStore.Channel {
        let channel = try visibleChannel(db, id: id, viewer: viewer)
        if channel.ownerID == nil && !viewer.isAdmin {
            throw ServiceError.forbidden("Only administrators change the shared channels.")
        }
        return channel
    }

    private func model(_ db: Connection, _ channel: NewsStore.Channel, viewer: Viewer) throws -> NewsChannel {
        NewsChannel(
            id: String(channel.id), title: channel.title, position: channel.position,
            personal: channel.ownerID != nil,
            unreadCount: try store.unreadCount(
                db, channelID: channel.id, viewerID: viewer.userID, cap: NewsAPI.maxUnreadCount))
    }

    // MARK: Sources

    func sources(viewer: Viewer) throws -> [NewsSource] {
        try database.read { db in
            try store.sources(db, viewerID: viewer.userID, isAdmin: viewer.isAdmin).map(Self.model)
        }
    }

    /// Adds a source: its feed is fetched and read first, and nothing is stored unless that works.
    func addSource(_ draft: NewsSourceDraft, viewer: Viewer) async throws -> NewsSource {
        let url = try PodcastService.feedAddress(draft.url)
        let channelID = draft.channelId.rawValue
        let owner = try database.read { db -> Int64? in
            let channel = try keptChannel(db, id: channelID, viewer: viewer)
            try checkRoom(db, channel: channel, url: url, viewer: viewer)
            return channel.ownerID
        }
        let read: NewsFeeds.Read
        do {
            read = try await NewsFeeds.fetch(url, validators: nil, images: images, with: fetcher)
        } catch {
            throw Self.refusal(error)
        }
        let now = clock()
        let id = try database.write { db -> Int64 in
            let channel = try keptChannel(db, id: channelID, viewer: viewer)
            try checkRoom(db, channel: channel, url: url, viewer: viewer)
            let id = try store.insertSource(
                db, ownerID: owner, channelID: channelID, url: url.absoluteString,
                title: read.title ?? url.absoluteString, now: now, nextRefresh: now + refreshInterval)
            _ = try write(db, sourceID: id, channelID: channelID, articles: read.articles, now: now)
            try store.recordSuccess(
                db, id: id, title: read.title, etag: read.head.validators.etag,
                lastModified: read.head.validators.lastModified, now: now, nextRefresh: now + refreshInterval)
            return id
        }
        return try source(id: id)
    }

    private func checkRoom(_ db: Connection, channel: NewsStore.Channel, url: URL, viewer: Viewer) throws {
        if let owner = channel.ownerID,
            try store.sourceCount(db, ownerID: owner) >= NewsAPI.maxPersonalSources
        {
            throw ServiceError.conflict(
                "You have \(NewsAPI.maxPersonalSources) sources, the most one may have.")
        }
        if try store.sourceID(db, channelID: channel.id, url: url.absoluteString) != nil {
            throw ServiceError.conflict("That source is already in this channel.")
        }
    }

    func deleteSource(id: Int64, viewer: Viewer) throws {
        try database.write { db in
            let source = try keptSource(db, id: id, viewer: viewer)
            try store.deleteSource(db, id: id, channelID: source.channelID)
        }
    }

    /// Fetches a source now; the answer carries what came of it (`lastError`).
    func refreshSource(id: Int64, viewer: Viewer) async throws -> NewsSource {
        _ = try database.read { db in try keptSource(db, id: id, viewer: viewer) }
        try await refresh(id: id)
        return try source(id: id)
    }

    private func keptSource(_ db: Connection, id: Int64, viewer: Viewer) throws -> NewsStore.Source {
        guard let source = try store.source(db, id: id) else { throw Self.noSource }
        switch source.ownerID {
        case nil where viewer.isAdmin: return source
        case nil: throw ServiceError.forbidden("Only administrators change the shared sources.")
        case let owner? where owner == viewer.userID: return source
        default: throw Self.noSource
        }
    }

    func source(id: Int64) throws -> NewsSource {
        guard let source = try database.read({ db in try store.source(db, id: id) }) else {
            throw Self.noSource
        }
        return Self.model(source)
    }

    static func model(_ source: NewsStore.Source) -> NewsSource {
        NewsSource(
            id: String(source.id), title: source.title, url: source.url, channelId: String(source.channelID),
            personal: source.ownerID != nil, lastRefreshAt: source.refreshedAt.map(APIDate.string),
            lastError: source.lastError)
    }

    // MARK: Refreshing

    enum RefreshOutcome: Sendable, Equatable {
        case unchanged
        case changed(added: Int, updated: Int)
        case failed(String)
    }

    /// Fetches one source (a conditional GET) and writes what changed; a failure is kept on the source with
    /// its reason, and the source waits longer each time.
    @discardableResult
    func refresh(id: Int64) async throws -> RefreshOutcome {
        guard let record = try database.read({ db in try store.source(db, id: id) }),
            let url = URL(string: record.url)
        else { throw Self.noSource }
        let validators = Validators(etag: record.etag, lastModified: record.lastModified)
        let read: NewsFeeds.Read
        do {
            read = try await NewsFeeds.fetch(url, validators: validators, images: images, with: fetcher)
        } catch {
            let message = Self.refusal(error).message
            let failures = record.failures + 1
            let now = clock()
            try database.write { db in
                try store.recordFailure(
                    db, id: id, error: message, failures: failures, now: now,
                    nextRefresh: now + FeedRefresh.backoff(interval: refreshInterval, failures: failures))
            }
            logger?.warning(
                "event=news_refresh_failed source=\(id) failures=\(failures) error=\"\(message)\"")
            return .failed(message)
        }
        let now = clock()
        let head = read.head
        return try database.write { db -> RefreshOutcome in
            guard try store.source(db, id: id) != nil else { return .unchanged }
            guard read.title != nil else {
                try store.recordSuccess(
                    db, id: id, title: nil, etag: head.validators.etag ?? record.etag,
                    lastModified: head.validators.lastModified ?? record.lastModified, now: now,
                    nextRefresh: now + refreshInterval)
                return .unchanged
            }
            let (added, updated) = try write(
                db, sourceID: id, channelID: record.channelID, articles: read.articles, now: now)
            try store.recordSuccess(
                db, id: id, title: read.title, etag: head.validators.etag,
                lastModified: head.validators.lastModified, now: now, nextRefresh: now + refreshInterval)
            return .changed(added: added, updated: updated)
        }
    }

    struct Report: Sendable, Equatable {
        var changed = 0
        var unchanged = 0
        var failed = 0
        var added = 0
    }

    /// Refreshes the sources that are due, a few at a time; the scheduler's work.
    func refreshDue(limit: Int = 1_000) async throws -> Report {
        let ids = try database.read { db in try store.due(db, now: clock(), limit: limit) }
        let outcomes = await FeedRefresh.boundedMap(ids, limit: Self.concurrentSources) {
            id -> RefreshOutcome? in
            try? await refresh(id: id)
        }
        var report = Report()
        for outcome in outcomes {
            switch outcome {
            case .unchanged: report.unchanged += 1
            case .changed(let added, _):
                report.changed += 1
                report.added += added
            case .failed, nil: report.failed += 1
            }
        }
        return report
    }

    /// Writes a feed's articles: new ones added (or linked to the copy another source brought), changed ones
    /// updated, unchanged ones left alone.
    private func write(
        _ db: Connection, sourceID: Int64, channelID: Int64, articles: [NewsFeeds.Article], now: Int64
    ) throws -> (added: Int, updated: Int) {
        var added = 0
        var updated = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for article in articles {
            let images = String(decoding: try encoder.encode(article.images), as: UTF8.self)
            let videos = String(decoding: try encoder.encode(article.videos), as: UTF8.self)
            // A date ahead of now would pin the article on top.
            let date = min(max(article.publishedAt ?? now, 0), now)
            var tokens = article.images.map { (self.images.token(for: $0), $0) }
            tokens += article.videos.compactMap { $0.poster }.map { (self.images.token(for: $0), $0) }
            if let known = try store.linked(db, sourceID: sourceID, guid: article.guid) {
                let published = article.publishedAt == nil ? known.publishedAt : date
                guard
                    known.title != article.title || known.summary != article.summary
                        || known.contentHTML != article.contentHTML || known.author != article.author
                        || known.publishedAt != published || known.images != images || known.videos != videos
                else { continue }
                try store.updateArticle(
                    db, id: known.id, article, publishedAt: published, images: images, videos: videos,
                    now: now)
                try store.saveImageTokens(db, tokens)
                updated += 1
                continue
            }
            if let existing = try store.existingArticle(db, url: article.url, guidKey: article.guidKey) {
                let published =
                    try db.queryOne("SELECT published_at FROM news_articles WHERE id = ?", existing) {
                        try $0.int64("published_at")
                    } ?? date
                try store.link(
                    db, sourceID: sourceID, guid: article.guid, articleID: existing, channelID: channelID,
                    publishedAt: published)
                continue
            }
            let id = try store.insertArticle(
                db, article, publishedAt: date, images: images, videos: videos, sourceID: sourceID, now: now)
            try store.link(
                db, sourceID: sourceID, guid: article.guid, articleID: id, channelID: channelID,
                publishedAt: date)
            try store.saveImageTokens(db, tokens)
            added += 1
        }
        return (added, updated)
    }

    // MARK: Articles

    func articles(channelID: Int64, query: NewsArticleQuery, viewer: Viewer) throws -> NewsArticlePage {
        let size = query.paging.size
        let before = try query.cursor.map(cursorKey)
        let after = before == nil ? try query.since.map(cursorKey) : nil
        let offset = before == nil && after == nil ? query.paging.offset : 0
        if offset + size > Self.maxNumberedDepth {
            throw ServiceError.invalid(
                "Numbered pages reach the first \(Self.maxNumberedDepth) articles; go on with 'cursor'.")
        }
        return try database.read { db in
            _ = try visibleChannel(db, id: channelID, viewer: viewer)
            let rows = try store.page(
                db, channelID: channelID, viewerID: viewer.userID, before: before, after: after,
                offset: offset,
                size: size)
            let next = after == nil && rows.count == size ? rows.last?.key.text : nil
            let newest = rows.first?.key.text ?? query.since
            return NewsArticlePage(list: rows.map(model), next: next, newest: newest)
        }
    }

    func article(id: Int64, viewer: Viewer) throws -> NewsArticleDetail {
        guard
            let (row, content) = try database.read({ db in
                try store.article(db, id: id, viewerID: viewer.userID)
            })
        else { throw Self.noArticle }
        let videos = row.videos.map { video in
            NewsVideo(url: video.url, type: video.type, poster: video.poster.map(images.path(for:)))
        }
        return NewsArticleDetail(model(row), content: content, videos: videos)
    }

    func markRead(id: Int64, _ read: Bool, viewer: Viewer) throws -> NewsArticle {
        try mark(id: id, viewer: viewer) { db in
            try store.setRead(db, viewerID: viewer.userID, articleID: id, read: read)
        }
    }

    func markSaved(id: Int64, _ saved: Bool, viewer: Viewer) throws -> NewsArticle {
        let now = clock()
        return try mark(id: id, viewer: viewer) { db in
            try store.setSaved(db, viewerID: viewer.userID, articleID: id, savedAt: saved ? now : nil)
        }
    }

    func markHidden(id: Int64, _ hidden: Bool, viewer: Viewer) throws -> NewsArticle {
        try mark(id: id, viewer: viewer) { db in
            try store.setHidden(db, viewerID: viewer.userID, articleID: id, hidden: hidden)
        }
    }

    private func mark(id: Int64, viewer: Viewer, _ change: (Connection) throws -> Void) throws -> NewsArticle
    {
        try database.write { db in
            guard try store.article(db, id: id, viewerID: viewer.userID) != nil else { throw Self.noArticle }
            try change(db)
            guard let (row, _) = try store.article(db, id: id, viewerID: viewer.userID) else {
                throw Self.noArticle
            }
            return model(row)
        }
    }

    func readAll(channelID: Int64, upTo: ID<NewsArticle>?, viewer: Viewer) throws -> NewsChannel {
        let upToID = upTo?.rawValue
        return try database.write { db in
            let channel = try visibleChannel(db, id: channelID, viewer: viewer)
            if let key = try store.entryKey(db, channelID: channelID, articleID: upToID) {
                try store.readAll(db, channelID: channelID, viewerID: viewer.userID, line: key)
            } else if upToID != nil {
                throw ServiceError.invalid("That article is not in this channel.")
            }
            return try model(db, channel, viewer: viewer)
        }
    }

    func saved(query: NewsCursorQuery, viewer: Viewer) throws -> NewsArticlePage {
        let before = try query.cursor.map(cursorKey)
        return try database.read { db in
            let rows = try store.saved(db, viewerID: viewer.userID, before: before, size: query.size)
            return NewsArticlePage(
                list: rows.map(model), next: rows.count == query.size ? rows.last?.key.text : nil,
                newest: rows.first?.key.text)
        }
    }

    func search(query: NewsSearchQuery, viewer: Viewer) throws -> NewsArticlePage {
        let before = try query.cursor.map(cursorKey)
        guard let match = SearchText.matchQuery(query.q) else {
            return NewsArticlePage(list: [], next: nil, newest: nil)
        }
        return try database.read { db in
            let rows = try store.search(
                db, viewerID: viewer.userID, match: match, before: before, size: query.size)
            return NewsArticlePage(
                list: rows.map(model), next: rows.count == query.size ? rows.last?.key.text : nil,
                newest: rows.first?.key.text)
        }
    }

    /// A cursor as this service gives them (`at:id`); a bare id is refused.
    private func cursorKey(_ text: String) throws -> NewsStore.Key {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let at = Int64(parts[0]), let id = Int64(parts[1]) else {
            throw ServiceError.invalid(
                "'cursor' and 'since' must be cursors this server gave, such as 1767225600:42.")
        }
        return NewsStore.Key(at: at, id: id)
    }

    func model(_ row: NewsStore.Row) -> NewsArticle {
        NewsArticle(
            id: String(row.id), title: row.title, summary: row.summary, url: row.url, author: row.author,
            publishedAt: APIDate.string(row.publishedAt), sourceTitle: row.sourceTitle,
            channelId: String(row.channelID), images: row.images.prefix(3).map(images.path(for:)),
            hasVideo: !row.videos.isEmpty, read: row.read, saved: row.saved)
    }

    // MARK: Pictures

    /// The largest picture the proxy passes on.
    static let maxImageBytes: Int64 = 5_000_000

    /// An article's picture by its token, fetched from its origin; only PNG, JPEG, GIF and WebP, by their
    /// bytes.
    func image(token: String) async throws -> (data: Data, type: String) {
        guard let address = try database.read({ db in try store.imageURL(db, token: token) }),
            let url = URL(string: address)
        else { throw ServiceError.notFound("That picture does not exist.") }
        var limits = FetchLimits.document
        limits.maxBytes = Self.maxImageBytes
        limits.totalTimeout = 20
        var data = Data()
        do {
            let head = try await fetcher.fetch(FetchRequest(url, subject: "picture", limits: limits)) {
                data.append($0)
            }
            guard (200..<300).contains(head.status) else {
                throw ServiceError.unavailable(
                    "The picture cannot be fetched: its server answered \(head.status).")
            }
        } catch let error as FetchError {
            throw ServiceError.unavailable(
                "The picture cannot be fetched: \(LocalizedText(verbatim: error.message))")
        }
        guard let type = Self.pictureType(data) else {
            throw ServiceError.unsupportedFormat("The picture is not a PNG, JPEG, GIF or WebP image.")
        }
        return (data, type)
    }

    /// The type of a picture by its first bytes, for the four kinds the proxy passes on.
    static func pictureType(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            return "image/gif"
        }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
            Array(bytes[8..<12]) == Array("WEBP".utf8)
        {
            return "image/webp"
        }
        return nil
    }

    // MARK: Helpers

    static func checkedTitle(_ text: String) throws -> String {
        let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...40).contains(title.count) else {
            throw ServiceError.invalid("A channel's title must be 1 to 40 characters.")
        }
        return title
    }

    static func checkedPosition(_ value: Int) throws -> Int {
        guard (0...10_000).contains(value) else {
            throw ServiceError.invalid("'position' must be a whole number from 0 to 10000.")
        }
        return value
    }

    /// A fetch's or a feed's failure as a refusal in words (a feed too large is 413).
    static func refusal(_ error: any Error) -> ServiceError {
        if let error = error as? FetchError, case .tooLarge = error.reason {
            return ServiceError.tooLarge("The feed cannot be used: \(LocalizedText(verbatim: error.message))")
        }
        return PodcastService.refusal(error)
    }
}
