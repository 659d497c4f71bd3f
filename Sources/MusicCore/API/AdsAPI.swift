/// Ads: the splash screen, the home banners and cards in lists, each inside its time window; administrators
/// make, change, order and delete them.
public enum AdsAPI {
    public static let list = Endpoint<NoPath, AdListQuery, NoBody, Page<Ad>, OptionalSignIn>(
        "list", .GET, "/v1/ads",
        "The ads showing now at a position, in their order; sent with an ETag (304 to If-None-Match) so an app can keep its splash ad"
    )
    public static let icon = Endpoint<IDPath<Ad>, NoQuery, NoBody, Picture, OptionalSignIn>(
        "icon", .GET, "/v1/ads/{id}/icon", "An ad's picture (a video ad's first frame)", resource: "ad")
    public static let video = Endpoint<IDPath<Ad>, NoQuery, NoBody, VideoFile, OptionalSignIn>(
        "video", .GET, "/v1/ads/{id}/video", "A video ad's video", resource: "ad")

    public static let adminList = Endpoint<NoPath, AdListQuery, NoBody, Page<Ad>, Admin>(
        "adminList", .GET, "/v1/admin/ads", "list every ad, those outside their time window too")
    public static let create = Endpoint<NoPath, NoQuery, Form<AdForm>, Ad, Admin>(
        "create", .POST, "/v1/admin/ads",
        "add an ad with its picture (JPEG, PNG, WebP, GIF) or video (MP4, MOV, WebM, MKV)", status: 201,
        refusals: [.unavailable])
    public static let update = Endpoint<IDPath<Ad>, NoQuery, AdChange, Ad, Admin>(
        "update", .PATCH, "/v1/admin/ads/{id}", "change an ad; fields left out stay, null clears",
        resource: "ad")
    public static let replaceMedia = Endpoint<IDPath<Ad>, NoQuery, Upload, Ad, Admin>(
        "replaceMedia", .PUT, "/v1/admin/ads/{id}/media",
        "replace an ad's picture or video (a video makes it a video ad, a picture an image ad)",
        resource: "ad",
        refusals: [.unavailable])
    public static let delete = Endpoint<IDPath<Ad>, NoQuery, NoBody, Done, Admin>(
        "delete", .DELETE, "/v1/admin/ads/{id}", "delete an ad with its files", resource: "ad")
    public static let reorder = Endpoint<NoPath, NoQuery, AdOrder, [Ad], Admin>(
        "reorder", .PUT, "/v1/admin/ads/order", "order the ads of a position", idempotent: true)

    public static let group = APIGroup(
        "ads", "The splash ad, home banners and ads in lists, and their administration",
        [list, icon, video, adminList, create, update, replaceMedia, delete, reorder])
}

public struct AdListQuery: APIParameters, Equatable {
    public var position: Int?
    public var paging = Paging()
    public init() {}
    public init(position: AdPosition?, page: Int = 1, size: Int = 20) {
        self.position = position?.rawValue
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [
            .integer(
                "position", \.position, oneOf: AdPosition.allCases.map(\.rawValue),
                meaning: AdPosition.choices,
                doc: "Only the ads of this position: \(AdPosition.choices). Left out: every position.")
        ] + Paging.fields(\.paging)
}

/// A new ad's fields, sent as text parts beside its file.
public struct AdForm: APIParameters, Equatable {
    public var title = ""
    public var position: Int?
    public var style = AdStyle.image.rawValue
    public var link: String?
    public var startsAt: String?
    public var endsAt: String?
    public var sort: Int?
    public init() {}
    public init(
        title: String, position: AdPosition, style: AdStyle = .image, link: String? = nil,
        startsAt: String? = nil,
        endsAt: String? = nil, sort: Int? = nil
    ) {
        self.title = title
        self.position = position.rawValue
        self.style = style.rawValue
        self.link = link
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.sort = sort
    }
    public static let fields: [ParameterField<Self>] = [
        .text("title", \.title, maxLength: 100, required: true, doc: "What the ad is called."),
        .integer(
            "position", \.position, oneOf: AdPosition.allCases.map(\.rawValue), meaning: AdPosition.choices,
            required: true, doc: "Where it shows: \(AdPosition.choices)."),
        .integer(
            "style", \.style, oneOf: AdStyle.allCases.map(\.rawValue), meaning: AdStyle.choices,
            doc: "What it shows: \(AdStyle.choices)."),
        .text(
            "link", \.link, maxLength: 2_000,
            doc: "Where tapping leads: an http(s) address or an app link; required for app-link ads."),
        .text(
            "startsAt", \.startsAt, maxLength: 40,
            doc:
                "When it starts showing, ISO 8601 (`2025-05-01T08:00:00Z`, or with an offset); left out: at once."
        ),
        .text(
            "endsAt", \.endsAt, maxLength: 40,
            doc: "When it stops showing, after `startsAt`; left out: never."),
        .integer(
            "sort", \.sort, in: -1_000_000...1_000_000,
            doc: "Lower shows first; left out: after the position's other ads."),
    ]
}

/// Changes to an ad; fields left out stay as they are, null clears `link`, `startsAt` and `endsAt`.
public struct AdChange: Codable, Sendable, Equatable {
    public var title: String?
    public var position: Int?
    /// 0 image or 20 app link for a picture; a video ad stays 10 (replace its file to change that).
    public var style: Int?
    public var link: String??
    public var startsAt: String??
    public var endsAt: String??
    public var sort: Int?

    public init(
        title: String? = nil, position: Int? = nil, style: Int? = nil, link: String?? = nil,
        startsAt: String?? = nil, endsAt: String?? = nil, sort: Int? = nil
    ) {
        self.title = title
        self.position = position
        self.style = style
        self.link = link
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.sort = sort
    }

    enum CodingKeys: String, CodingKey {
        case title, position, style, link, startsAt, endsAt, sort
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        position = try container.decodeIfPresent(Int.self, forKey: .position)
        style = try container.decodeIfPresent(Int.self, forKey: .style)
        sort = try container.decodeIfPresent(Int.self, forKey: .sort)
        link = try container.decodeClearable(.link)
        startsAt = try container.decodeClearable(.startsAt)
        endsAt = try container.decodeClearable(.endsAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(position, forKey: .position)
        try container.encodeIfPresent(style, forKey: .style)
        try container.encodeIfPresent(sort, forKey: .sort)
        try container.encodeClearable(link, forKey: .link)
        try container.encodeClearable(startsAt, forKey: .startsAt)
        try container.encodeClearable(endsAt, forKey: .endsAt)
    }
}

/// The order of a position's ads: `adIds` first to last; the position's other ads follow in their order.
public struct AdOrder: Codable, Sendable, Equatable {
    public var position: Int
    public var adIds: [ID<Ad>]
    public init(position: AdPosition, adIds: [ID<Ad>]) {
        self.position = position.rawValue
        self.adIds = adIds
    }
}

extension AdOrder: LimitedBody {
    public static let limits: [FieldLimit<Self>] = [
        .count(
            "adIds", \.adIds, max: 1_000, tooMany: ServiceError.invalid("Send at most 1000 ids in 'adIds'."))
    ]
}

extension AdChange: LimitedBody {
    public static let titleText = WrittenText(field: "An ad's title", limit: 100)
    public static let limits: [FieldLimit<Self>] = [.text("title", \.title, titleText)]
}
