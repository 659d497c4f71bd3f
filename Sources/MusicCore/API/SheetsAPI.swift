/// Each person's music: sheets (playlists) and their songs, "I like", collections, play history and the
/// play queue that follows a person between devices.
public enum SheetsAPI {
    public static let list = Endpoint<NoPath, SheetListQuery, NoBody, Page<Sheet>, OptionalSignIn>(
        "list", .GET, "/v1/sheets",
        "Public sheets, newest or most collected first; `tag` picks those with a tag")
    public static let search = Endpoint<NoPath, SheetSearchQuery, NoBody, Page<Sheet>, OptionalSignIn>(
        "search", .GET, "/v1/searches/sheets", "Public sheets whose title or tags match, best first")
    public static let create = Endpoint<NoPath, NoQuery, SheetDraft, Sheet, SignedIn>(
        "create", .POST, "/v1/sheets", "Create a sheet", status: 201, refusals: [.conflict])
    public static let importM3U = Endpoint<NoPath, SheetImportQuery, TextBody, SheetImport, SignedIn>(
        "importM3U", .POST, "/v1/sheets/import",
        "Create a sheet from an M3U playlist, matching entries by stream address, path or \"Artist - Title\"",
        status: 201, refusals: [.conflict])
    public static let detail = Endpoint<IDPath<Sheet>, SheetDetailQuery, NoBody, Sheet, OptionalSignIn>(
        "detail", .GET, "/v1/sheets/{id}",
        "A sheet with its first songs; a view by anyone but its owner counts as a click", resource: "sheet")
    public static let update = Endpoint<IDPath<Sheet>, NoQuery, SheetDraft, Sheet, SignedIn>(
        "update", .PATCH, "/v1/sheets/{id}", "Change one's sheet; fields left out stay as they are",
        resource: "sheet", refusals: [.forbidden])
    public static let delete = Endpoint<IDPath<Sheet>, NoQuery, NoBody, Done, SignedIn>(
        "delete", .DELETE, "/v1/sheets/{id}", "Delete one's sheet (not the \"I like\" sheet)",
        resource: "sheet",
        refusals: [.forbidden, .invalid])
    public static let cover = Endpoint<IDPath<Sheet>, NoQuery, NoBody, Picture, OptionalSignIn>(
        "cover", .GET, "/v1/sheets/{id}/cover", "The sheet's own cover (256x256 JPEG)", resource: "sheet")
    public static let uploadCover = Endpoint<IDPath<Sheet>, NoQuery, Upload, Sheet, SignedIn>(
        "uploadCover", .POST, "/v1/sheets/{id}/cover",
        "Set one's sheet's cover from a JPEG, PNG or WebP picture",
        resource: "sheet", refusals: [.forbidden, .unavailable])
    public static let deleteCover = Endpoint<IDPath<Sheet>, NoQuery, NoBody, Sheet, SignedIn>(
        "deleteCover", .DELETE, "/v1/sheets/{id}/cover", "Remove one's sheet's cover", resource: "sheet",
        refusals: [.forbidden])
    public static let m3u = Endpoint<IDPath<Sheet>, NoQuery, NoBody, PlaylistFile, OptionalSignIn>(
        "m3u", .GET, "/v1/sheets/{id}/m3u", "The sheet as an extended M3U playlist", resource: "sheet")

    public static let songs = Endpoint<IDPath<Sheet>, SheetSongsQuery, NoBody, Page<Song>, OptionalSignIn>(
        "songs", .GET, "/v1/sheets/{id}/songs", "A page of the sheet's songs, in order", resource: "sheet")
    public static let addSongs = Endpoint<IDPath<Sheet>, NoQuery, SongIDs, Sheet, SignedIn>(
        "addSongs", .POST, "/v1/sheets/{id}/relations",
        "Add songs to one's sheet (to the end; to the top of \"I like\"); songs already there are skipped",
        resource: "sheet", refusals: [.forbidden, .conflict])
    public static let removeSongs = Endpoint<IDPath<Sheet>, RemoveSongsQuery, NoBody, Sheet, SignedIn>(
        "removeSongs", .DELETE, "/v1/sheets/{id}/relations", "Remove songs from one's sheet",
        resource: "sheet", refusals: [.forbidden])
    public static let removeSong = Endpoint<SheetSongPath, NoQuery, NoBody, Sheet, SignedIn>(
        "removeSong", .DELETE, "/v1/sheets/{id}/relations/{songId}", "Remove one song from one's sheet",
        resource: "sheet", refusals: [.forbidden])
    public static let moveSong = Endpoint<SheetSongPath, NoQuery, SongMove, Sheet, SignedIn>(
        "moveSong", .PATCH, "/v1/sheets/{id}/relations/{songId}",
        "Move a song of one's sheet to a position (0 is first)", resource: "sheet", refusals: [.forbidden])
    public static let likeSong = Endpoint<IDPath<Song>, NoQuery, NoBody, Sheet, SignedIn>(
        "likeSong", .PUT, "/v1/songs/{id}/like", "Put a song at the top of one's \"I like\" sheet",
        resource: "song", idempotent: true)
    public static let unlikeSong = Endpoint<IDPath<Song>, NoQuery, NoBody, Sheet, SignedIn>(
        "unlikeSong", .DELETE, "/v1/songs/{id}/like", "Take a song out of one's \"I like\" sheet",
        resource: "song", idempotent: true)

