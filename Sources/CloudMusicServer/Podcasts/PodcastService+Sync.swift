import Foundation
import MusicCore
import Storage

/// Sync with gPodder apps (AntennaPod, Kasts): subscription changes by feed address, and play positions as places.
///
/// A subscription to an address the server does not have is kept as wanted: an administrator's app adds the
/// feed at once; anyone else's waits until an administrator adds that feed, and is applied then.
extension PodcastService {
    /// A gPodder play action, checked.
    struct Play: Sendable {
        var feedURL: String
        var enclosureURL: String
        var guid: String?
        var position: Double
        var total: Int?
        /// When the app took it, milliseconds since 1970.
        var takenAt: Int64
        var device: String?
    }

    /// The most changes one answer lists.
    static let maxSyncChanges = 10_000

    /// An address as the server keeps a feed's, or nil when it cannot be a feed's.
    static func syncAddress(_ text: String) -> String? {
        try? feedAddress(text).absoluteString
    }

    /// Subscribes and unsubscribes by address; answers the addresses that could not be used.
    func changeSubscriptions(add: [String], remove: [String], viewer: Viewer) async throws -> [String] {
        let now = millisecondClock()
        var refused: [String] = []
        var adds: [String] = []
        var removes: [String] = []
        for raw in add {
            if let url = Self.syncAddress(raw) { adds.append(url) } else { refused.append(raw) }
        }
        for raw in remove {
            if let url = Self.syncAddress(raw) { removes.append(url) } else { refused.append(raw) }
        }
        let unknown = try database.write { db -> [String] in
            var unknown: [String] = []
            for url in adds {
                if let id = try store.podcastID(db, feedURL: url) {
                    try store.subscribe(db, userID: viewer.userID, podcastID: id, now: clock())
                } else {
                    unknown.append(url)
                }
                try store.recordSubscriptionChange(
                    db, userID: viewer.userID, feedURL: url, subscribed: true, at: now)
            }
            for url in removes {
                if let id = try store.podcastID(db, feedURL: url) {
                    try store.unsubscribe(db, userID: viewer.userID, podcastID: id)
                }
                try store.recordSubscriptionChange(
                    db, userID: viewer.userID, feedURL: url, subscribed: false, at: now)
            }
            return unknown
        }
        // An administrator's subscription adds the feed (which applies the wanted subscription); one that cannot be
        // added stays wanted.
        if viewer.isAdmin && !unknown.isEmpty {
            _ = await Self.boundedMap(unknown, limit: Self.concurrentFeeds) { url -> Bool in
                do {
                    _ = try await self.add(PodcastDraft(url: url))
                    return true
                } catch {
                    logger?.warning("event=gpodder_feed_not_added url=\"\(url)\" error=\"\(error)\"")
                    return false
                }
            }
        }
        return refused
    }

    /// The addresses subscribed and unsubscribed at or after `since` (milliseconds).
    func subscriptionChanges(since: Int64, viewer: Viewer) throws -> (add: [String], remove: [String]) {
        let changes = try database.read { db in
            try store.subscriptionChanges(db, userID: viewer.userID, since: since, limit: Self.maxSyncChanges)
        }
        return (changes.filter(\.subscribed).map(\.url), changes.filter { !$0.subscribed }.map(\.url))
    }

    /// Saves the plays of known episodes as places (the later place wins); answers the indices of those placed.
    func savePlays(_ plays: [Play], viewer: Viewer) throws -> Set<Int> {
        let now = millisecondClock()
        return try database.write { db in
            var placed = Set<Int>()
            for (index, play) in plays.enumerated() {
                guard
                    let episodeID = try store.episodeID(
                        db, feedURL: play.feedURL, guid: play.guid, enclosureURL: play.enclosureURL)
                else { continue }
                let finished = (play.total ?? 0) > 0 && play.position >= Double(play.total ?? 0)
                let record = PodcastStore.ProgressRecord(
                    position: min(max(play.position, 0), 864_000), finished: finished,
                    updatedAt: min(play.takenAt, now))
                try store.saveProgress(
                    db, userID: viewer.userID, episodeID: episodeID, record, receivedAt: now,
                    device: play.device)
                placed.insert(index)
            }
            return placed
        }
    }

    /// The places received at or after `since` (milliseconds), from any client.
    func placesReceived(since: Int64, feedURL: String?, device: String?, viewer: Viewer) throws
        -> [PodcastStore.PlaceChange]
    {
        try database.read { db in
            try store.placesReceived(
                db, userID: viewer.userID, since: since, feedURL: feedURL, device: device,
                limit: Self.maxSyncChanges)
        }
    }

    /// How many podcasts the person subscribes to.
    func subscriptionCount(viewer: Viewer) throws -> Int {
        try subscriptions(paging: Paging(page: 1, size: 1), viewer: viewer).total
    }

    /// The podcasts' categories, from their feeds' iTunes categories (a podcast counted once in each it names).
    func categories() throws -> [PodcastCategory] {
        try database.read { db in
            try store.categories(db).map { PodcastCategory(name: $0.name, podcastsCount: $0.count) }
        }
    }
}
