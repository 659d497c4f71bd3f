/// The parameters of the methods `SubsonicAPI` declares, one struct per shape.

/// The most items a list method returns (`size`, `count`): the spec's 500.
public let subsonicMaxListSize = 500
/// The most a search lists of each kind; an app syncing a library asks for more and gets this many a page.
public let subsonicMaxSearchCount = 50_000
private let maxOffset = Int(Int32.max)

/// Which kind of thing an `ItemParameters` id names.
public protocol SubsonicItemKind: Sendable {
    static var kind: SubsonicIDKind { get }
}

public enum ArtistItem: SubsonicItemKind { public static var kind: SubsonicIDKind { .artist } }
public enum AlbumItem: SubsonicItemKind { public static var kind: SubsonicIDKind { .album } }
public enum SongItem: SubsonicItemKind { public static var kind: SubsonicIDKind { .song } }
public enum PlaylistItem: SubsonicItemKind { public static var kind: SubsonicIDKind { .playlist } }
public enum RadioItem: SubsonicItemKind { public static var kind: SubsonicIDKind { .radio } }
public enum PodcastChannelItem: SubsonicItemKind {
    public static var kind: SubsonicIDKind { .podcastChannel }
}
public enum PodcastEpisodeItem: SubsonicItemKind {
    public static var kind: SubsonicIDKind { .podcastEpisode }
}

/// One required `id` of one kind: `getAlbum?id=al-7`.
public struct ItemParameters<Kind: SubsonicItemKind>: SubsonicParameterSet {
    /// The CloudMusic id (`7` of `al-7`).
    public var id: Int64 { item.value }
    var item = SubsonicID(Kind.kind, 0)
    public init() {}
    public static var fields: [SubsonicField<Self>] { [.id("id", \.item, [Kind.kind], required: true)] }
}

/// `musicFolderId`: only this music folder (the library is folder 1).
public struct FolderParameters: SubsonicParameterSet {
    public var musicFolderId: Int?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [folder(\.musicFolderId)]
}

func folder<Root>(_ keyPath: WritableKeyPath<Root, Int?>) -> SubsonicField<Root> {
    .integer(
        "musicFolderId", keyPath, 0...Int(Int32.max), "Only this music folder (the library is folder 1).")
}

public struct IndexesParameters: SubsonicParameterSet {
    public var musicFolderId: Int?
    public var ifModifiedSince: Int64?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        folder(\.musicFolderId),
        .integer64(
            "ifModifiedSince", \.ifModifiedSince, 0...Int64.max,
            "Milliseconds; nothing listed when unchanged since."),
    ]
}

public struct DirectoryParameters: SubsonicParameterSet {
    public var id = SubsonicID(.artist, 0)
    public init() {}
    public static let fields: [SubsonicField<Self>] = [.id("id", \.id, [.artist, .album], required: true)]
}

public struct ArtistInfoParameters: SubsonicParameterSet {
    public var id = SubsonicID(.artist, 0)
    public var count = 20
    public var includeNotPresent: Bool?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("id", \.id, [.song, .album, .artist], required: true, "An artist (or an album or song of it)."),
        .clamped("count", \.count, 0...subsonicMaxListSize, "How many similar artists (20 by default)."),
        .flag("includeNotPresent", \.includeNotPresent, "Accepted; only artists of the library are known."),
    ]
}

public struct AlbumInfoParameters: SubsonicParameterSet {
    public var id = SubsonicID(.album, 0)
    public init() {}
    public static let fields: [SubsonicField<Self>] = [.id("id", \.id, [.album, .song], required: true)]
}

public struct SimilarSongsParameters: SubsonicParameterSet {
    public var id = SubsonicID(.artist, 0)
    public var count = 50
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("id", \.id, [.song, .album, .artist], required: true, "An artist, album or song."),
        .clamped("count", \.count, 0...subsonicMaxListSize, "How many (50 by default, at most 500)."),
    ]
}

