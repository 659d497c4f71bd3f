/// The home screen: modules of banners, sheets, songs, albums and categories in the administrator's order,
/// which each person may change for themselves.
public enum HomeAPI {
    public static let home = Endpoint<NoPath, NoQuery, NoBody, [HomeModule], OptionalSignIn>(
        "home", .GET, "/v1/home",
        "The home screen's modules in order, empty ones left out; personal when signed in; sent with an ETag (304 to If-None-Match)"
    )
    public static let layout = Endpoint<NoPath, NoQuery, NoBody, HomeLayout, SignedIn>(
        "layout", .GET, "/v1/home/layout", "One's order of the home modules, hidden ones included")
    public static let saveLayout = Endpoint<NoPath, NoQuery, HomeLayoutDraft, HomeLayout, SignedIn>(
        "saveLayout", .PUT, "/v1/home/layout",
        "Set one's order of the home modules and which to hide; modules left out follow in the usual order")
    public static let resetLayout = Endpoint<NoPath, NoQuery, NoBody, HomeLayout, SignedIn>(
        "resetLayout", .DELETE, "/v1/home/layout", "Go back to the usual order of the home modules",
        idempotent: true)
    public static let settings = Endpoint<NoPath, NoQuery, NoBody, [HomeModuleSetting], Admin>(
        "settings", .GET, "/v1/admin/home", "see which home modules show, in what order")
    public static let saveSettings = Endpoint<NoPath, NoQuery, HomeSettingsDraft, [HomeModuleSetting], Admin>(
        "saveSettings", .PUT, "/v1/admin/home",
        "choose which home modules show, in what order, with what title and how many items")

    public static let group = APIGroup(
        "home", "The home screen's modules, one's own order of them, and their administration",
        [home, layout, saveLayout, resetLayout, settings, saveSettings])
}

/// One's order of the home modules: `modules` first to last (`moduleType` as in `HomeModuleType`).
public struct HomeLayoutDraft: Codable, Sendable, Equatable {
    public var modules: [Choice]

    public struct Choice: Codable, Sendable, Equatable {
        public var moduleType: String
        /// Hide the module from one's home (default false).
        public var hidden: Bool?
        public init(_ moduleType: HomeModuleType, hidden: Bool = false) {
            self.moduleType = moduleType.rawValue
            self.hidden = hidden
        }
        public init(moduleType: String, hidden: Bool?) {
            self.moduleType = moduleType
            self.hidden = hidden
        }
    }

    public init(modules: [Choice]) { self.modules = modules }
}

/// Every home module in the order to show them, each enabled or not.
public struct HomeSettingsDraft: Codable, Sendable, Equatable {
    public var modules: [Setting]

    public struct Setting: Codable, Sendable, Equatable {
        public var moduleType: String
        public var enabled: Bool
        /// The title to show; null or left out: the module's usual title.
        public var title: String?
        /// At most this many items (1-30); left out: as before.
        public var size: Int?
        public init(_ moduleType: HomeModuleType, enabled: Bool, title: String? = nil, size: Int? = nil) {
            self.moduleType = moduleType.rawValue
            self.enabled = enabled
            self.title = title
            self.size = size
        }
    }

    public init(modules: [Setting]) { self.modules = modules }
}
