import Foundation
import MusicCore
import Storage

/// The home screen: which modules show in what order (the administrator's choice, then each person's own),
/// and what each holds, built from the library, the sheets, the ads and the person's plays.
///
/// Answering is cheap because each module is kept in memory as the JSON it is sent as, shared by everyone
/// where it is not personal: the banner until an ad starts, stops or changes; hot sheets, new albums,
/// videos and categories for a minute (rebuilt in the background while the old copy is answered);
/// recommended songs per set of genres for five minutes; a person's recently played and sheets for them
/// until they play something; their songs of the day for the day; their radio's first songs for ten
/// minutes. A request joins the kept pieces; its ETag is made of theirs.
final class HomeService: Sendable {
    let database: Database
    let store = HomeStore()
    let catalog = Catalog()
    let sheets = SheetReads()
    let ads = AdReads()
    let categories: CategoryService
    let recommendations: RecommendationService
    let videos: VideoService
    let shop: ShopService
    let podcasts: PodcastService
    let clock: @Sendable () -> Double

    /// One module as it is sent.
    struct Rendered: Sendable {
        var json: Data
        var etag: String
    }

    /// What a kept module's content depends on.
    enum ModuleKey: Hashable, Sendable {
        /// The same for everyone.
        case shared(HomeModuleType)
        /// Recommended songs for people who play these genres (none: for everyone else).
        case genres([Int64])
        /// A person's recently played, as of their last play.
        case recent(userID: Int64, lastPlayed: LastPlayed)
        /// Sheets for a person, as of their last play.
        case sheetsFor(userID: Int64, lastPlayed: LastPlayed)
        /// A person's songs of the day.
        case daily(userID: Int64, day: String)
        /// The first songs of a person's radio.
        case radio(userID: Int64)
    }

    /// A person's last play: its second, and how many songs they played in it.
    struct LastPlayed: Hashable, Sendable {
        var time: Int64
        var songs: Int
    }

    /// How the administrator shows a module.
    struct Setting: Sendable, Equatable {
        var type: HomeModuleType
        var enabled: Bool
        var title: String?
        var size: Int
        var shownTitle: String { title ?? type.defaultTitle }
    }

    private let settingsCache = ExpiringCache<Int, [Setting]>(capacity: 1)
    private let layouts = ExpiringCache<Int64, [HomeStore.LayoutRow]>(capacity: 50_000)
    private let modules = ExpiringCache<ModuleKey, Rendered?>(capacity: 50_000)
    private let genres = ExpiringCache<Int64, [Int64]>(capacity: 50_000)

    static let sharedLifetime: Double = 60
    static let emptyLifetime: Double = 5
    static let recommendationLifetime: Double = 300
    static let personalLifetime: Double = 600
    static let maxSize = 30

    init(
        database: Database, categories: CategoryService, recommendations: RecommendationService,
        videos: VideoService, shop: ShopService, podcasts: PodcastService,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.database = database
        self.categories = categories
        self.recommendations = recommendations
        self.videos = videos
        self.shop = shop
        self.podcasts = podcasts
        self.clock = clock
    }

    // MARK: The home screen

    /// The modules `viewer` sees, in their order, empty ones left out.
    func home(viewer: Viewer?) throws -> PreparedAnswer<[HomeModule]> {
        var shown = try settings().filter(\.enabled)
        if let viewer {
            shown = Self.arrange(shown, by: try layout(userID: viewer.userID)).filter { !$0.hidden }.map(
                \.setting)
        }
        // What the person's own modules depend on, read once for all of them.
        let lastPlayed = try viewer.flatMap { viewer in
            try database.read { db in try store.lastPlayed(db, userID: viewer.userID) }
        }
        var json = Data("[".utf8)
        var tags = ""
        for setting in shown {
            guard let module = try module(setting, viewer: viewer, lastPlayed: lastPlayed) else { continue }
            if json.count > 1 { json.append(UInt8(ascii: ",")) }
            json.append(module.json)
            tags += module.etag
        }
        json.append(UInt8(ascii: "]"))
        return PreparedAnswer(json: json, etag: PreparedAnswer<[HomeModule]>.tag(Data(tags.utf8)))
    }

