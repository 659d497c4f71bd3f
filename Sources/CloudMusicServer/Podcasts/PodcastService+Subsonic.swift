import Foundation
import MusicCore
import Storage
import WebFetch

/// What the Subsonic podcast methods need of podcasts, by the same rules as the v1 API: reads with the
/// caller's places, and every write here (Subsonic never writes the podcast tables itself).
extension PodcastService {
    /// The most episodes of one podcast `getPodcasts` lists (newest first).
    static let subsonicEpisodesPerChannel = 1_000
    /// The most podcasts `getPodcasts` lists.
    static let subsonicChannels = 1_000

    /// Every podcast (or the one of `id`), each with its newest episodes unless `episodes` is false.
    func channels(id: Int64?, episodes: Bool, viewerID: Int64) throws -> [(
        podcast: PodcastStore.Record, episodes: [PodcastStore.EpisodeRecord]
    )] {
        try database.read { db in
            let podcasts: [PodcastStore.Record]
            if let id {
                guard let record = try store.podcast(db, id: id, viewerID: viewerID) else {
                    throw Self.noPodcast
                }
                podcasts = [record]
            } else {
                podcasts = try store.podcasts(
                    db, needle: nil, paging: Paging(page: 1, size: Self.subsonicChannels), viewerID: viewerID
                ).records
            }
            return try podcasts.map { podcast in
                guard episodes else { return (podcast, []) }
                let records = try store.episodes(
                    db, podcastID: podcast.id, order: .newest,
                    paging: Paging(page: 1, size: Self.subsonicEpisodesPerChannel), viewerID: viewerID)
                return (podcast, records)
            }
        }
    }

    /// The most episodes `getBookmarks` lists.
    static let subsonicBookmarks = 500

    /// The episodes `viewer` is partway through, the last played first (what getBookmarks adds to songs).
    func unfinishedEpisodes(viewer: Viewer) throws -> [PodcastStore.EpisodeRecord] {
        try database.read { db in
            try store.unfinished(
                db, userID: viewer.userID, paging: Paging(page: 1, size: Self.subsonicBookmarks)
            ).records
        }
    }

    func newestEpisodes(count: Int, viewerID: Int64) throws -> [PodcastStore.EpisodeRecord] {
        try database.read { db in try store.newestEpisodes(db, limit: count, viewerID: viewerID) }
    }

    func episodeRecord(id: Int64, viewerID: Int64?) throws -> PodcastStore.EpisodeRecord {
        guard let record = try database.read({ db in try store.episode(db, id: id, viewerID: viewerID) })
        else {
            throw Self.noEpisode
        }
        return record
    }

    /// Downloads one episode now, when its podcast keeps downloads (the others stream from their origin, which
    /// is already playable). The retention count still applies at the next refresh.
    func downloadEpisode(id: Int64) async throws {
        let record = try episodeRecord(id: id, viewerID: nil)
        guard record.keep == .download, record.fileName == nil,
            let url = URL(string: record.fields.enclosureURL)
        else { return }
        let folder = "\(downloadFolder)/\(record.podcastID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = "\(id).\(Self.fileExtension(url))"
        do {
            _ = try await fetcher.download(
                FetchRequest(url, subject: "episode", limits: .download, compressed: false),
                into: URL(fileURLWithPath: folder), as: name)
        } catch let error as FetchError {
            throw ServiceError.unavailable(
                "The episode's audio cannot be fetched: \(LocalizedText(verbatim: error.message))")
        }
        try database.write { db in try store.setFileName(db, episodeID: id, fileName: name) }
    }

    /// Deletes an episode's download. The episode itself stays: its feed still lists it (a refresh would bring
    /// it back by its guid), and it streams from its origin.
    func deleteDownload(episodeID: Int64) throws {
        let record = try episodeRecord(id: episodeID, viewerID: nil)
        guard let name = record.fileName else { return }
        try database.write { db in try store.setFileName(db, episodeID: episodeID, fileName: nil) }
        try? FileManager.default.removeItem(atPath: "\(downloadFolder)/\(record.podcastID)/\(name)")
    }

    /// A play heard to its end (a Subsonic scrobble): finished, at the place already kept.
    func markPlayed(episodeID: Int64, viewer: Viewer, atMilliseconds: Int64?) throws {
        let position = try database.read { db -> Double in
            guard try store.episode(db, id: episodeID, viewerID: nil) != nil else { throw Self.noEpisode }
            return try store.progress(db, userID: viewer.userID, episodeID: episodeID)?.position ?? 0
        }
        _ = try saveProgress(
            episodeID: episodeID,
            draft: EpisodeProgressDraft(
                position: position, finished: true, updatedAt: atMilliseconds.map(Self.millisecondsText)),
            viewer: viewer)
    }
}
