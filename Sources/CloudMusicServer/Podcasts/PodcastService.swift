import Cryptography
import Foundation
import Logging
import MusicCore
import Storage
import WebFeeds
import WebFetch

/// The rules of podcasts: administrators add (by address or OPML), change, delete and refresh feeds; everyone
/// reads podcasts and their episodes; signed-in people subscribe and keep their place in episodes.
///
/// A refresh is a conditional GET: a 304 writes only the schedule; a changed feed is written in one
/// transaction, episodes kept by guid (new ones added, changed ones updated, the rest untouched). A feed that
/// fails waits longer each time (the refresh interval, doubling, at most a day).
struct PodcastService: Sendable {
    let database: Database
    let fetcher: Fetcher
    /// `<data>/podcasts`: downloaded episodes, one folder per podcast.
    let downloadFolder: String
    /// Seconds between refreshes of a feed that works.
    let refreshInterval: Int64
    let logger: Logger?
    /// The real path of the audiobooks folder, where books' parts are (`AudiobookService`).
    var audiobookFolder: String?
    /// A book's part's chapters (from its file), nil for a feed's episode.
    var bookChapters: (@Sendable (Int64) throws -> EpisodeChapters?)?
    let store = PodcastStore()
    /// The key album cursors are signed with (`<data>/album-cursors.key` in a server; random elsewhere).
    var cursorSecret: [UInt8] = Crypto.randomBytes(32)
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// Milliseconds, for the order of places saved within one second.
    var millisecondClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) }

    /// Feeds fetched at once by a refresh of many, and by an OPML import.
    static let concurrentFeeds = 4
    /// The longest a failing feed waits.
    static let maxBackoff = FeedRefresh.maxBackoff

    static let noPodcast = ServiceError.notFound("That podcast does not exist.")
    static let noEpisode = ServiceError.notFound("That episode does not exist.")
    static let bookHasNoFeed = ServiceError.invalid(
        "An audiobook has no feed to refresh or settings to change: its parts are files the scan reads.")

    // MARK: Reading

    func podcasts(query: PodcastListQuery, viewer: Viewer?) throws -> Page<Podcast> {
        let needle = query.q.map { PodcastFeeds.searchText($0.trimmingCharacters(in: .whitespaces)) }
        return try database.read { db in
            let (records, total) = try store.podcasts(
                db, needle: needle?.isEmpty == false ? needle : nil, kind: query.kind,
                category: query.category?.isEmpty == false ? query.category : nil, paging: query.paging,
                viewerID: viewer?.userID)
            return Page(
                items: records.map(Self.model), total: total, page: query.paging.page, size: query.paging.size
            )
        }
    }

    func podcast(id: Int64, viewer: Viewer?) throws -> Podcast {
        try database.read { db in try Self.model(try existing(db, id: id, viewer: viewer)) }
    }

    /// An album page: page `page` by offset over the index, or, with `cursor`, the page after the one that
    /// gave it, by key (its number from the cursor). `nextCursor` is there whenever another episode follows.
    func episodes(podcastID: Int64, query: EpisodeListQuery, viewer: Viewer?) throws -> EpisodePage {
        let cursor = try query.cursor.map { try AlbumCursor.parse($0, secret: cursorSecret) }
        return try database.read { db in
            guard let total = try store.episodesCount(db, podcastID: podcastID) else { throw Self.noPodcast }
            let podcast = try existing(db, id: podcastID, viewer: nil)
            let order: AlbumCursor.Order =
                podcast.book != nil ? .parts : query.sort == .newest ? .newest : .oldest
            if let cursor {
                guard cursor.podcastID == podcastID else {
                    throw ServiceError.invalid(
                        "That 'cursor' belongs to another podcast's episodes; start this one without it.")
                }
                guard cursor.order == order else {
                    throw ServiceError.invalid(
                        "That 'cursor' was given for the \(cursor.order == .oldest ? "oldest" : "newest")-first "
                            + "order; ask in that order, or start again without it.")
                }
            }
            let size = query.paging.size
            let offset = cursor?.offset ?? query.paging.offset
            // One more than the page, to know whether another follows.
            var records = try store.episodes(
                db, podcastID: podcastID, order: query.sort, paging: query.paging, viewerID: viewer?.userID,
                byPart: order == .parts, after: cursor?.key, limit: size + 1)
            var next: String?
            if records.count > size {
                records.removeLast()
                let last = records[records.count - 1]
                next = AlbumCursor(
                    podcastID: podcastID, order: order, offset: offset + size,
                    key: PodcastStore.AlbumKey(
                        value: order == .parts
                            ? last.fields.episode.map(Int64.init) : last.fields.publishedAt,
                        id: last.id)
                ).text(signedWith: cursorSecret)
            }
            return EpisodePage(
                data: records.map(Self.model), total: total, page: offset / max(size, 1) + 1, size: size,
                nextCursor: next)
        }
    }

    /// Episodes by a substring of their title (Chinese of any length too), newest first.
    func searchEpisodes(query: EpisodeSearchQuery, viewer: Viewer?) throws -> Page<PodcastEpisode> {
        let paging = query.paging
        guard let match = SearchText.matchQuery(query.q) else {
            return Page(items: [], total: 0, page: paging.page, size: paging.size)
        }
        return try database.read { db in
            let (records, total) = try store.searchEpisodes(
                db, match: match, paging: paging, viewerID: viewer?.userID)
            return Page(items: records.map(Self.model), total: total, page: paging.page, size: paging.size)
        }
    }

    func episode(id: Int64, viewer: Viewer?) throws -> PodcastEpisode {
        try database.read { db in
            guard let record = try store.episode(db, id: id, viewerID: viewer?.userID) else {
                throw Self.noEpisode
            }
            return Self.model(record)
        }
    }

    /// Where an episode's audio comes from.
    enum Audio {
        case file(path: String)
        case origin(URL)
    }

    func audio(episodeID: Int64) throws -> Audio {
        guard let record = try database.read({ db in try store.episode(db, id: episodeID, viewerID: nil) })
        else {
            throw Self.noEpisode
        }
        if record.kind == .audiobook {
            guard let folder = audiobookFolder, let name = record.fileName else { throw Self.noEpisode }
            return .file(path: "\(folder)/\(name)")
        }
        if record.keep == .download, let name = record.fileName {
            return .file(path: "\(downloadFolder)/\(record.podcastID)/\(name)")
        }
        guard let url = URL(string: record.fields.enclosureURL) else { throw Self.noEpisode }
        return .origin(url)
    }

    private func existing(_ db: Connection, id: Int64, viewer: Viewer?) throws -> PodcastStore.Record {
        guard let record = try store.podcast(db, id: id, viewerID: viewer?.userID) else {
            throw Self.noPodcast
        }
        return record
    }

    // MARK: Subscriptions and progress

    func subscribe(podcastID: Int64, viewer: Viewer, _ on: Bool) throws -> Podcast {
        try database.write { db in
            let record = try existing(db, id: podcastID, viewer: nil)
            if on {
                try store.subscribe(db, userID: viewer.userID, podcastID: podcastID, now: clock())
            } else {
                try store.unsubscribe(db, userID: viewer.userID, podcastID: podcastID)
            }
            try store.recordSubscriptionChange(
                db, userID: viewer.userID, feedURL: record.feedURL, subscribed: on, at: millisecondClock())
            return Self.model(try existing(db, id: podcastID, viewer: viewer))
        }
    }

    func subscriptions(paging: Paging, viewer: Viewer) throws -> Page<Podcast> {
        try database.read { db in
            let (records, total) = try store.subscriptions(db, userID: viewer.userID, paging: paging)
            return Page(items: records.map(Self.model), total: total, page: paging.page, size: paging.size)
        }
    }

    func newEpisodes(paging: Paging, viewer: Viewer) throws -> Page<PodcastEpisode> {
        try database.read { db in
            let (records, total) = try store.newEpisodes(db, userID: viewer.userID, paging: paging)
            return Page(items: records.map(Self.model), total: total, page: paging.page, size: paging.size)
        }
    }

    func continueListening(paging: Paging, viewer: Viewer) throws -> Page<PodcastEpisode> {
        try database.read { db in
            let (records, total) = try store.unfinished(db, userID: viewer.userID, paging: paging)
            return Page(items: records.map(Self.model), total: total, page: paging.page, size: paging.size)
        }
    }

    func progress(episodeID: Int64, viewer: Viewer) throws -> EpisodeProgress {
        try database.read { db in
            guard try store.episode(db, id: episodeID, viewerID: nil) != nil else { throw Self.noEpisode }
            return Self.model(
                episodeID: episodeID, try store.progress(db, userID: viewer.userID, episodeID: episodeID))
        }
    }

    /// Saves a place; an older one than the stored place changes nothing. Answers the place now stored.
    func saveProgress(episodeID: Int64, draft: EpisodeProgressDraft, viewer: Viewer) throws -> EpisodeProgress
    {
        guard draft.position.isFinite, (0...864_000).contains(draft.position) else {
            throw ServiceError.invalid("'position' must be a number of seconds from 0 to 864000.")
        }
        let nowMilliseconds = millisecondClock()
        var taken = nowMilliseconds
        if let text = draft.updatedAt {
            guard let date = ISO8601Timestamp.date(from: text) else {
                throw ServiceError.invalid(
                    "'updatedAt' must be a date and time such as 2026-12-05T13:30:00.250Z.")
            }
            // A clock running ahead must not pin a place that later saves could not replace.
            taken = min(Int64((date.timeIntervalSince1970 * 1_000).rounded()), nowMilliseconds)
        }
        let record = PodcastStore.ProgressRecord(
            position: draft.position, finished: draft.finished ?? false, updatedAt: taken)
        return try database.write { db in
            guard try store.episode(db, id: episodeID, viewerID: nil) != nil else { throw Self.noEpisode }
            try store.saveProgress(db, userID: viewer.userID, episodeID: episodeID, record)
            return Self.model(
                episodeID: episodeID, try store.progress(db, userID: viewer.userID, episodeID: episodeID))
        }
    }

    // MARK: Adding, changing, deleting

    /// Adds a podcast: its feed is fetched and read first, and nothing is stored unless that works.
    func add(_ draft: PodcastDraft) async throws -> Podcast {
        let url = try Self.feedAddress(draft.url)
        let retention = try Self.checkedRetention(draft.retention ?? 10)
        if try database.read({ db in try store.podcastID(db, feedURL: url.absoluteString) }) != nil {
            throw ServiceError.conflict("That podcast is already here.")
        }
        let fetched: FetchedFeed
        do {
            fetched = try await PodcastFeeds.fetch(url, validators: nil, with: fetcher)
        } catch {
            throw Self.refusal(error)
        }
        let now = clock()
        let id = try database.write { db -> Int64 in
            if try store.podcastID(db, feedURL: url.absoluteString) != nil {
                throw ServiceError.conflict("That podcast is already here.")
            }
            let id = try store.insert(
                db, feedURL: url.absoluteString, fields: fetched.podcast!, keep: draft.keep ?? .stream,
                retention: retention, now: now, nextRefresh: now + refreshInterval)
            _ = try write(db, podcastID: id, episodes: fetched.episodes, known: [:], now: now)
            // Those who asked for this feed through a gPodder app before it was here.
            try store.applyWantedSubscriptions(db, podcastID: id, feedURL: url.absoluteString, now: now)
            let validators = fetched.head.validators
            try store.recordSuccess(
                db, id: id, etag: validators.etag, lastModified: validators.lastModified, now: now,
                nextRefresh: now + refreshInterval)
            return id
        }
        await downloadIfKept(podcastID: id)
        return try podcast(id: id, viewer: nil)
    }

    /// Adds the feeds of an OPML file, a few at a time.
    func importOPML(_ text: String) async throws -> PodcastImport {
        let document: OPMLDocument
        do {
            document = try OPMLReader.read(
                Data(text.utf8), limits: WebFeedLimits(maxBytes: 2_000_000, maxItems: 500))
        } catch let error as WebFeedError {
            throw ServiceError.invalid(
                "The OPML file cannot be read: \(LocalizedText(verbatim: error.message))")
        }
        enum Outcome: Sendable {
            case added(Podcast)
            case existing(Podcast)
            case failed(PodcastImport.Failure)
        }
        let outcomes = await Self.boundedMap(document.subscriptions, limit: Self.concurrentFeeds) {
            subscription -> Outcome in
            let address = subscription.feedURL.absoluteString
            do {
                if let id = try database.read({ db in try store.podcastID(db, feedURL: address) }) {
                    return .existing(try podcast(id: id, viewer: nil))
                }
                return .added(try await add(PodcastDraft(url: address)))
            } catch let error as ServiceError {
                if error.kind == .conflict,
                    let id = try? database.read({ try store.podcastID($0, feedURL: address) }),
                    let existing = try? podcast(id: id, viewer: nil)
                {
                    return .existing(existing)
                }
                return .failed(PodcastImport.Failure(url: address, message: error.message))
            } catch {
                return .failed(PodcastImport.Failure(url: address, message: "\(error)"))
            }
        }
        var result = PodcastImport(added: [], existing: [], failed: [])
        for outcome in outcomes {
            switch outcome {
            case .added(let podcast): result.added.append(podcast)
            case .existing(let podcast): result.existing.append(podcast)
            case .failed(let failure): result.failed.append(failure)
            }
        }
        return result
    }

    func update(id: Int64, settings: PodcastSettings) async throws -> Podcast {
        try database.write { db in
            let record = try existing(db, id: id, viewer: nil)
            if record.book != nil { throw Self.bookHasNoFeed }
            let retention = try Self.checkedRetention(settings.retention ?? record.retention)
            try store.updateSettings(
                db, id: id, keep: settings.keep ?? record.keep, retention: retention, now: clock())
        }
        await downloadIfKept(podcastID: id)
        return try podcast(id: id, viewer: nil)
    }

    /// Deletes a podcast with everything of it (the rows cascade), then its downloads. A book is remembered as
    /// deleted, so scans do not add it again while its files are unchanged (`AudiobooksSchema.deletions`).
    func delete(id: Int64) throws {
        let now = clock()
        let deleted = try database.write { db in
            try AudiobookService.rememberDeletion(db, id: id, now: now)
            return try store.delete(db, id: id)
        }
        guard deleted else { throw Self.noPodcast }
        try? FileManager.default.removeItem(atPath: "\(downloadFolder)/\(id)")
    }

    // MARK: Refreshing

    /// What one refresh did.
    enum RefreshOutcome: Sendable, Equatable {
        case unchanged
        case changed(added: Int, updated: Int)
        case failed(String)
    }

    /// Fetches one podcast's feed now and writes what changed.
    @discardableResult
    func refresh(id: Int64) async throws -> RefreshOutcome {
        guard let record = try database.read({ db in try store.podcast(db, id: id, viewerID: nil) }) else {
            throw Self.noPodcast
        }
        if record.book != nil { throw Self.bookHasNoFeed }
        guard let url = URL(string: record.feedURL) else { throw Self.noPodcast }
        let validators = Validators(etag: record.etag, lastModified: record.lastModified)
        let fetched: FetchedFeed
        do {
            fetched = try await PodcastFeeds.fetch(url, validators: validators, with: fetcher)
        } catch {
            let message = Self.refusal(error).message
            let failures = record.failures + 1
            let now = clock()
            try database.write { db in
                try store.recordFailure(
                    db, id: id, error: message, failures: failures,
                    nextRefresh: now + Self.backoff(interval: refreshInterval, failures: failures))
            }
            logger?.warning(
                "event=podcast_refresh_failed podcast=\(id) failures=\(failures) error=\"\(message)\"")
            return .failed(message)
        }
        let now = clock()
        let next = now + refreshInterval
        let head = fetched.head
        guard let fields = fetched.podcast else {
            // 304: the copy is current; only the schedule moves.
            try database.write { db in
                try store.recordSuccess(
                    db, id: id, etag: head.validators.etag ?? record.etag,
                    lastModified: head.validators.lastModified ?? record.lastModified, now: now,
                    nextRefresh: next)
            }
            return .unchanged
        }
        let outcome = try database.write { db -> RefreshOutcome in
            try store.update(db, id: id, fields: fields, now: now)
            let known = try store.knownEpisodes(db, podcastID: id)
            let (added, updated) = try write(
                db, podcastID: id, episodes: fetched.episodes, known: known, now: now)
            try store.recordSuccess(
                db, id: id, etag: head.validators.etag, lastModified: head.validators.lastModified, now: now,
                nextRefresh: next)
            // A permanent redirect moves the subscription, unless another podcast already has the address.
            if let moved = head.movedTo?.absoluteString, moved != record.feedURL,
                try store.podcastID(db, feedURL: moved) == nil
            {
                try store.setFeedURL(db, id: id, feedURL: moved)
            }
            return .changed(added: added, updated: updated)
        }
        if record.keep == .download { await downloadIfKept(podcastID: id) }
        return outcome
    }

    /// Refreshes every podcast, a few at a time.
    func refreshAll() async throws -> PodcastRefreshReport {
        let ids = try database.read { db in try store.allIDs(db) }
        return await refresh(ids)
    }

    /// Refreshes the podcasts that are due; the scheduler's work.
    func refreshDue(limit: Int = 200) async throws -> PodcastRefreshReport {
        let ids = try database.read { db in try store.due(db, now: clock(), limit: limit) }
        return await refresh(ids)
    }

    private func refresh(_ ids: [Int64]) async -> PodcastRefreshReport {
        let outcomes = await Self.boundedMap(ids, limit: Self.concurrentFeeds) { id -> RefreshOutcome? in
            do { return try await refresh(id: id) } catch { return nil }
        }
        var report = PodcastRefreshReport(
            refreshed: 0, unchanged: 0, failed: 0, episodesAdded: 0, episodesUpdated: 0)
        for outcome in outcomes {
            switch outcome {
            case .unchanged: report.unchanged += 1
            case .changed(let added, let updated):
                report.refreshed += 1
                report.episodesAdded += added
                report.episodesUpdated += updated
            case .failed, nil: report.failed += 1
            }
        }
        return report
    }

    /// Writes the feed's episodes: new guids added, changed ones updated, unchanged ones left alone.
    private func write(
        _ db: Connection, podcastID: Int64, episodes: [(guid: String, fields: PodcastStore.EpisodeFields)],
        known: [String: (id: Int64, fields: PodcastStore.EpisodeFields)], now: Int64
    ) throws -> (added: Int, updated: Int) {
        var added = 0
        var updated = 0
        for (guid, fields) in episodes {
            if let old = known[guid] {
                guard old.fields != fields else { continue }
                try store.updateEpisode(db, id: old.id, fields, now: now)
                updated += 1
            } else {
                try store.insertEpisode(db, podcastID: podcastID, guid: guid, fields, now: now)
                added += 1
            }
        }
        return (added, updated)
    }

    /// The wait after the `failures`th failure in a row (shared with news).
    static func backoff(interval: Int64, failures: Int) -> Int64 {
        FeedRefresh.backoff(interval: interval, failures: failures)
    }

    // MARK: Downloads

    /// For a podcast set to download: fetches its newest `retention` episodes that have no file, and deletes the
    /// files of older ones. Failures are logged; the episode streams from its origin meanwhile.
    func downloadIfKept(podcastID: Int64) async {
        do {
            guard
                let record = try database.read({ db in try store.podcast(db, id: podcastID, viewerID: nil) }),
                record.keep == .download
            else { return }
            let folder = "\(downloadFolder)/\(podcastID)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let wanted = try database.read { db in
                try store.episodesToDownload(db, podcastID: podcastID, limit: record.retention)
            }
            for episode in wanted where episode.fileName == nil {
                guard let url = URL(string: episode.url) else { continue }
                let name = "\(episode.id).\(Self.fileExtension(url))"
                do {
                    _ = try await fetcher.download(
                        FetchRequest(url, subject: "episode", limits: .download, compressed: false),
                        into: URL(fileURLWithPath: folder), as: name)
                    try database.write { db in
                        try store.setFileName(db, episodeID: episode.id, fileName: name)
                    }
                } catch {
                    logger?.warning("event=episode_download_failed episode=\(episode.id) error=\"\(error)\"")
                }
            }
            let old = try database.write { db in
                let old = try store.downloadsBeyond(db, podcastID: podcastID, keep: record.retention)
                for file in old { try store.setFileName(db, episodeID: file.id, fileName: nil) }
                return old
            }
            for file in old { try? FileManager.default.removeItem(atPath: "\(folder)/\(file.fileName)") }
        } catch {
            logger?.error("event=podcast_downloads_failed podcast=\(podcastID) error=\"\(error)\"")
        }
    }

    /// A short extension of letters and digits from the address, else `audio`.
    static func fileExtension(_ url: URL) -> String {
        let ext = url.pathExtension.lowercased()
        return !ext.isEmpty && ext.count <= 5
            && ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            ? ext : "audio"
    }

    // MARK: Helpers

    static func feedAddress(_ text: String) throws -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 2_000, let url = URL(string: trimmed),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw ServiceError.invalid("Give the feed's address as an http or https address.")
        }
        return url
    }

    static func checkedRetention(_ value: Int) throws -> Int {
        guard (1...1_000).contains(value) else {
            throw ServiceError.invalid("'retention' must be a whole number from 1 to 1000.")
        }
        return value
    }

    /// A fetch's or a feed's failure as a refusal in words.
    static func refusal(_ error: any Error) -> ServiceError {
        switch error {
        case let error as ServiceError:
            return error
        case let error as FetchError:
            return ServiceError.invalid("The feed cannot be used: \(LocalizedText(verbatim: error.message))")
        case let error as WebFeedError:
            return ServiceError.invalid("The feed cannot be used: \(LocalizedText(verbatim: error.message))")
        default:
            return ServiceError.invalid("The feed cannot be used: \(LocalizedText(verbatim: "\(error)"))")
        }
    }

    /// `2026-12-05T13:30:00.250Z`, by hand: a formatter made per episode cost more than the rest of its row.
    static func millisecondsText(_ milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds - 999) / 1_000
        let fraction = Int(milliseconds - seconds * 1_000)
        var text = APIDate.string(seconds)
        text.removeLast()
        let digits = String(fraction)
        return text + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// `transform` of each element, at most `limit` at once, in the elements' order.
    static func boundedMap<T: Sendable, R: Sendable>(
        _ items: [T], limit: Int, _ transform: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        await FeedRefresh.boundedMap(items, limit: limit, transform)
    }

    // MARK: Models

    /// Indexes every episode of a podcast or book again, on the caller's connection (a book's parts, written
    /// by the audiobook scan in its transaction).
    static func reindexEpisodes(_ db: Connection, podcastID: Int64) throws {
        try PodcastStore().reindexEpisodes(db, podcastID: podcastID)
    }

    static func model(_ record: PodcastStore.Record) -> Podcast {
        let fields = record.fields
        return Podcast(
            id: String(record.id), title: fields.title, author: fields.author, detail: fields.descriptionText,
            detailHtml: fields.descriptionHTML,
            imageUrl: record.book == nil
                ? fields.imageURL
                : record.book?.cover.map { _ in AudiobooksAPI.cover.uri(IDPath(row: record.id)) },
            feedUrl: record.feedURL,
            link: fields.link, categories: fields.categories, explicit: fields.explicit, keep: record.keep,
            retention: record.retention, episodesCount: record.episodesCount,
            subscribersCount: record.subscribersCount, subscribed: record.subscribed,
            refreshedAt: record.refreshedAt.map(APIDate.string), lastError: record.lastError,
            createdAt: APIDate.string(record.createdAt), updatedAt: APIDate.string(record.updatedAt),
            kind: record.book == nil ? .podcast : .audiobook, narrator: record.book?.narrator,
            series: record.book?.series, seriesPart: record.book?.seriesPart, year: record.book?.year)
    }

    static func model(_ record: PodcastStore.EpisodeRecord) -> PodcastEpisode {
        let fields = record.fields
        return PodcastEpisode(
            id: String(record.id), podcastId: String(record.podcastID), podcastTitle: record.podcastTitle,
            title: fields.title, detail: fields.descriptionText,
            publishedAt: fields.publishedAt.map(APIDate.string),
            duration: fields.duration, uri: PodcastsAPI.stream.uri(IDPath(row: record.id)),
            enclosureUrl: fields.enclosureURL, enclosureType: fields.enclosureType,
            enclosureLength: fields.enclosureLength, season: fields.season, episode: fields.episode,
            // A book's part: its chapters are the server's, read from its file.
            chaptersUrl: record.kind == .audiobook
                ? AudiobooksAPI.chapters.uri(IDPath(row: record.id)) : fields.chaptersURL,
            transcriptUrl: fields.transcriptURL, imageUrl: fields.imageURL,
            downloaded: record.keep == .download && record.fileName != nil,
            progress: record.progress.map { model(episodeID: record.id, $0) }, likesCount: record.likesCount,
            likeId: record.likeID.map(String.init), createdAt: APIDate.string(record.createdAt),
            updatedAt: APIDate.string(record.updatedAt))
    }

    static func model(episodeID: Int64, _ progress: PodcastStore.ProgressRecord?) -> EpisodeProgress {
        EpisodeProgress(
            episodeId: String(episodeID), position: progress?.position ?? 0,
            finished: progress?.finished ?? false,
            updatedAt: progress.map { millisecondsText($0.updatedAt) })
    }
}
