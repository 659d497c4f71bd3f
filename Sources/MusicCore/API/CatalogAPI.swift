/// The library: songs, albums, artists, genres, search, lyrics, covers, streams and scans.
public enum CatalogAPI {
    public static let songs = Endpoint<NoPath, SongListQuery, NoBody, Page<Song>, OptionalSignIn>(
        "songs", .GET, "/v1/songs", "Songs of the library, filtered by artist, album or genre")
    public static let song = Endpoint<IDPath<Song>, NoQuery, NoBody, Song, OptionalSignIn>(
        "song", .GET, "/v1/songs/{id}", "A song with its raw lyric text", resource: "song")
    public static let lyric = Endpoint<IDPath<Song>, NoQuery, NoBody, SongLyric, OptionalSignIn>(
        "lyric", .GET, "/v1/songs/{id}/lyric",
        "A song's lyric as raw text and as parsed lines (and words, for KSC and word-timed LRC)",
        resource: "song")
    public static let stream = Endpoint<IDPath<Song>, StreamQuery, NoBody, AudioFile, OptionalSignIn>(
        "stream", .GET, "/v1/songs/{id}/stream",
        "The song's file, or a live transcode when a format, bit rate or offset is asked", resource: "song",
        refusals: [.outsideRange, .rateLimited, .unavailable])
    public static let songCover = Endpoint<IDPath<Song>, CoverQuery, NoBody, Picture, OptionalSignIn>(
        "songCover", .GET, "/v1/songs/{id}/cover",
        "The song's cover: its embedded picture, else its album's", resource: "song")
    public static let albums = Endpoint<NoPath, AlbumListQuery, NoBody, Page<Album>, OptionalSignIn>(
        "albums", .GET, "/v1/albums", "Albums of the library, optionally of one artist")
    public static let album = Endpoint<IDPath<Album>, NoQuery, NoBody, Album, OptionalSignIn>(
        "album", .GET, "/v1/albums/{id}", "An album with its songs in disc and track order", resource: "album"
    )
    public static let albumCover = Endpoint<IDPath<Album>, CoverQuery, NoBody, Picture, OptionalSignIn>(
        "albumCover", .GET, "/v1/albums/{id}/cover",
        "The album's cover: its folder image, else a song's embedded picture", resource: "album")
    public static let artists = Endpoint<NoPath, ArtistListQuery, NoBody, Page<Artist>, OptionalSignIn>(
        "artists", .GET, "/v1/artists", "Artists of the library")
    public static let artist = Endpoint<IDPath<Artist>, NoQuery, NoBody, Artist, OptionalSignIn>(
        "artist", .GET, "/v1/artists/{id}", "An artist with albums and most played songs", resource: "artist")
    public static let genres = Endpoint<NoPath, GenreListQuery, NoBody, Page<Genre>, OptionalSignIn>(
        "genres", .GET, "/v1/genres", "Genres, those with most songs first")
    public static let search = Endpoint<NoPath, SearchQuery, NoBody, SearchResults, OptionalSignIn>(
        "search", .GET, "/v1/searches", "Songs, albums and artists matching what was typed, best first")
    public static let suggestions = Endpoint<
        NoPath, SuggestionQuery, NoBody, [SearchSuggestion], OptionalSignIn
    >(
        "suggestions", .GET, "/v1/searches/suggests", "Completions while typing")
    public static let scanStatus = Endpoint<NoPath, NoQuery, NoBody, LibraryScanStatus, AdminOrFirstRun>(
        "scanStatus", .GET, "/v1/library/scan", "see whether a library scan runs and what the last one did")
    public static let startScan = Endpoint<NoPath, NoQuery, NoBody, LibraryScanStatus, AdminOrFirstRun>(
        "startScan", .POST, "/v1/library/scan", "start a library scan", status: 202)

    public static let group = APIGroup(
        "catalog", "The library: songs, albums, artists, genres, search, lyrics, covers, streams and scans",
        [
            songs, song, lyric, stream, songCover, albums, album, albumCover, artists, artist, genres, search,
            suggestions, scanStatus, startScan,
        ])
}

/// How catalog lists can be ordered.
public enum CatalogSort: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// `recent` is recently added; `played` is recently played.
    case name, year, recent, plays, played
}

