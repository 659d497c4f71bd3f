import Foundation
import HTTPServer
import MusicCore
import Testing

@testable import CloudMusicServer

/// The album page's hand-written JSON must be byte for byte what JSONEncoder writes.
@Suite struct PodcastJSONTests {
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    func written<T: JSONWritable>(_ value: T) -> String {
        var writer = JSONWriter()
        value.writeJSON(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func encoded<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func episode(_ text: String, full: Bool, position: Double) -> PodcastEpisode {
        PodcastEpisode(
            id: "42", podcastId: "7", podcastTitle: text, title: text, detail: text,
            publishedAt: full ? "2026-12-01T00:00:00Z" : nil, duration: full ? 3_600 : nil,
            uri: "v1/episodes/42/stream", enclosureUrl: "https://example.com/a b/42.mp3?x=1&y=/",
            enclosureType: full ? "audio/mpeg" : nil, enclosureLength: full ? 9_000_000_000 : nil,
            season: full ? 2 : nil, episode: full ? 0 : nil, chaptersUrl: full ? "https://e.com/c.json" : nil,
            transcriptUrl: full ? "https://e.com/t.vtt" : nil, imageUrl: full ? "https://e.com/i.jpg" : nil,
            downloaded: full,
            progress: full
                ? EpisodeProgress(
                    episodeId: "42", position: position, finished: position > 100,
                    updatedAt: position > 1 ? "2026-12-05T13:30:00.250Z" : nil)
                : nil,
            likesCount: full ? 1_234 : 0, likeId: full ? "2199023255553" : nil,
            createdAt: "2026-12-01T00:00:00Z", updatedAt: "2026-12-01T00:00:01Z")
    }

    @Test(arguments: [true, false]) func episodesMatchJSONEncoder(full: Bool) throws {
        for text in [CatalogJSONTests.awkward, "", "第一集 节目笔记"] {
            for position in [0, 1, 12.5, 0.1, 1e-7, 3_599.999, 864_000, 123_456.789_012_345] {
                let value = episode(text, full: full, position: position)
                #expect(written(value) == (try encoded(value)))
            }
        }
        let page = Page(
            items: [episode("a", full: true, position: 2.5), episode("b", full: false, position: 0)],
            total: 41,
            page: 3, size: 20)
        #expect(written(page) == (try encoded(page)))
    }

    @Test func placesKeepTheirMilliseconds() {
        #expect(PodcastService.millisecondsText(1_796_477_400_250) == "2026-12-05T13:30:00.250Z")
        #expect(PodcastService.millisecondsText(0) == "1970-01-01T00:00:00.000Z")
        #expect(PodcastService.millisecondsText(5) == "1970-01-01T00:00:00.005Z")
    }
}