    /// One module for `viewer`, or nil when it has nothing to show.
    private func module(_ setting: Setting, viewer: Viewer?, lastPlayed: LastPlayed?) throws -> Rendered? {
        let size = setting.size
        let title = setting.shownTitle
        switch setting.type {
        case .banner:
            return try modules.value(.shared(.banner), serveStale: false) { [self] in
                let now = Int64(clock())
                let (banner, next) = try database.read { db in
                    (
                        try ads.ads(
                            db, position: AdPosition.banner.rawValue, showingAt: now,
                            paging: Paging(page: 1, size: size)),
                        try ads.nextChange(db, position: AdPosition.banner.rawValue, after: now)
                    )
                }
                // Until the next ad starts or stops, and at most a minute.
                let until = min(next ?? now + 60, now + 60)
                return (try Self.render(title, .banner(banner), more: nil), Double(until))
            }
        case .hotSheets:
            return try shared(.hotSheets) { [self] in
                let page = try database.read { db in
                    try sheets.publicSheets(
                        db, order: .hot, tag: nil, paging: Paging(page: 1, size: size), viewerID: nil)
                }
                return try Self.render(
                    title, .hotSheets(page.data),
                    more: Self.address(SheetsAPI.list, SheetListQuery(order: .hot)))
            }
        case .recommendedSongs:
            return try recommendedSongs(for: viewer, title: title, limit: size)
        case .newAlbums:
            return try shared(.newAlbums) { [self] in
                let page = try database.read { db in
                    try catalog.albums(db, artistID: nil, sort: .recent, paging: Paging(page: 1, size: size))
                }
                return try Self.render(
                    title, .newAlbums(page.data),
                    more: Self.address(CatalogAPI.albums, AlbumListQuery(sort: .recent)))
            }
        case .categories:
            return try shared(.categories) { [self] in
                try Self.render(
                    title, .categories(Array(try categories.all().prefix(size))),
                    more: Self.address(CategoriesAPI.list, CategoryListQuery()))
            }
        case .recentlyPlayed:
            guard let viewer, let lastPlayed else { return nil }
            return try modules.value(.recent(userID: viewer.userID, lastPlayed: lastPlayed)) { [self] in
                let songs = try database.read { db in
                    try catalog.songs(
                        db, ids: try store.recentSongIDs(db, userID: viewer.userID, limit: size))
                }
                return (
                    try Self.render(
                        title, .recentlyPlayed(songs),
                        more: Self.address(SheetsAPI.history, HistoryQuery(order: .recent))),
                    clock() + Self.personalLifetime
                )
            }
        case .videos:
            return try shared(.videos) { [self] in
                let page = try videos.videos(order: .hot, paging: Paging(page: 1, size: size), viewer: nil)
                return try Self.render(
                    title, .videos(page.data), more: Self.address(VideosAPI.list, VideoListQuery(order: .hot))
                )
            }
        case .products:
            return try shared(.products) { [self] in
                let page = try shop.products(search: nil, paging: Paging(page: 1, size: size))
                return try Self.render(
                    title, .products(page.data), more: Self.address(ShopAPI.products, ProductQuery()))
            }
        case .continueListening:
            // Places change with every pause: read each time (an indexed page), never kept.
            guard let viewer else { return nil }
            let page = try podcasts.continueListening(paging: Paging(page: 1, size: size), viewer: viewer)
            return try Self.render(
                title, .continueListening(page.data), more: PodcastsAPI.continueListening.uri(NoPath()))
        case .newEpisodes:
            guard let viewer else { return nil }
            let page = try podcasts.newEpisodes(paging: Paging(page: 1, size: size), viewer: viewer)
            return try Self.render(
                title, .newEpisodes(page.data), more: PodcastsAPI.newEpisodes.uri(NoPath()))
        case .dailySongs:
            guard let viewer else { return nil }
            let day = recommendations.day(of: Int64(clock())).day
            return try modules.value(.daily(userID: viewer.userID, day: day)) { [self] in
                let songs = try recommendations.daily(viewer: viewer).songs
                return (
                    try Self.render(
                        title, .dailySongs(Array(songs.prefix(size))),
                        more: RecommendationsAPI.daily.uri(NoPath())),
                    clock() + Self.personalLifetime
                )
            }
        case .personalRadio:
            guard let viewer else { return nil }
            return try modules.value(.radio(userID: viewer.userID)) { [self] in
                let songs = try recommendations.radio(count: min(size, 3), viewer: viewer)
                return (
                    try Self.render(
                        title, .personalRadio(songs), more: RecommendationsAPI.radio.uri(NoPath())),
                    clock() + Self.personalLifetime
                )
            }
        case .recommendedSheets:
            guard let viewer, let lastPlayed else { return nil }
            return try modules.value(.sheetsFor(userID: viewer.userID, lastPlayed: lastPlayed)) { [self] in
                let found = try database.read { db in
                    let ids = try store.sheetsHoldingRecentSongs(db, userID: viewer.userID, limit: size)
                    let records = try sheets.sheets(db, ids: ids, viewerID: nil)
                    return ids.compactMap { id in records.first { $0.id == id }?.model(signedIn: false) }
                }
                return (
                    try Self.render(title, .recommendedSheets(found), more: nil),
                    clock() + Self.personalLifetime
                )
            }
        }
    }

