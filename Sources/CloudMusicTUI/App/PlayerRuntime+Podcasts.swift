import CloudMusicKit
import Foundation
import MusicCore
import Synchronization

/// Podcasts: the lists, subscribing, and episodes played through the play list at their own speed, from the
/// place saved for them (the server's, or the one kept offline when later), their place written back through
/// `EpisodeProgressRepository` every 15 s of playback, on pause and at the end.
extension PlayerRuntime {
    /// Seconds of playback between two saves of an episode's place.
    static let episodeSaveInterval = 15.0

    /// Where playback of the current episode stands, for deciding when to save it.
    struct EpisodeTracking: Sendable {
        var episodeID: String?
        var position: Double = 0
        var duration: Double?
        var savedPosition: Double = -1
        var finishedSaved = false
        var speed: Double = 1
    }

    func loadPodcasts() async throws {
        var all: [Podcast] = []
        var page = 1
        // A few pages at most: a server has dozens of podcasts, not thousands.
        while page <= 5 {
            let answer = try await repository.podcasts(page: page, size: 100).value
            all += answer.data
            guard answer.next != nil else { break }
            page += 1
        }
        post(.podcastsLoaded(all))
    }

    func openPodcast(id: String) async throws {
        do {
            let episodes = try await repository.episodes(podcastID: id, sort: .newest, size: 100).value.data
            post(.episodesLoaded(podcastID: id, episodes))
        } catch {
            post(.episodesFailed(podcastID: id, Self.message(for: error)))
        }
    }

    func setSubscribed(podcastID: String, _ subscribed: Bool) async throws {
        post(.podcastChanged(try await repository.setSubscribed(subscribed, podcastID: podcastID)))
    }

    /// The newest 50 comments of an episode, and how many there are.
    func loadEpisodeComments(episodeID: String) async throws {
        let page = try await repository.comments(.episode(episodeID), size: 50)
        post(.episodeCommentsLoaded(episodeID: episodeID, page.data, total: page.total))
    }

    /// Likes an episode (the server answers it with the like), or takes the like back and reads it again.
    func setEpisodeLiked(episodeID: String, likeID: String?) async throws {
        guard let likeID else {
            post(.episodeChanged(try await repository.likeEpisode(id: episodeID)))
            return
        }
        try await repository.unlike(likeID: likeID)
        post(.episodeChanged(try await repository.episode(id: episodeID).value))
    }

    /// Plays `episodes` from `start`, where the person left it (on any device, or here offline).
    func playEpisodes(_ episodes: [PodcastEpisode], start: Int) async throws {
        guard episodes.indices.contains(start) else { return }
        let episode = episodes[start]
        var at = 0.0
        if repository.userID != nil, let place = try? await episodeProgress.progress(episodeID: episode.id),
            !place.finished
        {
            at = place.position
        }
        episodeState.withLock { $0 = EpisodeTracking(speed: $0.speed) }
        try await list.setList(episodes.map(EpisodeSong.song), startAt: start, from: at)
        if at > 0 { post(.notice("Resuming at \(DisplayFormat.duration(seconds: at))", isError: false)) }
    }

    func setSpeed(_ speed: Double) async {
        let playingEpisode = episodeState.withLock { tracking in
            tracking.speed = speed
            return tracking.episodeID != nil
        }
        if playingEpisode { await player.setSpeed(speed) }
    }

    /// The play list moved to `song`: episodes at the chosen speed, songs at 1×; the episode left is saved.
    func episodeCurrentChanged(_ song: Song?) async {
        let (left, speed) = episodeState.withLock { tracking -> (EpisodeTracking, Double) in
            let left = tracking
            tracking = EpisodeTracking(episodeID: EpisodeSong.episodeID(of: song), speed: tracking.speed)
            return (left, tracking.speed)
        }
        if left.episodeID != nil, !left.finishedSaved { saveEpisode(left, finished: false) }
        await player.setSpeed(EpisodeSong.episodeID(of: song) == nil ? 1 : speed)
    }

    /// Playback moved: the place is saved every `episodeSaveInterval` seconds, and once as finished near the end.
    func episodeProgressed(position: Double, duration: Double?) {
        let due = episodeState.withLock { tracking -> (EpisodeTracking, finished: Bool)? in
            guard tracking.episodeID != nil else { return nil }
            tracking.position = position
            if let duration { tracking.duration = duration }
            if let total = tracking.duration, total > 0, position >= total - 1, !tracking.finishedSaved {
                tracking.finishedSaved = true
                tracking.savedPosition = position
                return (tracking, true)
            }
            guard abs(position - tracking.savedPosition) >= Self.episodeSaveInterval else { return nil }
            tracking.savedPosition = position
            return (tracking, false)
        }
        if let due { saveEpisode(due.0, finished: due.finished) }
    }

    /// Paused: the place is saved now.
    func episodePaused() {
        let tracking = episodeState.withLock { tracking -> EpisodeTracking? in
            guard tracking.episodeID != nil, tracking.savedPosition != tracking.position else { return nil }
            tracking.savedPosition = tracking.position
            return tracking
        }
        if let tracking { saveEpisode(tracking, finished: false) }
    }

    private func saveEpisode(_ tracking: EpisodeTracking, finished: Bool) {
        guard let id = tracking.episodeID, repository.userID != nil else { return }
        let progress = episodeProgress
        Task { _ = try? await progress.save(episodeID: id, position: tracking.position, finished: finished) }
    }
}
