import Foundation
import MusicCore
import Testing

/// A podcast saved before audiobooks (a client's offline cache) has no `kind`: it is a feed's podcast.
@Suite struct PodcastKindDecodingTests {
    @Test func aPodcastWithoutAKindIsAFeedsPodcastAndABookRoundTrips() throws {
        let old = """
            {"id":"1","title":"T","detail":"","feedUrl":"https://example.com/f.xml","categories":[],"explicit":false,
            "keep":"stream","retention":10,"episodesCount":0,"subscribersCount":0,"createdAt":"2026-01-01T00:00:00Z",
            "updatedAt":"2026-01-01T00:00:00Z"}
            """
        let podcast = try JSONDecoder().decode(Podcast.self, from: Data(old.utf8))
        #expect(podcast.kind == .podcast)
        #expect(podcast.narrator == nil)
        var book = podcast
        book.kind = .audiobook
        book.narrator = "冯雪松"
        book.series = "三体"
        book.seriesPart = 2
        book.year = 2008
        #expect(try JSONDecoder().decode(Podcast.self, from: try JSONEncoder().encode(book)) == book)
    }
}
