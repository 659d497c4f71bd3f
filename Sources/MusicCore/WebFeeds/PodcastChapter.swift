import Foundation

/// A chapter of an episode, from a Podcasting 2.0 chapters document (`podcast:chapters`).
public struct PodcastChapter: Codable, Sendable, Equatable {
    /// Seconds from the episode's start.
    public var start: Double
    /// Seconds from the episode's start; nil when the chapter runs to the next one.
    public var end: Double?
    public var title: String?
    public var imageURL: URL?
    /// A web page about what the chapter talks of.
    public var url: URL?
    /// False for a chapter meant only to change the picture or link, not to be listed ("toc": false).
    public var listed: Bool

    public init(
        start: Double, end: Double? = nil, title: String? = nil, imageURL: URL? = nil, url: URL? = nil,
        listed: Bool = true
    ) {
        self.start = start
        self.end = end
        self.title = title
        self.imageURL = imageURL
        self.url = url
        self.listed = listed
    }
}
