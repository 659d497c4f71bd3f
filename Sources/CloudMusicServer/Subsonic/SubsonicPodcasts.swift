import Foundation
import HTTPServer
import MusicCore

/// The Subsonic podcast methods over `PodcastService` (issue 30), so Subsonic apps' podcast pages work:
/// podcasts are channels (`pc-3`), episodes `pe-40`, streamed by `stream` and `download` with that id. Every
/// episode is `completed` (playable): one not downloaded streams from its origin through the server. Writes
/// are the administrators' (error 50 for others) and go through `PodcastService`.
struct SubsonicPodcasts: Sendable {
    let podcasts: PodcastService

    func register(on rest: SubsonicRouter) {
        rest.on(SubsonicAPI.getPodcasts) { call in
            try channels(call.user, call.parameters)
        }
        rest.on(SubsonicAPI.getNewestPodcasts) { call in
            var element = SubsonicElement()
            element.add(
                "episode",
                many: try podcasts.newestEpisodes(count: call.parameters.count, viewerID: call.user.id).map(
                    Self.episode))
            return SubsonicDocument("newestPodcasts", element)
        }
        rest.on(SubsonicAPI.getPodcastEpisode) { call in
            SubsonicDocument(
                "podcastEpisode",
                Self.episode(try podcasts.episodeRecord(id: call.parameters.id, viewerID: call.user.id)))
        }
        rest.on(SubsonicAPI.refreshPodcasts) { _ in
            // Apps expect the call to return at once and list the podcasts again later.
            Task { [podcasts] in _ = try? await podcasts.refreshAll() }
            return .empty
        }
        rest.on(SubsonicAPI.createPodcastChannel) { call in
            let url = call.parameters.url
            _ = try waitFor { [podcasts] in try await podcasts.add(PodcastDraft(url: url)) }
            return .empty
        }
        rest.on(SubsonicAPI.deletePodcastChannel) { call in
            try podcasts.delete(id: call.parameters.id)
            return .empty
        }
        rest.on(SubsonicAPI.downloadPodcastEpisode) { call in
            let id = call.parameters.id
            try waitFor { [podcasts] in try await podcasts.downloadEpisode(id: id) }
            return .empty
        }
        rest.on(SubsonicAPI.deletePodcastEpisode) { call in
            try podcasts.deleteDownload(episodeID: call.parameters.id)
            return .empty
        }
    }

    private func channels(_ user: SubsonicUser, _ parameters: PodcastsParameters) throws -> SubsonicDocument {
        let withEpisodes = parameters.includeEpisodes ?? true
        var element = SubsonicElement()
        element.add(
            "channel",
            many: try podcasts.channels(id: parameters.id?.value, episodes: withEpisodes, viewerID: user.id)
                .map {
                    var channel = Self.channel($0.podcast)
                    if withEpisodes { channel.add("episode", many: $0.episodes.map(Self.episode)) }
                    return channel
                })
        return SubsonicDocument("podcasts", element)
    }

    // MARK: Shapes

    static func channel(_ record: PodcastRecord) -> SubsonicElement {
        var element = SubsonicElement()
        element.add("id", SubsonicShapes.id(.podcastChannel, record.id))
        element.add("url", record.feedURL)
        element.add("title", record.fields.title)
        element.add("description", record.fields.descriptionText)
        element.add("coverArt", SubsonicShapes.id(.podcastChannel, record.id))
        element.add("originalImageUrl", record.fields.imageURL)
        // A feed that failed its last fetch keeps its episodes; apps show the reason.
        let failing = record.failures > 0 && record.lastError != nil
        element.add("status", failing ? "error" : "completed")
        element.add("errorMessage", failing ? record.lastError : nil)
        return element
    }

    /// An episode as `PodcastEpisode` (a `Child` with the podcast fields).
    static func episode(_ record: PodcastEpisodeRecord) -> SubsonicElement {
        let fields = record.fields
        let id = SubsonicShapes.id(.podcastEpisode, record.id)
        var element = episodeChild(record)
        element.add("streamId", id)
        element.add("channelId", SubsonicShapes.id(.podcastChannel, record.podcastID))
        element.add("description", fields.descriptionText)
        element.add("status", "completed")
        element.addDate("publishDate", fields.publishedAt)
        return element
    }

    /// An episode as the plain `Child` a bookmark's entry is.
    static func episodeChild(_ record: PodcastEpisodeRecord) -> SubsonicElement {
        let fields = record.fields
        let id = SubsonicShapes.id(.podcastEpisode, record.id)
        let channel = SubsonicShapes.id(.podcastChannel, record.podcastID)
        let path = URL(string: fields.enclosureURL)?.path ?? ""
        let suffix = SubsonicShapes.pathExtension(path).lowercased()
        var element = SubsonicElement()
        element.add("id", id)
        element.add("parent", channel)
        element.add("isDir", false)
        element.add("title", fields.title)
        element.add("album", record.podcastTitle)
        element.add("artist", record.podcastTitle)
        element.add("coverArt", channel)
        element.add("size", fields.enclosureLength.flatMap { $0 > 0 ? $0 : nil })
        element.add(
            "contentType", fields.enclosureType ?? (suffix.isEmpty ? nil : SubsonicShapes.contentType(path)))
        element.add("suffix", suffix.isEmpty ? nil : suffix)
        element.add("duration", fields.duration)
        element.addDate("created", record.createdAt)
        element.add("type", "podcast")
        element.add("isVideo", false)
        if let progress = record.progress, !progress.finished, progress.position > 0 {
            element.add("bookmarkPosition", Int64((progress.position * 1_000).rounded()))
        }
        return element
    }
}
