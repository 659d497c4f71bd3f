/// Each person's music as the v1 API sends it: sheets (playlists), play history and the play queue.

/// Who made something (or sings it), as other people may see it.
public struct UserSummary: Codable, Sendable, Equatable {
    public var id: String
    public var nickname: String
    public var icon: String?
    public init(id: String, nickname: String, icon: String?) {
        self.id = id
        self.nickname = nickname
        self.icon = icon
    }
}

/// A sheet (playlist). Every user has one "I like" sheet (`kind` "likes") from the start.
public struct Sheet: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    /// The uploaded cover, else the first song's cover, else nil.
    public var icon: String?
    public var detail: String?
    public var tags: [String]
    /// Private sheets are seen by their owner only.
    public var isPrivate: Bool
    /// `sheet`, or `likes` for the owner's "I like" sheet.
    public var kind: String
    public var clicksCount: Int
    public var collectsCount: Int
    public var commentsCount: Int
    public var songsCount: Int
    public var user: UserSummary
    /// Whether the viewer has collected it; nil when nobody is signed in.
    public var collected: Bool?
    /// The first page of songs, on sheet detail only.
    public var songs: [Song]?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, title: String, icon: String?, detail: String?, tags: [String], isPrivate: Bool,
        kind: String,
        clicksCount: Int, collectsCount: Int, commentsCount: Int, songsCount: Int, user: UserSummary,
        collected: Bool?, songs: [Song]? = nil, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.detail = detail
        self.tags = tags
        self.isPrivate = isPrivate
        self.kind = kind
        self.clicksCount = clicksCount
        self.collectsCount = collectsCount
        self.commentsCount = commentsCount
        self.songsCount = songsCount
        self.user = user
        self.collected = collected
        self.songs = songs
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// How the player moves on when a song ends (the apps' loop modes).
public enum LoopMode: String, Codable, Sendable, CaseIterable {
    case list, single, shuffle
}

/// A saved play queue, so playback can move between devices.
public struct PlayQueue: Codable, Sendable, Equatable {
    public var songIds: [String]
    /// Index into `songIds` of the current song, or nil.
    public var currentIndex: Int?
    /// Milliseconds into the current song.
    public var position: Int
    public var loopMode: LoopMode
    /// Grows by one with every save; send it back as `baseVersion` to refuse overwriting a newer queue.
    public var version: Int
    public var updatedAt: String?

    public init(
        songIds: [String], currentIndex: Int?, position: Int, loopMode: LoopMode, version: Int,
        updatedAt: String?
    ) {
        self.songIds = songIds
        self.currentIndex = currentIndex
        self.position = position
        self.loopMode = loopMode
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// One song in a person's play history.
public struct PlayedSong: Codable, Sendable, Equatable {
    public var song: Song
    /// How many times this person played it.
    public var playsCount: Int
    public var lastPlayedAt: String

    public init(song: Song, playsCount: Int, lastPlayedAt: String) {
        self.song = song
        self.playsCount = playsCount
        self.lastPlayedAt = lastPlayedAt
    }
}