    /// The songs of the recommended row for `viewer`: for now, the most played songs of the three genres
    /// the person plays most, or the most played songs of the library for a visitor or someone who has
    /// played nothing. Personal recommendations (issue 16, item 4) take the place of this one function.
    func recommendedSongs(for viewer: Viewer?, title: String, limit: Int) throws -> Rendered? {
        let genreIDs: [Int64] =
            try viewer.map { viewer in
                try genres.value(viewer.userID) { [self] in
                    (
                        try database.read { db in try store.topGenres(db, userID: viewer.userID, limit: 3) }
                            .sorted(),
                        clock() + Self.recommendationLifetime
                    )
                }
            } ?? []
        return try modules.value(.genres(genreIDs)) { [self] in
            let songs = try database.read { db in
                try catalog.songs(db, ids: try store.mostPlayedSongIDs(db, genreIDs: genreIDs, limit: limit))
            }
            return (
                try Self.render(title, .recommendedSongs(songs), more: nil),
                clock() + Self.recommendationLifetime
            )
        }
    }

    /// A module that is the same for everyone, kept for a minute (an empty one for a few seconds, so that the
    /// first sheets and albums of a new install show soon).
    private func shared(_ type: HomeModuleType, build: @escaping @Sendable () throws -> Rendered?) throws
        -> Rendered?
    {
        try modules.value(.shared(type)) { [self] in
            let module = try build()
            return (module, clock() + (module == nil ? Self.emptyLifetime : Self.sharedLifetime))
        }
    }

    /// The module as JSON, or nil when it holds nothing.
    static func render(_ title: String, _ content: HomeContent, more: String?) throws -> Rendered? {
        guard content.count > 0 else { return nil }
        let answer = try PreparedAnswer(HomeModule(title: title, content: content, more: more))
        return Rendered(json: answer.json, etag: answer.etag)
    }

    /// An endpoint's address with a query, relative to the server root, as `more` links are written.
    static func address<Q: APIParameters>(
        _ endpoint: Endpoint<NoPath, Q, NoBody, some Sendable, some AccessLevel>, _ query: Q
    )
        -> String
    {
        let items = query.items().filter { item in
            Q.fields.first { $0.name == item.name }.map { $0.text(Q()) != item.value } ?? true
        }
        let text = items.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return endpoint.uri(NoPath()) + (text.isEmpty ? "" : "?" + text)
    }

    /// Forgets the banner, after an ad changed.
    func forgetBanner() { modules.invalidate(.shared(.banner)) }

    // MARK: Settings and layouts

    /// Every module type with the administrator's settings, in their order.
    func settings() throws -> [Setting] {
        try settingsCache.value(0) { [self] in
            let rows = try database.read { db in try store.settings(db) }
            return (Self.settings(from: rows), clock() + 3_600)
        }
    }

    /// The saved rows in order, then every type without a row (one added later) with its defaults.
    static func settings(from rows: [HomeStore.SettingRow]) -> [Setting] {
        var settings = rows.compactMap { row in
            HomeModuleType(rawValue: row.moduleType).map {
                Setting(type: $0, enabled: row.enabled, title: row.title, size: row.size)
            }
        }
        for type in HomeModuleType.allCases where !settings.contains(where: { $0.type == type }) {
            settings.append(Setting(type: type, enabled: true, title: nil, size: type == .categories ? 8 : 6))
        }
        return settings
    }

    func adminSettings() throws -> [HomeModuleSetting] { try settings().map(Self.model) }