public struct TopSongsParameters: SubsonicParameterSet {
    public var artist: String?
    public var id: SubsonicID?
    public var count = 50
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text("artist", \.artist, maxLength: 200, "The artist's name (or give id)."),
        .id("id", \.id, [.artist], "The artist (topSongsByArtistId); wins over artist."),
        .clamped("count", \.count, 0...subsonicMaxListSize, "How many (50 by default, at most 500)."),
    ]
}

/// What `getAlbumList` and `getAlbumList2` list.
public enum AlbumListType: String, Sendable, CaseIterable {
    case random, newest, highest, frequent, recent, alphabeticalByName, alphabeticalByArtist, starred, byYear
    case byGenre
}

public struct AlbumListParameters: SubsonicParameterSet {
    public var type = AlbumListType.newest
    public var size = 10
    public var offset = 0
    public var fromYear: Int?
    public var toYear: Int?
    public var genre: String?
    public var musicFolderId: Int?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .choice("type", \.type, required: true, "Which albums: newest, random, byYear, byGenre..."),
        .clamped("size", \.size, 0...subsonicMaxListSize, "How many (10 by default, at most 500)."),
        .clamped("offset", \.offset, 0...maxOffset, "How many to skip."),
        .integer(
            "fromYear", \.fromYear, -9_999...9_999,
            "First year (byYear; later than toYear lists newest first)."),
        .integer("toYear", \.toYear, -9_999...9_999, "Last year (byYear)."),
        .text("genre", \.genre, maxLength: 200, "The genre (byGenre)."),
        folder(\.musicFolderId),
    ]
}

public struct RandomSongsParameters: SubsonicParameterSet {
    public var size = 10
    public var genre: String?
    public var fromYear: Int?
    public var toYear: Int?
    public var musicFolderId: Int?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .clamped("size", \.size, 0...subsonicMaxListSize, "How many (10 by default, at most 500)."),
        .text("genre", \.genre, maxLength: 200), .integer("fromYear", \.fromYear, -9_999...9_999),
        .integer("toYear", \.toYear, -9_999...9_999), folder(\.musicFolderId),
    ]
}

public struct SongsByGenreParameters: SubsonicParameterSet {
    public var genre = ""
    public var count = 10
    public var offset = 0
    public var musicFolderId: Int?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text("genre", \.genre, maxLength: 200, required: true),
        .clamped("count", \.count, 0...subsonicMaxListSize, "How many (10 by default, at most 500)."),
        .clamped("offset", \.offset, 0...maxOffset), folder(\.musicFolderId),
    ]
}

public struct SearchParameters: SubsonicParameterSet {
    public var query: String?
    public var artistCount = 20
    public var artistOffset = 0
    public var albumCount = 20
    public var albumOffset = 0
    public var songCount = 20
    public var songOffset = 0
    public var musicFolderId: Int?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text(
            "query", \.query, maxLength: 200,
            "What to look for; empty (or \"\") lists everything, page by page."),
        .clamped(
            "artistCount", \.artistCount, 0...subsonicMaxSearchCount, "How many artists (20 by default)."),
        .clamped("artistOffset", \.artistOffset, 0...maxOffset),
        .clamped("albumCount", \.albumCount, 0...subsonicMaxSearchCount, "How many albums (20 by default)."),
        .clamped("albumOffset", \.albumOffset, 0...maxOffset),
        .clamped("songCount", \.songCount, 0...subsonicMaxSearchCount, "How many songs (20 by default)."),
        .clamped("songOffset", \.songOffset, 0...maxOffset),
        folder(\.musicFolderId),
    ]
}

public struct PlaylistsParameters: SubsonicParameterSet {
    public var username: String?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text("username", \.username, maxLength: 256, "Another person's public sheets (administrators).")
    ]
}

public struct CreatePlaylistParameters: SubsonicParameterSet {
    public var playlistId: SubsonicID?
    public var name: String?
    public var songId: [SubsonicID] = []
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("playlistId", \.playlistId, [.playlist], "The sheet whose songs to replace."),
        .text("name", \.name, maxLength: 100, "The new sheet's title."),
        .ids("songId", \.songId, [.song], "Its songs in order (a sheet holds a song once)."),
    ]
}