    public static let created = Endpoint<IDPath<User>, PageQuery, NoBody, Page<Sheet>, OptionalSignIn>(
        "created", .GET, "/v1/users/{id}/create",
        "Sheets a person made, \"I like\" first (private ones only to their owner)", resource: "user")
    public static let collected = Endpoint<IDPath<User>, PageQuery, NoBody, Page<Sheet>, OptionalSignIn>(
        "collected", .GET, "/v1/users/{id}/collect", "Sheets a person collected, newest first",
        resource: "user")
    public static let collect = Endpoint<NoPath, NoQuery, SheetReference, Sheet, SignedIn>(
        "collect", .POST, "/v1/collections", "Collect someone else's sheet", status: 201,
        refusals: [.notFound])
    public static let uncollect = Endpoint<IDPath<Sheet>, NoQuery, NoBody, Done, SignedIn>(
        "uncollect", .DELETE, "/v1/collections/{id}",
        "Stop collecting a sheet (the path holds the sheet's id)",
        resource: "sheet")

    public static let reportPlay = Endpoint<NoPath, NoQuery, PlayDraft, PlayReport, SignedIn>(
        "reportPlay", .POST, "/v1/plays",
        "Count a play in one's history; the same song within 30 seconds counts once", status: 201,
        refusals: [.notFound])
    public static let history = Endpoint<NoPath, HistoryQuery, NoBody, Page<PlayedSong>, SignedIn>(
        "history", .GET, "/v1/plays", "One's play history, most recent or most played first")
    public static let clearHistory = Endpoint<NoPath, NoQuery, NoBody, Done, SignedIn>(
        "clearHistory", .DELETE, "/v1/plays", "Forget one's play history")
    public static let queue = Endpoint<NoPath, NoQuery, NoBody, PlayQueue, SignedIn>(
        "queue", .GET, "/v1/queue", "One's play queue, as last saved from any device")
    public static let saveQueue = Endpoint<NoPath, NoQuery, QueueDraft, PlayQueue, SignedIn>(
        "saveQueue", .PUT, "/v1/queue",
        "Save one's play queue; with `baseVersion`, a queue saved meanwhile elsewhere is refused (409)",
        refusals: [.conflict])

    public static let group = APIGroup(
        "sheets", "Sheets (playlists), \"I like\", collections, play history and the play queue",
        [
            list, search, create, importM3U, detail, update, delete, cover, uploadCover, deleteCover, m3u,
            songs,
            addSongs, removeSongs, removeSong, moveSong, likeSong, unlikeSong, created, collected, collect,
            uncollect, reportPlay, history, clearHistory, queue, saveQueue,
        ])
}

// MARK: - Parameters

/// `/v1/sheets/{id}/relations/{songId}`.
public struct SheetSongPath: APIParameters, Equatable {
    public var id = ID<Sheet>.unread
    public var songId = ID<Song>.unread
    public init() {}
    /// Ids as models carry them: text that is not an id is refused here, before anything is sent.
    public init(sheet: String, song: String) throws {
        id = try ID(validating: sheet, field: "id")
        songId = try ID(validating: song, field: "songId")
    }
    public static let fields: [ParameterField<Self>] = [
        .id("id", \.id), .id("songId", \.songId, thing: "song"),
    ]
}

/// How public sheets are ordered.
public enum SheetOrder: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// Newest first.
    case new
    /// Most collected first.
    case hot
}

public struct SheetListQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var order = SheetOrder.new
    public var tag: String?
    public init() {}
    public init(order: SheetOrder, tag: String? = nil, page: Int = 1, size: Int = 20) {
        self.order = order
        self.tag = tag
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        Paging.fields(\.paging) + [
            .choice("order", \.order),
            .text("tag", \.tag, maxLength: 20, doc: "Only sheets with this tag (letter case ignored)."),
        ]
}

public struct SheetSearchQuery: APIParameters, Equatable {
    public var query = ""
    public var paging = Paging()
    public init() {}
    public init(_ text: String, page: Int = 1, size: Int = 20) {
        query = text
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] =
        [.text("query", \.query, maxLength: 100, aliases: ["q"], required: true, doc: "What to look for.")]
        + Paging.fields(\.paging)
}

public struct SheetDetailQuery: APIParameters, Equatable {
    public var songs = 100
    public init() {}
    public init(songs: Int) { self.songs = songs }
    public static let fields: [ParameterField<Self>] = [
        .integer("songs", \.songs, in: 0...1_000, doc: "How many of the first songs to include.")
    ]
}

