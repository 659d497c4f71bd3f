import CloudMusicKit
import MusicCore

/// The podcast screen's part of `reduce`: the lists loaded, keys on the screen, and the speed keys.
extension AppState {
    /// Podcasts and episodes loaded or changed; nil for any other action.
    mutating func reducePodcasts(_ action: AppAction) -> [AppEffect]? {
        switch action {
        case .podcastsLoaded(let all):
            // Mine first, each group in the server's order.
            podcasts.podcasts = all.filter { $0.subscribed == true } + all.filter { $0.subscribed != true }
            podcasts.list.clamp(count: podcasts.podcasts.count)
            podcasts.status = .loaded
            return []
        case .podcastsFailed(let message):
            podcasts.status = .failed(message)
            return []
        case .episodesLoaded(let podcastID, let episodes):
            guard podcasts.open?.id == podcastID else { return [] }
            podcasts.episodes = episodes
            podcasts.episodeList.clamp(count: episodes.count)
            podcasts.episodesStatus = .loaded
            return []
        case .episodesFailed(let podcastID, let message):
            guard podcasts.open?.id == podcastID else { return [] }
            podcasts.episodesStatus = .failed(message)
            return []
        case .podcastChanged(let podcast):
            if let index = podcasts.podcasts.firstIndex(where: { $0.id == podcast.id }) {
                podcasts.podcasts[index] = podcast
            }
            if podcasts.open?.id == podcast.id { podcasts.open = podcast }
            show(
                podcast.subscribed == true
                    ? "Subscribed to \(podcast.title)." : "Unsubscribed from \(podcast.title).")
            return []
        default:
            return nil
        }
    }

    /// Opens the podcast screen (the list, loaded afresh).
    mutating func openPodcasts() -> [AppEffect] {
        open(.podcasts)
        podcasts.status = .loading
        return [.loadPodcasts]
    }

    /// The speed keys: episodes play 0.5× to 3×, a step at a time.
    mutating func changeSpeed(by step: Int) -> [AppEffect] {
        podcasts.speed = podcasts.stepped(by: step)
        show("Speed: \(PodcastsView.label(podcasts.speed))")
        return [.setSpeed(podcasts.speed)]
    }

    /// What a command does on the podcast screen, or nil for its global meaning.
    mutating func podcastsCommand(_ command: Command) -> [AppEffect]? {
        if let open = podcasts.open {
            switch command {
            case .play:
                guard podcasts.episodes.indices.contains(podcasts.episodeList.selected) else { return [] }
                let episode = podcasts.episodes[podcasts.episodeList.selected]
                show("Playing \(episode.title)")
                return [.playEpisodes(podcasts.episodes, start: podcasts.episodeList.selected)]
            case .collect:
                return subscribe(open)
            case .refresh:
                podcasts.episodesStatus = .loading
                return [.openPodcast(id: open.id)]
            case .back:
                podcasts.open = nil
                podcasts.episodes = []
                return [.loadPodcasts]
            default:
                return nil
            }
        }
        switch command {
        case .play:
            guard let podcast = podcasts.podcasts[safe: podcasts.list.selected] else { return [] }
            podcasts.open = podcast
            podcasts.episodes = []
            podcasts.episodeList = ListCursor()
            podcasts.episodesStatus = .loading
            return [.openPodcast(id: podcast.id)]
        case .collect:
            guard let podcast = podcasts.podcasts[safe: podcasts.list.selected] else { return [] }
            return subscribe(podcast)
        case .refresh:
            podcasts.status = .loading
            return [.loadPodcasts]
        default:
            return nil
        }
    }

    private mutating func subscribe(_ podcast: Podcast) -> [AppEffect] {
        guard isSignedIn else {
            show("Sign in to subscribe to podcasts.", isError: true)
            return []
        }
        return [.setSubscribed(podcastID: podcast.id, podcast.subscribed != true)]
    }

    mutating func moveInPodcasts(_ delta: Int) {
        if podcasts.open != nil {
            podcasts.episodeList.move(delta, count: podcasts.episodes.count)
        } else {
            podcasts.list.move(delta, count: podcasts.podcasts.count)
        }
    }
}
