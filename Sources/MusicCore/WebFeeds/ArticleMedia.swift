import Foundation

/// A picture of an article, found by the HTML sanitizer: its original address (the server proxies it).
public struct ArticleImage: Codable, Sendable, Equatable {
    public var url: URL
    public var alt: String?
    public var width: Int?
    public var height: Int?

    public init(url: URL, alt: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.alt = alt
        self.width = width
        self.height = height
    }
}

/// A video or sound of an article, found by the HTML sanitizer: its original addresses.
public struct ArticleVideo: Codable, Sendable, Equatable {
    public var url: URL
    public var type: String?
    /// The still shown before it plays.
    public var posterURL: URL?
    /// True for `<audio>`.
    public var audioOnly: Bool

    public init(url: URL, type: String? = nil, posterURL: URL? = nil, audioOnly: Bool = false) {
        self.url = url
        self.type = type
        self.posterURL = posterURL
        self.audioOnly = audioOnly
    }
}
