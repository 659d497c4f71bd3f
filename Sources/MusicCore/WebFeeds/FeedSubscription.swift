import Foundation

/// A feed to subscribe to, from an OPML file (what podcast and news apps export).
public struct FeedSubscription: Codable, Sendable, Equatable {
    public var feedURL: URL
    public var title: String?
    /// The website, when the outline names one.
    public var siteURL: URL?
    /// The folders the outline was in, outermost first (`["News", "Tech"]`), then its `category` attribute's.
    public var folders: [String]

    public init(feedURL: URL, title: String? = nil, siteURL: URL? = nil, folders: [String] = []) {
        self.feedURL = feedURL
        self.title = title
        self.siteURL = siteURL
        self.folders = folders
    }
}
