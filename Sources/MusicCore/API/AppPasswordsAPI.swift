/// App passwords: secrets a person makes for one device's Subsonic app (our own passwords are argon2id hashes,
/// which cannot answer Subsonic's `md5(password + salt)` tokens). Each is shown once, named after its device,
/// listed and revoked here; it works as `p`, as the base of `t`+`s` tokens and as an `apiKey` at `/rest`.
public enum AppPasswordsAPI {
    public static let create = Endpoint<IDPath<User>, NoQuery, AppPasswordDraft, NewAppPassword, SignedIn>(
        "create", .POST, "/v1/users/{id}/app_passwords",
        "Make an app password for one of one's devices; the answer is the only time it is shown", status: 201,
        resource: "user", refusals: [.forbidden, .conflict])
    public static let list = Endpoint<IDPath<User>, NoQuery, NoBody, [AppPassword], SignedIn>(
        "list", .GET, "/v1/users/{id}/app_passwords",
        "One's app passwords (names and dates, never the secrets)",
        resource: "user", refusals: [.forbidden])
    public static let revoke = Endpoint<AppPasswordPath, NoQuery, NoBody, Done, SignedIn>(
        "revoke", .DELETE, "/v1/users/{id}/app_passwords/{passwordId}",
        "Revoke one of one's app passwords: the app using it is signed out at once", resource: "user",
        refusals: [.forbidden])

    public static let nowPlaying = Endpoint<IDPath<User>, NoQuery, NoBody, NowPlayingSetting, SignedIn>(
        "nowPlaying", .GET, "/v1/users/{id}/now_playing",
        "Who may see what one's Subsonic apps are playing (getNowPlaying); followers unless one chose",
        resource: "user", refusals: [.forbidden])
    public static let setNowPlaying = Endpoint<
        IDPath<User>, NoQuery, NowPlayingSetting, NowPlayingSetting, SignedIn
    >(
        "setNowPlaying", .PUT, "/v1/users/{id}/now_playing",
        "Choose who may see what one's Subsonic apps are playing: followers, everyone or nobody",
        resource: "user", idempotent: true, refusals: [.forbidden])

    public static let group = APIGroup(
        "appPasswords", "App passwords for Subsonic apps (the /rest API), and what those apps show of one",
        [create, list, revoke, nowPlaying, setNowPlaying])
}

/// `/v1/users/{id}/app_passwords/{passwordId}`.
public struct AppPasswordPath: APIParameters, Equatable {
    public var id = ID<User>.unread
    public var passwordId = ID<AppPassword>.unread
    public init() {}
    /// Ids as models carry them: text that is not an id is refused here, before anything is sent.
    public init(user: String, password: String) throws {
        id = try ID(validating: user, field: "id")
        passwordId = try ID(validating: password, field: "passwordId")
    }
    public static let fields: [ParameterField<Self>] = [
        .id("id", \.id), .id("passwordId", \.passwordId, thing: "app password"),
    ]
}

/// Who sees what one's Subsonic apps are playing, besides oneself.
public enum NowPlayingVisibility: String, Codable, Sendable, SchemaEnum {
    /// The people who follow one (the default).
    case followers
    case everyone
    case nobody
}

/// One's now-playing setting.
public struct NowPlayingSetting: Codable, Sendable, Equatable {
    public var visibility: NowPlayingVisibility
    public init(visibility: NowPlayingVisibility) { self.visibility = visibility }
}

/// What to call a new app password: the device or app it is for (1-64 characters).
public struct AppPasswordDraft: Codable, Sendable, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// An app password as listed: never its secret.
public struct AppPassword: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    /// When an app last signed in with it (to the minute), if ever.
    public var lastUsedAt: String?
    public var createdAt: String
    /// The same as `createdAt`: an app password never changes.
    public var updatedAt: String

    public init(id: String, name: String, lastUsedAt: String?, createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.lastUsedAt = lastUsedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A new app password with its secret, shown this once, and the username a Subsonic app signs in with.
public struct NewAppPassword: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    /// The secret: enter it as the password in the app (or use it as an API key).
    public var password: String
    /// The username for the app (the account's nickname; its email or phone work too).
    public var username: String
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, name: String, password: String, username: String, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.name = name
        self.password = password
        self.username = username
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
