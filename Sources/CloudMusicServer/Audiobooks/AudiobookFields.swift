import MusicCore
import Storage

/// What only a book has (`AudiobooksSchema`'s columns of `podcasts`), as the podcasts' rows read it back:
/// owned by Audiobooks, read by Podcasts, which lists books as podcasts of the kind `audiobook`.
struct AudiobookFields: Sendable, Equatable {
    var narrator: String?
    var series: String?
    var seriesPart: Double?
    var year: Int?
    /// The path, inside the audiobooks folder, of its cover picture or of the part whose picture it is.
    var cover: String?

    /// A podcast row's book columns; nil for a feed's podcast.
    static func decode(_ row: Row) throws -> AudiobookFields? {
        guard try row.string("kind") == PodcastKind.audiobook.rawValue else { return nil }
        return AudiobookFields(
            narrator: try row.optionalString("narrator"), series: try row.optionalString("series"),
            seriesPart: try row.isNull("series_part") ? nil : try row.double("series_part"),
            year: try row.optionalInt("year"), cover: try row.optionalString("book_cover"))
    }
}