public struct SongListQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var sort = CatalogSort.name
    public var artist: Int64?
    public var album: Int64?
    public var genre: Int64?
    public init() {}
    public init(
        page: Int = 1, size: Int = 20, sort: CatalogSort = .name, artist: String? = nil, album: String? = nil,
        genre: String? = nil
    ) throws {
        paging = Paging(page: page, size: size)
        self.sort = sort
        self.artist = try artist.map { try ID<Never>(validating: $0, field: "artist").rawValue }
        self.album = try album.map { try ID<Never>(validating: $0, field: "album").rawValue }
        self.genre = try genre.map { try ID<Never>(validating: $0, field: "genre").rawValue }
    }
    public static let fields: [ParameterField<Self>] =
        Paging.fields(\.paging) + [
            .choice("sort", \.sort), .id("artist", \.artist, doc: "Only this artist's songs."),
            .id("album", \.album, doc: "Only this album's songs, in disc and track order."),
            .id("genre", \.genre, doc: "Only songs of this genre: its id, as `GET /v1/genres` gives it."),
        ]
}

public struct AlbumListQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var sort = CatalogSort.name
    public var artist: Int64?
    public init() {}
    public init(page: Int = 1, size: Int = 20, sort: CatalogSort = .name, artist: String? = nil) throws {
        paging = Paging(page: page, size: size)
        self.sort = sort
        self.artist = try artist.map { try ID<Never>(validating: $0, field: "artist").rawValue }
    }
    public static let fields: [ParameterField<Self>] =
        Paging.fields(\.paging) + [
            .choice("sort", \.sort), .id("artist", \.artist, doc: "Only this artist's albums."),
        ]
}

public struct ArtistListQuery: APIParameters, Equatable {
    public var paging = Paging()
    public var sort = CatalogSort.name
    public init() {}
    public init(page: Int = 1, size: Int = 20, sort: CatalogSort = .name) {
        paging = Paging(page: page, size: size)
        self.sort = sort
    }
    public static let fields: [ParameterField<Self>] = Paging.fields(\.paging) + [.choice("sort", \.sort)]
}

public struct GenreListQuery: APIParameters, Equatable {
    public var paging = Paging(size: 50)
    public init() {}
    public init(page: Int, size: Int = 50) { paging = Paging(page: page, size: size) }
    public static let fields: [ParameterField<Self>] = Paging.fields(\.paging, maxSize: 500)
}

public struct SearchQuery: APIParameters, Equatable {
    public var text = ""
    public var size = 20
    public init() {}
    public init(_ text: String, size: Int = 20) {
        self.text = text
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .text("q", \.text, maxLength: 100, aliases: ["query"], required: true, doc: "What to look for."),
        .integer("size", \.size, in: 1...100, doc: "At most this many of each kind."),
    ]
}

public struct SuggestionQuery: APIParameters, Equatable {
    public var text = ""
    public var size = 10
    public init() {}
    public init(_ text: String, size: Int = 10) {
        self.text = text
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .text("q", \.text, maxLength: 100, aliases: ["query"], required: true, doc: "What was typed so far."),
        .integer("size", \.size, in: 1...50, doc: "At most this many completions."),
    ]
}

public struct CoverQuery: APIParameters, Equatable {
    public var size = 0
    public init() {}
    public init(size: Int) { self.size = size }
    public static let fields: [ParameterField<Self>] = [
        .integer(
            "size", \.size, in: 0...100_000,
            doc:
                "A square of about this many pixels (snapped up to 64, 128, 256, 512 or 1024); 0 is the original."
        )
    ]
}

/// What a stream is converted to.
public enum StreamFormat: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// The original file, untouched.
    case raw
    case mp3, opus, aac
}

public struct StreamQuery: APIParameters, Equatable {
    public var format = StreamFormat.raw
    public var maxBitRate = 0
    public var timeOffset: Double?
    public init() {}
    public init(format: StreamFormat = .raw, maxBitRate: Int = 0, timeOffset: Double? = nil) {
        self.format = format
        self.maxBitRate = maxBitRate
        self.timeOffset = timeOffset
    }
    public static let fields: [ParameterField<Self>] = [
        .choice("format", \.format, doc: "Convert to this format (`raw` sends the file as it is)."),
        .integer(
            "maxBitRate", \.maxBitRate, in: 0...10_000,
            doc: "Convert at this bit rate in kbit/s (clamped to 32-320); 0 keeps the original."),
        .number("timeOffset", \.timeOffset, in: 0...86_400, doc: "Start this many seconds into the song."),
    ]
}
