/// Update checks: the newest version of each app, published by administrators.
public enum AppVersionsAPI {
    public static let latest = Endpoint<NoPath, AppUpdateQuery, NoBody, AppVersion?, OptionalSignIn>(
        "latest", .GET, "/v1/app_versions/latest",
        "The newest version for a platform when it is newer than the app's own (`data` is null when the app is up to date)"
    )
    public static let adminList = Endpoint<NoPath, AppVersionListQuery, NoBody, Page<AppVersion>, Admin>(
        "adminList", .GET, "/v1/admin/app_versions", "list the published versions, newest first")
    public static let publish = Endpoint<NoPath, NoQuery, AppVersionDraft, AppVersion, Admin>(
        "publish", .POST, "/v1/admin/app_versions", "publish a version of an app", status: 201,
        refusals: [.conflict])
    public static let update = Endpoint<IDPath<AppVersion>, NoQuery, AppVersionChange, AppVersion, Admin>(
        "update", .PATCH, "/v1/admin/app_versions/{id}",
        "change a published version's notes, address or whether it is forced", resource: "version")
    public static let delete = Endpoint<IDPath<AppVersion>, NoQuery, NoBody, Done, Admin>(
        "delete", .DELETE, "/v1/admin/app_versions/{id}", "withdraw a published version", resource: "version")

    public static let group = APIGroup(
        "appVersions", "Update checks and the published versions of the apps",
        [latest, adminList, publish, update, delete])
}

public struct AppUpdateQuery: APIParameters, Equatable {
    public var platform: AppPlatform?
    public var version = ""
    public init() {}
    public init(platform: AppPlatform, version: String) {
        self.platform = platform
        self.version = version
    }
    public static let fields: [ParameterField<Self>] = [
        .choice("platform", \.platform, required: true, doc: "The app's platform."),
        .text(
            "version", \.version, pattern: SemanticVersion.pattern,
            shape: LocalizedText("a version such as 1.2.3 (or 2.0.0-beta.1)"),
            maxLength: 64, required: true, doc: "The app's own version, a semantic version such as 1.2.3."),
    ]
}

public struct AppVersionListQuery: APIParameters, Equatable {
    public var platform: AppPlatform?
    public var paging = Paging()
    public init() {}
    public init(platform: AppPlatform?, page: Int = 1, size: Int = 20) {
        self.platform = platform
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [.choice("platform", \.platform, doc: "Only this platform's versions.")] + Paging.fields(\.paging)
}

/// A version to publish.
public struct AppVersionDraft: Codable, Sendable, Equatable {
    public var platform: AppPlatform
    /// A semantic version, such as 1.4.0.
    public var version: String
    public var build: Int
    public var notes: String?
    public var uri: String?
    public var force: Bool?

    public init(
        platform: AppPlatform, version: String, build: Int, notes: String? = nil, uri: String? = nil,
        force: Bool? = nil
    ) {
        self.platform = platform
        self.version = version
        self.build = build
        self.notes = notes
        self.uri = uri
        self.force = force
    }
}

/// Changes to a published version; fields left out stay, a null `uri` clears it.
public struct AppVersionChange: Codable, Sendable, Equatable {
    public var notes: String?
    public var uri: String??
    public var force: Bool?

    public init(notes: String? = nil, uri: String?? = nil, force: Bool? = nil) {
        self.notes = notes
        self.uri = uri
        self.force = force
    }

    enum CodingKeys: String, CodingKey {
        case notes, uri, force
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        notes = try container.decodeIfPresent(String.self, forKey: .notes)
        force = try container.decodeIfPresent(Bool.self, forKey: .force)
        if container.contains(.uri) {
            uri =
                try container.decodeNil(forKey: .uri)
                ? .some(nil) : .some(try container.decode(String.self, forKey: .uri))
        } else {
            uri = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(notes, forKey: .notes)
        try container.encodeIfPresent(force, forKey: .force)
        if let uri {
            if let uri {
                try container.encode(uri, forKey: .uri)
            } else {
                try container.encodeNil(forKey: .uri)
            }
        }
    }
}

extension AppVersionDraft: LimitedBody {
    public static let notesText = WrittenText(field: "The notes", limit: 5_000, lines: .many)
    public static let limits: [FieldLimit<Self>] = [.text("notes", \.notes, notesText)]
}

extension AppVersionChange: LimitedBody {
    public static let limits: [FieldLimit<Self>] = [.text("notes", \.notes, AppVersionDraft.notesText)]
}
