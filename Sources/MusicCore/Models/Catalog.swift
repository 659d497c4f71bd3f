/// Catalog models as the v1 API sends them (camelCase, ids as strings, dates as ISO 8601 text).

/// A short reference to an artist inside other models.
public struct ArtistSummary: Codable, Sendable, Equatable, Hashable {
    public var id: String
    public var name: String
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// Who sings a song: its artists as the apps show them ("A / B"), under the first artist's id — an artist
/// id, never a user's. `nickname` repeats `name` for the apps that read a user-shaped `singer`.
public struct Singer: Codable, Sendable, Equatable, Hashable {
    public var id: String
    public var name: String
    public var nickname: String
    public init(id: String, name: String) {
        self.id = id
        self.name = name
        nickname = name
    }
}

/// A short reference to an album inside a song.
public struct AlbumSummary: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var icon: String?
    public init(id: String, title: String, icon: String?) {
        self.id = id
        self.title = title
        self.icon = icon
    }
}

/// A song: what the apps read plus what a library browser needs.
public struct Song: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    /// Cover image path relative to the server root.
    public var icon: String?
    /// Stream path relative to the server root.
    public var uri: String
    /// Lyric format: 10 is KSC, anything else LRC (the apps' rule).
    public var style: Int
    /// The raw lyric text; present on song detail, absent in lists.
    public var lyric: String?
    public var singer: Singer?
    /// Who uploaded the song, for songs people upload; absent for songs of the scanned library.
    public var user: UserSummary?
    public var artists: [ArtistSummary]
    public var album: AlbumSummary?
    public var genres: [String]
    public var trackNumber: Int?
    public var discNumber: Int?
    public var year: Int?
    /// Milliseconds.
    public var duration: Int
    public var format: String
    public var bitRate: Int
    public var sampleRate: Int
    public var channels: Int
    public var clicksCount: Int
    public var commentsCount: Int
    public var playsCount: Int
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, title: String, icon: String?, uri: String, style: Int, lyric: String?, singer: Singer?,
        artists: [ArtistSummary], album: AlbumSummary?, genres: [String], trackNumber: Int?, discNumber: Int?,
        year: Int?, duration: Int, format: String, bitRate: Int, sampleRate: Int, channels: Int,
        clicksCount: Int, commentsCount: Int, playsCount: Int, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.uri = uri
        self.style = style
        self.lyric = lyric
        self.singer = singer
        self.artists = artists
        self.album = album
        self.genres = genres
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.year = year
        self.duration = duration
        self.format = format
        self.bitRate = bitRate
        self.sampleRate = sampleRate
        self.channels = channels
        self.clicksCount = clicksCount
        self.commentsCount = commentsCount
        self.playsCount = playsCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public struct Artist: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var icon: String?
    public var songsCount: Int
    public var albumsCount: Int
    public var createdAt: String
    public var updatedAt: String
    /// Present on artist detail.
    public var albums: [Album]?
    public var songs: [Song]?

    public init(
        id: String, name: String, icon: String?, songsCount: Int, albumsCount: Int, createdAt: String,
        updatedAt: String, albums: [Album]? = nil, songs: [Song]? = nil
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.songsCount = songsCount
        self.albumsCount = albumsCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.albums = albums
        self.songs = songs
    }
}

public struct Album: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var icon: String?
    public var artist: ArtistSummary?
    public var year: Int?
    public var isCompilation: Bool
    public var songsCount: Int
    /// Milliseconds, all songs together.
    public var duration: Int
    public var createdAt: String
    public var updatedAt: String
    /// Present on album detail, in disc and track order.
    public var songs: [Song]?

    public init(
        id: String, title: String, icon: String?, artist: ArtistSummary?, year: Int?, isCompilation: Bool,
        songsCount: Int, duration: Int, createdAt: String, updatedAt: String, songs: [Song]? = nil
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.artist = artist
        self.year = year
        self.isCompilation = isCompilation
        self.songsCount = songsCount
        self.duration = duration
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.songs = songs
    }
}

public struct Genre: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var songsCount: Int
    public init(id: String, name: String, songsCount: Int) {
        self.id = id
        self.name = name
        self.songsCount = songsCount
    }
}

extension Song {
    /// The artists' names as the apps show them ("A / B"), or nil when the song has none.
    public var artistNames: String? {
        artists.isEmpty ? nil : artists.map(\.name).joined(separator: " / ")
    }
}
