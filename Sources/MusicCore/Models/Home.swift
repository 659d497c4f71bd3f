/// The home screen as the v1 API sends it: an ordered list of modules, each a row of one kind of item.

/// The kinds of home module.
public enum HomeModuleType: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// The banner carousel: the ads at position 10.
    case banner
    /// The start of the person's songs of the day (每日推荐; signed in only), the whole list at
    /// `GET /v1/recommendations/songs`.
    case dailySongs
    /// The first songs of the person's radio (私人FM; signed in only), which goes on at `GET /v1/radio/next`.
    case personalRadio
    /// Public sheets, most collected first.
    case hotSheets
    /// Other people's public sheets holding the songs the person played lately (signed in only).
    case recommendedSheets
    /// Songs for the person: most played in the genres they play (most played overall for a visitor).
    case recommendedSongs
    /// Albums most recently added to the library.
    case newAlbums
    /// Genres with a picture.
    case categories
    /// The person's most recently played songs (signed in only).
    case recentlyPlayed
    /// Music videos, most watched and liked first.
    case videos
    /// Products on sale in the shop (商城), newest first; shown only when there are some.
    case products
    /// Episodes the person started and has not finished, the last played first (signed in only).
    case continueListening
    /// The newest episodes of the podcasts the person subscribes to (signed in only).
    case newEpisodes

    /// The title shown when the administrator has not set one.
    public var defaultTitle: String {
        switch self {
        case .banner: "Banner"
        case .dailySongs: "Songs of the day"
        case .personalRadio: "Personal radio"
        case .recommendedSheets: "Sheets for you"
        case .hotSheets: "Hot sheets"
        case .recommendedSongs: "Recommended songs"
        case .newAlbums: "New albums"
        case .categories: "Categories"
        case .recentlyPlayed: "Recently played"
        case .videos: "Videos"
        case .products: "Shop"
        case .continueListening: "Continue listening"
        case .newEpisodes: "New episodes"
        }
    }
}

/// A module's items, one kind per module type.
public enum HomeContent: Sendable, Equatable {
    case banner([Ad])
    case hotSheets([Sheet])
    case recommendedSongs([Song])
    case newAlbums([Album])
    case categories([Category])
    case recentlyPlayed([Song])
    case dailySongs([Song])
    case personalRadio([Song])
    case recommendedSheets([Sheet])
    case videos([Video])
    case products([Product])
    case continueListening([PodcastEpisode])
    case newEpisodes([PodcastEpisode])

    public var moduleType: HomeModuleType {
        switch self {
        case .banner: .banner
        case .hotSheets: .hotSheets
        case .recommendedSongs: .recommendedSongs
        case .newAlbums: .newAlbums
        case .categories: .categories
        case .recentlyPlayed: .recentlyPlayed
        case .dailySongs: .dailySongs
        case .personalRadio: .personalRadio
        case .recommendedSheets: .recommendedSheets
        case .videos: .videos
        case .products: .products
        case .continueListening: .continueListening
        case .newEpisodes: .newEpisodes
        }
    }

    /// How many items the module holds.
    public var count: Int {
        switch self {
        case .banner(let items): items.count
        case .hotSheets(let items), .recommendedSheets(let items): items.count
        case .recommendedSongs(let items), .recentlyPlayed(let items), .dailySongs(let items),
            .personalRadio(let items):
            items.count
        case .videos(let items): items.count
        case .products(let items): items.count
        case .continueListening(let items), .newEpisodes(let items): items.count
        case .newAlbums(let items): items.count
        case .categories(let items): items.count
        }
    }
}

/// One module of the home screen: `{id, moduleType, title, items, more}`, where `items` holds the kind of
/// thing `moduleType` says (ads for `banner`; sheets for `hotSheets` and `recommendedSheets`; songs for
/// `recommendedSongs`, `recentlyPlayed`, `dailySongs` and `personalRadio`; albums for `newAlbums`; categories
/// for `categories`; videos for `videos`; products for `products`; episodes for `continueListening` and `newEpisodes`). Clients skip a `moduleType` they do not know.
public struct HomeModule: Codable, Sendable, Equatable, SchemaDescribed {
    /// The module's id: its type, since a home shows each type once.
    public var id: String
    public var title: String
    public var content: HomeContent
    /// The address of the full list behind the module ("more"), relative to the server root, or nil.
    public var more: String?

    public var moduleType: HomeModuleType { content.moduleType }

    public init(title: String, content: HomeContent, more: String?) {
        id = content.moduleType.rawValue
        self.title = title
        self.content = content
        self.more = more
    }

