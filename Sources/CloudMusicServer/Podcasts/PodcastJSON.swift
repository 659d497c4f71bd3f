import HTTPServer
import MusicCore

// Hand-written JSON for the album page: JSONEncoder's value tree and key sorting were most of a page of twenty
// episodes with their notes. Keys in sorted order, nil values left out; PodcastJSONTests holds each to
// JSONEncoder's bytes.

extension EpisodeProgress: JSONWritable {
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("episodeId")
            json.string(episodeId)
            json.key("finished")
            json.bool(finished)
            json.key("position")
            json.double(position)
            json.optional("updatedAt", updatedAt) { $0.string($1) }
        }
    }
}

extension PodcastEpisode: JSONWritable {
    public var jsonSizeHint: Int { 640 + detail.utf8.count }

    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.optional("chaptersUrl", chaptersUrl) { $0.string($1) }
            json.key("createdAt")
            json.string(createdAt)
            json.key("detail")
            json.string(detail)
            json.key("downloaded")
            json.bool(downloaded)
            json.optional("duration", duration) { $0.int($1) }
            json.optional("enclosureLength", enclosureLength) { $0.int(Int($1)) }
            json.optional("enclosureType", enclosureType) { $0.string($1) }
            json.key("enclosureUrl")
            json.string(enclosureUrl)
            json.optional("episode", episode) { $0.int($1) }
            json.key("id")
            json.string(id)
            json.optional("imageUrl", imageUrl) { $0.string($1) }
            json.optional("likeId", likeId) { $0.string($1) }
            json.key("likesCount")
            json.int(likesCount)
            json.key("podcastId")
            json.string(podcastId)
            json.key("podcastTitle")
            json.string(podcastTitle)
            json.optional("progress", progress) { $0.value($1) }
            json.optional("publishedAt", publishedAt) { $0.string($1) }
            json.optional("season", season) { $0.int($1) }
            json.key("title")
            json.string(title)
            json.optional("transcriptUrl", transcriptUrl) { $0.string($1) }
            json.key("updatedAt")
            json.string(updatedAt)
            json.key("uri")
            json.string(uri)
        }
    }
}
