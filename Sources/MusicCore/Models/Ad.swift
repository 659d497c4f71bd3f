/// Ads and banners as the v1 API sends them: the splash screen, the home banner carousel and cards in lists.

/// An ad: a picture or a short video shown at one place in the apps, inside its time window.
public struct Ad: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    /// The picture (for a video ad, a frame of the video), relative to the server root.
    public var icon: String
    /// A video ad's video; for the others, where tapping leads (`link`), when anywhere.
    public var uri: String?
    /// 0 image, 10 video, 20 app link (see `AdStyle`).
    public var style: Int
    /// 0 splash, 10 home banner, 20 in a list (see `AdPosition`).
    public var position: Int
    /// Where tapping leads: a web address or an app link (`cloudmusic://sheet/5`).
    public var link: String?
    /// The picture's or the video's size in pixels.
    public var width: Int
    public var height: Int
    /// A video ad's length in milliseconds.
    public var duration: Int?
    /// When it starts showing; nil is at once.
    public var startsAt: String?
    /// When it stops showing; nil is never.
    public var endsAt: String?
    /// Lower shows first among the ads of one position.
    public var sort: Int
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, title: String, icon: String, uri: String?, style: Int, position: Int, link: String?,
        width: Int, height: Int, duration: Int?, startsAt: String?, endsAt: String?, sort: Int,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.uri = uri
        self.style = style
        self.position = position
        self.link = link
        self.width = width
        self.height = height
        self.duration = duration
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.sort = sort
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Where an ad shows (the apps' `position`).
public enum AdPosition: Int, Codable, Sendable, CaseIterable {
    /// The splash screen at start, shown full screen for a few seconds.
    case splash = 0
    /// The carousel at the top of the home screen.
    case banner = 10
    /// A card among the items of a list.
    case inList = 20

    /// "0 (splash), 10 (home banner) or 20 (in a list)", for messages.
    public static let choices = LocalizedText("0 (splash), 10 (home banner) or 20 (in a list)")
}

/// What an ad shows (the apps' `style`).
public enum AdStyle: Int, Codable, Sendable, CaseIterable {
    /// A picture; tapping opens `link`.
    case image = 0
    /// A short video, played muted; its first frame is `icon`.
    case video = 10
    /// A picture that opens an app link (`link` is required).
    case app = 20

    public static let choices = LocalizedText("0 (image), 10 (video) or 20 (app link)")
}
