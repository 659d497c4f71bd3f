import MusicCore

/// The podcast screen: my subscriptions and every podcast, or one podcast's episodes, newest first.
public struct PodcastsState: Sendable, Equatable {
    /// The speeds the speed keys step through.
    public static let speeds: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3]

    /// My subscriptions first, then the podcasts I do not subscribe to.
    public var podcasts: [Podcast] = []
    public var list = ListCursor()
    public var status: LoadStatus = .idle
    /// The podcast opened to its episodes; nil on the list of podcasts.
    public var open: Podcast?
    public var episodes: [PodcastEpisode] = []
    public var episodeList = ListCursor()
    public var episodesStatus: LoadStatus = .idle
    /// How fast episodes play (songs always play at 1×).
    public var speed: Double = 1
    /// The comments of an episode, shown over its podcast's episodes; nil when none are open.
    public var comments: EpisodeComments?

    public init() {}

    /// The episode selected among the open podcast's, or nil.
    public var selectedEpisode: PodcastEpisode? {
        open == nil ? nil : episodes[safe: episodeList.selected]
    }

    /// The speed one step faster (`by` 1) or slower (-1), within 0.5× to 3×.
    public func stepped(by step: Int) -> Double {
        let index = Self.speeds.firstIndex { $0 >= speed } ?? Self.speeds.count - 1
        return Self.speeds[min(Self.speeds.count - 1, max(0, index + step))]
    }

    /// "♥3" when I like it (3 people in all), "3", or "" when nobody does.
    public static func likesText(_ episode: PodcastEpisode) -> String {
        let count = episode.likesCount > 0 ? String(episode.likesCount) : ""
        return episode.likeId != nil ? "♥" + count : count
    }

    /// "40%", "done", or "" for an episode never played.
    public static func progressText(_ episode: PodcastEpisode) -> String {
        guard let progress = episode.progress, progress.updatedAt != nil else { return "" }
        if progress.finished { return "done" }
        guard let duration = episode.duration, duration > 0 else {
            return DisplayFormat.duration(seconds: progress.position)
        }
        return "\(min(99, max(1, Int((progress.position / Double(duration) * 100).rounded()))))%"
    }
}

/// An episode's comments, read-only: the newest first.
public struct EpisodeComments: Sendable, Equatable {
    public var episodeID: String
    public var title: String
    public var comments: [Comment] = []
    /// How many there are in all, once loaded.
    public var total: Int?
    public var list = ListCursor()
    public var status: LoadStatus = .loading

    public init(episodeID: String, title: String) {
        self.episodeID = episodeID
        self.title = title
    }
}