    /// Saves the administrator's choice: the listed modules first in that order, the others after them as
    /// they were.
    func saveSettings(_ draft: HomeSettingsDraft) throws -> [HomeModuleSetting] {
        let current = try settings()
        var listed: [Setting] = []
        for entry in draft.modules {
            let type = try Self.moduleType(entry.moduleType)
            guard !listed.contains(where: { $0.type == type }) else {
                throw ServiceError.invalid("'\(type.rawValue)' is listed twice. List each module once.")
            }
            var setting = current.first { $0.type == type }!
            setting.enabled = entry.enabled
            setting.title = try TextPolicy.check(entry.title, field: "A module's title", limit: 40)
            if let size = entry.size {
                guard (1...Self.maxSize).contains(size) else {
                    throw ServiceError.invalid("'size' must be a whole number from 1 to \(Self.maxSize).")
                }
                setting.size = size
            }
            listed.append(setting)
        }
        let all = listed + current.filter { old in !listed.contains { $0.type == old.type } }
        try database.write { db in
            try store.saveSettings(
                db,
                all.map {
                    HomeStore.SettingRow(
                        moduleType: $0.type.rawValue, enabled: $0.enabled, title: $0.title, size: $0.size)
                })
        }
        settingsCache.invalidateAll()
        modules.invalidateAll()
        return all.map(Self.model)
    }

    /// A person's layout: every module the administrator shows, in the person's order, hidden ones too.
    func layout(viewer: Viewer) throws -> HomeLayout {
        let rows = try layout(userID: viewer.userID)
        let arranged = Self.arrange(try settings().filter(\.enabled), by: rows)
        return HomeLayout(
            modules: arranged.map {
                HomeLayoutEntry(moduleType: $0.setting.type, title: $0.setting.shownTitle, hidden: $0.hidden)
            },
            customized: !rows.isEmpty)
    }

    /// Saves a person's order and hidden modules.
    func saveLayout(_ draft: HomeLayoutDraft, viewer: Viewer) throws -> HomeLayout {
        let enabled = try settings().filter(\.enabled)
        var rows: [HomeStore.LayoutRow] = []
        for choice in draft.modules {
            let type = try Self.moduleType(choice.moduleType)
            guard enabled.contains(where: { $0.type == type }) else {
                throw ServiceError.invalid(
                    "'\(type.rawValue)' is not on the home screen now, so it cannot be placed. "
                        + "Shown now: \(enabled.map(\.type.rawValue).joined(separator: ", ")).")
            }
            guard !rows.contains(where: { $0.moduleType == type.rawValue }) else {
                throw ServiceError.invalid("'\(type.rawValue)' is listed twice. List each module once.")
            }
            rows.append(HomeStore.LayoutRow(moduleType: type.rawValue, hidden: choice.hidden ?? false))
        }
        try database.write { db in try store.saveLayout(db, userID: viewer.userID, rows) }
        layouts.invalidate(viewer.userID)
        return try layout(viewer: viewer)
    }

    func resetLayout(viewer: Viewer) throws -> HomeLayout {
        try database.write { db in try store.saveLayout(db, userID: viewer.userID, []) }
        layouts.invalidate(viewer.userID)
        return try layout(viewer: viewer)
    }

    private func layout(userID: Int64) throws -> [HomeStore.LayoutRow] {
        try layouts.value(userID) { [self] in
            (try database.read { db in try store.layout(db, userID: userID) }, clock() + 3_600)
        }
    }

    /// `settings` in a person's order: the modules of `rows` first as they listed them, then the others in
    /// the administrator's order.
    static func arrange(_ settings: [Setting], by rows: [HomeStore.LayoutRow]) -> [(
        setting: Setting, hidden: Bool
    )] {
        var arranged: [(setting: Setting, hidden: Bool)] = []
        for row in rows {
            if let setting = settings.first(where: { $0.type.rawValue == row.moduleType }) {
                arranged.append((setting, row.hidden))
            }
        }
        for setting in settings where !rows.contains(where: { $0.moduleType == setting.type.rawValue }) {
            arranged.append((setting, false))
        }
        return arranged
    }

    static func moduleType(_ text: String) throws -> HomeModuleType {
        guard let type = HomeModuleType(rawValue: text) else {
            throw ServiceError.invalid(
                "'\(text)' is not a home module. The modules are: "
                    + "\(HomeModuleType.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return type
    }

    static func model(_ setting: Setting) -> HomeModuleSetting {
        HomeModuleSetting(
            moduleType: setting.type, title: setting.shownTitle, enabled: setting.enabled, size: setting.size)
    }
}