public struct SheetSongsQuery: APIParameters, Equatable {
    public var paging = Paging(size: 50)
    public init() {}
    public init(page: Int, size: Int = 50) { paging = Paging(page: page, size: size) }
    public static let fields: [ParameterField<Self>] = Paging.fields(\.paging, maxSize: 500)
}

public struct RemoveSongsQuery: APIParameters, Equatable {
    public var songIds: [Int64] = []
    public init() {}
    public init(_ songIDs: [String]) throws {
        songIds = try songIDs.map { try ID<Song>(validating: $0, field: "songIds").rawValue }
    }
    public static let fields: [ParameterField<Self>] = [
        .ids("songIds", \.songIds, max: SongIDs.maxSongs, doc: "The songs to remove.")
    ]
}

public struct SheetImportQuery: APIParameters, Equatable {
    public var title: String?
    public var isPrivate = false
    public init() {}
    public init(title: String?, isPrivate: Bool) {
        self.title = title
        self.isPrivate = isPrivate
    }
    public static let fields: [ParameterField<Self>] = [
        .text(
            "title", \.title, maxLength: 100, doc: "The new sheet's title (default \"Imported playlist\")."),
        .flag("private", \.isPrivate, doc: "Make the new sheet private."),
    ]
}

/// Which history order.
public enum HistoryOrder: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// Most recently played first.
    case recent
    /// Most played first.
    case most
}

public struct HistoryQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var order = HistoryOrder.recent
    public init() {}
    public init(order: HistoryOrder, page: Int = 1, size: Int = 20) {
        self.order = order
        paging = Paging(page: page, size: size)
    }
    public static let fields: [ParameterField<Self>] = Paging.fields(\.paging) + [.choice("order", \.order)]
}

// MARK: - Bodies

/// A sheet's fields to create or change; nil fields are left out (on a change: left as they are).
public struct SheetDraft: Codable, Sendable, Equatable {
    public var title: String?
    public var detail: String?
    public var tags: [String]?
    public var isPrivate: Bool?

    public init(title: String? = nil, detail: String? = nil, tags: [String]? = nil, isPrivate: Bool? = nil) {
        self.title = title
        self.detail = detail
        self.tags = tags
        self.isPrivate = isPrivate
    }
}

/// Songs to add to a sheet.
public struct SongIDs: Codable, Sendable, Equatable {
    public var songIds: [ID<Song>]
    public init(_ songIds: [ID<Song>]) { self.songIds = songIds }
}

/// Where to move a song in a sheet (0 is first; past the end is last).
public struct SongMove: Codable, Sendable, Equatable {
    public var position: Int
    public init(position: Int) { self.position = position }
}

/// A sheet named in a body.
public struct SheetReference: Codable, Sendable, Equatable {
    public var sheetId: ID<Sheet>
    public init(sheetId: ID<Sheet>) { self.sheetId = sheetId }
}

/// A play to count.
public struct PlayDraft: Codable, Sendable, Equatable {
    public var songId: ID<Song>
    public init(songId: ID<Song>) { self.songId = songId }
}

/// The play queue to save.
public struct QueueDraft: Codable, Sendable, Equatable {
    public var songIds: [ID<Song>]
    public var currentIndex: Int?
    /// Milliseconds into the current song.
    public var position: Int?
    public var loopMode: LoopMode?
    /// The version this queue was based on: the save is refused (409) when the server's is newer.
    /// Nil overwrites whatever is there.
    public var baseVersion: Int?

    public init(
        songIds: [ID<Song>], currentIndex: Int? = nil, position: Int = 0, loopMode: LoopMode = .list,
        baseVersion: Int? = nil
    ) {
        self.songIds = songIds
        self.currentIndex = currentIndex
        self.position = position
        self.loopMode = loopMode
        self.baseVersion = baseVersion
    }
}

extension LoopMode: SchemaEnum {}

extension SongIDs: LimitedBody {
    /// The most songs one request adds or removes.
    public static let maxSongs = 1_000
    public static let limits: [FieldLimit<Self>] = [
        .count(
            "songIds", \.songIds, max: maxSongs, min: 1,
            tooMany: ServiceError.invalid("Send at most \(maxSongs) songs at a time."),
            tooFew: ServiceError.invalid("Name at least one song in 'songIds'."))
    ]
}

extension QueueDraft: LimitedBody {
    /// A queue is ids: as many as a large library holds ("play all" on 100,000 songs).
    public static let maxSongs = 100_000
    public static let limits: [FieldLimit<Self>] = [
        .count(
            "songIds", \.songIds, max: maxSongs,
            tooMany: ServiceError.invalid("A play queue can hold at most \(maxSongs) songs."))
    ]
}

extension SheetDraft: LimitedBody {
    public static let titleText = WrittenText(field: "The title", limit: 100)
    public static let detailText = WrittenText(field: "The description", limit: 2_000, lines: .many)
    public static let limits: [FieldLimit<Self>] = [
        .text("title", \.title, titleText), .text("detail", \.detail, detailText),
    ]
}
