/// Audiobooks: the books of the server's audiobooks folder (one folder of parts, or one .m4b file, per book),
/// kept as podcasts of the kind `audiobook` (`GET /v1/podcasts?kind=audiobook`), so their album pages,
/// subscriptions, progress and continue listening are the podcasts'. These are what only books have.
public enum AudiobooksAPI {
    public static let cover = Endpoint<IDPath<Podcast>, CoverQuery, NoBody, Picture, OptionalSignIn>(
        "cover", .GET, "/v1/audiobooks/{id}/cover",
        "The book's cover: a cover.jpg or folder.jpg beside its parts, else the picture embedded in its first part",
        resource: "audiobook")
    public static let chapters = Endpoint<
        IDPath<PodcastEpisode>, NoQuery, NoBody, EpisodeChapters, OptionalSignIn
    >(
        "chapters", .GET, "/v1/audiobooks/parts/{id}/chapters",
        "A part's chapters, in order: those of its MP4 chapter atoms (Nero or QuickTime), else the part itself as "
            + "one chapter",
        resource: "episode")
    public static let scan = Endpoint<NoPath, NoQuery, NoBody, AudiobookScanReport, Admin>(
        "scan", .POST, "/v1/audiobooks/scan",
        "scan the audiobooks folder now: new books added, changed ones read again, removed ones deleted (with "
            + "their progress); waits for a scan already running",
        refusals: [.unavailable])

    public static let deleted = Endpoint<NoPath, NoQuery, NoBody, [DeletedAudiobook], Admin>(
        "deleted", .GET, "/v1/audiobooks/deleted",
        "the books an administrator deleted (`DELETE /v1/podcasts/{id}`), the last deleted first: scans leave "
            + "them out until their files change or they are restored")
    public static let restore = Endpoint<
        IDPath<DeletedAudiobook>, NoQuery, NoBody, AudiobookScanReport, Admin
    >(
        "restore", .POST, "/v1/audiobooks/deleted/{id}/restore",
        "bring a deleted book back: it is forgotten as deleted and the folder is scanned at once (its progress "
            + "was deleted with it)",
        resource: "deleted audiobook", refusals: [.unavailable])

    public static let group = APIGroup(
        "audiobooks", "Audiobooks: books of the server's folder, kept as podcasts of the kind audiobook",
        [cover, chapters, scan, deleted, restore])
}

/// What a scan of the audiobooks folder did.
public struct AudiobookScanReport: Codable, Sendable, Equatable {
    public var added: Int
    public var updated: Int
    public var removed: Int
    public var unchanged: Int
    /// Books left out because an administrator deleted them and their files have not changed since.
    public var deleted: Int
    /// Books or files that could not be read (a damaged file, a link out of the folder), with the reason.
    public var failed: [String]

    public init(added: Int, updated: Int, removed: Int, unchanged: Int, deleted: Int = 0, failed: [String]) {
        self.added = added
        self.updated = updated
        self.removed = removed
        self.unchanged = unchanged
        self.deleted = deleted
        self.failed = failed
    }
}

/// A book an administrator deleted, which scans leave out while its files are as they were.
public struct DeletedAudiobook: Codable, Sendable, Equatable, Identifiable {
    /// The deletion's id (`POST /v1/audiobooks/deleted/{id}/restore`), not the book's.
    public var id: String
    /// The book's folder or file inside the audiobooks folder.
    public var path: String
    public var title: String
    public var deletedAt: String

    public init(id: String, path: String, title: String, deletedAt: String) {
        self.id = id
        self.path = path
        self.title = title
        self.deletedAt = deletedAt
    }
}