public struct UpdatePlaylistParameters: SubsonicParameterSet {
    public var playlistId = SubsonicID(.playlist, 0)
    public var name: String?
    public var comment: String?
    public var isPublic: Bool?
    public var songIdToAdd: [SubsonicID] = []
    public var songIndexToRemove: [Int64] = []
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("playlistId", \.playlistId, [.playlist], required: true), .text("name", \.name, maxLength: 100),
        .text("comment", \.comment, maxLength: 2_000), .flag("public", \.isPublic),
        .ids("songIdToAdd", \.songIdToAdd, [.song]),
        .integers("songIndexToRemove", \.songIndexToRemove, 0...Int64(Int32.max), "0-based, before adding."),
    ]
}

public struct StreamParameters: SubsonicParameterSet {
    public var id = SubsonicID(.song, 0)
    public var maxBitRate = 0
    public var format: String?
    public var timeOffset = 0
    public var size: String?
    public var estimateContentLength: Bool?
    public var converted: Bool?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id(
            "id", \.id, [.song, .podcastEpisode], required: true,
            "A song, or a podcast episode (its audio as is)."),
        .clamped(
            "maxBitRate", \.maxBitRate, 0...Int(Int32.max), "kbit/s; a file above it is converted (32-320)."),
        .text("format", \.format, maxLength: 16, "raw, mp3, opus or aac (also ogg, m4a)."),
        .clamped("timeOffset", \.timeOffset, 0...86_400, "Start this many seconds in (transcodeOffset)."),
        .text("size", \.size, maxLength: 32, "Video only; ignored."),
        .flag(
            "estimateContentLength", \.estimateContentLength,
            "A transcode is sent with a Content-Length estimated from its duration and bit rate."),
        .flag("converted", \.converted, "Video only; ignored."),
    ]
}

public struct CoverArtParameters: SubsonicParameterSet {
    public var id = ""
    public var size = 0
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text(
            "id", \.id, maxLength: 64, required: true, "A coverArt value; entity ids and pl-pl-5 work too."),
        .clamped("size", \.size, 0...100_000, "About this many pixels square (snapped to 64-1024)."),
    ]
}

public struct LyricsParameters: SubsonicParameterSet {
    public var artist: String?
    public var title: String?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text("artist", \.artist, maxLength: 200), .text("title", \.title, maxLength: 200),
    ]
}

public struct SongLyricsParameters: SubsonicParameterSet {
    public var id = SubsonicID(.song, 0)
    public var enhanced: Bool?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("id", \.id, [.song], required: true),
        .flag("enhanced", \.enhanced, "songLyrics version 2: kind and cueLine."),
    ]
}

public struct UsernameParameters: SubsonicParameterSet {
    public var username = ""
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text("username", \.username, maxLength: 256, required: true)
    ]
}

public struct StarParameters: SubsonicParameterSet {
    public var id: [SubsonicID] = []
    public var albumId: [SubsonicID] = []
    public var artistId: [SubsonicID] = []
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .ids("id", \.id, [.song, .album, .artist], "Songs (\"I like\"), albums or artists (favourites)."),
        .ids("albumId", \.albumId, [.album]), .ids("artistId", \.artistId, [.artist]),
    ]
}

public struct RatingParameters: SubsonicParameterSet {
    public var id = SubsonicID(.song, 0)
    public var rating = 0
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("id", \.id, [.song, .album, .artist], required: true),
        .integer("rating", \.rating, 0...5, required: true),
    ]
}

public struct ScrobbleParameters: SubsonicParameterSet {
    public var id: [SubsonicID] = []
    public var time: [Int64] = []
    public var submission: Bool?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .ids(
            "id", \.id, [.song, .podcastEpisode], required: true, "Songs; a podcast episode is marked played."
        ),
        .integers("time", \.time, 0...Int64.max, "Milliseconds since 1970, one per id."),
        .flag("submission", \.submission),
    ]
}