    enum CodingKeys: String, CodingKey {
        case id, moduleType, title, items, more
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        more = try container.decodeIfPresent(String.self, forKey: .more)
        let type = try container.decode(HomeModuleType.self, forKey: .moduleType)
        switch type {
        case .banner: content = .banner(try container.decode([Ad].self, forKey: .items))
        case .hotSheets: content = .hotSheets(try container.decode([Sheet].self, forKey: .items))
        case .recommendedSongs: content = .recommendedSongs(try container.decode([Song].self, forKey: .items))
        case .newAlbums: content = .newAlbums(try container.decode([Album].self, forKey: .items))
        case .categories: content = .categories(try container.decode([Category].self, forKey: .items))
        case .recentlyPlayed: content = .recentlyPlayed(try container.decode([Song].self, forKey: .items))
        case .dailySongs: content = .dailySongs(try container.decode([Song].self, forKey: .items))
        case .personalRadio: content = .personalRadio(try container.decode([Song].self, forKey: .items))
        case .recommendedSheets:
            content = .recommendedSheets(try container.decode([Sheet].self, forKey: .items))
        case .videos: content = .videos(try container.decode([Video].self, forKey: .items))
        case .products: content = .products(try container.decode([Product].self, forKey: .items))
        case .continueListening:
            content = .continueListening(try container.decode([PodcastEpisode].self, forKey: .items))
        case .newEpisodes: content = .newEpisodes(try container.decode([PodcastEpisode].self, forKey: .items))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(moduleType, forKey: .moduleType)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(more, forKey: .more)
        switch content {
        case .banner(let items): try container.encode(items, forKey: .items)
        case .hotSheets(let items), .recommendedSheets(let items): try container.encode(items, forKey: .items)
        case .recommendedSongs(let items), .recentlyPlayed(let items), .dailySongs(let items),
            .personalRadio(let items):
            try container.encode(items, forKey: .items)
        case .videos(let items): try container.encode(items, forKey: .items)
        case .products(let items): try container.encode(items, forKey: .items)
        case .continueListening(let items), .newEpisodes(let items):
            try container.encode(items, forKey: .items)
        case .newAlbums(let items): try container.encode(items, forKey: .items)
        case .categories(let items): try container.encode(items, forKey: .items)
        }
    }

    /// One object schema per module type, told apart by `moduleType` (a constant in each).
    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        let kinds: [(HomeModuleType, JSONValue)] = [
            (.banner, try builder.schema(for: Ad.self)),
            (.hotSheets, try builder.schema(for: Sheet.self)),
            (.recommendedSongs, try builder.schema(for: Song.self)),
            (.newAlbums, try builder.schema(for: Album.self)),
            (.categories, try builder.schema(for: Category.self)),
            (.recentlyPlayed, try builder.schema(for: Song.self)),
            (.dailySongs, try builder.schema(for: Song.self)),
            (.personalRadio, try builder.schema(for: Song.self)),
            (.recommendedSheets, try builder.schema(for: Sheet.self)),
            (.videos, try builder.schema(for: Video.self)),
            (.products, try builder.schema(for: Product.self)),
            (.continueListening, try builder.schema(for: PodcastEpisode.self)),
            (.newEpisodes, try builder.schema(for: PodcastEpisode.self)),
        ]
        return [
            "oneOf": .array(
                kinds.map { type, item in
                    [
                        "type": "object",
                        "required": ["id", "moduleType", "title", "items"],
                        "properties": [
                            "id": ["type": "string"],
                            "moduleType": ["type": "string", "const": .string(type.rawValue)],
                            "title": ["type": "string"],
                            "items": ["type": "array", "items": item],
                            "more": ["type": ["string", "null"]],
                        ],
                    ]
                })
        ]
    }

    public static func probeValue(in builder: SchemaBuilder) throws -> HomeModule {
        HomeModule(title: "", content: .banner([]), more: nil)
    }
}

/// A person's home layout: every module the administrator shows, in the person's order, hidden ones too.
public struct HomeLayout: Codable, Sendable, Equatable {
    public var modules: [HomeLayoutEntry]
    /// Whether the person has set an order of their own (false: the administrator's order).
    public var customized: Bool

    public init(modules: [HomeLayoutEntry], customized: Bool) {
        self.modules = modules
        self.customized = customized
    }
}

public struct HomeLayoutEntry: Codable, Sendable, Equatable {
    public var moduleType: HomeModuleType
    public var title: String
    public var hidden: Bool

    public init(moduleType: HomeModuleType, title: String, hidden: Bool) {
        self.moduleType = moduleType
        self.title = title
        self.hidden = hidden
    }
}

/// How the administrator shows a module: in the list's order, `enabled` or not, with at most `size` items.
public struct HomeModuleSetting: Codable, Sendable, Equatable {
    public var moduleType: HomeModuleType
    public var title: String
    public var enabled: Bool
    public var size: Int

    public init(moduleType: HomeModuleType, title: String, enabled: Bool, size: Int) {
        self.moduleType = moduleType
        self.title = title
        self.enabled = enabled
        self.size = size
    }
}
