/// Answers of the v1 API that have no model of their own elsewhere (search, lyrics, plays, topics...).

/// What `GET v1/searches` answers: matching songs, albums and artists, best first.
public struct SearchResults: Codable, Sendable, Equatable {
    public var songs: [Song]
    public var albums: [Album]
    public var artists: [Artist]

    public init(songs: [Song], albums: [Album], artists: [Artist]) {
        self.songs = songs
        self.albums = albums
        self.artists = artists
    }
}

/// A completion while typing (`GET v1/searches/suggests`).
public struct SearchSuggestion: Codable, Sendable, Equatable {
    public var title: String
    /// `song`, `album` or `artist`.
    public var type: String
    public var id: String

    public init(title: String, type: String, id: String) {
        self.title = title
        self.type = type
        self.id = id
    }
}

/// A song's lyric as `GET v1/songs/{id}/lyric` answers it: the raw text and the parsed lines.
public struct SongLyric: Codable, Sendable, Equatable {
    public var songId: String
    /// 10 for KSC, else LRC.
    public var style: Int
    public var format: LyricFormat
    public var raw: String
    public var tags: [String: String]
    public var lines: [LyricLine]
    public var issues: [LyricIssue]

    public init(
        songId: String, style: Int, format: LyricFormat, raw: String, tags: [String: String],
        lines: [LyricLine],
        issues: [LyricIssue]
    ) {
        self.songId = songId
        self.style = style
        self.format = format
        self.raw = raw
        self.tags = tags
        self.lines = lines
        self.issues = issues
    }

    /// The parsed lyric, for line and word lookups at a time.
    public var lyric: Lyric { Lyric(format: format, tags: tags, lines: lines, issues: issues) }
}

/// What `GET v1/server` answers.
public struct ServerInfo: Codable, Sendable, Equatable {
    public var name: String
    public var version: String
    public var apiVersion: String

    public init(name: String, version: String, apiVersion: String) {
        self.name = name
        self.version = version
        self.apiVersion = apiVersion
    }
}

/// What `POST v1/plays` answers: whether the play counted (the same song within 30 s does not).
public struct PlayReport: Codable, Sendable, Equatable {
    public var counted: Bool
    public init(counted: Bool) { self.counted = counted }
}

/// What `POST v1/codes` answers, in seconds.
public struct CodeSent: Codable, Sendable, Equatable {
    public var expiresIn: Int
    public var resendAfter: Int
    public init(expiresIn: Int, resendAfter: Int) {
        self.expiresIn = expiresIn
        self.resendAfter = resendAfter
    }
}

/// A #topic#'s page (`GET v1/topics/{id}`): the topic, its newest comments and moments.
public struct TopicDetail: Codable, Sendable, Equatable {
    public var topic: Topic
    public var comments: [Comment]
    /// Pass as `cursor` for older comments.
    public var nextCursor: String?
    public var feeds: [Feed]?
    /// Pass as `cursor` to `GET v1/feeds?topicId=` for older moments.
    public var nextFeedsCursor: String?

    public init(
        topic: Topic, comments: [Comment], nextCursor: String?, feeds: [Feed]?, nextFeedsCursor: String?
    ) {
        self.topic = topic
        self.comments = comments
        self.nextCursor = nextCursor
        self.feeds = feeds
        self.nextFeedsCursor = nextFeedsCursor
    }
}

/// What `POST v1/sheets/import` answers: the new sheet and the playlist entries that matched no song.
public struct SheetImport: Codable, Sendable, Equatable {
    public var sheet: Sheet
    public var matched: Int
    public var unmatched: [String]

    public init(sheet: Sheet, matched: Int, unmatched: [String]) {
        self.sheet = sheet
        self.matched = matched
        self.unmatched = unmatched
    }
}

/// A reported comment as administrators see it (`GET v1/admin/reports`).
public struct CommentReport: Codable, Sendable, Equatable {
    public var comment: Comment
    public var hidden: Bool
    public var reportsCount: Int
    public var reasons: [String]
    public var lastReportedAt: String

    public init(comment: Comment, hidden: Bool, reportsCount: Int, reasons: [String], lastReportedAt: String)
    {
        self.comment = comment
        self.hidden = hidden
        self.reportsCount = reportsCount
        self.reasons = reasons
        self.lastReportedAt = lastReportedAt
    }
}

/// Whether a library scan runs, how far it got, and what the last one did (`GET v1/library/scan`).
public struct LibraryScanStatus: Codable, Sendable, Equatable {
    public var running: Bool
    public var progress: ScanProgress?
    public var lastReport: ScanReport?
    /// The music folders; administrators only see them (others get an empty list).
    public var folders: [String]

    public init(running: Bool, progress: ScanProgress?, lastReport: ScanReport?, folders: [String]) {
        self.running = running
        self.progress = progress
        self.lastReport = lastReport
        self.folders = folders
    }
}

/// What a scan did, as stored in `scan_reports` and shown by the API and the command line.
public struct ScanReport: Codable, Sendable, Equatable {
    public struct Issue: Codable, Sendable, Equatable {
        public var path: String
        public var reason: String
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }
    public var id: String
    /// `running`, `complete` or `interrupted`.
    public var state: String
    public var startedAt: String
    public var finishedAt: String?
    public var filesSeen: Int
    public var added: Int
    public var updated: Int
    public var moved: Int
    public var removed: Int
    public var unchanged: Int
    public var failed: Int
    public var issues: [Issue]

    public init(
        id: String, state: String, startedAt: String, finishedAt: String?, filesSeen: Int, added: Int,
        updated: Int, moved: Int, removed: Int, unchanged: Int, failed: Int, issues: [Issue]
    ) {
        self.id = id
        self.state = state
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.filesSeen = filesSeen
        self.added = added
        self.updated = updated
        self.moved = moved
        self.removed = removed
        self.unchanged = unchanged
        self.failed = failed
        self.issues = issues
    }
}

/// Where a running scan is.
public struct ScanProgress: Sendable, Equatable, Codable {
    /// `starting`, `walking`, `reading` or `finishing`.
    public var phase: String
    public var filesSeen: Int
    public var toRead: Int
    public var read: Int

    public init(phase: String, filesSeen: Int, toRead: Int, read: Int) {
        self.phase = phase
        self.filesSeen = filesSeen
        self.toRead = toRead
        self.read = read
    }
}
