/// Personal recommendations: the daily songs, the personal radio, similar songs and sheets, and "not
/// interested". Built from which songs share sheets, "I like" sheets and listening sessions, with a fallback by
/// artist, genre and year for new people and new songs.
public enum RecommendationsAPI {
    public static let daily = Endpoint<NoPath, NoQuery, NoBody, DailySongs, SignedIn>(
        "daily", .GET, "/v1/recommendations/songs",
        "One's 30 songs of the day: the same all day, new at the server's midnight; never a song one is not "
            + "interested in or played in the last day")
    public static let radio = Endpoint<NoPath, RadioQuery, NoBody, [Song], SignedIn>(
        "radio", .GET, "/v1/radio/next",
        "The next songs of one's personal radio, an endless mix of new and favourite songs; never a song one "
            + "is not interested in or played in the last day")
    public static let similarSongs = Endpoint<IDPath<Song>, SimilarQuery, NoBody, [Song], OptionalSignIn>(
        "similarSongs", .GET, "/v1/songs/{id}/similar",
        "Songs like this one: those people put in the same sheets and play in the same sittings, then the same "
            + "artist, album and genre",
        resource: "song")
    public static let similarSheets = Endpoint<IDPath<Sheet>, SimilarQuery, NoBody, [Sheet], OptionalSignIn>(
        "similarSheets", .GET, "/v1/sheets/{id}/similar",
        "Public sheets like this one: those sharing most songs, then tags", resource: "sheet")
    public static let dislikes = Endpoint<NoPath, PageQuery, NoBody, Page<Song>, SignedIn>(
        "dislikes", .GET, "/v1/recommendations/dislikes",
        "Songs one said one is not interested in, newest first")
    public static let dislike = Endpoint<NoPath, NoQuery, SongReference, Done, SignedIn>(
        "dislike", .POST, "/v1/recommendations/dislikes",
        "Not interested: the song is never recommended to one again (nor on today's list)", idempotent: true,
        refusals: [.notFound])
    public static let undislike = Endpoint<IDPath<Song>, NoQuery, NoBody, Done, SignedIn>(
        "undislike", .DELETE, "/v1/recommendations/dislikes/{id}",
        "Take back \"not interested\" (the path holds the song's id)", resource: "song", idempotent: true)

    public static let group = APIGroup(
        "recommendations", "Daily songs, personal radio, similar songs and sheets, and \"not interested\"",
        [daily, radio, similarSongs, similarSheets, dislikes, dislike, undislike])
}

public struct RadioQuery: APIParameters, Equatable {
    public var count = 10
    public init() {}
    public init(count: Int) { self.count = count }
    public static let fields: [ParameterField<Self>] = [
        .integer("count", \.count, in: 1...50, aliases: ["size"], doc: "How many songs.")
    ]
}

public struct SimilarQuery: APIParameters, Equatable {
    public var size = 20
    public init() {}
    public init(size: Int) { self.size = size }
    public static let fields: [ParameterField<Self>] = [
        .integer("size", \.size, in: 1...50, doc: "At most this many.")
    ]
}

/// A song named in a body.
public struct SongReference: Codable, Sendable, Equatable {
    public var songId: ID<Song>
    public init(songId: ID<Song>) { self.songId = songId }
}

/// One's songs of the day.
public struct DailySongs: Codable, Sendable, Equatable {
    /// The day (`yyyy-MM-dd`) in the server's time zone.
    public var date: String
    /// The server's time zone (an IANA name such as `Asia/Shanghai`), whose midnight starts a new list.
    public var timeZone: String
    /// When the next list is made (ISO 8601).
    public var refreshesAt: String
    public var songs: [Song]

    public init(date: String, timeZone: String, refreshesAt: String, songs: [Song]) {
        self.date = date
        self.timeZone = timeZone
        self.refreshesAt = refreshesAt
        self.songs = songs
    }
}