public struct BookmarkParameters: SubsonicParameterSet {
    public var id = SubsonicID(.song, 0)
    public var position: Int64?
    public var comment: String?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id(
            "id", \.id, [.song, .podcastEpisode], required: true, "A song, or an episode (one's place in it)."
        ),
        .integer64("position", \.position, 0...Int64.max, required: true, "Milliseconds."),
        .text("comment", \.comment, maxLength: 500),
    ]
}

/// `deleteBookmark`'s one `id`: a song's bookmark, or one's place in an episode.
public struct DeleteBookmarkParameters: SubsonicParameterSet {
    public var id = SubsonicID(.song, 0)
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id(
            "id", \.id, [.song, .podcastEpisode], required: true, "A song, or an episode (one's place in it)."
        )
    ]
}

public struct SavePlayQueueParameters: SubsonicParameterSet {
    public var id: [SubsonicID] = []
    public var current: SubsonicID?
    public var position: Int64?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .ids("id", \.id, [.song]), .id("current", \.current, [.song], "The playing song (one of id)."),
        .integer64("position", \.position, 0...Int64.max, "Milliseconds into the current song."),
    ]
}

public struct SavePlayQueueByIndexParameters: SubsonicParameterSet {
    public var id: [SubsonicID] = []
    public var currentIndex: Int64?
    public var position: Int64?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .ids("id", \.id, [.song]),
        .integer64(
            "currentIndex", \.currentIndex, Int64(Int32.min)...Int64(Int32.max), "0-based; required with id."),
        .integer64("position", \.position, 0...Int64.max, "Milliseconds into the current song."),
    ]
}

public struct NewRadioStationParameters: SubsonicParameterSet {
    public var streamUrl = ""
    public var name = ""
    public var homepageUrl: String?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text("streamUrl", \.streamUrl, maxLength: 2_000, required: true, "An http or https address."),
        .text("name", \.name, maxLength: 100, required: true),
        .text("homepageUrl", \.homepageUrl, maxLength: 2_000),
    ]
}

public struct RadioStationChangeParameters: SubsonicParameterSet {
    public var id = SubsonicID(.radio, 0)
    public var streamUrl = ""
    public var name = ""
    public var homepageUrl: String?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("id", \.id, [.radio], required: true),
        .text("streamUrl", \.streamUrl, maxLength: 2_000, required: true, "An http or https address."),
        .text("name", \.name, maxLength: 100, required: true),
        .text("homepageUrl", \.homepageUrl, maxLength: 2_000),
    ]
}

public struct ScanParameters: SubsonicParameterSet {
    public var fullScan: Bool?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .flag("fullScan", \.fullScan, "Accepted; scans are incremental.")
    ]
}

/// `download`: a song's file, or a podcast episode's audio.
public struct DownloadParameters: SubsonicParameterSet {
    public var id = SubsonicID(.song, 0)
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .id("id", \.id, [.song, .podcastEpisode], required: true, "A song or a podcast episode.")
    ]
}

/// `getPodcasts`: every podcast, or one, with their episodes unless `includeEpisodes=false`.
public struct PodcastsParameters: SubsonicParameterSet {
    public var includeEpisodes: Bool?
    public var id: SubsonicID?
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .flag("includeEpisodes", \.includeEpisodes, "false lists the channels alone (true by default)."),
        .id("id", \.id, [.podcastChannel], "Only this podcast (pc-3)."),
    ]
}

public struct NewestPodcastsParameters: SubsonicParameterSet {
    public var count = 20
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .clamped("count", \.count, 0...subsonicMaxListSize, "How many episodes (20 by default, at most 500).")
    ]
}

public struct CreatePodcastChannelParameters: SubsonicParameterSet {
    public var url = ""
    public init() {}
    public static let fields: [SubsonicField<Self>] = [
        .text(
            "url", \.url, maxLength: 2_000, required: true, "The feed's address (RSS or Atom, http or https)."
        )
    ]
}
