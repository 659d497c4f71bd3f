import MusicCore

/// An episode as the play list holds it: a `Song` whose id is `episode-<id>` and whose audio is the
/// episode's stream, so the player, the queue and the now-playing screen need nothing new.
public enum EpisodeSong {
    static let prefix = "episode-"

    /// The song id of episode `episodeID`.
    public static func id(_ episodeID: String) -> String { prefix + episodeID }

    /// The episode id of a song made here, or nil for a real song.
    public static func episodeID(of song: Song?) -> String? {
        guard let id = song?.id, id.hasPrefix(prefix) else { return nil }
        return String(id.dropFirst(prefix.count))
    }

    public static func song(_ episode: PodcastEpisode) -> Song {
        Song(
            id: id(episode.id), title: episode.title, icon: nil, uri: episode.uri, style: 0, lyric: nil,
            singer: nil,
            artists: [ArtistSummary(id: "podcast-\(episode.podcastId)", name: episode.podcastTitle)],
            album: nil, genres: [], trackNumber: episode.episode, discNumber: nil, year: nil,
            duration: (episode.duration ?? 0) * 1000, format: "", bitRate: 0, sampleRate: 0, channels: 0,
            clicksCount: 0, commentsCount: 0, playsCount: 0, createdAt: episode.createdAt,
            updatedAt: episode.updatedAt)
    }
}
