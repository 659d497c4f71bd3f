import CloudMusicKit
import MusicCore

/// The podcast screen's part of `reduce`: the lists loaded, keys on the screen (an episode's comments and
/// like among them), and the speed keys.
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
        case .episodeCommentsLoaded(let episodeID, let comments, let total):
            guard podcasts.comments?.episodeID == episodeID else { return [] }
            podcasts.comments?.comments = comments
            podcasts.comments?.total = total
            podcasts.comments?.list.clamp(count: comments.count)
            podcasts.comments?.status = .loaded
            return []
        case .episodeCommentsFailed(let episodeID, let message):
            guard podcasts.comments?.episodeID == episodeID else { return [] }
            podcasts.comments?.status = .failed(message)
            return []
        case .episodeChanged(let episode):
            if let index = podcasts.episodes.firstIndex(where: { $0.id == episode.id }) {
                // The like is the viewer's news; the place in it is kept as the list has it.
                podcasts.episodes[index].likesCount = episode.likesCount
                podcasts.episodes[index].likeId = episode.likeId
            }
            show(episode.likeId != nil ? "Liked \(episode.title)." : "Unliked \(episode.title).")
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
        if let comments = podcasts.comments {
            switch command {
            case .back:
                podcasts.comments = nil
                return []
            case .like:
                return likeEpisode(id: comments.episodeID)
            case .refresh:
                podcasts.comments?.status = .loading
                return [.loadEpisodeComments(episodeID: comments.episodeID)]
            case .comments, .play, .collect:
                return []
            default:
                return nil
            }
        }
        if let open = podcasts.open {
            switch command {
            case .comments:
                guard let episode = podcasts.selectedEpisode else { return [] }
                podcasts.comments = EpisodeComments(episodeID: episode.id, title: episode.title)
                return [.loadEpisodeComments(episodeID: episode.id)]
            case .like:
                guard let episode = podcasts.selectedEpisode else { return [] }
                return likeEpisode(id: episode.id)
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

    /// Likes the episode, or takes my like of it back.
    private mutating func likeEpisode(id: String) -> [AppEffect] {
        guard isSignedIn else {
            show("Sign in to like episodes.", isError: true)
            return []
        }
        guard let episode = podcasts.episodes.first(where: { $0.id == id }) else { return [] }
        return [.setEpisodeLiked(episodeID: id, likeID: episode.likeId)]
    }

    private mutating func subscribe(_ podcast: Podcast) -> [AppEffect] {
        guard isSignedIn else {
            show("Sign in to subscribe to podcasts.", isError: true)
            return []
        }
        return [.setSubscribed(podcastID: podcast.id, podcast.subscribed != true)]
    }

    mutating func moveInPodcasts(_ delta: Int) {
        if let comments = podcasts.comments {
            podcasts.comments?.list.move(delta, count: comments.comments.count)
        } else if podcasts.open != nil {
            podcasts.episodeList.move(delta, count: podcasts.episodes.count)
        } else {
            podcasts.list.move(delta, count: podcasts.podcasts.count)
        }
    }
}
